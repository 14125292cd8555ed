import {
  AGENDA_REASSIGN_UNDO_HOURS,
  AGENDA_STALE_TICKET_DAYS,
  chileParts,
  isAdminLike,
  REMINDER_MSG,
  REMINDER_SORTS,
  type AgendaCourseSettings,
  type AgendaLastReassign,
  type AgendaQuery,
  type AgendaReassignResult,
  type AgendaStudent,
  type AgendaTicket,
  type AgendaWorkload,
} from '@sigaf/contract';
import type { AuthUser } from '../../http/auth.js';
import { conflict, forbidden, invalid, notFound } from '../../http/errors.js';
import type { AuditRepository } from '../audit/repository.js';
import type { ReminderService } from '../reminders/service.js';
import type { TicketService } from '../tickets/service.js';
import type { AtRiskTally } from '../../kept/at-risk-tally.js';
import type { AgendaRepository, AtRiskRow } from './repository.js';

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

function presentStudent(r: AtRiskRow & { rules: AgendaStudent['rules'] }): AgendaStudent {
  return {
    enrolmentId: r.enrolmentId,
    courseId: r.courseId,
    course: r.course,
    classroom: r.classroom,
    rut: r.rut,
    name: `${r.name} ${r.lastName}${r.motherLastName ? ` ${r.motherLastName}` : ''}`,
    email: r.email,
    phone: r.phone,
    status: r.stage,
    lastAccess: iso(r.lastAccess),
    daysWithoutAccess: r.daysWithoutAccess,
    progress: r.progress,
    expectedProgress: r.expectedProgress,
    rules: r.rules,
    lastAttemptAt: iso(r.lastAttemptAt),
    openTicketId: r.openTicketId,
  };
}

/**
 * Mi agenda: who to contact today, and why. An operator sees their own agenda; administrators any
 * operator's (`user_id`), the workload table, reassignment and each course's thresholds; a tutor
 * only the at-risk students of their classrooms.
 */
export class AgendaService {
  constructor(
    private readonly repo: AgendaRepository,
    private readonly reminders: ReminderService,
    private readonly tickets: TicketService,
    private readonly audit: AuditRepository,
    private readonly atRiskTally: AtRiskTally,
  ) {}

  /** Whose agenda: the caller's, or (administrators) the operator asked for. */
  private subject(actor: AuthUser, userId?: number): number {
    if (userId === undefined || userId === actor.id) return actor.id;
    if (!isAdminLike(actor.role)) throw forbidden(REMINDER_MSG.otherAgenda);
    return userId;
  }

  /** Section 1: pending reminders due today or already overdue. */
  async dueReminders(actor: AuthUser, q: AgendaQuery) {
    const userId = this.subject(actor, q.user_id);
    const today = chileParts(new Date()).day;
    return this.reminders.list(
      {
        user_id: userId,
        state: 'pending',
        due_to: today,
        page: q.page ?? 1,
        perPage: q.perPage,
        sort: REMINDER_SORTS.find((k) => k === q.sort) ?? 'due_at',
        order: q.order,
      },
      actor,
    );
  }

  /**
   * Section 2: at-risk students without a recent contact attempt in the subject's courses (a tutor:
   * their classrooms), and which of those courses are not synchronised yet (nobody judged there).
   */
  async students(actor: AuthUser, q: AgendaQuery) {
    const userId = this.subject(actor, q.user_id);
    const courses =
      actor.role === 'tutor'
        ? await this.repo.tutorCourses(userId)
        : await this.repo.operatorCourses(userId);
    const { rows, meta } = await this.repo.atRisk(
      courses,
      q,
      new Date(),
      q.own_open_tickets && actor.role !== 'tutor' ? userId : undefined,
    );
    return {
      rows: rows.map(presentStudent),
      meta,
      unsyncedCourses: await this.repo.unsyncedCourses(courses),
    };
  }

  /** Section 3: the subject's open tickets without an attempt for more than K days. */
  async staleTickets(actor: AuthUser, q: AgendaQuery) {
    const userId = this.subject(actor, q.user_id);
    const days = q.days ?? AGENDA_STALE_TICKET_DAYS;
    const { rows, meta } = await this.repo.staleTickets(userId, days, q);
    const now = Date.now();
    return {
      rows: rows.map((t): AgendaTicket => ({
        id: t.id,
        ticketCode: t.ticket_code,
        enrolmentId: t.enrolment_id,
        course: t.course,
        student: t.student,
        rut: t.rut,
        createdAt: iso(t.created_at)!,
        lastAttemptAt: iso(t.last),
        daysWithoutAttempt: Math.floor(
          (now - new Date(t.last ?? t.created_at).getTime()) / 86_400_000,
        ),
      })),
      meta,
    };
  }

  /**
   * Per operator: due and overdue reminders, open tickets, and the at-risk
   * students without contact who have an open ticket of theirs (counted at `atRiskCountedAt`, kept
   * a while: AtRiskTally). Operators always; an administrator only with work of their own (open
   * tickets or pending reminders).
   */
  async workload(): Promise<{ rows: AgendaWorkload[]; atRiskCountedAt: string }> {
    const [load, openCounts, atRisk] = await Promise.all([
      this.repo.reminderLoad(),
      this.repo.openCounts(),
      this.atRiskTally.read(),
    ]);
    const open = new Map(openCounts.map((s) => [s.userId, s.open]));
    const rows = load
      .map((u) => ({
        role: u.role,
        userId: u.userId,
        name: u.name,
        due: u.due,
        overdue: u.overdue,
        openTickets: open.get(u.userId) ?? 0,
        atRisk: atRisk.counts.get(u.userId) ?? 0,
      }))
      .filter((u) => u.role === 'operator' || u.openTickets > 0 || u.due + u.overdue > 0)
      .map(({ role: _, ...u }) => u);
    return { rows, atRiskCountedAt: new Date(atRisk.at).toISOString() };
  }

  /** The workload table's first count, started with the server. */
  warmWorkload(): void {
    this.atRiskTally.warm();
  }

  /**
   * Moves reminders and tickets to another operator (a ticket's pending reminders go with it). A
   * reminder goes only where the single reminder routes would put it (ReminderService.assertOwner):
   * otherwise the whole request is a 422 with the same reason, and nothing is written. A ticket
   * reassigned in the same request counts as the operator's. The workload table's at-risk column
   * is counted again at its next read. With `from_user_id` (whose work it is) the tickets that
   * moved are kept as the actor's last reassignment, which `undoReassign` reverses for
   * AGENDA_REASSIGN_UNDO_HOURS.
   */
  async reassign(
    body: {
      to_user_id: number;
      from_user_id?: number;
      reminder_ids: number[];
      ticket_ids: number[];
    },
    actor: AuthUser,
    ip: string,
  ): Promise<AgendaReassignResult> {
    const { moved, ...result } = await this.move(body, actor, ip);
    if (body.from_user_id === undefined || !moved.length) return { ...result, last: null };
    await this.repo.saveLastReassign(actor.id, {
      fromUserId: body.from_user_id,
      toUserId: body.to_user_id,
      ticketIds: moved,
      reminders: result.reminders,
    });
    return { ...result, last: await this.lastReassign(actor) };
  }

  /** The actor's last reassignment, while it can be undone. */
  async lastReassign(actor: AuthUser): Promise<AgendaLastReassign | null> {
    const r = await this.repo.lastReassign(actor.id, AGENDA_REASSIGN_UNDO_HOURS);
    if (!r) return null;
    const at = new Date(r.at);
    return {
      from: { id: r.fromId, name: r.fromName },
      to: { id: r.toId, name: r.toName },
      tickets: r.ticketIds.length,
      reminders: r.reminders,
      at: at.toISOString(),
      until: new Date(at.getTime() + AGENDA_REASSIGN_UNDO_HOURS * 3_600_000).toISOString(),
    };
  }

  /**
   * Sends the tickets of the actor's last reassignment (with their pending reminders) back to the
   * first operator: those still assigned to the second (one moved since stays where it is).
   */
  async undoReassign(actor: AuthUser, ip: string): Promise<AgendaReassignResult> {
    const last = await this.repo.lastReassign(actor.id, AGENDA_REASSIGN_UNDO_HOURS);
    if (!last) throw conflict(REMINDER_MSG.nothingToUndo);
    const ticketIds = await this.repo.ticketsAssignedTo(last.ticketIds, last.toId);
    const { moved: _, ...result } = await this.move(
      { to_user_id: last.fromId, ticket_ids: ticketIds, reminder_ids: [] },
      actor,
      ip,
    );
    await this.repo.dropLastReassign(actor.id);
    return { ...result, last: null };
  }

  private async move(
    body: { to_user_id: number; reminder_ids: number[]; ticket_ids: number[] },
    actor: AuthUser,
    ip: string,
  ) {
    const to = (await this.repo.reminderLoad()).find((u) => u.userId === body.to_user_id);
    if (!to) throw invalid({ to_user_id: [REMINDER_MSG.operatorNotFound] });
    const pending = await this.reminders.pendingOwners(body.reminder_ids);
    const assigning = new Set(body.ticket_ids);
    await this.reminders.assertOwner(
      body.to_user_id,
      pending.map((r) =>
        assigning.has(r.ticket_id) ? { ...r, user_assigned_id: body.to_user_id } : r,
      ),
      actor,
      'to_user_id',
    );
    let tickets = 0;
    let refused = 0;
    let moved = 0;
    let reminderIds = body.reminder_ids;
    let updated: number[] = [];
    if (body.ticket_ids.length) {
      const r = await this.tickets.bulk(
        { ids: body.ticket_ids, action: 'assign', user_assigned_id: body.to_user_id },
        actor,
      );
      tickets = r.updated.length;
      refused = r.refused.length;
      updated = r.updated;
      // The at-risk students move with their tickets: the workload table counts them again.
      if (tickets) this.atRiskTally.forget();
      moved = await this.repo.moveReminders(body.to_user_id, [], r.updated);
      // A ticket whose reassignment was refused (reported) stays as it was: its reminders move only if it is already the operator's to touch.
      const kept = new Set(r.refused.map((x) => x.id));
      const onKept = pending.filter((p) => kept.has(p.ticket_id));
      const refusals = await this.reminders.ownerRefusals(body.to_user_id, onKept);
      const stay = new Set(onKept.filter((_, i) => refusals[i] !== null).map((p) => p.id));
      reminderIds = reminderIds.filter((id) => !stay.has(id));
    }
    const reminders = moved + (await this.repo.moveReminders(body.to_user_id, reminderIds, []));
    await this.audit.record({
      userId: actor.id,
      action: 'update',
      entity: 'agenda_reassign',
      entityId: String(body.to_user_id),
      changes: body,
      ip,
    });
    return { tickets, reminders, refused, to: { id: to.userId, name: to.name }, moved: updated };
  }

  async courseSettings(courseId: number) {
    const row = await this.repo.courseSettings(courseId);
    if (!row) throw notFound(REMINDER_MSG.courseNotFound);
    return row;
  }

  async saveCourseSettings(
    courseId: number,
    body: AgendaCourseSettings,
    actor: AuthUser,
    ip: string,
  ) {
    await this.courseSettings(courseId);
    await this.repo.saveCourseSettings(courseId, body);
    this.atRiskTally.forget();
    await this.audit.record({
      userId: actor.id,
      action: 'update',
      entity: 'agenda_course_settings',
      entityId: String(courseId),
      changes: body,
      ip,
    });
    return this.courseSettings(courseId);
  }

  async digest(actor: AuthUser) {
    return { morningDigest: (await this.repo.digest(actor.id))?.morning_digest ?? false };
  }

  async saveDigest(actor: AuthUser, on: boolean) {
    await this.repo.saveDigest(actor.id, on);
    return this.digest(actor);
  }
}
