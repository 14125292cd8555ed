import type { FollowUpFilters, FollowUpSort, FollowUpStudent, PageMeta } from '@sigaf/contract';
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import { foldedPersonSearch, pageMeta } from '../../db/pagination.js';
import { FIGURES, STAGE } from '../dashboard/figures.js';
import { countsTowardProgress, formApplies } from '../dashboard/sql.js';
import type { StudentFiguresRepository } from '../dashboard/student-figures.js';

/**
 * Student follow-up (SQL only): the tutors of each classroom, the courses and classrooms a user
 * may follow, and the student table, filtered, sorted and paged in SQL.
 *
 * Student table population: the course's enrolments with profile 'student' (synchronised or
 * not), optionally one classroom, optionally only a tutor's classrooms, read from the course's
 * cached rows (course_follow_up_rows, never staler than the last committed change: migration 0015)
 * and each enrolment's ticket counts (enrolment_ticket_counts, kept by triggers). Per enrolment:
 *   stage     the dashboard's withdrawal stage (dashboard/sql.ts resignStages); a state filter
 *             counts only synchronised students (dashboard/figures.ts)
 *   expected  the course's activities that count toward progress (survey, tests, weighing > 0;
 *             never resign) that this student has to do (a test section only for its form)
 *   graded    of those, the ones with a numeric grade
 *   progress  round(100 * graded / expected), null when expected = 0
 *   open      the enrolment's tickets with status 'open'; tickets, all of them
 */

/** What the student table asks for. `classroomIds`: only these classrooms (a tutor's). */
export interface StudentTableQuery extends FollowUpFilters {
  courseId: number;
  classroomIds?: number[];
  enrolmentIds?: number[];
  page?: number;
  perPage?: number;
}

/** A row of the student table as read: the contract's student without its state text, the last access as a date. */
export type StudentTableRow = Omit<FollowUpStudent, 'status' | 'lastAccess'> & {
  lastAccess: Date | null;
};

const SORTS: Record<FollowUpSort, RawBuilder<unknown>> = {
  rut: sql`s.rut`,
  name: sql`lower(s."lastName" || ' ' || coalesce(s."motherLastName", '') || ' ' || s.name)`,
  email: sql`lower(s.email)`,
  classroom: sql`s.classroom`,
  status: sql`s.stage`,
  lastAccess: sql`s."lastAccess"`,
  progress: sql`s.progress`,
  openTickets: sql`s."openTickets"`,
};

/** Whole days from a moment to `now` (ms), or null without one (computed for the rows shown, not in SQL for every row). */
export const daysSince = (at: Date | null, now: number) =>
  at ? Math.floor((now - new Date(at).getTime()) / 86_400_000) : null;

const inList = (column: RawBuilder<unknown>, ids: number[]) =>
  ids.length ? sql`${column} in (${sql.join(ids)})` : sql`false`;

export class FollowUpRepository {
  constructor(
    private readonly db: Database,
    private readonly figures: StudentFiguresRepository,
  ) {}

  // -- tutors of classrooms --------------------------------------------------------------------

  /** The classrooms of a course assigned to a tutor. */
  async classroomsOfTutor(userId: number, courseId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('classroom_tutors')
      .select('classroom_id')
      .where('user_id', '=', userId)
      .where('course_id', '=', courseId)
      .orderBy('classroom_id')
      .execute();
    return rows.map((r) => r.classroom_id);
  }

  classroom(id: number) {
    return this.db
      .selectFrom('classrooms')
      .select(['id', 'description'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  tutorsOf(courseId: number, classroomId: number) {
    return this.db
      .selectFrom('classroom_tutors as ct')
      .innerJoin('users as u', 'u.id', 'ct.user_id')
      .select(['u.id', 'u.name', 'u.email'])
      .where('ct.course_id', '=', courseId)
      .where('ct.classroom_id', '=', classroomId)
      .orderBy('u.name')
      .orderBy('u.id')
      .execute();
  }

  /** Every active user with role tutor. */
  tutorCandidates() {
    return this.db
      .selectFrom('users as u')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .select(['u.id', 'u.name', 'u.email'])
      .where('r.key', '=', 'tutor')
      .where('u.deleted_at', 'is', null)
      .orderBy('u.name')
      .orderBy('u.id')
      .execute();
  }

  /** Of the given user ids, those of active users with role tutor. */
  async tutorIds(ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await this.db
      .selectFrom('users as u')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .select('u.id')
      .where('u.id', 'in', ids)
      .where('r.key', '=', 'tutor')
      .where('u.deleted_at', 'is', null)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Replaces the tutors of a classroom in a course, in one transaction. */
  async replaceTutors(courseId: number, classroomId: number, userIds: number[]) {
    await this.db.transaction().execute(async (trx) => {
      // Lock the classroom row so two concurrent saves do not interleave.
      await trx
        .selectFrom('classrooms')
        .select('id')
        .where('id', '=', classroomId)
        .forUpdate()
        .executeTakeFirst();
      await trx
        .deleteFrom('classroom_tutors')
        .where('course_id', '=', courseId)
        .where('classroom_id', '=', classroomId)
        .execute();
      if (userIds.length)
        await trx
          .insertInto('classroom_tutors')
          .values(
            userIds.map((user_id) => ({ course_id: courseId, classroom_id: classroomId, user_id })),
          )
          .execute();
    });
  }

  // -- courses and classrooms ------------------------------------------------------------------

  course(id: number) {
    return this.db
      .selectFrom('courses')
      .select(['id', 'description'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async courseExists(id: number) {
    return (
      (await this.db.selectFrom('courses').select('id').where('id', '=', id).executeTakeFirst()) !==
      undefined
    );
  }

  /** Active courses (status 1); with `tutorId`, only those where a classroom assigned to that tutor has a student. */
  courses(tutorId?: number) {
    let q = this.db
      .selectFrom('courses as c')
      .innerJoin('categories as cat', 'cat.id', 'c.category_id')
      .select([
        'c.id',
        'c.description',
        'c.last_sync_at',
        'cat.id as category_id',
        'cat.description as category_description',
      ])
      .where('c.status', '=', 1);
    if (tutorId !== undefined) {
      q = q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('course_registered_users as e')
            .innerJoin('profiles as p', 'p.id', 'e.profile_id')
            .innerJoin('classroom_tutors as ct', (j) =>
              j
                .onRef('ct.course_id', '=', 'e.course_id')
                .onRef('ct.classroom_id', '=', 'e.classroom_id'),
            )
            .select(sql`1`.as('one'))
            .whereRef('e.course_id', '=', 'c.id')
            .where('p.key', '=', 'student')
            .where('ct.user_id', '=', tutorId),
        ),
      );
    }
    return q.orderBy('cat.description').orderBy('c.description').orderBy('c.id').execute();
  }

  /** The classrooms with students in a course, with their matrícula (every student enrolment, FIGURES.enrolled); optionally only some classrooms. */
  async classrooms(courseId: number, classroomIds?: number[]) {
    const { rows } = await sql<{ id: number; description: string; students: number }>`
      select cl.id, cl.description, count(*)::int as students
      from course_registered_users e
      join profiles p on p.id = e.profile_id and p.key = 'student'
      join classrooms cl on cl.id = e.classroom_id
      where e.course_id = ${courseId} and ${classroomIds ? inList(sql`e.classroom_id`, classroomIds) : sql`true`}
      group by cl.id, cl.description
      order by cl.description, cl.id`.execute(this.db);
    return rows;
  }

  // -- the student table -----------------------------------------------------------------------

  /**
   * The table's rows before filtering (see the class comment): the course's cached follow-up rows
   * (course_follow_up_rows, recomputed by StudentFiguresRepository.fresh when marked dirty) with
   * each student's ticket counts (enrolment_ticket_counts, kept by triggers). Callers run
   * `await this.fresh(courseId)` first.
   */
  private table(q: StudentTableQuery, name = sql`s`, also: RawBuilder<unknown> = sql`true`) {
    const room = q.classroom_id !== undefined ? sql`f.classroom_id = ${q.classroom_id}` : sql`true`;
    const rooms = q.classroomIds ? inList(sql`f.classroom_id`, q.classroomIds) : sql`true`;
    const only = q.enrolmentIds ? inList(sql`f.enrolment_id`, q.enrolmentIds) : sql`true`;
    return sql`
      ${name} as (
        select f.enrolment_id as id, f.registered_user_id as "registeredUserId", f.rut, f.name, f.last_name as "lastName", f.mother_last_name as "motherLastName",
          f.email, f.phone, f.classroom_id as "classroomId", cl.description as classroom, f.stage, f.form,
          f.last_access as "lastAccess", f.last_access_text as "lastAccessText",
          ${FIGURES.progress('f')} as progress,
          f.graded, f.expected,
          coalesce(k.open, 0) as "openTickets", coalesce(k.total, 0) as tickets, f.synced, f.suspended, f.search_name as "searchName"
        from course_follow_up_rows f
        left join classrooms cl on cl.id = f.classroom_id
        -- The course's counts are one range of enrolment_ticket_counts_course_idx (0018).
        left join enrolment_ticket_counts k on k.course_id = f.course_id and k.enrolment_id = f.enrolment_id
        where f.course_id = ${q.courseId} and ${room} and ${rooms} and ${only} and ${also}
      )`;
  }

  /** Recomputes the courses' cached student figures where a change has marked them dirty (before reading the table). */
  fresh(courseIds: number | number[]): Promise<void> {
    return this.figures.freshAll(Array.isArray(courseIds) ? courseIds : [courseIds]);
  }

  private where(q: StudentTableQuery) {
    const parts: RawBuilder<unknown>[] = [sql`true`];
    if (q.status) parts.push(FIGURES.stage('s', STAGE[q.status]));
    if (q.inactive_days !== undefined)
      parts.push(
        sql`(s."lastAccess" is null or s."lastAccess" < now() - make_interval(days => ${q.inactive_days}))`,
      );
    if (q.progress_below !== undefined) parts.push(sql`s.progress < ${q.progress_below}`);
    if (q.open_tickets) parts.push(sql`s."openTickets" > 0`);
    // The folded name as stored (registered_users.search_name, copied with the row: 0022).
    if (q.search)
      parts.push(foldedPersonSearch(sql`s."searchName"`, sql`s.rut`, q.search, [sql`s.email`]));
    return sql.join(parts, sql` and `);
  }

  private orderBy(q: StudentTableQuery) {
    const key: FollowUpSort = q.sort ?? 'name';
    const dir = q.order === 'desc' ? sql`desc` : sql`asc`;
    // Never accessed is the oldest access; a student without graded activities has the least progress.
    const nulls =
      key === 'lastAccess' || key === 'progress'
        ? q.order === 'desc'
          ? sql`nulls last`
          : sql`nulls first`
        : sql`nulls last`;
    const tie =
      key === 'name' ? sql`s.id ${dir}` : sql`lower(s."lastName" || ' ' || s.name) asc, s.id asc`;
    return sql`${SORTS[key]} ${dir} ${nulls}, ${tie}`;
  }

  /** One page of the table (or, without `page`, up to `limit` rows) and the total after filters. */
  async students(
    q: StudentTableQuery,
    limit?: number,
  ): Promise<{ rows: StudentTableRow[]; meta?: PageMeta }> {
    await this.fresh(q.courseId);
    const perPage = q.perPage ?? 10;
    const paging = q.page
      ? sql`limit ${perPage} offset ${(q.page - 1) * perPage}`
      : sql`limit ${limit ?? 5000}`;
    // The page is chosen on the columns the filters and the order read (the classroom's name and the
    // ticket counts are joined only when they do), then its rows are read whole (`w`).
    const { rows } = await sql<StudentTableRow & { __total: number; searchName: string | null }>`
      with ${this.table(q)},
      p as (
        select s.id, count(*) over ()::int as __total, row_number() over (order by ${this.orderBy(q)}) as __n
        from s
        where ${this.where(q)}
        order by ${this.orderBy(q)}
        ${paging}
      ),
      ${this.table(q, sql`w`, sql`f.enrolment_id in (select p.id from p)`)}
      select w.*, p.__total from w join p on p.id = w.id order by p.__n`.execute(this.db);
    let total = rows[0]?.__total ?? 0;
    if (q.page && !rows.length && q.page > 1) {
      const { rows: c } = await sql<{
        n: number;
      }>`with ${this.table(q)} select count(*)::int as n from s where ${this.where(q)}`.execute(
        this.db,
      );
      total = c[0]?.n ?? 0;
    }
    const now = Date.now();
    const out = rows.map(
      ({ __total: _, searchName: _name, ...r }) =>
        ({ ...r, daysWithoutAccess: daysSince(r.lastAccess, now) }) as StudentTableRow,
    );
    return { rows: out, ...(q.page ? { meta: pageMeta(q.page, perPage, total) } : {}) };
  }

  /** An enrolment's course and classroom (any profile), or undefined. */
  enrolment(id: number) {
    return this.db
      .selectFrom('course_registered_users as e')
      .innerJoin('courses as c', 'c.id', 'e.course_id')
      .select(['e.id', 'e.course_id', 'e.classroom_id', 'c.description as course_description'])
      .where('e.id', '=', id)
      .executeTakeFirst();
  }

  /** Of the given enrolments, the course and classroom of each (those that exist). */
  enrolments(ids: number[]) {
    if (!ids.length) return Promise.resolve([]);
    return this.db
      .selectFrom('course_registered_users')
      .select(['id', 'course_id', 'classroom_id'])
      .where('id', 'in', ids)
      .execute();
  }

  /** The latest mails written to the enrolment's student (each counts as a contact). */
  async mailsOf(enrolmentId: number, limit = 20) {
    return this.db
      .selectFrom('mail_messages')
      .select(['id', 'subject', 'status', 'created_at', 'ticket_id'])
      .where('enrolment_id', '=', enrolmentId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Every activity of the enrolment's course with the student's row on it, by section. */
  async activitiesOf(enrolmentId: number, courseId: number, form: 'A' | 'B') {
    const { rows } = await sql<{
      activityId: number;
      idActivityMoodle: number | null;
      description: string;
      section: string | null;
      sectionKey: string | null;
      weighing: number;
      counts: boolean;
      statusMoodle: string | null;
      qualificationMoodle: string | null;
      completionState: number | null;
      grade: number | null;
    }>`
      select a.id as "activityId", a.id_activity_moodle as "idActivityMoodle", a.description, s.description as section, s.key as "sectionKey",
        a.weighing::float8 as weighing,
        coalesce(${countsTowardProgress('a', 's')} and ${formApplies(sql`s.key`, sql`${form}::text`)}, false) as counts,
        acu.status_moodle as "statusMoodle", acu.qualification_moodle as "qualificationMoodle", acu.completion_state as "completionState", acu.grade::float8 as grade
      from activities a
      left join sections s on s.id = a.section_id
      left join activity_course_users acu on acu.activity_id = a.id and acu.course_registered_user_id = ${enrolmentId}
      where a.course_id = ${courseId}
      order by s.id nulls last, a.id`.execute(this.db);
    return rows;
  }
}
