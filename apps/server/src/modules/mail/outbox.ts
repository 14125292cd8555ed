import { isAdminLike, MAIL_MSG, type MailOutboxQuery } from '@sigaf/contract';
import type { AuthUser } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import type { TicketAccess } from '../tickets/access.js';
import type { MailRepository } from './repository.js';

/**
 * The outbox as a caller may read it (docs/usage/correo.md#bandeja-de-salida): operators their own
 * messages, administrators and developers all; the ticket a message is filed on only when the
 * caller may open it (TicketAccess), so the outbox never names another operator's ticket.
 */
export class MailOutbox {
  constructor(
    private readonly repo: MailRepository,
    private readonly access: TicketAccess,
  ) {}

  /** A page of the outbox; filtering by a ticket asks TicketAccess first, like opening it. */
  async list(q: MailOutboxQuery, actor: AuthUser) {
    if (q.ticket_id) await this.access.assert(actor, [q.ticket_id], 'skip');
    const page = await this.repo.listMessages({
      ...q,
      createdBy: isAdminLike(actor.role) ? undefined : actor.id,
    });
    return { ...page, rows: page.rows.map((r) => this.openable(r, actor)) };
  }

  /** One message: its sender's, or any for administrators and developers; another's is the same 404 as one that does not exist. */
  async message(id: number, actor: AuthUser) {
    const row = await this.repo.findMessage(id);
    if (!row || (!isAdminLike(actor.role) && row.created_by !== actor.id))
      throw notFound(MAIL_MSG.messageNotFound);
    return this.openable(row, actor);
  }

  /** The message without its ticket when the caller may not open that ticket. */
  private openable<
    T extends {
      ticket_id: number | null;
      ticket_code: string | null;
      ticket_assigned_id: number | null;
      ticket_creator_id: number | null;
    },
  >(row: T, actor: AuthUser): T {
    // A creator of 0: the ticket row is gone, no one's.
    if (
      row.ticket_id === null ||
      this.access.allowed(actor, [
        { user_assigned_id: row.ticket_assigned_id, user_create_id: row.ticket_creator_id ?? 0 },
      ]).length
    )
      return row;
    return { ...row, ticket_id: null, ticket_code: null };
  }
}
