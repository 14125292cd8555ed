import { type StudentOnActivities } from '@sigaf/contract';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { FIGURES, STAGE } from './figures.js';
import {
  resignStages,
  testForm,
  countsTowardProgress,
  formApplies,
  type Scope,
  inClassrooms,
  type ProgressRow,
} from './sql.js';

/** The enrolled-student figures of a course or classroom (card, status, last access, progress, students on activities), one grouped query each. */
export class StudentFiguresRepository {
  constructor(private readonly db: Database) {}

  /** The population CTE `enr(id, registered_user_id, classroom_id, form, stage, last_access)` (see the class comment). */
  private livePopulation(scope: Scope) {
    const classroom =
      scope.classroomId === undefined ? sql`true` : sql`e.classroom_id = ${scope.classroomId}`;
    const classrooms =
      scope.classroomIds === undefined ? sql`true` : inClassrooms(scope.classroomIds);
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
   * fresh() when marked dirty): `enr(id, registered_user_id, classroom_id, form, stage, last_access)`.
   * Callers run `await this.fresh(courseId)` first.
   */
  private students(scope: Scope) {
    const classroom =
      scope.classroomId === undefined ? sql`true` : sql`c.classroom_id = ${scope.classroomId}`;
    const classrooms =
      scope.classroomIds === undefined
        ? sql`true`
        : scope.classroomIds.length
          ? sql`c.classroom_id in (${sql.join(scope.classroomIds)})`
          : sql`false`;
    return sql`
      enr as (
        select c.enrolment_id as id, c.registered_user_id, c.classroom_id, c.last_access, c.form, c.stage
        from course_enrolment_stats c
        where c.course_id = ${scope.courseId} and ${classroom} and ${classrooms}
      )`;
  }

  /** The scope's students as the course's cached follow-up rows `f` (every student enrolment, synchronised or not). */
  private rows(scope: Scope) {
    const classroom =
      scope.classroomId === undefined ? sql`true` : sql`f.classroom_id = ${scope.classroomId}`;
    const classrooms =
      scope.classroomIds === undefined
        ? sql`true`
        : scope.classroomIds.length
          ? sql`f.classroom_id in (${sql.join(scope.classroomIds)})`
          : sql`false`;
    return sql`course_follow_up_rows f where f.course_id = ${scope.courseId} and ${classroom} and ${classrooms}`;
  }

  /** Students per withdrawal stage: [Activo, Renuncia en curso, Renunciado] (FIGURES.stage). */
  async stageCounts(scope: Scope): Promise<[number, number, number]> {
    await this.fresh(scope.courseId);
    const { rows } = await sql<{ s0: number; s1: number; s2: number }>`
      select count(*) filter (where ${FIGURES.stage('f', STAGE.active)})::int as s0,
        count(*) filter (where ${FIGURES.stage('f', STAGE.resigning)})::int as s1,
        count(*) filter (where ${FIGURES.stage('f', STAGE.resigned)})::int as s2
      from ${this.rows(scope)}`.execute(this.db);
    const r = rows[0] ?? { s0: 0, s1: 0, s2: 0 };
    return [r.s0, r.s1, r.s2];
  }

  /**
   * The follow-student card (docs/development/domain.md#figures): `total` the matrícula (every
   * student enrolment), of which `unsynced` not confirmed by Moodle yet, and of the others `resign`
   * withdrawn, `active` accessed at least once, `inactive` never accessed.
   */
  async card(scope: Scope) {
    await this.fresh(scope.courseId);
    const { rows } = await sql<{
      resign: number;
      active: number;
      inactive: number;
      total: number;
      unsynced: number;
    }>`
      select count(*) filter (where ${FIGURES.stage('f', STAGE.resigned)})::int as resign,
        count(*) filter (where ${FIGURES.accessed('f')})::int as active,
        count(*) filter (where ${FIGURES.neverAccessed('f')})::int as inactive,
        count(*) filter (where ${FIGURES.enrolled('f')})::int as total,
        count(*) filter (where ${FIGURES.unsynced('f')})::int as unsynced
      from ${this.rows(scope)}`.execute(this.db);
    return rows[0] ?? { resign: 0, active: 0, inactive: 0, total: 0, unsynced: 0 };
  }

  /** Synchronised students per last access: [never, < 1 day, < 1 week, older]. */
  async lastAccessCounts(scope: Scope): Promise<[number, number, number, number]> {
    await this.fresh(scope.courseId);
    const { rows } = await sql<{ never: number; day: number; week: number; older: number }>`
      select count(*) filter (where last_access is null)::int as never,
        count(*) filter (where last_access >= now() - interval '1 day')::int as day,
        count(*) filter (where last_access < now() - interval '1 day' and last_access >= now() - interval '7 days')::int as week,
        count(*) filter (where last_access < now() - interval '7 days')::int as older
      from ${this.rows(scope)} and not ${FIGURES.unsynced('f')}`.execute(this.db);
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
    await this.fresh(scope.courseId);
    const perActivity = sectionId !== undefined;
    const group = perActivity ? sql`act.id, act.description` : sql`act.section_id, act.section`;
    const classroom =
      scope.classroomId === undefined ? sql`true` : sql`p.classroom_id = ${scope.classroomId}`;
    const classrooms =
      scope.classroomIds === undefined
        ? sql`true`
        : scope.classroomIds.length
          ? sql`p.classroom_id in (${sql.join(scope.classroomIds)})`
          : sql`false`;
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
   * The follow-up table's rows of a course, computed live (migration 0015): every student enrolment
   * (synchronised or not) with the person's record, test form, withdrawal stage, last access, and
   * the counting activities the student has to do (`expected`: a test section only for its form)
   * and of those the ones graded.
   */
  private liveFollowUpRows(courseId: number) {
    return sql`
      with resign as (${resignStages(courseId)}),
      base as (
        select e.id, e.registered_user_id, e.classroom_id, e.last_access_registered_moodle, e.last_access_text, e.is_sincronized, e.moodle_suspended,
          r.rut, r.name, r.last_name, r.mother_last_name, r.email, coalesce(nullif(r.mobile, ''), nullif(r.phone, '')) as phone, r.search_name,
          ${testForm(sql`r.rut`)} as form, coalesce(rs.stage, 0) as stage
        from course_registered_users e
        -- One key lookup per student (OFFSET 0 keeps it so), never a hash of every student.
        cross join lateral (
          select u.rut, u.name, u.last_name, u.mother_last_name, u.email, u.mobile, u.phone, u.search_name from registered_users u where u.id = e.registered_user_id offset 0
        ) r
        join profiles p on p.id = e.profile_id and p.key = 'student'
        left join resign rs on rs.id = e.id
        where e.course_id = ${courseId}
      ),
      act as (
        select a.id, s.key from activities a join sections s on s.id = a.section_id
        where a.course_id = ${courseId} and ${countsTowardProgress('a', 's')}
      ),
      expected as (
        select count(*) filter (where ${formApplies(sql`act.key`, sql`'A'`)})::int as a, count(*) filter (where ${formApplies(sql`act.key`, sql`'B'`)})::int as b
        from act
      ),
      prog as (
        select acu.course_registered_user_id as id, count(*)::int as graded
        from act
        join activity_course_users acu on acu.activity_id = act.id and acu.grade is not null
        join base b on b.id = acu.course_registered_user_id
        where ${formApplies(sql`act.key`, sql`b.form`)}
        group by acu.course_registered_user_id
      )
      select ${courseId}::int, b.id, b.registered_user_id, b.classroom_id, b.rut, b.name, b.last_name, b.mother_last_name, b.email, b.phone,
        b.form, b.stage, b.last_access_registered_moodle, b.last_access_text, b.is_sincronized, b.moodle_suspended,
        coalesce(pg.graded, 0), case b.form when 'A' then x.a else x.b end,
        (select k.last_attempt_at from enrolment_ticket_counts k where k.enrolment_id = b.id), b.search_name
      from base b
      cross join expected x
      left join prog pg on pg.id = b.id`;
  }

  /**
   * Recomputes the course's student figures (course_enrolment_stats, course_progress_stats and
   * course_follow_up_rows) when a change has marked them dirty since (migrations 0008, 0015): per
   * classroom (0: none), activity, form and stage, the students of the population, and of those the
   * ones with a grade and with completion; each student's follow-up figures. Concurrent readers
   * wait on the state row and find it fresh; a writer that commits meanwhile marks it dirty again,
   * and one that changes a student's last attempt waits on the same row (migration 0020).
   * Every read of these tables runs it first.
   */
  async fresh(courseId: number): Promise<void> {
    const state = await this.db
      .selectFrom('course_stats_state')
      .select('dirty')
      .where('course_id', '=', courseId)
      .executeTakeFirst();
    if (state && !state.dirty) return;
    await this.db.transaction().execute(async (trx) => {
      // A course that does not exist has nothing to cache: no state row is made for it, and the lock below finds none.
      await sql`insert into course_stats_state (course_id, dirty) select id, true from courses where id = ${courseId} on conflict (course_id) do nothing`.execute(
        trx,
      );
      const locked = await sql<{
        dirty: boolean;
      }>`select dirty from course_stats_state where course_id = ${courseId} for update`.execute(
        trx,
      );
      if (!locked.rows[0]?.dirty) return;
      await sql`delete from course_progress_stats where course_id = ${courseId}`.execute(trx);
      await sql`delete from course_enrolment_stats where course_id = ${courseId}`.execute(trx);
      await sql`delete from course_follow_up_rows where course_id = ${courseId}`.execute(trx);
      await sql`
        insert into course_follow_up_rows (course_id, enrolment_id, registered_user_id, classroom_id, rut, name, last_name, mother_last_name, email, phone,
          form, stage, last_access, last_access_text, synced, suspended, graded, expected, last_attempt_at, search_name)
        ${this.liveFollowUpRows(courseId)}`.execute(trx);
      await sql`
        insert into course_enrolment_stats (course_id, enrolment_id, registered_user_id, classroom_id, form, stage, last_access)
        with ${this.livePopulation({ courseId })}
        select ${courseId}::int, enr.id, enr.registered_user_id, enr.classroom_id, enr.form, enr.stage, enr.last_access from enr`.execute(
        trx,
      );
      await sql`
        insert into course_progress_stats (course_id, classroom_id, activity_id, form, stage, students, graded, completed)
        with ${this.students({ courseId })}
        select ${courseId}::int, coalesce(enr.classroom_id, 0), a.id, enr.form, enr.stage, count(*)::int,
          count(acu.id) filter (where acu.grade is not null)::int,
          count(acu.id) filter (where acu.completion_state > 0)::int
        from activities a
        join enr on true
        -- The course's results read through its activities (an index range each): joined to the
        -- whole table, the planner hashed all of it (1.2 million rows: 1.1 s instead of 90 ms).
        left join (
          select r.id, r.activity_id, r.course_registered_user_id, r.grade, r.completion_state
          from activities ra join activity_course_users r on r.activity_id = ra.id
          where ra.course_id = ${courseId}
        ) acu on acu.activity_id = a.id and acu.course_registered_user_id = enr.id
        where a.course_id = ${courseId}
        group by 2, 3, 4, 5`.execute(trx);
      await sql`update course_stats_state set dirty = false, refreshed_at = now() where course_id = ${courseId}`.execute(
        trx,
      );
    });
  }

  /** The active courses a change has marked since their figures were last computed. */
  async markedCourses(): Promise<number[]> {
    const { rows } = await sql<{ id: number }>`
      select s.course_id as id from course_stats_state s join courses c on c.id = s.course_id and c.status = 1 where s.dirty order by 1`.execute(
      this.db,
    );
    return rows.map((r) => r.id);
  }

  /** fresh() for each of these courses that a change has marked (one query finds them). */
  async freshAll(courseIds: number[]): Promise<void> {
    if (!courseIds.length) return;
    const { rows } = await sql<{ id: number }>`
      select c.id from unnest(${courseIds}::int[]) c(id) left join course_stats_state s on s.course_id = c.id where s.dirty is distinct from false`.execute(
      this.db,
    );
    for (const r of rows) await this.fresh(r.id);
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
  async studentsOnActivities(
    scope: Scope,
    activityIds: number[],
    page?: { page: number; perPage: number },
  ) {
    await this.fresh(scope.courseId);
    // The scope's students with their names from the course's cached rows (course_follow_up_rows:
    // the same students as course_enrolment_stats, the synchronised ones), one table in one range.
    const classroom =
      scope.classroomId === undefined ? sql`true` : sql`f.classroom_id = ${scope.classroomId}`;
    const classrooms =
      scope.classroomIds === undefined
        ? sql`true`
        : scope.classroomIds.length
          ? sql`f.classroom_id = any(${scope.classroomIds}::int[])`
          : sql`false`;
    const { rows } = await sql<
      Omit<StudentOnActivities, 'status'> & { stage: number; total: number }
    >`
      with enr as (
        select f.enrolment_id as id, f.classroom_id, f.form, f.stage, f.rut, f.name, f.last_name, f.mother_last_name, f.email
        from course_follow_up_rows f
        where f.course_id = ${scope.courseId} and f.synced and ${classroom} and ${classrooms}
      ),
      chosen as (
        select * from enr
        order by enr.last_name, enr.name, enr.id
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
    const total = page
      ? (rows[0]?.total ??
        Number(
          (
            await sql<{
              n: number;
            }>`with ${this.students(scope)} select count(*)::int as n from enr`.execute(this.db)
          ).rows[0]?.n ?? 0,
        ))
      : rows.length;
    return { rows: rows.map(({ total: _total, ...row }) => row), total };
  }
}
