import { AGENDA_DEFAULTS, type AgendaRule } from '@sigaf/contract';
import { sql, type RawBuilder } from 'kysely';
import { executePrepared, OneValueQuery } from '../../db/compiled.js';
import type { Database } from '../../db/database.js';
import { pageMeta } from '../../db/pagination.js';
import { FIGURES } from '../dashboard/figures.js';
import { DIM } from '../dashboard/sql.js';
import { daysSince, type FollowUpRepository } from '../follow-up/repository.js';
import { AgendaSettingsRepository } from './settings-repository.js';

const OPEN_STATUS = sql`(select st.id from status_tickets st where st.key = 'open')`;
/** The staff the workload table lists (`u`: users, `ro`: their role): active operators, administrators and developers. */
const WORKLOAD_STAFF = sql`users u join roles ro on ro.id = u.role_id and ro.key in ('operator', 'admin', 'developer') where u.deleted_at is null`;
/** The end of today in Chile (reminders due today). */
const END_OF_TODAY = sql`((now() at time zone 'America/Santiago')::date + 1)::timestamp at time zone 'America/Santiago'`;
/** The student of row `f` has an open ticket assigned to this user: the workload table's at-risk column counts these (atRiskByOperator). */
const ownOpenTicket = (userId: number) =>
  sql`exists (select 1 from tickets t where t.course_registered_user_id = f.enrolment_id and t.status_ticket_id = ${OPEN_STATUS} and t.user_assigned_id = ${userId})`;

/** A course of someone's agenda with its settings; `classroomIds` narrows it to a tutor's classrooms. */
export interface AgendaCourse {
  courseId: number;
  contactDays: number;
  inactiveDays: number;
  progressPercent: number;
  startsOn: string | null;
  endsOn: string | null;
  classroomIds?: number[];
  /** False when the course's cached figures were up to date as its settings were read (then no check is needed). */
  stale?: boolean;
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

const RULES = ['resigning', 'inactive', 'behind'] as const;
const DAY_MS = 86_400_000;

/**
 * At-risk sorts, over the candidate rows (f: the student's cached row, c: the course); ties by
 * enrolment. Nothing (never accessed, no progress, never
 * contacted) comes first ascending, last descending.
 */
const STUDENT_SORTS: Record<string, RawBuilder<unknown>> = {
  /**
   * Most urgent first (ascending, the default): withdrawing, then by last access, oldest first
   * (never accessed before any access), then by progress, lowest first.
   */
  urgency: sql`((case when f.stage = 1 then 0 else 1 end) * 1e12 + coalesce(extract(epoch from f.last_access), 0) + coalesce(${FIGURES.progress('f')}, 0) / 1000.0)::float8`,
  name: sql`lower(f.last_name || ' ' || f.name)`,
  course: sql`lower(c.description)`,
  progress: FIGURES.progress('f'),
  lastAccess: sql`f.last_access`,
  lastAttemptAt: sql`f.last_attempt_at`,
};

const TICKET_SORTS: Record<string, RawBuilder<unknown>> = {
  lastAttemptAt: sql`coalesce(t.last_attempt_at, t.created_at)`,
  createdAt: sql`t.created_at`,
  ticketCode: sql`t.ticket_code`,
  student: sql`(select lower(r.last_name || ' ' || r.name) from course_registered_users e join registered_users r on r.id = e.registered_user_id where e.id = t.course_registered_user_id)`,
  course: sql`(select lower(c.description) from courses c where c.id = t.course_id)`,
};

/** The share of a course's time already elapsed (0..1), or 1 without both dates. */
export function elapsedShare(
  startsOn: string | null,
  endsOn: string | null,
  now = new Date(),
): number {
  if (!startsOn || !endsOn) return 1;
  const start = Date.parse(`${startsOn}T00:00:00Z`);
  const end = Date.parse(`${endsOn}T23:59:59Z`);
  if (!(end > start)) return 1;
  return Math.min(1, Math.max(0, (now.getTime() - start) / (end - start)));
}

/**
 * The agenda (SQL only). At-risk students are the follow-up's student rows (the same progress, last
 * access and withdrawal stage: course_follow_up_rows) of each course, kept when a rule matches and
 * nobody logged a contact attempt on the student's tickets of that course, nor wrote them a mail
 * (not failed), in the last N days.
 */
export class AgendaRepository extends AgendaSettingsRepository {
  constructor(
    db: Database,
    private readonly followUp: FollowUpRepository,
  ) {
    super(db);
  }

  // -- whose courses -----------------------------------------------------------------------------

  /**
   * The courses of an operator: those where a ticket is assigned to them, with each course's
   * settings (read on every agenda request: compiled once). The courses are found by skipping from
   * one to the next in the index of (assignee, course): a step per course of the operator's, not a
   * look per course of the organisation's (1.2 ms at 500 courses).
   */
  private readonly ofOperator = new OneValueQuery<AgendaCourse>(
    () => sql<AgendaCourse>`
      with recursive operator (id) as (select ${0}::int),
      mine (course_id) as (
        (select t.course_id from tickets t where t.user_assigned_id = (select id from operator) order by t.course_id limit 1)
        union all
        select (select t.course_id from tickets t where t.user_assigned_id = (select id from operator) and t.course_id > m.course_id order by t.course_id limit 1)
        from mine m where m.course_id is not null
      )
      select c.id as "courseId", coalesce(s.contact_days, ${sql.lit(AGENDA_DEFAULTS.contactDays)}) as "contactDays",
        coalesce(s.inactive_days, ${sql.lit(AGENDA_DEFAULTS.inactiveDays)}) as "inactiveDays", coalesce(s.progress_percent, ${sql.lit(AGENDA_DEFAULTS.progressPercent)}) as "progressPercent",
        to_char(s.starts_on, 'YYYY-MM-DD') as "startsOn", to_char(s.ends_on, 'YYYY-MM-DD') as "endsOn", (st.dirty is distinct from false) as stale
      from courses c
      left join agenda_course_settings s on s.course_id = c.id
      left join course_stats_state st on st.course_id = c.id
      where c.status = 1 and c.id in (select course_id from mine)
      order by c.id`,
  );

  async operatorCourses(userId: number): Promise<AgendaCourse[]> {
    return this.ofOperator.rows(this.db, userId);
  }

  /** The courses and classrooms a tutor follows, with each course's settings. */
  async tutorCourses(userId: number): Promise<AgendaCourse[]> {
    const { rows } = await sql<AgendaCourse & { classroomIds: number[] }>`
      select c.id as "courseId", coalesce(s.contact_days, ${AGENDA_DEFAULTS.contactDays}) as "contactDays",
        coalesce(s.inactive_days, ${AGENDA_DEFAULTS.inactiveDays}) as "inactiveDays", coalesce(s.progress_percent, ${AGENDA_DEFAULTS.progressPercent}) as "progressPercent",
        to_char(s.starts_on, 'YYYY-MM-DD') as "startsOn", to_char(s.ends_on, 'YYYY-MM-DD') as "endsOn", bool_or(st.dirty is distinct from false) as stale,
        array_agg(ct.classroom_id order by ct.classroom_id) as "classroomIds"
      from classroom_tutors ct
      join courses c on c.id = ct.course_id and c.status = 1
      left join agenda_course_settings s on s.course_id = c.id
      left join course_stats_state st on st.course_id = c.id
      where ct.user_id = ${userId}
      group by c.id, s.course_id
      order by c.id`.execute(this.db);
    return rows.map((r) => ({ ...r, classroomIds: r.classroomIds.map(Number) }));
  }

  /** Every active course with an assigned ticket, with its settings (the workload table). */
  private async assignedCourses(): Promise<AgendaCourse[]> {
    const { rows } = await sql<AgendaCourse>`
      select c.id as "courseId", coalesce(s.contact_days, ${AGENDA_DEFAULTS.contactDays}) as "contactDays",
        coalesce(s.inactive_days, ${AGENDA_DEFAULTS.inactiveDays}) as "inactiveDays", coalesce(s.progress_percent, ${AGENDA_DEFAULTS.progressPercent}) as "progressPercent",
        to_char(s.starts_on, 'YYYY-MM-DD') as "startsOn", to_char(s.ends_on, 'YYYY-MM-DD') as "endsOn", (st.dirty is distinct from false) as stale
      from courses c
      left join agenda_course_settings s on s.course_id = c.id
      left join course_stats_state st on st.course_id = c.id
      where c.status = 1 and exists (select 1 from tickets t where t.course_id = c.id and t.user_assigned_id is not null)
      order by c.id`.execute(this.db);
    return rows;
  }

  // -- at-risk students ----------------------------------------------------------------------------

  /**
   * The at-risk students of these courses nobody contacted in each course's last N days, as the CTE
   * `cfg` (each course's thresholds, a tutor's classrooms) and the condition on a course's cached
   * follow-up rows `f` (migration 0015: the same progress, last access and withdrawal stage as the
   * follow-up table, and each student's last contact attempt, kept by triggers: migration 0020),
   * recomputed first where a change has marked them. One range per course, no other table per
   * student; the page's names and contact details are read afterwards for its rows alone.
   */
  private async atRiskParts(courses: AgendaCourse[], now: Date, ownedBy?: number) {
    await this.followUp.fresh(courses.filter((c) => c.stale !== false).map((c) => c.courseId));
    // The courses' settings as arrays (the same text whatever the number of courses, so the page
    // query is a prepared statement, planned once per connection); a tutor's classrooms as pairs.
    const before = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
    const cfg = {
      course: courses.map((c) => c.courseId),
      threshold: courses.map((c) =>
        Math.round(c.progressPercent * elapsedShare(c.startsOn, c.endsOn, now)),
      ),
      inactive: courses.map((c) => before(c.inactiveDays)),
      contact: courses.map((c) => before(c.contactDays)),
      limited: courses.map((c) => Boolean(c.classroomIds)),
      rooms: courses.map((c) => c.classroomIds ?? []).map((rooms) => `{${rooms.join(',')}}`),
    };
    // The rules in plain comparisons (evaluated on every student of the courses): inactive when the
    // last access is before the course's D days; behind when round(100·graded/expected) < P, that
    // is 200·graded + expected < 2·expected·P in integers.
    const inactive = sql`(f.last_access is null or f.last_access < cfg.inactive_before)`;
    const behind = sql`(f.expected > 0 and 200 * f.graded + f.expected < 2 * f.expected * cfg.threshold)`;
    // Only students Moodle has confirmed (f.synced) are judged by these rules: before a course's
    // first synchronisation nobody is, so a course loaded from a file raises no false alarm.
    const matches = sql`f.synced and (not cfg.limited or f.classroom_id = any(cfg.rooms))
        and (f.stage = 1 or (f.stage = 0 and (${inactive} or ${behind})))
        and (f.last_attempt_at is null or f.last_attempt_at < cfg.contact_before)
        and not exists (select 1 from mail_messages m where m.enrolment_id = f.enrolment_id and m.status <> 'failed' and m.created_at >= cfg.contact_before)
        and ${ownedBy === undefined ? sql`true` : ownOpenTicket(ownedBy)}`;
    return {
      cfg: sql`cfg (course_id, threshold, inactive_before, contact_before, limited, rooms) as (
        select course_id, threshold, inactive_before, contact_before, limited, rooms::int[]
        from unnest(${cfg.course}::int[], ${cfg.threshold}::int[], ${cfg.inactive}::timestamptz[], ${cfg.contact}::timestamptz[], ${cfg.limited}::boolean[], ${cfg.rooms}::text[])
          as x (course_id, threshold, inactive_before, contact_before, limited, rooms)
      )`,
      /** The rules' flags of a matching row. */
      flags: sql`cfg.threshold as "expectedProgress", (f.stage = 1) as resigning, (f.stage = 0 and ${inactive}) as inactive, (f.stage = 0 and ${behind}) as behind`,
      /** `f` (a row of course cfg.course_id) is at risk and without a recent contact. */
      matches,
      /** Each course's number of matches (`course_id`, `n`), counted by the course's index range. */
      counts: sql`select cfg.course_id, k.n from cfg cross join lateral (select count(*)::int as n from course_follow_up_rows f where f.course_id = cfg.course_id and ${matches}) k`,
    };
  }

  /**
   * A page of the at-risk students of these courses, sorted (urgency by default, name, course,
   * progress, lastAccess, lastAttemptAt), with each one's newest open ticket (one query). The page is the first rows of
   * the union of each course's first `offset + perPage` rows in that order (in name order straight
   * from the index of migration 0023, stopping there); the total counts every match apart. With
   * `ownedBy`, only the students with an open ticket assigned to that user (the workload's column).
   */
  async atRisk(
    courses: AgendaCourse[],
    q: { page?: number; perPage?: number; sort?: string; order?: 'asc' | 'desc' },
    now = new Date(),
    ownedBy?: number,
  ) {
    const perPage = q.perPage ?? 10;
    const page = q.page ?? 1;
    if (!courses.length) return { rows: [], meta: pageMeta(page, perPage, 0) };
    const key = q.sort && Object.hasOwn(STUDENT_SORTS, q.sort) ? q.sort : 'urgency';
    const order = q.order === 'desc' ? sql`desc nulls last` : sql`asc nulls first`;
    const offset = (page - 1) * perPage;
    const { cfg, flags, matches, counts } = await this.atRiskParts(courses, now, ownedBy);
    const rows = await executePrepared(
      this.db,
      sql<Omit<AtRiskRow, 'daysWithoutAccess'> & { __total: number }>`
      with ${cfg},
      total as (select sum(c.n)::int as n from (${counts}) c),
      r as (
        select top.* from cfg cross join lateral (
          select f.enrolment_id as "enrolmentId", f.course_id as "courseId", ${STUDENT_SORTS[key]!} as key, ${flags}, f.last_attempt_at as "lastAttemptAt"
          from course_follow_up_rows f ${key === 'course' ? sql`join courses c on c.id = f.course_id` : sql``}
          where f.course_id = cfg.course_id and ${matches}
          order by ${STUDENT_SORTS[key]!} ${order}, f.enrolment_id limit ${offset + perPage}
        ) top
      ),
      p as (
        select r.*, row_number() over (order by r.key ${order}, r."enrolmentId") as n
        from r order by r.key ${order}, r."enrolmentId" limit ${perPage} offset ${offset}
      )
      select p."enrolmentId", p."courseId", c.description as course, cl.description as classroom,
        f.rut, f.name, f.last_name as "lastName", f.mother_last_name as "motherLastName", f.email, f.phone, f.stage,
        f.last_access as "lastAccess", ${FIGURES.progress('f')} as progress, p."expectedProgress",
        p.resigning, p.inactive, p.behind, p."lastAttemptAt", (select n from total) as __total,
        (select t.id from tickets t where t.course_registered_user_id = p."enrolmentId" and t.status_ticket_id = ${OPEN_STATUS} order by t.id desc limit 1) as "openTicketId"
      from p
      join course_follow_up_rows f on f.course_id = p."courseId" and f.enrolment_id = p."enrolmentId"
      join courses c on c.id = p."courseId"
      left join classrooms cl on cl.id = f.classroom_id
      order by p.n`,
    );
    const total = rows.length
      ? rows[0]!.__total
      : page > 1
        ? (await this.atRiskCounts(courses, now, ownedBy)).reduce((n, c) => n + c.n, 0)
        : 0;
    const out = rows.map(({ __total: _, ...r }) => ({
      ...r,
      daysWithoutAccess: daysSince(r.lastAccess, now.getTime()),
      rules: RULES.filter((x) => r[x]) as AgendaRule[],
    }));
    return { rows: out, meta: pageMeta(page, perPage, total) };
  }

  /**
   * The courses among these where Moodle has confirmed no student yet (never synchronised): their
   * students are not judged by the at-risk rules. Read after atRisk (the rows are fresh then).
   */
  async unsyncedCourses(
    courses: AgendaCourse[],
  ): Promise<Array<{ id: number; description: string }>> {
    if (!courses.length) return [];
    const { rows } = await sql<{ id: number; description: string }>`
      select c.id, c.description from courses c
      where c.id = any(${courses.map((x) => x.courseId)}::int[])
        and not exists (select 1 from course_follow_up_rows f where f.course_id = c.id and f.synced)
      order by lower(c.description), c.id`.execute(this.db);
    return rows;
  }

  /** When the latest Moodle sync of any course ended (ms), or null: accesses and progress may have moved at-risk students. */
  async lastSyncFinishedAt(): Promise<number | null> {
    const row = await this.db
      .selectFrom('moodle_course_syncs')
      .select((eb) => eb.fn.max('finished_at').as('at'))
      .executeTakeFirst();
    return row?.at ? new Date(row.at as Date).getTime() : null;
  }

  /**
   * Per operator, the at-risk students without contact (of these courses) who have an open ticket
   * assigned to them (ownOpenTicket, as their agenda filtered with `own_open_tickets` lists them): each student counts for the operators with a case open on them, not for
   * everyone in the course, and moves with the ticket when it is reassigned. Every active course
   * with an assigned ticket is judged (the workload table; kept a while by AtRiskTally).
   */
  async atRiskByOperator(now = new Date()): Promise<Array<{ userId: number; n: number }>> {
    const courses = await this.assignedCourses();
    if (!courses.length) return [];
    const { cfg, matches } = await this.atRiskParts(courses, now);
    // Each (student, operator) pair once, then counted per operator: each student's open tickets
    // with their operators are one range of tickets_enrolment_status_idx (migration 0039).
    const { rows } = await sql<{ userId: number; n: number }>`
      with ${cfg}
      select p.user_assigned_id as "userId", count(*)::int as n
      from (
        select distinct f.enrolment_id, t.user_assigned_id
        from cfg
        join course_follow_up_rows f on f.course_id = cfg.course_id and ${matches}
        join tickets t on t.course_registered_user_id = f.enrolment_id and t.status_ticket_id = ${OPEN_STATUS} and t.user_assigned_id is not null
      ) p
      group by p.user_assigned_id`.execute(this.db);
    return rows;
  }

  /** How many at-risk students without contact each course has. */
  async atRiskCounts(
    courses: AgendaCourse[],
    now = new Date(),
    ownedBy?: number,
  ): Promise<Array<{ courseId: number; n: number }>> {
    if (!courses.length) return [];
    const { cfg, counts } = await this.atRiskParts(courses, now, ownedBy);
    const { rows } = await sql<{ courseId: number; n: number }>`
      with ${cfg}
      select c.course_id as "courseId", c.n from (${counts}) c where c.n > 0 order by 1`.execute(
      this.db,
    );
    return rows;
  }

  // -- open tickets without an attempt ----------------------------------------------------------------

  /**
   * An operator's open tickets whose last attempt (or creation, without attempts) is more than
   * `days` days old: the page is chosen from the tickets alone (tickets.last_attempt_at, kept by
   * triggers; in the default order straight from tickets_assigned_stale_idx), then its students'
   * and courses' names are read.
   */
  async staleTickets(
    userId: number,
    days: number,
    q: { page?: number; perPage?: number; sort?: string; order?: 'asc' | 'desc' },
  ) {
    const perPage = q.perPage ?? 10;
    const page = q.page ?? 1;
    const dir = q.order === 'desc' ? sql`desc` : sql`asc`;
    const sort = (
      q.sort && Object.hasOwn(TICKET_SORTS, q.sort)
        ? TICKET_SORTS[q.sort]
        : TICKET_SORTS.lastAttemptAt
    )!;
    const stale = sql`t.user_assigned_id = ${userId} and t.status_ticket_id = ${OPEN_STATUS} and coalesce(t.last_attempt_at, t.created_at) < now() - make_interval(days => ${days})`;
    const [{ rows }, { rows: count }] = await Promise.all([
      sql<{
        id: number;
        ticket_code: string;
        enrolment_id: number;
        course: string;
        student: string;
        rut: string;
        created_at: Date;
        last: Date | null;
      }>`
        with p as (
          select t.id, t.ticket_code, t.course_registered_user_id, t.course_id, t.created_at, t.last_attempt_at, row_number() over (order by ${sort} ${dir}, t.id) as n
          from (select t.* from tickets t where ${stale} order by ${sort} ${dir}, t.id limit ${perPage} offset ${(page - 1) * perPage}) t
        )
        select p.id, p.ticket_code, p.course_registered_user_id as enrolment_id, c.description as course,
          trim(r.name || ' ' || r.last_name || ' ' || coalesce(r.mother_last_name, '')) as student, r.rut, p.created_at, p.last_attempt_at as last
        from p
        join course_registered_users e on e.id = p.course_registered_user_id
        join registered_users r on r.id = e.registered_user_id
        join courses c on c.id = p.course_id
        order by p.n`.execute(this.db),
      sql<{ n: number }>`select count(*)::int as n from tickets t where ${stale}`.execute(this.db),
    ]);
    return { rows, meta: pageMeta(page, perPage, count[0]?.n ?? 0) };
  }

  /**
   * Per active operator and administrator, their open tickets: the sum of their per-course counts
   * (ticket_counts dimension 5, kept by migration 0008's triggers), a few rows per course instead of
   * counting 97,000 open tickets from an index (16 ms of the workload table at 1 M tickets).
   */
  async openCounts() {
    const { rows } = await sql<{ userId: number; open: number }>`
      select u.id as "userId",
        (select coalesce(sum(k.n), 0)::int from ticket_counts k where k.dim = ${DIM.operator} and k.value = u.id and k.status_ticket_id = ${OPEN_STATUS}) as open
      from ${WORKLOAD_STAFF}`.execute(this.db);
    return rows;
  }

  // -- workload -----------------------------------------------------------------------------------

  /**
   * Active operators and administrators with their pending reminders due today (not yet past) and
   * overdue, and their role: each count a range of reminders_user_state_due_idx (where joining every
   * pending reminder took 7 ms at 17,000 of them, the ranges take 2.6).
   */
  async reminderLoad() {
    const pending = sql`rm.user_id = u.id and rm.state = 'pending'`;
    const { rows } = await sql<{
      userId: number;
      name: string;
      role: string;
      due: number;
      overdue: number;
    }>`
      select u.id as "userId", u.name, ro.key as role,
        (select count(*)::int from reminders rm where ${pending} and rm.due_at > now() and rm.due_at < ${END_OF_TODAY}) as due,
        (select count(*)::int from reminders rm where ${pending} and rm.due_at <= now()) as overdue
      from ${WORKLOAD_STAFF}
      order by lower(u.name), u.id`.execute(this.db);
    return rows;
  }
}
