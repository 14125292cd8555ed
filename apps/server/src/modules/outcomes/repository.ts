import { APP_TIME_ZONE, OUTCOME_DIMENSIONS, type OutcomeDimension } from '@sigaf/contract';
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import { NO_MOMENTS, type StudentMoments } from './stats.js';

const local = (ts: RawBuilder<unknown>) => sql`(${ts} at time zone ${APP_TIME_ZONE})`;

/** The idle group (IDLE_GROUPS: days without Moodle access) of a last access seen at an instant (null last access: never; no figures before it: unknown). */
const idleGroup = (
  known: RawBuilder<unknown>,
  access: RawBuilder<unknown>,
  at: RawBuilder<unknown>,
) => sql`case
    when not ${known} then 'unknown' when ${access} is null then 'never'
    when ${at} - ${access} < interval '3 days' then '0-2' when ${at} - ${access} < interval '7 days' then '3-6'
    when ${at} - ${access} < interval '14 days' then '7-13' when ${at} - ${access} < interval '30 days' then '14-29' else '30+' end`;

/**
 * Re-engaged: the student's first Moodle access after the contact came within 7 days of it. The
 * one definition behind the report's rate, its kept days, the student box and Mi agenda's
 * suggestions (over an attempt's outcome, `o`).
 */
const REENGAGED = sql`coalesce(o.first_access_after <= o.at + interval '7 days', false)`;

/**
 * Known: the student has Moodle figures recorded no later than 7 days after the contact (before
 * it, or within its window). Otherwise the contact is "sin datos": counted apart, out of every rate
 * and denominator (a course never synchronised, a student without history, an attempt long before
 * a legacy import's single point).
 */
const KNOWN = sql`exists (select 1 from enrolment_progress_history h
  where h.enrolment_id = t.course_registered_user_id and h.recorded_at <= d.created_at + interval '7 days')`;

/** The start of the ISO week (Monday, Chile's calendar) of an instant, as an instant. */
const weekStart = (ts: RawBuilder<unknown>) =>
  sql`(date_trunc('week', ${local(ts)}) at time zone ${APP_TIME_ZONE})`;
const weekEnd = (ts: RawBuilder<unknown>) =>
  sql`((date_trunc('week', ${local(ts)}) + interval '7 days') at time zone ${APP_TIME_ZONE})`;

/** Another attempt on the same student (enrolment) in the attempt's ISO week, narrowed by `cond` over `d0`. */
const sameStudentWeek = (
  cond: RawBuilder<unknown>,
) => sql`select 1 from ticket_details d0 join tickets t0 on t0.id = d0.ticket_id
  where t0.course_registered_user_id = t.course_registered_user_id
    and d0.created_at >= ${weekStart(sql`d.created_at`)} and d0.created_at < ${weekEnd(sql`d.created_at`)} and ${cond}`;

/**
 * The student-week, the report's unit: the first contact of a student (enrolment) in an ISO week
 * in Chile's calendar stands for the week; its later attempts that week count as its contacts.
 */
const FIRST_OF_WEEK = sql`not exists (${sameStudentWeek(sql`(d0.created_at, d0.id) < (d.created_at, d.id)`)})`;

/** The medium of the ticket's type, for the attempts that do not say theirs (the original client's API, legacy data). */
const TYPE_MEDIUM = sql`(case (select x.key from type_tickets x where x.id = t.type_ticket_id)
    when 'phone' then 'call' when 'email' then 'email' when 'whatsapp' then 'whatsapp' when 'sms' then 'sms' else 'other' end)`;

/** Which attempts: of a course, of an operator, logged in [from, to) or on given Chilean days. */
export interface AttemptFilter {
  courseId?: number;
  /** Attempts logged by this user. */
  operatorId?: number;
  /** Attempts on tickets assigned to or created by this user (what an operator may touch). */
  ownerId?: number;
  ticketId?: number;
  enrolmentId?: number;
  from?: Date;
  to?: Date;
  /** Attempts logged on these Chilean days (YYYY-MM-DD, ascending). */
  days?: readonly string[];
  /** Only each student-week's first contact (FIRST_OF_WEEK). */
  firstOfWeek?: boolean;
}

/** What a report covers: a course, an operator (the attempts they logged), and Chilean days, both included. */
export interface GroupFilter {
  courseId?: number;
  operatorId?: number;
  fromDay: string;
  toDay: string;
}

/** The figures summed per group (a kept day's row, or a live day's): contacts and their baseline. */
const SUM_NAMES = [
  'n',
  'accessed',
  'gain_n',
  'gain_sum',
  'base_n',
  'base_accessed',
  'base_gain_n',
  'base_gain_sum',
  'contacts',
  'unknown',
  'inferred',
  'base_matched',
  'base_matched_accessed',
  'base_expected',
  'base_var',
] as const;
const SUM_COLUMNS = sql.raw(SUM_NAMES.join(', '));

/** The start of a Chilean day, as the report's SQL computes it. */
const dayStart = (day: RawBuilder<unknown>) =>
  sql`(${day}::timestamp at time zone ${APP_TIME_ZONE})`;

/** The days from `from` to `to` (YYYY-MM-DD, both included), ascending. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T12:00:00Z`); t <= Date.parse(`${to}T12:00:00Z`); t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/**
 * The dimensions groups are computed for: the report's, and two kept for a course only, for Mi
 * agenda's suggestion to similar students: the medium and the hour within each idle group (key
 * `<medium or hour>|<idle group>`).
 */
export type GroupDimension = OutcomeDimension | 'medium_idle' | 'hour_idle' | 'student';
export const SIMILAR_DIMENSIONS = ['medium_idle', 'hour_idle'] as const;
/**
 * Each student's own student-weeks (key: the enrolment), for the report's design effect: what
 * repeated weeks of one student do to the intervals (stats.ts, designEffect). No baseline.
 */
export const STUDENT_DIMENSION = 'student' as const;
/** What the keeper keeps: every dimension (the similar ones for the course scope only). */
const KEPT_DIMENSIONS: readonly GroupDimension[] = [
  ...OUTCOME_DIMENSIONS,
  ...SIMILAR_DIMENSIONS,
  STUDENT_DIMENSION,
];

const hourOf = sql`lpad(extract(hour from ${local(sql`g.at`)})::text, 2, '0')`;

/** What each dimension groups attempts by (its key), as SQL over `g` (an attempt's outcome and its ticket's catalogue values). */
const GROUP_KEY: Record<GroupDimension, RawBuilder<unknown>> = {
  all: sql`'all'`,
  type: sql`g.type_ticket_id::text`,
  medium: sql`g.medium`,
  source: sql`g.source_ticket_id::text`,
  motive: sql`g.motive_ticket_id::text`,
  operator: sql`g.operator_id::text`,
  hour: hourOf,
  weekday: sql`extract(isodow from ${local(sql`g.at`)})::text`,
  idle: sql`g.idle`,
  medium_idle: sql`g.medium || '|' || g.idle`,
  hour_idle: sql`${hourOf} || '|' || g.idle`,
  student: sql`g.enrolment_id::text`,
};

/** A group's name where it has one: the catalogue value or the operator's name. */
const GROUP_LABEL = sql`case c.dim
    when 'type' then (select x.description from type_tickets x where x.id = c.key::int)
    when 'source' then (select x.description from source_tickets x where x.id = c.key::int)
    when 'motive' then (select x.description from motive_tickets x where x.id = c.key::int)
    when 'operator' then (select x.name from users x where x.id = c.key::int) end`;

/** One group's figures: contacts, re-engaged within 7 days, progress gained within 7 days; the same for its baseline. */
export interface OutcomeGroupRow {
  dim: GroupDimension;
  key: string;
  label: string | null;
  n: number;
  accessed: number;
  gain_n: number;
  gain: number | null;
  base_n: number;
  base_accessed: number;
  base_gain: number | null;
  /** Every attempt of the group's student-weeks; the student-weeks "sin datos" (KNOWN); those whose medium was inferred. */
  contacts: number;
  unknown: number;
  inferred: number;
  /** The student-weeks whose stratum (course, day, idle group) has a baseline, and their re-engaged. */
  base_matched: number;
  base_matched_accessed: number;
  /** The re-engaged the baseline predicts for those (Σ stratum rates), and that prediction's variance. */
  base_expected: number;
  base_var: number;
}

export interface AttemptOutcomeRow {
  id: number;
  ticket_id: number;
  at: Date;
  progress_before: number | null;
  first_access_after: Date | null;
  /** Back in Moodle within 7 days of the attempt (REENGAGED). */
  reengaged: boolean;
  progress_7: number | null;
  progress_14: number | null;
}

/**
 * The outcome of each contact attempt from its student's progress history (migration 0035), as
 * the syncs saw it: the last figures at or before the attempt, the first last access after it,
 * the progress 7 and 14 days after (the last figures by then). Reads the history's primary key only.
 */
export class OutcomeRepository {
  constructor(private readonly db: Database) {}

  /** The CTE body of every attempt's outcome (columns of `o`), narrowed by the filter. */
  private outcomes(f: AttemptFilter) {
    const where = sql.join(
      [
        sql`true`,
        ...(f.courseId ? [sql`d.course_id = ${f.courseId}`] : []),
        ...(f.operatorId ? [sql`d.user_created_id = ${f.operatorId}`] : []),
        ...(f.ownerId
          ? [sql`(t.user_assigned_id = ${f.ownerId} or t.user_create_id = ${f.ownerId})`]
          : []),
        ...(f.ticketId ? [sql`d.ticket_id = ${f.ticketId}`] : []),
        ...(f.enrolmentId ? [sql`t.course_registered_user_id = ${f.enrolmentId}`] : []),
        ...(f.from ? [sql`d.created_at >= ${f.from}`] : []),
        ...(f.to ? [sql`d.created_at < ${f.to}`] : []),
        ...(f.firstOfWeek ? [FIRST_OF_WEEK] : []),
        ...(f.days
          ? [
              sql`d.created_at >= ${dayStart(sql`${f.days[0] ?? null}::date`)} and d.created_at < ${dayStart(sql`(${f.days.at(-1) ?? null}::date + 1)`)}`,
              sql`${local(sql`d.created_at`)}::date = any(${f.days as string[]}::date[])`,
            ]
          : []),
      ],
      sql` and `,
    );
    return sql`
      select d.id, d.ticket_id, d.course_id, d.user_created_id as operator_id, d.created_at as at, t.course_registered_user_id as enrolment_id,
        b.progress as progress_before, ${idleGroup(sql`(b.recorded_at is not null)`, sql`b.last_access`, sql`d.created_at`)} as idle,
        ${local(sql`d.created_at`)}::date as day, ${KNOWN} as known,
        coalesce(d.medium, ${TYPE_MEDIUM}) as medium, d.medium is null as inferred,
        (select count(*) from (${sameStudentWeek(sql`true`)}) w)::int as week_contacts,
        (select min(h.last_access) from enrolment_progress_history h
          where h.enrolment_id = t.course_registered_user_id and h.recorded_at > d.created_at and h.last_access > d.created_at) as first_access_after,
        (select h.progress from enrolment_progress_history h where h.enrolment_id = t.course_registered_user_id and h.recorded_at <= d.created_at + interval '7 days'
          order by h.recorded_at desc limit 1) as progress_7,
        (select h.progress from enrolment_progress_history h where h.enrolment_id = t.course_registered_user_id and h.recorded_at <= d.created_at + interval '14 days'
          order by h.recorded_at desc limit 1) as progress_14
      from ticket_details d
      join tickets t on t.id = d.ticket_id
      left join lateral (
        select h.recorded_at, h.progress, h.last_access from enrolment_progress_history h
        where h.enrolment_id = t.course_registered_user_id and h.recorded_at <= d.created_at order by h.recorded_at desc limit 1
      ) b on true
      where ${where}`;
  }

  async enrolmentOfTicket(ticketId: number): Promise<number> {
    return (
      await this.db
        .selectFrom('tickets')
        .select('course_registered_user_id')
        .where('id', '=', ticketId)
        .executeTakeFirstOrThrow()
    ).course_registered_user_id;
  }

  /** Whether the user has a ticket of the course assigned to them (the course is in their agenda). */
  async assignedInCourse(userId: number, courseId: number): Promise<boolean> {
    return Boolean(
      await this.db
        .selectFrom('tickets')
        .select('id')
        .where('user_assigned_id', '=', userId)
        .where('course_id', '=', courseId)
        .limit(1)
        .executeTakeFirst(),
    );
  }

  /** The course's name, or null when there is no such course. */
  async courseName(courseId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('courses')
      .select('description')
      .where('id', '=', courseId)
      .executeTakeFirst();
    return row?.description ?? null;
  }

  /** Each attempt's outcome, oldest first. */
  async ofAttempts(f: AttemptFilter): Promise<AttemptOutcomeRow[]> {
    const { rows } = await sql<AttemptOutcomeRow>`
      with o as (${this.outcomes(f)})
      select o.id, o.ticket_id, o.at, o.progress_before, o.first_access_after, ${REENGAGED} as reengaged, o.progress_7, o.progress_14 from o order by o.at, o.id`.execute(
      this.db,
    );
    return rows;
  }

  /**
   * Per Chilean day, scope and dimension group, the sums of the attempts `f` selects and of their
   * baseline: CTEs ending in `sums` (day, s_course, s_op, dim, key, SUM_COLUMNS). Each attempt's
   * outcome and each population figure is computed once, and grouped for every dimension. The
   * baseline of a group: the students of the same courses, on the same days, in the same idle
   * group as its contacts, with no attempt nor mail sent from 7 days before to 7 days after that day,
   * standardised to the group's student-weeks per stratum (course, day, idle group); measured
   * from the start of that day. Scopes: `filter`, the filter's course and operator (0 when none);
   * `all`, the three a kept day holds (the organisation, the attempt's course, its operator). The
   * CTEs are materialised so that the population of a course's day is computed once, not once
   * per stratum that joins it. With `all`, the similar students' groups are computed for the course
   * scope only, and only for the days from `similarFrom` (the only ones Mi agenda reads).
   */
  private sums(
    dims: readonly GroupDimension[],
    f: AttemptFilter,
    scopes: 'filter' | 'all',
    similarFrom = '0001-01-01',
  ) {
    const keys = sql.join(dims.map((d) => sql`(${d}, ${GROUP_KEY[d]})`));
    const scope =
      scopes === 'all'
        ? sql`(0, 0), (g.course_id, 0), (0, g.operator_id)`
        : sql`(${f.courseId ?? 0}::int, ${f.operatorId ?? 0}::int)`;
    return sql`
      o as (${this.outcomes(f)}),
      g as materialized (
        select o.*, t.type_ticket_id, t.source_ticket_id, t.motive_ticket_id,
          ${REENGAGED} as accessed, o.progress_7 - o.progress_before as gain
        from o join tickets t on t.id = o.ticket_id
      ),
      keyed as materialized (
        select s.course_id as s_course, s.operator_id as s_op, v.dim, v.key, g.course_id, g.day, g.idle, g.accessed, g.gain,
          g.known, g.inferred, g.week_contacts
        from g cross join lateral (values ${keys}) as v (dim, key) cross join lateral (values ${scope}) as s (course_id, operator_id)
        ${scopes === 'all' ? sql`where v.dim not in ('medium_idle', 'hour_idle') or (s.course_id <> 0 and s.operator_id = 0 and g.day >= ${similarFrom}::date)` : sql``}
      ),
      contacts as (
        select day, s_course, s_op, dim, key, count(*) filter (where known)::int as n, count(*) filter (where known and accessed)::int as accessed,
          count(gain) filter (where known)::int as gain_n, coalesce(sum(gain) filter (where known), 0)::bigint as gain_sum,
          coalesce(sum(week_contacts) filter (where known), 0)::int as contacts, count(*) filter (where not known)::int as unknown,
          count(*) filter (where known and inferred)::int as inferred
        from keyed group by 1, 2, 3, 4, 5
      ),
      strata as materialized (select distinct course_id, day, idle from g where known and idle <> 'unknown'),
      days as materialized (
        select distinct course_id, day, ${dayStart(sql`day`)} as start from strata
      ),
      contacted as materialized (
        select distinct t2.course_registered_user_id as enrolment_id, d2.created_at as at
        from ticket_details d2 join tickets t2 on t2.id = d2.ticket_id
        where d2.created_at > (select min(start) from days) - interval '7 days' and d2.created_at < (select max(start) from days) + interval '8 days'
          and t2.course_id in (select course_id from days)
      ),
      population as materialized (
        select k.course_id, k.day, ${idleGroup(sql`true`, sql`b.last_access`, sql`k.start`)} as idle,
          b.first_after <= k.start + interval '7 days' as accessed, b.progress_7 - b.progress as gain
        from days k
        join course_registered_users e on e.course_id = k.course_id
        join profiles p on p.id = e.profile_id and p.key = 'student'
        cross join lateral (
          select (array_agg(h.progress order by h.recorded_at desc) filter (where h.recorded_at <= k.start))[1] as progress,
            (array_agg(h.last_access order by h.recorded_at desc) filter (where h.recorded_at <= k.start))[1] as last_access,
            bool_or(h.recorded_at <= k.start) as known,
            min(h.last_access) filter (where h.recorded_at > k.start and h.last_access > k.start) as first_after,
            (array_agg(h.progress order by h.recorded_at desc) filter (where h.recorded_at <= k.start + interval '7 days'))[1] as progress_7
          from enrolment_progress_history h where h.enrolment_id = e.id
        ) b
        where b.known and not exists (
          select 1 from contacted c where c.enrolment_id = e.id and c.at > k.start - interval '7 days' and c.at < k.start + interval '8 days'
        )
        -- A student mailed from SIGAF without a ticket was contacted too. Mails are sent at the time they
        -- are sent, so a new one never changes a day that may be kept (those end 8 days ago): no stale marking.
        and not exists (
          select 1 from mail_messages m where m.enrolment_id = e.id and m.status = 'sent'
            and m.sent_at > k.start - interval '7 days' and m.sent_at < k.start + interval '8 days'
        )
      ),
      stratum as materialized (
        select p.course_id, p.day, p.idle, count(*)::int as n, count(*) filter (where p.accessed)::int as accessed,
          count(p.gain)::int as gain_n, coalesce(sum(p.gain), 0)::bigint as gain_sum
        from population p group by 1, 2, 3
      ),
      base as (
        -- Standardised to the group's contacts: each stratum's rate weighted by the group's student-weeks in it
        -- (expected = the re-engaged the baseline predicts; var: its variance, k² p (1 − p) / N per stratum).
        select x.day, x.s_course, x.s_op, x.dim, x.key, sum(st.n)::int as n, sum(st.accessed)::int as accessed,
          sum(st.gain_n)::int as gain_n, sum(st.gain_sum)::bigint as gain_sum,
          sum(x.k)::int as matched, sum(x.a)::int as matched_accessed,
          sum(x.k * st.accessed::float8 / st.n) as expected,
          sum(x.k::float8 * x.k * (st.accessed::float8 / st.n) * (1 - st.accessed::float8 / st.n) / st.n) as var
        from (
          select day, s_course, s_op, dim, key, course_id, idle, count(*) as k, count(*) filter (where accessed) as a
          from keyed where known and dim <> ${STUDENT_DIMENSION} group by 1, 2, 3, 4, 5, 6, 7
        ) x
        join stratum st on st.course_id = x.course_id and st.day = x.day and st.idle = x.idle
        group by 1, 2, 3, 4, 5
      ),
      sums as (
        select c.day, c.s_course, c.s_op, c.dim, c.key, c.n, c.accessed, c.gain_n, c.gain_sum,
          coalesce(b.n, 0) as base_n, coalesce(b.accessed, 0) as base_accessed, coalesce(b.gain_n, 0) as base_gain_n, coalesce(b.gain_sum, 0)::bigint as base_gain_sum,
          c.contacts, c.unknown, c.inferred, coalesce(b.matched, 0) as base_matched, coalesce(b.matched_accessed, 0) as base_matched_accessed,
          coalesce(b.expected, 0)::float8 as base_expected, coalesce(b.var, 0)::float8 as base_var
        from contacts c left join base b on b.day = c.day and b.s_course = c.s_course and b.s_op = c.s_op and b.dim = c.dim and b.key = c.key
      )`;
  }

  /** Whether kept days hold this scope (the organisation, a course or an operator; not a course and an operator together). */
  static keptScope(f: GroupFilter): boolean {
    return !(f.courseId && f.operatorId);
  }

  /** The kept days among these (YYYY-MM-DD) that no write has made stale since (outcome_stale_days, migration 0043). */
  async keptDays(db: Database, fromDay: string, toDay: string): Promise<Set<string>> {
    const { rows } = await sql<{ day: string }>`
      select to_char(k.day, 'YYYY-MM-DD') as day from outcome_kept_days k
      where k.day between ${fromDay}::date and ${toDay}::date and not exists (select 1 from outcome_stale_days s where s.day = k.day)`.execute(
      db,
    );
    return new Set(rows.map((r) => r.day));
  }

  /**
   * The report's groups of these dimensions over the filter's days, in one snapshot: the kept
   * days' rows (outcome_kept_groups) where the scope is kept, and the other days computed live,
   * summed per group.
   */
  async groups(dims: readonly GroupDimension[], f: GroupFilter): Promise<OutcomeGroupRow[]> {
    return (await this.report(dims, f, false)).rows;
  }

  /**
   * groups() of these dimensions, and with `moments` the student dimension's moments (for the
   * design effect) summed in the database rather than returned a row per student, in one snapshot.
   */
  async report(
    dims: readonly GroupDimension[],
    f: GroupFilter,
    moments: boolean,
  ): Promise<{ rows: OutcomeGroupRow[]; moments: StudentMoments }> {
    if (f.fromDay > f.toDay) return { rows: [], moments: NO_MOMENTS };
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        // The live CTEs' estimates would have the JIT compile a statement that mostly reads kept rows.
        await sql`set local jit = off`.execute(trx);
        const kept = OutcomeRepository.keptScope(f)
          ? await this.keptDays(trx, f.fromDay, f.toDay)
          : new Set<string>();
        const live = daysBetween(f.fromDay, f.toDay).filter((d) => !kept.has(d));
        const keptDays = [...kept];
        const rows = (await this.groupsQuery(dims, f, live, keptDays).execute(trx)).rows;
        if (!moments) return { rows, moments: NO_MOMENTS };
        const m = await sql<StudentMoments>`
          with ${this.unionOf([STUDENT_DIMENSION], f, live, keptDays)},
          s as (select sum(n)::float8 as m, sum(accessed)::float8 as y from u group by key)
          select count(*)::int as g, coalesce(sum(m), 0)::float8 as m, coalesce(sum(y), 0)::float8 as y,
            coalesce(sum(y * y), 0)::float8 as yy, coalesce(sum(y * m), 0)::float8 as ym, coalesce(sum(m * m), 0)::float8 as mm
          from s where m > 0`.execute(trx);
        return { rows, moments: m.rows[0] ?? NO_MOMENTS };
      });
  }

  /** `sums` (the `live` days computed) and `u`: those sums beside the rows of the `kept` days (read in the same snapshot: not stale). */
  private unionOf(
    dims: readonly GroupDimension[],
    f: GroupFilter,
    live: readonly string[],
    kept: readonly string[],
  ) {
    const parts = [
      ...(live.length ? [sql`select dim, key, ${SUM_COLUMNS} from sums`] : []),
      ...(kept.length
        ? [
            sql`select dim, key, ${SUM_COLUMNS} from outcome_kept_groups
              where course_id = ${f.courseId ?? 0} and operator_id = ${f.operatorId ?? 0}
                and dim = any(${dims as string[]}::text[]) and day = any(${kept as string[]}::date[])`,
          ]
        : []),
    ];
    if (!parts.length)
      parts.push(
        sql`select null::text as dim, null::text as key, ${sql.join(SUM_NAMES.map(() => sql`0::float8`))} where false`,
      );
    const attempts: AttemptFilter = {
      courseId: f.courseId,
      operatorId: f.operatorId,
      days: live,
      firstOfWeek: true,
    };
    return sql`${live.length ? sql`${this.sums(dims, attempts, 'filter')},` : sql``}
      u as (${sql.join(parts, sql` union all `)})`;
  }

  /** The statement of groups(): the sums of the `live` days computed, plus the rows of the `kept` days. */
  groupsQuery(
    dims: readonly GroupDimension[],
    f: GroupFilter,
    live: readonly string[],
    kept: readonly string[],
  ) {
    return sql<OutcomeGroupRow>`
      with ${this.unionOf(dims, f, live, kept)}
      select c.dim, c.key, ${GROUP_LABEL} as label, sum(c.n)::int as n, sum(c.accessed)::int as accessed,
        sum(c.gain_n)::int as gain_n, sum(c.gain_sum)::float8 / nullif(sum(c.gain_n), 0) as gain,
        sum(c.base_n)::int as base_n, sum(c.base_accessed)::int as base_accessed, sum(c.base_gain_sum)::float8 / nullif(sum(c.base_gain_n), 0) as base_gain,
        sum(c.contacts)::int as contacts, sum(c.unknown)::int as unknown, sum(c.inferred)::int as inferred,
        sum(c.base_matched)::int as base_matched, sum(c.base_matched_accessed)::int as base_matched_accessed,
        -- Rounded: float sums differ in their last bits with the order of the days (kept or live).
        round(sum(c.base_expected)::numeric, 9)::float8 as base_expected, round(sum(c.base_var)::numeric, 9)::float8 as base_var
      from u c group by c.dim, c.key
      order by c.dim, c.key`;
  }

  /** Which of the days from `fromDay` to `toDay` need keeping: not kept yet, or made stale by a write since (migration 0043). Newest first, at most `limit`. */
  async daysToKeep(fromDay: string, toDay: string, limit: number): Promise<string[]> {
    const { rows } = await sql<{ day: string }>`
      select to_char(dd, 'YYYY-MM-DD') as day from generate_series(${fromDay}::date, ${toDay}::date, interval '1 day') dd
      where not exists (select 1 from outcome_kept_days k where k.day = dd::date) or exists (select 1 from outcome_stale_days s where s.day = dd::date)
      order by dd desc limit ${limit}`.execute(this.db);
    return rows.map((r) => r.day);
  }

  /**
   * Keeps these days' figures (every dimension, the three kept scopes), in one transaction: one
   * keeper at a time (the others wait, then find those days kept); the days that still need it
   * lose their stale marks before they are computed (a write committed later marks them again),
   * are marked kept at `now` and have their rows replaced. Returns the days kept.
   */
  async keep(days: readonly string[], now: Date, similarFrom: string): Promise<string[]> {
    if (!days.length) return [];
    return this.db.transaction().execute(async (trx) => {
      await sql`set local jit = off`.execute(trx);
      await sql`select pg_advisory_xact_lock(hashtext('sigaf-outcome-keeper'))`.execute(trx);
      const { rows } = await sql<{ day: string }>`
        select to_char(d, 'YYYY-MM-DD') as day from unnest(${days as string[]}::date[]) d
        where not exists (select 1 from outcome_kept_days k where k.day = d) or exists (select 1 from outcome_stale_days s where s.day = d)
        order by d`.execute(trx);
      const claimed = rows.map((r) => r.day);
      if (!claimed.length) return [];
      await sql`delete from outcome_stale_days where day = any(${claimed}::date[])`.execute(trx);
      await sql`
        insert into outcome_kept_days (day, kept_at) select unnest(${claimed}::date[]), ${now}::timestamptz
        on conflict (day) do update set kept_at = excluded.kept_at`.execute(trx);
      await sql`delete from outcome_kept_groups where day = any(${claimed}::date[])`.execute(trx);
      await sql`
        with ${this.sums(KEPT_DIMENSIONS, { days: claimed, firstOfWeek: true }, 'all', similarFrom)}
        insert into outcome_kept_groups (day, course_id, operator_id, dim, key, ${SUM_COLUMNS})
        select day, s_course, s_op, dim, key, ${SUM_COLUMNS} from sums
        -- In the primary key's order: a scope's rows of the chunk's days sit together, so a report reads few pages.
        order by s_course, s_op, day, dim, key`.execute(trx);
      // The similar students' groups of the days Mi agenda no longer reads (two weeks of them: any day the keeper ran).
      await sql`delete from outcome_kept_groups where day < ${similarFrom}::date and day >= ${similarFrom}::date - 14 and dim in ('medium_idle', 'hour_idle')`.execute(
        trx,
      );
      return claimed;
    });
  }

  /** Forgets every kept day (a legacy import or the demo's data rewrite most of them: cheaper than marking each): the keeper computes them again. */
  async forgetKept(db: Database = this.db): Promise<void> {
    await sql`delete from outcome_kept_groups`.execute(db);
    await sql`delete from outcome_kept_days`.execute(db);
    await sql`delete from outcome_stale_days`.execute(db);
  }
}
