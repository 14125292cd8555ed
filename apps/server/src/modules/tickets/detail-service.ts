import {
  chileDateTime,
  FORM_MSG,
  isAdminLike,
  TICKET_MSG,
  type FieldErrors,
  type ListQuery,
  type TicketDetailCreateInput,
  type TicketDetailUpdateInput,
  type AttemptDirection,
  type AttemptMedium,
} from '@sigaf/contract';
import type { AuthUser } from '../../http/auth.js';
import type { Database } from '../../db/database.js';
import type { TicketDetailRepository } from './detail-repository.js';
import type { TicketLockRepository } from './lock-repository.js';
import type { TicketRepository } from './repository.js';
import { forbidden, notFound } from '../../http/errors.js';
import { lockedError, type Change, TicketService } from './service.js';
import { ownerScope } from './access.js';

/** Contact attempts. */
export class TicketDetailService {
  constructor(
    private readonly db: Database,
    private readonly repo: TicketDetailRepository,
    private readonly tickets: TicketRepository,
    private readonly ticketService: TicketService,
    private readonly locks: TicketLockRepository,
  ) {}

  /** Attempts, of the caller's own tickets unless administrator or developer. */
  list(q: ListQuery & { ticketId?: number }, actor: AuthUser) {
    return this.repo.list({ ...q, ownerId: ownerScope(actor) });
  }

  async get(id: number) {
    const row = await this.repo.findById(id);
    if (!row) throw notFound();
    return row;
  }

  /** One attempt, of a ticket the caller may touch. */
  async getFor(id: number, actor: AuthUser) {
    const row = await this.get(id);
    await this.ticketService.access.assert(actor, [row.ticket_id]);
    return row;
  }

  async ofTicket(ticketId: number, q: ListQuery, actor: AuthUser) {
    await this.ticketService.getFor(ticketId, actor);
    return this.repo.list({ ...q, ticketId });
  }

  ofTickets(ticketIds: number[]) {
    return this.repo.ofTickets(ticketIds);
  }

  private async assertUnlocked(ticketIds: number[], actor: AuthUser) {
    const other = (await this.locks.activeOn(ticketIds)).find((l) => l.user_id !== actor.id);
    if (other) throw lockedError(other);
  }

  async create(input: TicketDetailCreateInput, actor: AuthUser) {
    const [row] = await this.createMany({ ...input, ticket_id: [input.ticket_id] }, actor);
    return row!;
  }

  /** The same attempt on many tickets (the massive flow), in one transaction; the creator is the caller. */
  async createMany(
    input: {
      ticket_id: number[];
      status_detail_ticket_id: number;
      comment: string;
      medium?: AttemptMedium;
      direction?: AttemptDirection;
    },
    actor: AuthUser,
  ) {
    // The tickets (with their active edit locks) and the outcome are read at once; a ticket not the
    // caller's is a 403, then field errors (422) come before someone else's lock (409).
    const [owned, looked] = await Promise.all([
      this.ticketService.access.assert(actor, input.ticket_id, 'skip'),
      this.ticketService.lookupRefs({ status_detail_ticket_id: input.status_detail_ticket_id }),
    ]);
    const existing = new Set(owned.map((t) => t.id));
    const lock = owned.find((t) => t.lock_user_id !== null && t.lock_user_id !== actor.id);
    const missing = input.ticket_id.filter((id) => !existing.has(id));
    const errors: FieldErrors = missing.length
      ? {
          ticket_id: [
            input.ticket_id.length === 1
              ? FORM_MSG.option
              : `No existen los tickets: ${missing.join(', ')}.`,
          ],
        }
      : {};
    const refs = this.ticketService.checkRefs(
      { status_detail_ticket_id: input.status_detail_ticket_id },
      looked,
      errors,
    );
    if (lock)
      throw lockedError({
        user_id: lock.lock_user_id!,
        user_name: lock.lock_user_name ?? '',
        created_at: lock.lock_created_at!,
      });
    const changes = {
      statusDetailTicket: [null, refs.detailStatus!.description],
      comment: [null, input.comment],
    };
    return this.repo.addAttempts({
      ticketIds: input.ticket_id,
      userId: actor.id,
      statusDetailId: input.status_detail_ticket_id,
      comment: input.comment,
      medium: input.medium ?? null,
      direction: input.direction ?? null,
      changes,
    });
  }

  /** Corrects an attempt: its author or an administrator/developer, recorded in the history. */
  async update(id: number, input: TicketDetailUpdateInput, actor: AuthUser) {
    const row = await this.getFor(id, actor);
    if (row.user_created_id !== actor.id && !isAdminLike(actor.role))
      throw forbidden(TICKET_MSG.detailEditForbidden);
    await this.assertUnlocked([row.ticket_id], actor);
    const refs = await this.ticketService.resolve({
      status_detail_ticket_id: input.status_detail_ticket_id,
    });
    const values: { status_detail_ticket_id?: number; comment?: string } = {};
    const changes: Record<string, Change> = {};
    if (
      input.status_detail_ticket_id !== undefined &&
      input.status_detail_ticket_id !== row.status_detail_ticket_id
    ) {
      values.status_detail_ticket_id = input.status_detail_ticket_id;
      changes.statusDetailTicket = [row.status_description, refs.detailStatus!.description];
    }
    if (input.comment !== undefined && input.comment !== row.comment) {
      values.comment = input.comment;
      changes.comment = [row.comment, input.comment];
    }
    if (Object.keys(values).length) {
      await this.db.transaction().execute(async (trx) => {
        await this.repo.update(id, values, trx);
        await this.tickets.addHistory(
          [{ ticketId: row.ticket_id, userId: actor.id, action: 'update_attempt', changes }],
          trx,
        );
      });
    }
    return this.get(id);
  }

  /** Deletes an attempt (administrators and developers; the route says so), kept in the ticket's history. */
  async remove(id: number, actor: AuthUser) {
    const row = await this.get(id);
    await this.db.transaction().execute(async (trx) => {
      await this.repo.delete(id, trx);
      await this.tickets.addHistory(
        [
          {
            ticketId: row.ticket_id,
            userId: actor.id,
            action: 'delete_attempt',
            changes: {
              statusDetailTicket: [row.status_description, null],
              comment: [row.comment, null],
              registeredBy: [row.user_name, null],
              registeredAt: [chileDateTime(row.created_at), null],
            },
          },
        ],
        trx,
      );
      await this.tickets.touch([row.ticket_id], trx);
    });
  }
}
