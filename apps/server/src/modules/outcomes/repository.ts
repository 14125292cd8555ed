import { APP_TIME_ZONE, type OutcomeDimension } from '@sigaf/contract';
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.js';

const local = (ts: RawBuilder<unknown>) => sql`(${ts} at time zone ${APP_TIME_ZONE})`;

/** The idle group (IDLE_GROUPS: days without Moodle access) of a last access seen at an instant (null last access: never; no figures before it: unknown). */
const idleGroup = (known: RawBuilder<unknown>, access: RawBuilder<unknown>, at: RawBuilder<unknown>) => sql`case
    when not ${known} then 'unknown' when ${access} is null then 'never'
    when ${at} - ${access} < interval '3 days' then '0-2' when ${at} - ${access} < interval '7 days' then '3-6'
    when ${at} - ${access} < interval '14 days' then '7-13' when ${at} - ${access} < interval '30 days' then '14-29' else '30+' end`;

/** Which attempts: of a course, of an operator, logged in [from, to). */
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
  /** Only attempts whose 7 days have passed (the report's rates are final). */
  settled?: boolean;
}

/** What each dimension groups attempts by (its key), as SQL over `g` (an attempt's outcome and its ticket's catalogue values). */
const GROUP_KEY: Record<OutcomeDimension, RawBuilder<unknown>> = {
  all: sql`'all'`,
  type: sql`g.type_ticket_id::text`,
  source: sql`g.source_ticket_id::text`,
  motive: sql`g.motive_ticket_id::text`,
  operator: sql`g.operator_id::text`,
  hour: sql`lpad(extract(hour from ${local(sql`g.at`)})::text, 2, '0')`,
  weekday: sql`extract(isodow from ${local(sql`g.at`)})::text`,
  idle: sql`g.idle`,
};

/** A group's name where it has one: the catalogue value or the operator's name. */
const GROUP_LABEL = sql`case c.dim
    when 'type' then (select x.description from type_tickets x where x.id = c.key::int)
    when 'source' then (select x.description from source_tickets x where x.id = c.key::int)
    when 'motive' then (select x.description from motive_tickets x where x.id = c.key::int)
    when 'operator' then (select x.name from users x where x.id = c.key::int) end`;

/** One group's figures: contacts, re-engaged within 7 days, progress gained within 7 days; the same for its baseline. */
export interface OutcomeGroupRow {
  dim: OutcomeDimension;
  key: string;
  label: string | null;
  n: number;
  accessed: number;
  gain_n: number;
  gain: number | null;
  base_n: number;
  base_accessed: number;
  base_gain: number | null;
}

export interface AttemptOutcomeRow {
  id: number;
  ticket_id: number;
  at: Date;
  progress_before: number | null;
  first_access_after: Date | null;
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
        ...(f.ownerId ? [sql`(t.user_assigned_id = ${f.ownerId} or t.user_create_id = ${f.ownerId})`] : []),
        ...(f.ticketId ? [sql`d.ticket_id = ${f.ticketId}`] : []),
        ...(f.enrolmentId ? [sql`t.course_registered_user_id = ${f.enrolmentId}`] : []),
        ...(f.from ? [sql`d.created_at >= ${f.from}`] : []),
        ...(f.to ? [sql`d.created_at < ${f.to}`] : []),
        ...(f.settled ? [sql`d.created_at <= now() - interval '7 days'`] : []),
      ],
      sql` and `,
    );
    return sql`
      select d.id, d.ticket_id, d.course_id, d.user_created_id as operator_id, d.created_at as at, t.course_registered_user_id as enrolment_id,
        b.progress as progress_before, ${idleGroup(sql`(b.recorded_at is not null)`, sql`b.last_access`, sql`d.created_at`)} as idle,
        ${local(sql`d.created_at`)}::date as day,
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
    return (await this.db.selectFrom('tickets').select('course_registered_user_id').where('id', '=', ticketId).executeTakeFirstOrThrow()).course_registered_user_id;
  }

  async courseExists(courseId: number): Promise<boolean> {
    return Boolean(await this.db.selectFrom('courses').select('id').where('id', '=', courseId).executeTakeFirst());
  }

  /** Each attempt's outcome, oldest first. */
  async ofAttempts(f: AttemptFilter): Promise<AttemptOutcomeRow[]> {
    const { rows } = await sql<AttemptOutcomeRow>`
      with o as (${this.outcomes(f)})
      select o.id, o.ticket_id, o.at, o.progress_before, o.first_access_after, o.progress_7, o.progress_14 from o order by o.at, o.id`.execute(this.db);
    return rows;
  }

  /**
   * The report's groups of these dimensions over the attempts whose 7 days have passed, in one
   * statement: each attempt's outcome and each population figure is computed once, and grouped
   * for every dimension. The baseline of a group: the students of the same courses, on the same
   * days, in the same idle group as its contacts, with no attempt from 7 days before to 7 days
   * after that day; measured from the start of that day. The CTEs are materialised so that the
   * population of a course's day is computed once, not once per stratum that joins it.
   */
  async groups(dims: readonly OutcomeDimension[], f: AttemptFilter): Promise<OutcomeGroupRow[]> {
    return (await this.groupsQuery(dims, f).execute(this.db)).rows;
  }

  /** The statement of groups() (the benchmark explains it). */
  groupsQuery(dims: readonly OutcomeDimension[], f: AttemptFilter) {
    const keys = sql.join(dims.map((d) => sql`(${d}, ${GROUP_KEY[d]})`));
    return sql<OutcomeGroupRow>`
      with o as (${this.outcomes({ ...f, settled: true })}),
      g as materialized (
        select o.*, t.type_ticket_id, t.source_ticket_id, t.motive_ticket_id,
          o.first_access_after <= o.at + interval '7 days' as accessed, o.progress_7 - o.progress_before as gain
        from o join tickets t on t.id = o.ticket_id
      ),
      keyed as materialized (
        select v.dim, v.key, g.course_id, g.day, g.idle, g.accessed, g.gain
        from g cross join lateral (values ${keys}) as v (dim, key)
      ),
      contacts as (
        select dim, key, count(*)::int as n, count(*) filter (where accessed)::int as accessed, count(gain)::int as gain_n, avg(gain)::float8 as gain
        from keyed group by dim, key
      ),
      strata as materialized (select distinct course_id, day, idle from g where idle <> 'unknown'),
      days as materialized (
        select distinct course_id, day, (day::timestamp at time zone ${APP_TIME_ZONE}) as start from strata
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
      ),
      stratum as (
        select s.course_id, s.day, s.idle, count(*)::int as n, count(*) filter (where p.accessed)::int as accessed,
          count(p.gain)::int as gain_n, sum(p.gain)::float8 as gain_sum
        from strata s join population p on p.course_id = s.course_id and p.day = s.day and p.idle = s.idle
        group by 1, 2, 3
      ),
      base as (
        select x.dim, x.key, sum(st.n)::int as n, sum(st.accessed)::int as accessed, sum(st.gain_sum) / nullif(sum(st.gain_n), 0) as gain
        from (select distinct dim, key, course_id, day, idle from keyed) x
        join stratum st on st.course_id = x.course_id and st.day = x.day and st.idle = x.idle
        group by x.dim, x.key
      )
      select c.dim, c.key, ${GROUP_LABEL} as label, c.n, c.accessed, c.gain_n, c.gain,
        coalesce(b.n, 0) as base_n, coalesce(b.accessed, 0) as base_accessed, b.gain::float8 as base_gain
      from contacts c left join base b on b.dim = c.dim and b.key = c.key
      order by c.dim, c.key`;
  }
}
