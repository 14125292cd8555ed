import {
  isAdminLike,
  REMINDER_MSG,
  type Reminder,
  type ReminderCreate,
  type ReminderListQuery,
  type ReminderUpdate,
} from '@sigaf/contract';
import type { AuthUser } from '../../http/auth.js';
import { conflict, forbidden, invalid, notFound } from '../../http/errors.js';
import type { AuditRepository } from '../audit/repository.js';
import { mayTouchTicket, type TicketAccess, type TicketOwners } from '../tickets/access.js';
import type { TicketRepository } from '../tickets/repository.js';
import type { UserRepository } from '../users/repository.js';
import type { ReminderRepository, ReminderRow } from './repository.js';

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export function presentReminder(r: ReminderRow, now = Date.now()): Reminder {
  const dueAt = new Date(r.due_at).toISOString();
  return {
    id: r.id,
    ticketId: r.ticket_id,
    ticketCode: r.ticket_code,
    enrolmentId: r.enrolment_id,
    courseId: r.course_id,
    course: r.course,
    student: r.student,
    rut: r.rut,
    userId: r.user_id,
    userName: r.user_name,
    createdBy: r.created_by,
    dueAt,
    comment: r.comment,
    state: r.state,
    overdue: r.state === 'pending' && Date.parse(dueAt) <= now,
    doneAt: iso(r.done_at),
    ticketDetailId: r.ticket_detail_id,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
  };
}

/**
 * Reminders on tickets. The rules are the tickets' own (TicketAccess): an operator works only on
 * the tickets they may touch and only for themselves; administrators on every ticket and for any
 * operator. A reminder is changed by its owner or an administrator. To an operator, a reminder on
 * another operator's ticket, or that ticket, answers as one that does not exist.
 */
export class ReminderService {
  constructor(
    private readonly repo: ReminderRepository,
    private readonly tickets: TicketRepository,
    private readonly users: UserRepository,
    private readonly access: TicketAccess,
    private readonly audit: AuditRepository,
  ) {}

  list(q: ReminderListQuery, actor: AuthUser) {
    return this.repo.list(
      { ...q, scopeUserId: isAdminLike(actor.role) ? undefined : actor.id },
      actor.id,
    );
  }

  dueCount(actor: AuthUser) {
    return this.repo.dueCount(actor.id, !isAdminLike(actor.role));
  }

  /** A reminder the caller may read (its ticket is theirs to touch); another operator's is the same 404 as one that does not exist. */
  async get(id: number, actor: AuthUser): Promise<ReminderRow> {
    return this.access.visible(actor, await this.repo.find(id), () =>
      notFound(REMINDER_MSG.notFound),
    );
  }

  /** A reminder the caller may change: readable, and theirs (or the caller administers). */
  private async mine(id: number, actor: AuthUser): Promise<ReminderRow> {
    const row = await this.get(id, actor);
    if (!isAdminLike(actor.role) && row.user_id !== actor.id)
      throw forbidden(REMINDER_MSG.notYours);
    return row;
  }

  /**
   * The owner rule, per ticket: why `userId` may not hold a reminder on it (it must be active staff
   * who may touch the ticket), or null where they may.
   */
  async ownerRefusals(userId: number, tickets: TicketOwners[]): Promise<Array<string | null>> {
    const user = await this.users.findById(userId);
    if (!user || user.role_key === 'tutor' || user.role_key === null)
      return tickets.map(() => REMINDER_MSG.ownerNotOperator);
    const owner = { id: user.id, role: user.role_key as AuthUser['role'] };
    return tickets.map((t) => (mayTouchTicket(owner, t) ? null : REMINDER_MSG.ownerCannotTouch));
  }

  /**
   * Checks the owner of reminders on these tickets (a single reminder, or the agenda's reassignment):
   * an operator only themselves; then the owner rule, a 422 on `field` with its reason.
   */
  async assertOwner(userId: number, tickets: TicketOwners[], actor: AuthUser, field = 'user_id') {
    if (userId !== actor.id && !isAdminLike(actor.role)) throw forbidden(REMINDER_MSG.onlySelf);
    const refusal = (await this.ownerRefusals(userId, tickets)).find((r) => r !== null);
    if (refusal) throw invalid({ [field]: [refusal] });
  }

  /** The pending reminders among these ids, with who their tickets belong to. */
  pendingOwners(ids: number[]) {
    return this.repo.pendingOwners(ids);
  }

  async create(body: ReminderCreate, actor: AuthUser, ip: string): Promise<ReminderRow> {
    // Another operator's ticket is the same 422 as one that does not exist.
    const [row] = await this.tickets.owners([body.ticket_id]);
    const ticket = this.access.visible(actor, row, () =>
      invalid({ ticket_id: [REMINDER_MSG.ticketNotFound] }),
    );
    const userId = body.user_id ?? actor.id;
    await this.assertOwner(userId, [ticket], actor);
    const id = await this.repo.insert({
      ticket_id: body.ticket_id,
      user_id: userId,
      created_by: actor.id,
      due_at: body.due_at,
      comment: body.comment,
    });
    await this.audit.record({
      userId: actor.id,
      action: 'create',
      entity: 'reminders',
      entityId: String(id),
      changes: { ticket: body.ticket_id, user: userId, due_at: body.due_at },
      ip,
    });
    return (await this.repo.find(id))!;
  }

  async update(
    id: number,
    body: ReminderUpdate,
    actor: AuthUser,
    ip: string,
  ): Promise<ReminderRow> {
    const row = await this.mine(id, actor);
    if (body.user_id !== undefined && body.user_id !== row.user_id)
      await this.assertOwner(body.user_id, [row], actor);
    const reopen = body.state === 'pending' && row.state !== 'pending';
    await this.repo.update(id, {
      ...(body.due_at !== undefined ? { due_at: body.due_at } : {}),
      ...(body.comment !== undefined ? { comment: body.comment } : {}),
      ...(body.user_id !== undefined ? { user_id: body.user_id } : {}),
      ...(reopen
        ? { state: 'pending' as const, done_at: null, done_by: null, ticket_detail_id: null }
        : {}),
    });
    await this.audit.record({
      userId: actor.id,
      action: 'update',
      entity: 'reminders',
      entityId: String(id),
      changes: body,
      ip,
    });
    return (await this.repo.find(id))!;
  }

  /** Done or dismissed by hand: only a pending reminder (409 otherwise). */
  async close(
    id: number,
    state: 'done' | 'dismissed',
    actor: AuthUser,
    ip: string,
  ): Promise<ReminderRow> {
    const row = await this.mine(id, actor);
    // Checked again in the write itself: of closes sent at once, one wins and the others are a 409.
    if (row.state !== 'pending' || !(await this.repo.closePending(id, state, actor.id)))
      throw conflict(REMINDER_MSG.notPending);
    await this.audit.record({
      userId: actor.id,
      action: 'update',
      entity: 'reminders',
      entityId: String(id),
      changes: { state },
      ip,
    });
    return (await this.repo.find(id))!;
  }
}
