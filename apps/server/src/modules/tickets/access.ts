import { isAdminLike, mayTouchTicket as mayWork, TICKET_MSG } from '@sigaf/contract';
import type { AuthUser } from '../../http/auth.js';
import { forbidden, notFound } from '../../http/errors.js';
import type { TicketRepository } from './repository.js';

/** Who a ticket belongs to. */
export interface TicketOwners {
  user_assigned_id: number | null;
  user_create_id: number;
}

/**
 * The one rule for a single ticket (docs/development/permissions.md; SECURITY.md): administrators and
 * developers may read and change every ticket; an operator only the tickets assigned to them or
 * created by them. Every route that takes a ticket, a contact attempt, an edit lock or a mail of a
 * ticket asks here (TicketAccess), so lists, single records and changes follow the same rule.
 */
export function mayTouchTicket(
  actor: Pick<AuthUser, 'id' | 'role'>,
  ticket: TicketOwners,
): boolean {
  return mayWork(actor, { assignedId: ticket.user_assigned_id, creatorId: ticket.user_create_id });
}

/** The operator an attempt list or export is narrowed to (their own tickets), or undefined for everyone. */
export const ownerScope = (actor: Pick<AuthUser, 'id' | 'role'>): number | undefined =>
  isAdminLike(actor.role) ? undefined : actor.id;

/** Applies `mayTouchTicket` to tickets by id: 404 for a missing one, 403 for one that is not the caller's. */
export class TicketAccess {
  constructor(private readonly repo: TicketRepository) {}

  /**
   * Checks every ticket in one query and returns the rows of those that exist (with their active
   * edit lock). `missing` says what an unknown id is (404 by default; callers with field errors pass 'skip').
   */
  async assert(actor: AuthUser, ticketIds: number[], missing: 'notFound' | 'skip' = 'notFound') {
    if (!ticketIds.length) return [];
    const rows = await this.repo.owners([...new Set(ticketIds)]);
    if (missing === 'notFound' && rows.length < new Set(ticketIds).size)
      throw notFound(TICKET_MSG.notFound);
    if (rows.some((r) => !mayTouchTicket(actor, r))) throw forbidden(TICKET_MSG.notYours);
    return rows;
  }

  /** Of rows already read, those whose ticket the caller may touch, in their order. */
  allowed<T extends TicketOwners>(actor: Pick<AuthUser, 'id' | 'role'>, rows: T[]): T[] {
    return rows.filter((r) => mayTouchTicket(actor, r));
  }

  /** `assert` for a row already read. */
  check(actor: AuthUser, ticket: TicketOwners): void {
    if (!mayTouchTicket(actor, ticket)) throw forbidden(TICKET_MSG.notYours);
  }

  /**
   * `check` for a record whose existence another operator must not learn (a reminder, the ticket a
   * new one names): the row when the caller may touch its ticket; otherwise `missing()`, the very
   * answer given when there is no row at all.
   */
  visible<T extends TicketOwners>(actor: AuthUser, row: T | undefined, missing: () => Error): T {
    if (!row || !mayTouchTicket(actor, row)) throw missing();
    return row;
  }
}
