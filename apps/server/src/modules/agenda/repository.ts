import { AGENDA_DEFAULTS, type AgendaRule } from '@sigaf/contract';
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import { pageMeta } from '../../db/pagination.js';
import type { FollowUpRepository } from '../follow-up/repository.js';

const OPEN_STATUS = sql`(select st.id from status_tickets st where st.key = 'open')`;
/** The end of today in Chile (reminders due today). */
const END_OF_TODAY = sql`((now() at time zone 'America/Santiago')::date + 1)::timestamp at time zone 'America/Santiago'`;

/** A course of someone's agenda with its settings; `classroomIds` narrows it to a tutor's classrooms. */
export interface AgendaCourse {
  courseId: number;
  contactDays: number;
  inactiveDays: number;
  progressPercent: number;
  startsOn: string | null;
  endsOn: string | null;
  classroomIds?: number[];
}

export interface AtRiskRow {
  enrolmentId: number;
  courseId: number;
  course: string;
  classroom: string | null;
  rut: string;
  name: string;
  lastName: string;
  motherLastName: string | null;
  email: string | null;
  phone: string | null;
  stage: number;
  lastAccess: Date | null;
  daysWithoutAccess: number | null;
  progress: number | null;
  expectedProgress: number;
  resigning: boolean;
  inactive: boolean;
  behind: boolean;
  lastAttemptAt: Date | null;
  openTicketId: number | null;
}

type Candidate = Omit<AtRiskRow, 'course' | 'lastAttemptAt' | 'openTicketId'>;
const RULES = ['resigning', 'inactive', 'behind'] as const;

const COLLATOR = new Intl.Collator('es');
const time = (d: Date | null) => (d ? new Date(d).getTime() : null);
const STUDENT_SORTS: Record<string, (r: AtRiskRow) => string | number | null> = {
  name: (r) => `${r.lastName} ${r.name}`.toLowerCase(),
  course: (r) => r.course.toLowerCase(),
  progress: (r) => r.progress,
  lastAccess: (r) => time(r.lastAccess),
  lastAttemptAt: (r) => time(r.lastAttemptAt),
};

const TICKET_SORTS: Record<string, RawBuilder<unknown>> = {
  lastAttemptAt: sql`coalesce(la.last, t.created_at)`,
  createdAt: sql`t.created_at`,
  ticketCode: sql`t.ticket_code`,
  student: sql`lower(r.last_name || ' ' || r.name)`,
  course: sql`lower(c.description)`,
};

/** The share of a course's time already elapsed (0..1), or 1 without both dates. */
export function elapsedShare(startsOn: string | null, endsOn: string | null, now = new Date()): number {
  if (!startsOn || !endsOn) return 1;
  const start = Date.parse(`${startsOn}T00:00:00Z`);
  const end = Date.parse(`${endsOn}T23:59:59Z`);
  if (!(end > start)) return 1;
  return Math.min(1, Math.max(0, (now.getTime() - start) / (end - start)));
}

/**
 * The agenda (SQL only). At-risk students are the follow-up's student table (FollowUpRepository:
 * the same progress, last access and withdrawal stage) of each course, kept when a rule matches and
 * nobody logged a contact attempt on the student's tickets of that course in the last N days.
 */
export class AgendaRepository {
  constructor(
    private readonly db: Database,
    private readonly followUp: FollowUpRepository,
  ) {}

  // -- whose courses -----------------------------------------------------------------------------

  /** The courses of an operator: those where a ticket is assigned to them, with each course's settings. */
  async operatorCourses(userId: number): Promise<AgendaCourse[]> {
    const { rows } = await sql<AgendaCourse>`
      select c.id as "courseId", coalesce(s.contact_days, ${AGENDA_DEFAULTS.contactDays}) as "contactDays",
        coalesce(s.inactive_days, ${AGENDA_DEFAULTS.inactiveDays}) as "inactiveDays", coalesce(s.progress_percent, ${AGENDA_DEFAULTS.progressPercent}) as "progressPercent",
        to_char(s.starts_on, 'YYYY-MM-DD') as "startsOn", to_char(s.ends_on, 'YYYY-MM-DD') as "endsOn"
      from courses c
      left join agenda_course_settings s on s.course_id = c.id
      where c.status = 1 and exists (select 1 from tickets t where t.course_id = c.id and t.user_assigned_id = ${userId})
      order by c.id`.execute(this.db);
    return rows;
  }

  /** The courses and classrooms a tutor follows, with each course's settings. */
  async tutorCourses(userId: number): Promise<AgendaCourse[]> {
    const { rows } = await sql<AgendaCourse & { classroomIds: number[] }>`
      select c.id as "courseId", coalesce(s.contact_days, ${AGENDA_DEFAULTS.contactDays}) as "contactDays",
        coalesce(s.inactive_days, ${AGENDA_DEFAULTS.inactiveDays}) as "inactiveDays", coalesce(s.progress_percent, ${AGENDA_DEFAULTS.progressPercent}) as "progressPercent",
        to_char(s.starts_on, 'YYYY-MM-DD') as "startsOn", to_char(s.ends_on, 'YYYY-MM-DD') as "endsOn",
        array_agg(ct.classroom_id order by ct.classroom_id) as "classroomIds"
      from classroom_tutors ct
      join courses c on c.id = ct.course_id and c.status = 1
      left join agenda_course_settings s on s.course_id = c.id
      where ct.user_id = ${userId}
      group by c.id, s.course_id
      order by c.id`.execute(this.db);
    return rows.map((r) => ({ ...r, classroomIds: r.classroomIds.map(Number) }));
  }

  /** Every course with an assigned ticket, with its settings and the operators who have tickets there (the workload table). */
  async assignedCourses(): Promise<Array<AgendaCourse & { userIds: number[] }>> {
    const { rows } = await sql<AgendaCourse & { userIds: number[] }>`
      select c.id as "courseId", coalesce(s.contact_days, ${AGENDA_DEFAULTS.contactDays}) as "contactDays",
        coalesce(s.inactive_days, ${AGENDA_DEFAULTS.inactiveDays}) as "inactiveDays", coalesce(s.progress_percent, ${AGENDA_DEFAULTS.progressPercent}) as "progressPercent",
        to_char(s.starts_on, 'YYYY-MM-DD') as "startsOn", to_char(s.ends_on, 'YYYY-MM-DD') as "endsOn",
        array(select distinct t.user_assigned_id from tickets t where t.course_id = c.id and t.user_assigned_id is not null order by 1) as "userIds"
      from courses c
      left join agenda_course_settings s on s.course_id = c.id
      where c.status = 1 and exists (select 1 from tickets t where t.course_id = c.id and t.user_assigned_id is not null)
      order by c.id`.execute(this.db);
    return rows.map((r) => ({ ...r, userIds: r.userIds.map(Number) }));
  }

  // -- at-risk students ----------------------------------------------------------------------------

  /**
   * One course's at-risk students (the rules only, before the contact rule): the follow-up's student
   * table of the course (its cached rows, recomputed first if a change has marked them dirty), the
   * students whose rules match.
   */
  private async candidates(c: AgendaCourse, now: Date): Promise<Candidate[]> {
    const threshold = Math.round(c.progressPercent * elapsedShare(c.startsOn, c.endsOn, now));
    await this.followUp.fresh(c.courseId);
    const { rows } = await sql<Candidate>`
      with ${this.followUp.studentTable({ courseId: c.courseId, classroomIds: c.classroomIds })},
      r as (
        select s.*, (s.stage = 1) as resigning,
          (s.stage = 0 and (s."lastAccess" is null or s."lastAccess" < now() - make_interval(days => ${c.inactiveDays}))) as inactive,
          (s.stage = 0 and s.progress is not null and s.progress < ${threshold}) as behind
        from s
      )
      select r.id as "enrolmentId", ${c.courseId}::int as "courseId", r.classroom, r.rut, r.name, r."lastName", r."motherLastName", r.email, r.phone,
        r.stage, r."lastAccess", r."daysWithoutAccess", r.progress, ${threshold}::int as "expectedProgress", r.resigning, r.inactive, r.behind
      from r
      where r.resigning or r.inactive or r.behind`.execute(this.db);
    return rows;
  }

  /**
   * The at-risk candidates of these courses nobody contacted in each course's last N days. Only the
   * recent attempts of these courses are read (ticket_details by course and time), never a
   * student's whole history.
   */
  private async withoutContact(courses: AgendaCourse[], now: Date): Promise<Candidate[]> {
    const lists = await Promise.all(courses.map(async (c) => ({ c, rows: await this.candidates(c, now) })));
    if (!lists.some((l) => l.rows.length)) return [];
    const longest = Math.max(...courses.map((c) => c.contactDays));
    const { rows: recent } = await sql<{ id: number; last: Date }>`
      select t.course_registered_user_id as id, max(d.created_at) as last
      from ticket_details d
      -- One key lookup per recent attempt (OFFSET 0 keeps it so), never a hash of every ticket.
      cross join lateral (select t.course_registered_user_id from tickets t where t.id = d.ticket_id offset 0) t
      where d.course_id = any(${courses.map((c) => c.courseId)}::int[]) and d.created_at >= ${new Date(now.getTime() - longest * 86_400_000)}::timestamptz
      group by t.course_registered_user_id`.execute(this.db);
    const last = new Map(recent.map((r) => [r.id, new Date(r.last).getTime()]));
    const out: Candidate[] = [];
    for (const { c, rows } of lists) {
      const since = now.getTime() - c.contactDays * 86_400_000;
      for (const r of rows) if ((last.get(r.enrolmentId) ?? -Infinity) < since) out.push(r);
    }
    return out;
  }

  /** The last attempt, the newest open ticket and the course's name of these enrolments. */
  private async contactOf(ids: number[]) {
    if (!ids.length) return new Map<number, { last: Date | null; open: number | null; course: string }>();
    const { rows } = await sql<{ id: number; last: Date | null; open: number | null; course: string }>`
      select e.id, la.last, ot.id as open, c.description as course
      from course_registered_users e
      join courses c on c.id = e.course_id
      cross join lateral (
        select max(d.created_at) as last from tickets t join ticket_details d on d.ticket_id = t.id where t.course_registered_user_id = e.id
      ) la
      left join lateral (
        select t.id from tickets t where t.course_registered_user_id = e.id and t.status_ticket_id = ${OPEN_STATUS} order by t.id desc limit 1
      ) ot on true
      where e.id = any(${ids}::int[])`.execute(this.db);
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** A page of the at-risk students of these courses, sorted (name, course, progress, lastAccess, lastAttemptAt). */
  async atRisk(courses: AgendaCourse[], q: { page?: number; perPage?: number; sort?: string; order?: 'asc' | 'desc' }, now = new Date()) {
    const perPage = q.perPage ?? 10;
    const page = q.page ?? 1;
    const candidates = await this.withoutContact(courses, now);
    const key = q.sort && Object.hasOwn(STUDENT_SORTS, q.sort) ? q.sort : 'name';
    // Course names and last attempts are read for the whole list only when the sort needs them.
    const names = key === 'course' || key === 'lastAttemptAt' ? await this.contactOf(candidates.map((r) => r.enrolmentId)) : null;
    const rows: AtRiskRow[] = candidates.map((r) => {
      const k = names?.get(r.enrolmentId);
      return { ...r, course: k?.course ?? '', lastAttemptAt: k?.last ?? null, openTicketId: k?.open ?? null };
    });
    const value = STUDENT_SORTS[key]!;
    const dir = q.order === 'desc' ? -1 : 1;
    // Each row's sort value once (not per comparison).
    const keyed = rows.map((r) => ({ r, v: value(r) }));
    keyed.sort((a, b) => {
      const x = a.v;
      const y = b.v;
      // Nothing (never accessed, no progress, never contacted) first, as the oldest or least.
      if (x === null || y === null) return x === y ? a.r.enrolmentId - b.r.enrolmentId : (x === null ? -1 : 1) * dir;
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : COLLATOR.compare(String(x), String(y));
      return c ? c * dir : a.r.enrolmentId - b.r.enrolmentId;
    });
    const shown = keyed.slice((page - 1) * perPage, page * perPage).map((k) => k.r);
    const contact = names ?? (await this.contactOf(shown.map((r) => r.enrolmentId)));
    const out = shown.map((r) => {
      const k = contact.get(r.enrolmentId);
      return { ...r, course: k?.course ?? '', lastAttemptAt: k?.last ?? null, openTicketId: k?.open ?? null, rules: RULES.filter((x) => r[x]) as AgendaRule[] };
    });
    return { rows: out, meta: pageMeta(page, perPage, rows.length) };
  }

  /** How many at-risk students without contact each course has. */
  async atRiskCounts(courses: AgendaCourse[], now = new Date()): Promise<Array<{ courseId: number; n: number }>> {
    const counts = new Map<number, number>();
    for (const r of await this.withoutContact(courses, now)) counts.set(r.courseId, (counts.get(r.courseId) ?? 0) + 1);
    return [...counts].map(([courseId, n]) => ({ courseId, n }));
  }

  // -- open tickets without an attempt ----------------------------------------------------------------

  /** An operator's open tickets whose last attempt (or creation, without attempts) is more than `days` days old. */
  async staleTickets(userId: number, days: number, q: { page?: number; perPage?: number; sort?: string; order?: 'asc' | 'desc' }) {
    const perPage = q.perPage ?? 10;
    const page = q.page ?? 1;
    const dir = q.order === 'desc' ? sql`desc` : sql`asc`;
    const sort = (q.sort && Object.hasOwn(TICKET_SORTS, q.sort) ? TICKET_SORTS[q.sort] : TICKET_SORTS.lastAttemptAt)!;
    const { rows } = await sql<{
      id: number;
      ticket_code: string;
      enrolment_id: number;
      course: string;
      student: string;
      rut: string;
      created_at: Date;
      last: Date | null;
      __total: number;
    }>`
      select t.id, t.ticket_code, t.course_registered_user_id as enrolment_id, c.description as course,
        trim(r.name || ' ' || r.last_name || ' ' || coalesce(r.mother_last_name, '')) as student, r.rut, t.created_at, la.last,
        count(*) over ()::int as __total
      from tickets t
      cross join lateral (select max(d.created_at) as last from ticket_details d where d.ticket_id = t.id) la
      join course_registered_users e on e.id = t.course_registered_user_id
      join registered_users r on r.id = e.registered_user_id
      join courses c on c.id = t.course_id
      where t.user_assigned_id = ${userId} and t.status_ticket_id = ${OPEN_STATUS}
        and coalesce(la.last, t.created_at) < now() - make_interval(days => ${days})
      order by ${sort} ${dir}, t.id
      limit ${perPage} offset ${(page - 1) * perPage}`.execute(this.db);
    let total = rows[0]?.__total ?? 0;
    if (!rows.length && page > 1) total = (await this.staleCounts(days, [userId]))[0]?.n ?? 0;
    return { rows, meta: pageMeta(page, perPage, total) };
  }

  /** Per operator: open tickets assigned, and how many of them are without an attempt for more than `days` days. */
  async staleCounts(days: number, userIds?: number[]) {
    const { rows } = await sql<{ userId: number; n: number; open: number }>`
      select t.user_assigned_id as "userId", count(*)::int as open,
        count(*) filter (where coalesce((select max(d.created_at) from ticket_details d where d.ticket_id = t.id), t.created_at) < now() - make_interval(days => ${days}))::int as n
      from tickets t
      where t.user_assigned_id is not null and t.status_ticket_id = ${OPEN_STATUS} ${userIds ? sql`and t.user_assigned_id in (${sql.join(userIds)})` : sql``}
      group by t.user_assigned_id`.execute(this.db);
    return rows;
  }

  // -- workload -----------------------------------------------------------------------------------

  /** Active operators and administrators with their pending reminders due today (not yet past) and overdue. */
  async reminderLoad() {
    const { rows } = await sql<{ userId: number; name: string; due: number; overdue: number }>`
      select u.id as "userId", u.name,
        count(rm.id) filter (where rm.due_at > now() and rm.due_at < ${END_OF_TODAY})::int as due,
        count(rm.id) filter (where rm.due_at <= now())::int as overdue
      from users u
      join roles ro on ro.id = u.role_id and ro.key in ('operator', 'admin', 'developer')
      left join reminders rm on rm.user_id = u.id and rm.state = 'pending'
      where u.deleted_at is null
      group by u.id, u.name
      order by lower(u.name), u.id`.execute(this.db);
    return rows;
  }

  // -- settings and reassignment --------------------------------------------------------------------

  async courseSettings(courseId: number) {
    const { rows } = await sql<{ contactDays: number; inactiveDays: number; progressPercent: number; startsOn: string | null; endsOn: string | null }>`
      select coalesce(s.contact_days, ${AGENDA_DEFAULTS.contactDays}) as "contactDays", coalesce(s.inactive_days, ${AGENDA_DEFAULTS.inactiveDays}) as "inactiveDays",
        coalesce(s.progress_percent, ${AGENDA_DEFAULTS.progressPercent}) as "progressPercent", to_char(s.starts_on, 'YYYY-MM-DD') as "startsOn", to_char(s.ends_on, 'YYYY-MM-DD') as "endsOn"
      from courses c left join agenda_course_settings s on s.course_id = c.id where c.id = ${courseId}`.execute(this.db);
    return rows[0];
  }

  async saveCourseSettings(courseId: number, v: { contact_days: number; inactive_days: number; progress_percent: number; starts_on: string | null; ends_on: string | null }) {
    await this.db
      .insertInto('agenda_course_settings')
      .values({ course_id: courseId, ...v })
      .onConflict((oc) => oc.column('course_id').doUpdateSet({ ...v, updated_at: new Date() }))
      .execute();
  }

  /** Moves pending reminders (by id, or every pending one of the given tickets) to another operator. */
  async moveReminders(toUserId: number, reminderIds: number[], ticketIds: number[]): Promise<number> {
    if (!reminderIds.length && !ticketIds.length) return 0;
    const r = await this.db
      .updateTable('reminders')
      .set({ user_id: toUserId, updated_at: new Date() })
      .where('state', '=', 'pending')
      .where((eb) => eb.or([...(reminderIds.length ? [eb('id', 'in', reminderIds)] : []), ...(ticketIds.length ? [eb('ticket_id', 'in', ticketIds)] : [])]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  digest(userId: number) {
    return this.db.selectFrom('user_agenda_settings').select(['morning_digest']).where('user_id', '=', userId).executeTakeFirst();
  }

  async saveDigest(userId: number, on: boolean) {
    await this.db
      .insertInto('user_agenda_settings')
      .values({ user_id: userId, morning_digest: on })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ morning_digest: on, updated_at: new Date() }))
      .execute();
  }
}
