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

/** What each dimension groups attempts by, as SQL over `o` (the attempts' outcomes) and `t` (their tickets). */
const GROUP_SQL: Record<OutcomeDimension, { key: RawBuilder<unknown>; label: RawBuilder<unknown>; join: RawBuilder<unknown> }> = {
  all: { key: sql`'all'`, label: sql`null::text`, join: sql`` },
  type: { key: sql`t.type_ticket_id::text`, label: sql`x.description`, join: sql`join type_tickets x on x.id = t.type_ticket_id` },
  source: { key: sql`t.source_ticket_id::text`, label: sql`x.description`, join: sql`join source_tickets x on x.id = t.source_ticket_id` },
  motive: { key: sql`t.motive_ticket_id::text`, label: sql`x.description`, join: sql`join motive_tickets x on x.id = t.motive_ticket_id` },
  operator: { key: sql`o.operator_id::text`, label: sql`x.name`, join: sql`join users x on x.id = o.operator_id` },
  hour: { key: sql`lpad(extract(hour from ${local(sql`o.at`)})::text, 2, '0')`, label: sql`null::text`, join: sql`` },
  weekday: { key: sql`extract(isodow from ${local(sql`o.at`)})::text`, label: sql`null::text`, join: sql`` },
  idle: { key: sql`o.idle`, label: sql`null::text`, join: sql`` },
};

/** One group's figures: contacts, re-engaged within 7 days, progress gained within 7 days; the same for its baseline. */
export interface OutcomeGroupRow {
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
   * The report's groups of one dimension over the attempts whose 7 days have passed. The
   * baseline of a group: the students of the same courses, on the same days, in the same idle
   * group as its contacts, with no attempt from 7 days before to 7 days after that day; measured
   * from the start of that day. One query.
   */
  async groups(dim: OutcomeDimension, f: AttemptFilter): Promise<OutcomeGroupRow[]> {
    const g = GROUP_SQL[dim];
    const dayStart = sql`(k.day::timestamp at time zone ${APP_TIME_ZONE})`;
    const { rows } = await sql<OutcomeGroupRow>`
      with o as (${this.outcomes({ ...f, settled: true })}),
      g as (
        select ${g.key} as key, ${g.label} as label, o.course_id, o.day, o.idle,
          o.first_access_after <= o.at + interval '7 days' as accessed, o.progress_7 - o.progress_before as gain
        from o join tickets t on t.id = o.ticket_id ${g.join}
      ),
      contacts as (
        select key, max(label) as label, count(*)::int as n, count(*) filter (where accessed)::int as accessed,
          count(gain)::int as gain_n, avg(gain)::float8 as gain
        from g group by key
      ),
      strata as (select distinct course_id, day, idle from g where idle <> 'unknown'),
      days as (select distinct course_id, day from strata),
      population as (
        select k.course_id, k.day, ${idleGroup(sql`true`, sql`b.last_access`, dayStart)} as idle,
          (select min(h.last_access) from enrolment_progress_history h
            where h.enrolment_id = e.id and h.recorded_at > ${dayStart} and h.last_access > ${dayStart}) <= ${dayStart} + interval '7 days' as accessed,
          (select h.progress from enrolment_progress_history h where h.enrolment_id = e.id and h.recorded_at <= ${dayStart} + interval '7 days'
            order by h.recorded_at desc limit 1) - b.progress as gain
        from days k
        join course_registered_users e on e.course_id = k.course_id
        join profiles p on p.id = e.profile_id and p.key = 'student'
        cross join lateral (
          select h.progress, h.last_access from enrolment_progress_history h
          where h.enrolment_id = e.id and h.recorded_at <= ${dayStart} order by h.recorded_at desc limit 1
        ) b
        where not exists (
          select 1 from tickets t2 join ticket_details d2 on d2.ticket_id = t2.id
          where t2.course_registered_user_id = e.id and d2.created_at > ${dayStart} - interval '7 days' and d2.created_at < ${dayStart} + interval '8 days'
        )
      ),
      stratum as (
        select s.course_id, s.day, s.idle, count(*)::int as n, count(*) filter (where p.accessed)::int as accessed,
          count(p.gain)::int as gain_n, sum(p.gain)::float8 as gain_sum
        from strata s join population p on p.course_id = s.course_id and p.day = s.day and p.idle = s.idle
        group by 1, 2, 3
      ),
      base as (
        select x.key, sum(st.n)::int as n, sum(st.accessed)::int as accessed, sum(st.gain_sum) / nullif(sum(st.gain_n), 0) as gain
        from (select distinct key, course_id, day, idle from g) x
        join stratum st on st.course_id = x.course_id and st.day = x.day and st.idle = x.idle
        group by x.key
      )
      select c.key, c.label, c.n, c.accessed, c.gain_n, c.gain,
        coalesce(b.n, 0) as base_n, coalesce(b.accessed, 0) as base_accessed, b.gain::float8 as base_gain
      from contacts c left join base b on b.key = c.key
      order by c.key`.execute(this.db);
    return rows;
  }
}
