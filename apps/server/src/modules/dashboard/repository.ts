import { APP_TIME_ZONE, type StudentOnActivities } from '@sigaf/contract';
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.js';

/**
 * All dashboard and follow-up aggregation, in SQL (BEHAVIOUR.md §7). Nothing here loops over
 * students: every figure is one grouped query.
 *
 * Population of the enrolled-user figures: the course's synchronised enrolments with profile
 * 'student' (the "Matrícula inicial" of the card), optionally of one classroom.
 *
 * Withdrawal stage, from the student's rows on the course's activities in the section keyed
 * 'resign' (the highest stage over those rows; no row, or no resign activity, is stage 0):
 *   2 Renunciado        completion_state in (1 complete, 2 pass, 3 fail), or status_moodle "Finalizado"
 *   1 Renuncia en curso otherwise, status_moodle "En curso"
 *   0 Activo            anything else (no attempt: completion_state 0/null and not started)
 *
 * Test form: A when the RUT check digit (its last character) is even, B when odd or K.
 */

export type TicketDimension = 'source' | 'type' | 'priority' | 'status' | 'motive';

const DIMENSIONS: Record<TicketDimension, { table: string; column: string }> = {
  source: { table: 'source_tickets', column: 'source_ticket_id' },
  type: { table: 'type_tickets', column: 'type_ticket_id' },
  priority: { table: 'priority_tickets', column: 'priority_ticket_id' },
  status: { table: 'status_tickets', column: 'status_ticket_id' },
  motive: { table: 'motive_tickets', column: 'motive_ticket_id' },
};

/** A half-open window of ticket creation times: [from, to). Both are SQL timestamptz expressions. */
export interface TimeWindow {
  from?: RawBuilder<unknown>;
  to?: RawBuilder<unknown>;
}

/** Start of a Chilean calendar day (`yyyy-mm-dd`), or of today when no day is given. */
export const dayStart = (day?: string): RawBuilder<unknown> =>
  day
    ? sql`(${day}::date::timestamp at time zone ${APP_TIME_ZONE})`
    : sql`(date_trunc('day', now() at time zone ${APP_TIME_ZONE}) at time zone ${APP_TIME_ZONE})`;
export const dayEnd = (day?: string): RawBuilder<unknown> => sql`(${dayStart(day)} + interval '1 day')`;

/** ticket_counts dimensions (migration 0008). */
const DIM = { type: 1, priority: 2, source: 3, motive: 4, operator: 5, closedAge: 6, createdHour: 7, closedHour: 8, createdDay: 9, closedDay: 10 } as const;
/** Hours since the epoch of an instant (Chilean days start on a whole hour). */
const hourOf = (ts: RawBuilder<unknown>) => sql`floor(extract(epoch from ${ts}) / 3600)::int`;

const createdIn = (w: TimeWindow) =>
  sql.join([sql`true`, ...(w.from ? [sql`t.created_at >= ${w.from}`] : []), ...(w.to ? [sql`t.created_at < ${w.to}`] : [])], sql` and `);

export const TEST_SECTIONS_A = ['pre_test_a', 'post_test_a'];
export const TEST_SECTIONS_B = ['pre_test_b', 'post_test_b'];
export const GRADED_SECTIONS = ['survey', ...TEST_SECTIONS_A, ...TEST_SECTIONS_B];

/**
 * The CTE body `(id, stage)`: each enrolment's withdrawal stage from the course's resign activity
 * (see the class comment). Shared with the follow-up student table.
 */
export const resignStages = (courseId: number) => sql`
  select acu.course_registered_user_id as id,
    max(case
      when acu.completion_state in (1, 2, 3) or lower(trim(coalesce(acu.status_moodle, ''))) in ('finalizado', 'finished') then 2
      when lower(trim(coalesce(acu.status_moodle, ''))) in ('en curso', 'in progress', 'inprogress') then 1
      else 0 end) as stage
  from activity_course_users acu
  join activities a on a.id = acu.activity_id
  join sections s on s.id = a.section_id
  where s.key = 'resign' and a.course_id = ${courseId}
  group by acu.course_registered_user_id`;

/** The test form of a RUT column: A when its check digit is even, B when odd or K. */
export const testForm = (rut: RawBuilder<unknown>) => sql`case when upper(right(trim(${rut}), 1)) in ('0', '2', '4', '6', '8') then 'A' else 'B' end`;

/** The activities of a course that count toward progress: survey, the test sections, or weighing > 0; never resign, never one deleted in Moodle or left out by staff. */
export const countsTowardProgress = (a: string, s: string) =>
  sql`(${sql.ref(`${a}.removed_at`)} is null and not ${sql.ref(`${a}.excluded_from_progress`)}
    and coalesce(${sql.ref(`${s}.key`)}, '') <> 'resign' and (${sql.ref(`${s}.key`)} in (${sql.join(GRADED_SECTIONS)}) or ${sql.ref(`${a}.weighing`)} > 0))`;

/** Whether an activity (its section key) is to be done by a student of a form: tests only by their form. */
export const formApplies = (sectionKey: RawBuilder<unknown>, form: RawBuilder<unknown>) =>
  sql`(case when ${sectionKey} in (${sql.join(TEST_SECTIONS_A)}) then ${form} = 'A'
            when ${sectionKey} in (${sql.join(TEST_SECTIONS_B)}) then ${form} = 'B'
            else true end)`;

export interface Scope {
  courseId: number;
  classroomId?: number;
  /** Only these classrooms (a tutor's); an empty list is nobody. */
  classroomIds?: number[];
}

const inClassrooms = (ids: number[]) => (ids.length ? sql`e.classroom_id in (${sql.join(ids)})` : sql`false`);

export interface ProgressRow {
  id: number;
  label: string;
  expected: number;
  graded: number;
  completed: number;
}

export class DashboardRepository {
  constructor(private readonly db: Database) {}

  // -------------------------------------------------------------------------------------------
  // Lookups

  async courseExists(id: number) {
    return (await this.db.selectFrom('courses').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /** A classroom by id, or by description (case-insensitive) as the original client sends it. */
  async findClassroom(ref: string) {
    const text = ref.trim();
    const byId = /^\d{1,9}$/.test(text)
      ? await this.db.selectFrom('classrooms').select(['id', 'description']).where('id', '=', Number(text)).executeTakeFirst()
      : undefined;
    return byId ?? this.db.selectFrom('classrooms').select(['id', 'description']).where(sql`lower(description)`, '=', text.toLowerCase()).executeTakeFirst();
  }

  /** A section by id, key or description. */
  async findSection(ref: string) {
    const text = ref.trim();
    const byId = /^\d{1,9}$/.test(text)
      ? await this.db.selectFrom('sections').select(['id', 'description', 'key']).where('id', '=', Number(text)).executeTakeFirst()
      : undefined;
    return (
      byId ??
      this.db
        .selectFrom('sections')
        .select(['id', 'description', 'key'])
        .where((eb) => eb.or([eb('key', '=', text), eb(sql`lower(description)`, '=', text.toLowerCase())]))
        .executeTakeFirst()
    );
  }

  // -------------------------------------------------------------------------------------------
  // Tickets

  async countTickets(courseId: number, filter: 'total' | 'today' | 'open' | 'closed'): Promise<number> {
    const where =
      filter === 'today'
        ? sql`k.dim = ${DIM.createdHour} and k.value >= ${hourOf(dayStart())} and k.value < ${hourOf(dayEnd())}`
        : filter === 'total'
          ? sql`k.dim = ${DIM.type}`
          : sql`k.dim = ${DIM.type} and k.status_ticket_id in (select id from status_tickets where key = ${filter})`;
    const { rows } = await sql<{ n: number }>`select coalesce(sum(k.n), 0)::int as n from ticket_counts k where k.course_id = ${courseId} and ${where}`.execute(this.db);
    return rows[0]?.n ?? 0;
  }

  /** Tickets per catalogue value of the whole course (every value, zero included), in catalogue order, from the counts. */
  async ticketsPerCatalogue(courseId: number, dimension: TicketDimension) {
    const d = DIMENSIONS[dimension];
    // Status: any dimension's rows, by their status.
    const value = dimension === 'status' ? sql`k.status_ticket_id` : sql`k.value`;
    const dim = dimension === 'status' ? DIM.type : DIM[dimension];
    const { rows } = await sql<{ id: number; label: string; n: number }>`
      select c.id, c.description as label, coalesce(k.n, 0)::int as n
      from ${sql.table(d.table)} c
      left join (select ${value} as id, sum(k.n) as n from ticket_counts k where k.course_id = ${courseId} and k.dim = ${dim} group by 1) k on k.id = c.id
      order by c.id`.execute(this.db);
    return rows;
  }

  /**
   * Tickets created in a window per value of every catalogue (every value, zero included, in
   * catalogue order): the window's tickets are read once for all five.
   */
  async ticketsPerCatalogues(courseId: number, window: TimeWindow): Promise<Record<TicketDimension, Array<{ id: number; label: string; n: number }>>> {
    const names = Object.keys(DIMENSIONS) as TicketDimension[];
    const parts = names.map((name) => {
      const d = DIMENSIONS[name];
      return sql`select ${name}::text as dim, c.id, c.description as label, count(w.id)::int as n
        from ${sql.table(d.table)} c left join win w on w.${sql.ref(d.column)} = c.id
        group by c.id, c.description`;
    });
    const { rows } = await sql<{ dim: TicketDimension; id: number; label: string; n: number }>`
      with win as materialized (
        select t.id, ${sql.join(names.map((name) => sql`t.${sql.ref(DIMENSIONS[name].column)}`))}
        from tickets t where t.course_id = ${courseId} and ${createdIn(window)}
      )
      ${sql.join(parts, sql` union all `)}
      order by dim, id`.execute(this.db);
    const out = Object.fromEntries(names.map((name) => [name, [] as Array<{ id: number; label: string; n: number }>])) as Record<TicketDimension, Array<{ id: number; label: string; n: number }>>;
    for (const { dim, ...row } of rows) out[dim].push(row);
    return out;
  }

  /** Tickets per whole day of age (created to closing date, or to now while open). */
  async ticketsPerAge(courseId: number) {
    // Closed tickets from the counts; those without closing date age with now().
    const { rows } = await sql<{ days: number; n: number }>`
      select days, sum(n)::int as n from (
        select k.value as days, k.n from ticket_counts k where k.course_id = ${courseId} and k.dim = ${DIM.closedAge}
        union all
        select greatest(0, floor(extract(epoch from (now() - t.created_at)) / 86400))::int, 1
        from tickets t where t.course_id = ${courseId} and t.closing_date is null
      ) x
      group by days
      having sum(n) > 0
      order by days`.execute(this.db);
    return rows;
  }

  /** Share of the course's tickets per motive (every motive), as a percentage with one decimal. */
  async motiveShares(courseId: number) {
    const { rows } = await sql<{ id: number; label: string; pct: number }>`
      select c.id, c.description as label,
        coalesce(round(100.0 * coalesce(k.n, 0) / nullif(sum(coalesce(k.n, 0)) over (), 0), 1), 0)::float8 as pct
      from motive_tickets c
      left join (select k.value as id, sum(k.n) as n from ticket_counts k where k.course_id = ${courseId} and k.dim = ${DIM.motive} group by 1) k on k.id = c.id
      order by c.id`.execute(this.db);
    return rows;
  }

  /** Open and closed tickets per assigned operator (null id: unassigned). */
  async statusPerOperator(courseId: number) {
    const { rows } = await sql<{ id: number | null; label: string | null; open: number; closed: number }>`
      select nullif(k.value, 0) as id, u.name as label,
        coalesce(sum(k.n) filter (where s.key = 'open'), 0)::int as open,
        coalesce(sum(k.n) filter (where s.key = 'closed'), 0)::int as closed
      from ticket_counts k
      join status_tickets s on s.id = k.status_ticket_id
      left join users u on u.id = nullif(k.value, 0)
      where k.course_id = ${courseId} and k.dim = ${DIM.operator}
      group by k.value, u.name
      having sum(k.n) > 0
      order by u.name nulls last, nullif(k.value, 0)`.execute(this.db);
    return rows;
  }

  /** Open and closed tickets per motive (motives with tickets). */
  async statusPerMotive(courseId: number) {
    const { rows } = await sql<{ id: number; label: string; open: number; closed: number }>`
      select m.id, m.description as label,
        coalesce(sum(k.n) filter (where s.key = 'open'), 0)::int as open,
        coalesce(sum(k.n) filter (where s.key = 'closed'), 0)::int as closed
      from ticket_counts k
      join status_tickets s on s.id = k.status_ticket_id
      join motive_tickets m on m.id = k.value
      where k.course_id = ${courseId} and k.dim = ${DIM.motive}
      group by m.id, m.description
      having sum(k.n) > 0
      order by m.id`.execute(this.db);
    return rows;
  }

  // -------------------------------------------------------------------------------------------
  // Reports per day

  /** Created that day; and created up to the end of it, of which closed by then. */
  async dayCard(courseId: number, day: string) {
    // Created before the day's end, and both created and closed by then: whole UTC days before
    // the one the day ends in, then that day's hours up to the end (hours since the epoch).
    const end = hourOf(dayEnd(day));
    const { rows } = await sql<{ created: number; total: number; closed: number }>`
      with bound as (select ${end} as h)
      select
        coalesce(sum(k.n) filter (where k.dim = ${DIM.createdHour} and k.value >= ${hourOf(dayStart(day))}), 0)::int as created,
        coalesce(sum(k.n) filter (where k.dim = ${DIM.createdDay} or (k.dim = ${DIM.createdHour} and k.value >= bound.h / 24 * 24)), 0)::int as total,
        coalesce(sum(k.n) filter (where k.dim = ${DIM.closedDay} or (k.dim = ${DIM.closedHour} and k.value >= bound.h / 24 * 24)), 0)::int as closed
      from bound, ticket_counts k
      where k.course_id = ${courseId} and (
        (k.dim in (${DIM.createdDay}, ${DIM.closedDay}) and k.value < bound.h / 24)
        or (k.dim in (${DIM.createdHour}, ${DIM.closedHour}) and k.value >= bound.h / 24 * 24 and k.value < bound.h)
        or (k.dim = ${DIM.createdHour} and k.value >= ${hourOf(dayStart(day))} and k.value < bound.h))`.execute(this.db);
    const r = rows[0] ?? { created: 0, total: 0, closed: 0 };
    return { created: r.created, total: r.total, open: r.total - r.closed, closed: r.closed };
  }

  /** Per operator: distinct tickets with attempts logged that day, how many of those are closed, attempts. */
  async operatorDay(courseId: number, day: string) {
    const { rows } = await sql<{ operatorId: number; operator: string; tickets: number; closed: number; attempts: number }>`
      select d.user_created_id as "operatorId", u.name as operator,
        count(distinct d.ticket_id)::int as tickets,
        count(distinct d.ticket_id) filter (where s.key = 'closed')::int as closed,
        count(*)::int as attempts
      from ticket_details d
      join tickets t on t.id = d.ticket_id
      join status_tickets s on s.id = t.status_ticket_id
      join users u on u.id = d.user_created_id
      where d.course_id = ${courseId} and d.created_at >= ${dayStart(day)} and d.created_at < ${dayEnd(day)}
      group by d.user_created_id, u.name
      order by u.name, d.user_created_id`.execute(this.db);
    return rows;
  }

  /** Attempts logged that day per outcome (every outcome, zero included). */
  async attemptsPerOutcome(courseId: number, day: string) {
    const { rows } = await sql<{ id: number; label: string; n: number }>`
      select c.id, c.description as label, count(d.id)::int as n
      from status_detail_tickets c
      left join ticket_details d
        on d.status_detail_ticket_id = c.id and d.course_id = ${courseId} and d.created_at >= ${dayStart(day)} and d.created_at < ${dayEnd(day)}
      group by c.id, c.description
      order by c.id`.execute(this.db);
    return rows;
  }

  // -------------------------------------------------------------------------------------------
  // Enrolled students

  /** The population CTE `enr(id, registered_user_id, classroom_id, form, stage, last_access)` (see the class comment). */
  private livePopulation(scope: Scope) {
    const classroom = scope.classroomId === undefined ? sql`true` : sql`e.classroom_id = ${scope.classroomId}`;
    const classrooms = scope.classroomIds === undefined ? sql`true` : inClassrooms(scope.classroomIds);
    return sql`
      resign as (${resignStages(scope.courseId)}),
      enr as (
        select e.id, e.registered_user_id, e.classroom_id, e.last_access_registered_moodle as last_access,
          ${testForm(sql`r.rut`)} as form,
          coalesce(rs.stage, 0) as stage
        from course_registered_users e
        join registered_users r on r.id = e.registered_user_id
        join profiles p on p.id = e.profile_id and p.key = 'student'
        left join resign rs on rs.id = e.id
        where e.course_id = ${scope.courseId} and e.is_sincronized and ${classroom} and ${classrooms}
      )`;
  }

  /**
   * The same population from the course's cached rows (course_enrolment_stats, recomputed by
   * freshProgress when marked dirty): `enr(id, registered_user_id, classroom_id, form, stage, last_access)`.
   * Callers run `await this.freshProgress(courseId)` first.
   */
  private students(scope: Scope) {
    const classroom = scope.classroomId === undefined ? sql`true` : sql`c.classroom_id = ${scope.classroomId}`;
    const classrooms =
      scope.classroomIds === undefined ? sql`true` : scope.classroomIds.length ? sql`c.classroom_id in (${sql.join(scope.classroomIds)})` : sql`false`;
    return sql`
      enr as (
        select c.enrolment_id as id, c.registered_user_id, c.classroom_id, c.last_access, c.form, c.stage
        from course_enrolment_stats c
        where c.course_id = ${scope.courseId} and ${classroom} and ${classrooms}
      )`;
  }

  /** Students per withdrawal stage: [Activo, Renuncia en curso, Renunciado]. */
  async stageCounts(scope: Scope): Promise<[number, number, number]> {
    await this.freshProgress(scope.courseId);
    const { rows } = await sql<{ s0: number; s1: number; s2: number }>`
      with ${this.students(scope)}
      select count(*) filter (where stage = 0)::int as s0, count(*) filter (where stage = 1)::int as s1, count(*) filter (where stage = 2)::int as s2
      from enr`.execute(this.db);
    const r = rows[0] ?? { s0: 0, s1: 0, s2: 0 };
    return [r.s0, r.s1, r.s2];
  }

  /** The follow-student card; `unsynced` counts the students enrolled here that Moodle has not confirmed (outside the other figures). */
  async card(scope: Scope) {
    await this.freshProgress(scope.courseId);
    const classroom = scope.classroomId === undefined ? sql`true` : sql`e.classroom_id = ${scope.classroomId}`;
    const classrooms = scope.classroomIds === undefined ? sql`true` : inClassrooms(scope.classroomIds);
    const { rows } = await sql<{ resign: number; active: number; inactive: number; total: number; unsynced: number }>`
      with ${this.students(scope)}
      select count(*) filter (where stage = 2)::int as resign,
        count(*) filter (where stage < 2 and last_access is not null)::int as active,
        count(*) filter (where stage < 2 and last_access is null)::int as inactive,
        count(*)::int as total,
        (select count(*)::int from course_registered_users e join profiles p on p.id = e.profile_id and p.key = 'student'
          where e.course_id = ${scope.courseId} and not e.is_sincronized and ${classroom} and ${classrooms}) as unsynced
      from enr`.execute(this.db);
    return rows[0] ?? { resign: 0, active: 0, inactive: 0, total: 0, unsynced: 0 };
  }

  /** Students per last access: [never, < 1 day, < 1 week, older]. */
  async lastAccessCounts(scope: Scope): Promise<[number, number, number, number]> {
    await this.freshProgress(scope.courseId);
    const { rows } = await sql<{ never: number; day: number; week: number; older: number }>`
      with ${this.students(scope)}
      select count(*) filter (where last_access is null)::int as never,
        count(*) filter (where last_access >= now() - interval '1 day')::int as day,
        count(*) filter (where last_access < now() - interval '1 day' and last_access >= now() - interval '7 days')::int as week,
        count(*) filter (where last_access < now() - interval '7 days')::int as older
      from enr`.execute(this.db);
    const r = rows[0] ?? { never: 0, day: 0, week: 0, older: 0 };
    return [r.never, r.day, r.week, r.older];
  }

  /**
   * Progress of graded activities (survey, the four test sections, or weighing > 0; never the
   * resign section) over the students not withdrawn, per section or, with `sectionId`, per
   * activity of that section. expected = (activity, student) pairs, a test section counting only
   * the students of its form; graded = of those with a numeric grade; completed = with
   * completion_state > 0.
   */
  async progress(scope: Scope, sectionId?: number): Promise<ProgressRow[]> {
    await this.freshProgress(scope.courseId);
    const perActivity = sectionId !== undefined;
    const group = perActivity ? sql`act.id, act.description` : sql`act.section_id, act.section`;
    const classroom = scope.classroomId === undefined ? sql`true` : sql`p.classroom_id = ${scope.classroomId}`;
    const classrooms =
      scope.classroomIds === undefined ? sql`true` : scope.classroomIds.length ? sql`p.classroom_id in (${sql.join(scope.classroomIds)})` : sql`false`;
    const { rows } = await sql<ProgressRow>`
      with act as (
        select a.id, a.description, a.section_id, s.description as section, s.key
        from activities a
        join sections s on s.id = a.section_id
        where a.course_id = ${scope.courseId}
          and ${countsTowardProgress('a', 's')}
          and ${perActivity ? sql`a.section_id = ${sectionId}` : sql`true`}
      ),
      pairs as (
        select p.activity_id, p.form, sum(p.students) as students, sum(p.graded) as graded, sum(p.completed) as completed
        from course_progress_stats p
        where p.course_id = ${scope.courseId} and p.stage < 2 and ${classroom} and ${classrooms}
        group by p.activity_id, p.form
      )
      select ${perActivity ? sql`act.id, act.description as label` : sql`act.section_id as id, act.section as label`},
        coalesce(sum(pairs.students), 0)::int as expected,
        coalesce(sum(pairs.graded), 0)::int as graded,
        coalesce(sum(pairs.completed), 0)::int as completed
      from act
      left join pairs on pairs.activity_id = act.id and ${formApplies(sql`act.key`, sql`pairs.form`)}
      group by ${group}
      order by ${perActivity ? sql`act.id` : sql`act.section_id`}`.execute(this.db);
    return rows;
  }

  /**
   * Recomputes the course's progress figures (course_progress_stats) when a change has marked it
   * dirty since (migration 0008): per classroom (0: none), activity, form and stage, the students
   * of the population, and of those the ones with a grade and with completion. Concurrent readers
   * wait on the state row and find it fresh; a writer that commits meanwhile marks it dirty again.
   */
  private async freshProgress(courseId: number): Promise<void> {
    const state = await this.db.selectFrom('course_stats_state').select('dirty').where('course_id', '=', courseId).executeTakeFirst();
    if (state && !state.dirty) return;
    // A course that does not exist has nothing to cache (and no state row can refer to it).
    if (!state && !(await this.courseExists(courseId))) return;
    await this.db.transaction().execute(async (trx) => {
      await sql`insert into course_stats_state (course_id, dirty) values (${courseId}, true) on conflict (course_id) do nothing`.execute(trx);
      const locked = await sql<{ dirty: boolean }>`select dirty from course_stats_state where course_id = ${courseId} for update`.execute(trx);
      if (!locked.rows[0]?.dirty) return;
      await sql`delete from course_progress_stats where course_id = ${courseId}`.execute(trx);
      await sql`delete from course_enrolment_stats where course_id = ${courseId}`.execute(trx);
      await sql`
        insert into course_enrolment_stats (course_id, enrolment_id, registered_user_id, classroom_id, form, stage, last_access)
        with ${this.livePopulation({ courseId })}
        select ${courseId}::int, enr.id, enr.registered_user_id, enr.classroom_id, enr.form, enr.stage, enr.last_access from enr`.execute(trx);
      await sql`
        insert into course_progress_stats (course_id, classroom_id, activity_id, form, stage, students, graded, completed)
        with ${this.students({ courseId })}
        select ${courseId}::int, coalesce(enr.classroom_id, 0), a.id, enr.form, enr.stage, count(*)::int,
          count(acu.id) filter (where acu.grade is not null)::int,
          count(acu.id) filter (where acu.completion_state > 0)::int
        from activities a
        join enr on true
        left join activity_course_users acu on acu.activity_id = a.id and acu.course_registered_user_id = enr.id
        where a.course_id = ${courseId}
        group by 2, 3, 4, 5`.execute(trx);
      await sql`update course_stats_state set dirty = false, refreshed_at = now() where course_id = ${courseId}`.execute(trx);
    });
  }

  /** Course activities chosen by local id or Moodle id. */
  async activitiesOf(courseId: number, ids: number[]) {
    return this.db
      .selectFrom('activities')
      .select(['id', 'description', 'id_activity_moodle'])
      .where('course_id', '=', courseId)
      .where((eb) => eb.or([eb('id', 'in', ids), eb('id_activity_moodle', 'in', ids)]))
      .orderBy('id')
      .execute();
  }

  /**
   * The scope's students, in name order, with their state on each of the activities: all of them
   * or one page (the page is chosen before the activities are read) and how many there are.
   */
  async studentsOnActivities(scope: Scope, activityIds: number[], page?: { page: number; perPage: number }) {
    await this.freshProgress(scope.courseId);
    const { rows } = await sql<Omit<StudentOnActivities, 'status'> & { stage: number; total: number }>`
      with ${this.students(scope)},
      chosen as (
        select enr.id, enr.classroom_id, enr.form, enr.stage, r.rut, r.name, r.last_name, r.mother_last_name, r.email
        from enr
        -- One key lookup per student (OFFSET 0 keeps it a lookup): hashing every student of the
        -- organisation for the course's few would cost many times more.
        cross join lateral (select u.rut, u.name, u.last_name, u.mother_last_name, u.email from registered_users u where u.id = enr.registered_user_id offset 0) r
        order by r.last_name, r.name, enr.id
        ${page ? sql`limit ${page.perPage} offset ${(page.page - 1) * page.perPage}` : sql``}
      ),
      per as (
        select s.id,
          json_agg(json_build_object(
            'activityId', a.id, 'idActivityMoodle', a.id_activity_moodle, 'description', a.description,
            'statusMoodle', acu.status_moodle, 'qualificationMoodle', acu.qualification_moodle,
            'completionState', acu.completion_state, 'grade', acu.grade::float8) order by a.id) as activities
        from chosen s
        join activities a on a.id in (${sql.join(activityIds)})
        left join activity_course_users acu on acu.activity_id = a.id and acu.course_registered_user_id = s.id
        group by s.id
      )
      select s.id, s.rut, s.name, s.last_name as "lastName", s.mother_last_name as "motherLastName", s.email,
        s.classroom_id as "classroomId", cl.description as classroom, s.form, s.stage, per.activities,
        ${page ? sql`(select count(*) from enr)::int` : sql`0`} as total
      from chosen s
      join per on per.id = s.id
      left join classrooms cl on cl.id = s.classroom_id
      order by s.last_name, s.name, s.id`.execute(this.db);
    const total = page ? (rows[0]?.total ?? Number((await sql<{ n: number }>`with ${this.students(scope)} select count(*)::int as n from enr`.execute(this.db)).rows[0]?.n ?? 0)) : rows.length;
    return { rows: rows.map(({ total: _total, ...row }) => row), total };
  }
}
