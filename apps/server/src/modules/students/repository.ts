import { SEARCH_COUNT_CAP, type ListQuery } from '@sigaf/contract';
import { sql, type Insertable, type RawBuilder, type Updateable } from 'kysely';
import { executePrepared, OneValueQuery } from '../../db/compiled.js';
import type { Database } from '../../db/database.js';
import {
  DEFAULT_PER_PAGE,
  foldedPersonSearch,
  pageMeta,
  paginate,
  sortColumn,
  type Page,
} from '../../db/pagination.js';
import type { RegisteredUserTable } from '../../db/schema.js';
import { findEnrolments } from './find.js';

export const STUDENT_COLUMNS = [
  'rut',
  'name',
  'last_name',
  'mother_last_name',
  'email',
  'phone',
  'mobile',
  'address',
  'city',
  'region',
  'rbd_school',
  'name_school',
  'city_school',
  'region_school',
  'phone_school',
] as const;
export type StudentColumn = (typeof STUDENT_COLUMNS)[number];
export type StudentValues = Partial<Record<StudentColumn, string | null>>;

/** Rows per statement of the student import: each column travels as one array parameter. */
const IMPORT_CHUNK = 10_000;

/** A student's full name as searched: folded (lower case, no accents) and kept by a trigger (migration 0016). */
const FULL_NAME = sql`r.search_name`;

const SORTS = {
  id: 'r.id',
  rut: 'r.rut',
  name: 'r.name',
  lastName: 'r.last_name',
  email: 'r.email',
} as const;

/** Students (registered_users). */
export class StudentRepository {
  constructor(private readonly db: Database) {}

  private base() {
    return this.db
      .selectFrom('registered_users as r')
      .selectAll('r')
      .select(
        sql<number>`(select count(*) from course_registered_users e where e.registered_user_id = r.id)`.as(
          'enrolments_count',
        ),
      );
  }

  async list(q: ListQuery & { courseId?: number }): Promise<Page<StudentRow>> {
    let query = this.base();
    if (q.search)
      query = query.where(foldedPersonSearch(FULL_NAME, sql`r.rut`, q.search, [sql`r.email`]));
    if (q.courseId) {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('course_registered_users as e')
            .select('e.id')
            .whereRef('e.registered_user_id', '=', 'r.id')
            .where('e.course_id', '=', q.courseId!),
        ),
      );
    }
    const col = sortColumn(SORTS, q.sort, 'id');
    const ordered = query
      .orderBy(sql.ref(col), q.order === 'desc' ? 'desc' : 'asc')
      .orderBy('r.id');
    if (!q.search || !q.page) return paginate(ordered, q);
    // A search: the page and its total as two queries at once. With a window count in the page the
    // planner would read every student in order (it costs the count as if the limit stopped it);
    // counted apart, the matches come from the trigram indexes (migration 0016), and no further
    // than SEARCH_COUNT_CAP: a common name's 13,000 matches at 200,000 students took 22-28 ms to
    // count, the first thousand 3 ms (docs/development/performance.md#growth).
    const perPage = q.perPage ?? DEFAULT_PER_PAGE;
    const matches = query
      .clearSelect()
      .select(sql<number>`1`.as('one'))
      .limit(SEARCH_COUNT_CAP + 1);
    const [rows, counted] = await Promise.all([
      ordered
        .limit(perPage)
        .offset((q.page - 1) * perPage)
        .execute(),
      sql<{ n: number }>`select count(*) as n from (${matches}) m`.execute(this.db),
    ]);
    const n = Number(counted.rows[0]!.n);
    return {
      rows,
      meta:
        n > SEARCH_COUNT_CAP
          ? { ...pageMeta(q.page, perPage, SEARCH_COUNT_CAP), totalCapped: true }
          : pageMeta(q.page, perPage, n),
    };
  }

  findById(id: number) {
    return this.base().where('r.id', '=', id).executeTakeFirst();
  }

  findByRut(rut: string) {
    return this.base().where('r.rut', '=', rut).executeTakeFirst();
  }

  /** The students with these RUTs (their id and the columns an import compares), one statement per 10,000. */
  async findManyByRut(ruts: string[], db: Database = this.db) {
    const out: Array<{ id: number } & Record<StudentColumn, string | null>> = [];
    for (let i = 0; i < ruts.length; i += IMPORT_CHUNK) {
      const chunk = ruts.slice(i, i + IMPORT_CHUNK);
      const { rows } = await sql<{ id: number } & Record<StudentColumn, string | null>>`
        select id, ${sql.join(STUDENT_COLUMNS.map((c) => sql.ref(c)))} from registered_users where rut = any(${chunk}::text[])`.execute(
        db,
      );
      out.push(...rows);
    }
    return out;
  }

  async insert(values: Insertable<RegisteredUserTable>, db: Database = this.db) {
    return (
      await db
        .insertInto('registered_users')
        .values(values)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  /** Inserts many students in the order given, each column one array parameter (10,000 rows a statement). */
  async insertMany(rows: StudentValues[], db: Database) {
    const ids: Array<{ id: number; rut: string }> = [];
    const columns = sql.join(STUDENT_COLUMNS.map((c) => sql.ref(c)));
    for (let i = 0; i < rows.length; i += IMPORT_CHUNK) {
      const chunk = rows.slice(i, i + IMPORT_CHUNK);
      const arrays = sql.join(
        STUDENT_COLUMNS.map((c) => sql`${chunk.map((r) => r[c] ?? null)}::text[]`),
      );
      const { rows: inserted } = await sql<{ id: number; rut: string }>`
        insert into registered_users (${columns})
        select ${columns} from unnest(${arrays}) with ordinality as v (${columns}, ord) order by ord
        returning id, rut`.execute(db);
      ids.push(...inserted);
    }
    return ids;
  }

  /**
   * Updates many students in one statement per 10,000: each row's non-null values replace the
   * stored ones (null leaves a column as it is), and its update time is set.
   */
  async updateMany(rows: Array<{ id: number; changes: StudentValues }>, db: Database) {
    for (let i = 0; i < rows.length; i += IMPORT_CHUNK) {
      const chunk = rows.slice(i, i + IMPORT_CHUNK);
      // Only the columns some row changes are set (the name trigger runs only when a name is written).
      const columns = STUDENT_COLUMNS.filter(
        (c) => c !== 'rut' && chunk.some((r) => r.changes[c] != null),
      );
      if (!columns.length) continue;
      const arrays = sql.join([
        sql`${chunk.map((r) => r.id)}::int[]`,
        ...columns.map((c) => sql`${chunk.map((r) => r.changes[c] ?? null)}::text[]`),
      ]);
      const set = sql.join(
        columns.map((c) => sql`${sql.ref(c)} = coalesce(v.${sql.ref(c)}, r.${sql.ref(c)})`),
      );
      await sql`update registered_users as r set ${set}, updated_at = now()
        from unnest(${arrays}) as v (id, ${sql.join(columns.map((c) => sql.ref(c)))})
        where r.id = v.id`.execute(db);
    }
  }

  async update(id: number, values: Updateable<RegisteredUserTable>, db: Database = this.db) {
    await db
      .updateTable('registered_users')
      .set({ ...values, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number) {
    await this.db.deleteFrom('registered_users').where('id', '=', id).execute();
  }
}

export type StudentRow = NonNullable<Awaited<ReturnType<StudentRepository['findById']>>>;

const ENROLMENT_SORTS = {
  id: 'e.id',
  rut: 'r.rut',
  name: 'r.name',
  lastName: 'r.last_name',
  classroom: 'cl.description',
  lastAccess: 'e.last_access_registered_moodle',
} as const;

/** Up to this many enrolments, their Moodle results are read with their activities joined (see activityResults). */
const FEW_ENROLMENTS = 50;

/** Enrolments (course_registered_users). */
export class EnrolmentRepository {
  constructor(private readonly db: Database) {}

  /** Enrolments whose student matches a name or RUT (./find.ts). */
  find(search: string, firstCourseId: number | undefined, limit: number) {
    return findEnrolments(this.db, search, firstCourseId, limit);
  }

  private base(db: Database = this.db) {
    return db
      .selectFrom('course_registered_users as e')
      .innerJoin('registered_users as r', 'r.id', 'e.registered_user_id')
      .innerJoin('courses as c', 'c.id', 'e.course_id')
      .innerJoin('profiles as p', 'p.id', 'e.profile_id')
      .leftJoin('classrooms as cl', 'cl.id', 'e.classroom_id')
      .leftJoin('final_statuses as fs', 'fs.id', 'e.final_status_id')
      .select([
        'e.id',
        'e.course_id',
        'e.registered_user_id',
        'e.profile_id',
        'e.classroom_id',
        'e.final_status_id',
        'e.final_qualification',
        'e.final_qualification_moodle',
        'e.last_access_registered_moodle',
        'e.last_access_text',
        'e.is_sincronized',
        'e.created_at',
        'e.updated_at',
        'r.rut',
        'r.name',
        'r.last_name',
        'r.mother_last_name',
        'r.email',
        'r.mobile',
        'r.phone',
        'r.region',
        'r.city',
        'r.id_registered_moodle',
        'r.rut_registered_moodle',
        'r.address',
        'r.rbd_school',
        'r.name_school',
        'r.city_school',
        'r.region_school',
        'r.phone_school',
        'c.description as course_description',
        'c.id_course_moodle',
        'c.category_id',
        'p.description as profile_description',
        'p.key as profile_key',
        'cl.description as classroom_description',
        'fs.description as final_status_description',
        sql<number>`(select count(*) from tickets t where t.course_registered_user_id = e.id)`.as(
          'tickets_count',
        ),
      ]);
  }

  list(
    q: ListQuery & {
      courseId?: number;
      studentId?: number;
      classroomId?: number | null;
      classroomIds?: number[];
      unassigned?: boolean;
      profileKey?: string;
    },
  ) {
    let query = this.base();
    if (q.courseId) query = query.where('e.course_id', '=', q.courseId);
    if (q.studentId) query = query.where('e.registered_user_id', '=', q.studentId);
    if (q.classroomId) query = query.where('e.classroom_id', '=', q.classroomId);
    // A tutor's classrooms: none at all is an empty list.
    if (q.classroomIds)
      query = q.classroomIds.length
        ? query.where('e.classroom_id', 'in', q.classroomIds)
        : query.where(sql<boolean>`false`);
    if (q.unassigned) query = query.where('e.classroom_id', 'is', null);
    if (q.profileKey) query = query.where('p.key', '=', q.profileKey);
    if (q.search)
      query = query.where(foldedPersonSearch(FULL_NAME, sql`r.rut`, q.search, [sql`r.email`]));
    const col = sortColumn(ENROLMENT_SORTS, q.sort, 'lastName');
    return paginate(
      query
        .orderBy(sql.ref(col), (ob) =>
          q.order === 'desc' ? ob.desc().nullsLast() : ob.asc().nullsFirst(),
        )
        .orderBy('e.id'),
      q,
    );
  }

  /** One enrolment (read by every call about a student's enrolment: compiled once). */
  private readonly byId = new OneValueQuery(() => this.base().where('e.id', '=', 0));

  async findById(id: number) {
    return (await this.byId.rows(this.db, id))[0];
  }

  /** Enrolments by id, in the order asked (ids not found are left out). */
  async findMany(ids: number[]) {
    const rows: EnrolmentRow[] = [];
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = ids.slice(i, i + 1000);
      if (chunk.length) rows.push(...(await this.base().where('e.id', 'in', chunk).execute()));
    }
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id)).filter((r): r is EnrolmentRow => r !== undefined);
  }

  /**
   * The Moodle results of some enrolments with their activity and section (the original's raw
   * `activity_course_users`), by enrolment and activity. A whole course holds some 28,000 results
   * of a few dozen activities: the results are read narrow and, at the same time, the activities of
   * the enrolments' courses once each, then put together (activities since removed are left out).
   */
  async activityResults(enrolmentIds: number[]): Promise<ActivityResultRow[]> {
    if (!enrolmentIds.length) return [];
    const ids = sql`${enrolmentIds}::int[]`;
    // A page's few enrolments (a ticket list): one query with the activities joined.
    if (enrolmentIds.length <= FEW_ENROLMENTS) {
      return executePrepared(
        this.db,
        sql<ActivityResultRow>`
        select acu.id, acu.activity_id, acu.course_registered_user_id, acu.status_moodle, acu.qualification_moodle,
          a.description, a.type, a.weighing, a.id_activity_moodle, a.section_id, s.description as section_description
        from activity_course_users acu join activities a on a.id = acu.activity_id left join sections s on s.id = a.section_id
        where acu.course_registered_user_id = any(${enrolmentIds}::int[]) and a.removed_at is null
        order by acu.course_registered_user_id, a.id`,
      );
    }
    const [results, activities] = await Promise.all([
      executePrepared(
        this.db,
        sql<
          Pick<
            ActivityResultRow,
            | 'id'
            | 'activity_id'
            | 'course_registered_user_id'
            | 'status_moodle'
            | 'qualification_moodle'
          >
        >`
        select acu.id, acu.activity_id, acu.course_registered_user_id, acu.status_moodle, acu.qualification_moodle
        from activity_course_users acu where acu.course_registered_user_id = any(${ids})
        order by acu.course_registered_user_id, acu.activity_id`,
      ),
      this.resultActivities(
        sql`a.course_id in (select e.course_id from course_registered_users e where e.id = any(${ids}))`,
      ),
    ]);
    // A result whose activity is of another course (not expected) is read by its id.
    const others = [...new Set(results.map((r) => r.activity_id))].filter(
      (id) => !activities.has(id),
    );
    if (others.length)
      for (const [id, a] of await this.resultActivities(sql`a.id = any(${others}::int[])`))
        activities.set(id, a);
    const out: ActivityResultRow[] = [];
    for (const r of results) {
      const a = activities.get(r.activity_id);
      if (!a || a.removed) continue;
      out.push({
        id: r.id,
        activity_id: r.activity_id,
        course_registered_user_id: r.course_registered_user_id,
        status_moodle: r.status_moodle,
        qualification_moodle: r.qualification_moodle,
        description: a.description,
        type: a.type,
        weighing: a.weighing,
        id_activity_moodle: a.id_activity_moodle,
        section_id: a.section_id,
        section_description: a.section_description,
      });
    }
    return out;
  }

  /** Activities with their section, by id (`removed`: taken out of the course). */
  private async resultActivities(where: RawBuilder<unknown>) {
    const rows = await executePrepared(
      this.db,
      sql<
        Omit<
          ActivityResultRow,
          | 'id'
          | 'activity_id'
          | 'course_registered_user_id'
          | 'status_moodle'
          | 'qualification_moodle'
        > & { id: number; removed: boolean }
      >`
      select a.id, a.description, a.type, a.weighing, a.id_activity_moodle, a.section_id, s.description as section_description, a.removed_at is not null as removed
      from activities a left join sections s on s.id = a.section_id
      where ${where}`,
    );
    return new Map(rows.map((a) => [a.id, a]));
  }

  findByStudentAndCourse(studentId: number, courseId: number) {
    return this.base()
      .where('e.registered_user_id', '=', studentId)
      .where('e.course_id', '=', courseId)
      .executeTakeFirst();
  }

  async insert(values: {
    course_id: number;
    registered_user_id: number;
    profile_id: number;
    classroom_id: number | null;
  }) {
    return (
      await this.db
        .insertInto('course_registered_users')
        .values(values)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  /** Enrols many students at once, in the order given; existing enrolments are left as they are. */
  async enrolMany(courseId: number, studentIds: number[], profileId: number, db: Database) {
    let inserted = 0;
    for (let i = 0; i < studentIds.length; i += IMPORT_CHUNK) {
      const chunk = studentIds.slice(i, i + IMPORT_CHUNK);
      const res =
        await sql`insert into course_registered_users (course_id, registered_user_id, profile_id, classroom_id)
        select ${courseId}::int, v.id, ${profileId}::int, null from unnest(${chunk}::int[]) with ordinality as v (id, ord) order by v.ord
        on conflict (course_id, registered_user_id) do nothing`.execute(db);
      inserted += Number(res.numAffectedRows ?? 0);
    }
    return inserted;
  }

  /** Which of these students are enrolled in the course (one statement per 10,000). */
  async enrolledStudentIds(
    courseId: number,
    studentIds: number[],
    db: Database = this.db,
  ): Promise<Set<number>> {
    const out = new Set<number>();
    for (let i = 0; i < studentIds.length; i += IMPORT_CHUNK) {
      const chunk = studentIds.slice(i, i + IMPORT_CHUNK);
      const { rows } = await sql<{ registered_user_id: number }>`
        select registered_user_id from course_registered_users where course_id = ${courseId} and registered_user_id = any(${chunk}::int[])`.execute(
        db,
      );
      for (const r of rows) out.add(r.registered_user_id);
    }
    return out;
  }

  async update(
    id: number,
    values: { classroom_id?: number | null; profile_id?: number; final_status_id?: number | null },
  ) {
    await this.db
      .updateTable('course_registered_users')
      .set({ ...values, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  /** Assigns many enrolments of one course to a classroom (and optionally a profile) in one statement. */
  async assignClassroom(
    courseId: number | null,
    ids: number[],
    classroomId: number,
    profileId?: number | null,
  ) {
    let q = this.db
      .updateTable('course_registered_users')
      .set({
        classroom_id: classroomId,
        ...(profileId ? { profile_id: profileId } : {}),
        updated_at: sql`now()`,
      })
      .where('id', 'in', ids);
    if (courseId) q = q.where('course_id', '=', courseId);
    const res = await q.executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  async courseOf(ids: number[]): Promise<number[]> {
    const rows = await this.db
      .selectFrom('course_registered_users')
      .select('course_id')
      .distinct()
      .where('id', 'in', ids)
      .execute();
    return rows.map((r) => r.course_id);
  }

  async delete(id: number) {
    await this.db.deleteFrom('course_registered_users').where('id', '=', id).execute();
  }

  async count(courseId: number): Promise<number> {
    const r = await this.db
      .selectFrom('course_registered_users')
      .select(sql<number>`count(*)`.as('n'))
      .where('course_id', '=', courseId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Students per classroom of a course (unassigned under null), for the classroom chart. */
  async perClassroom(courseId: number) {
    const rows = await this.db
      .selectFrom('course_registered_users as e')
      .leftJoin('classrooms as cl', 'cl.id', 'e.classroom_id')
      .select(['e.classroom_id', 'cl.description', sql<number>`count(*)`.as('count')])
      .where('e.course_id', '=', courseId)
      .groupBy(['e.classroom_id', 'cl.description'])
      .orderBy('cl.description')
      .execute();
    return rows.map((r) => ({
      classroomId: r.classroom_id,
      classroom: r.description,
      count: Number(r.count),
    }));
  }

  async unassignedIds(courseId: number, profileKey = 'student'): Promise<number[]> {
    const rows = await this.db
      .selectFrom('course_registered_users as e')
      .innerJoin('profiles as p', 'p.id', 'e.profile_id')
      .innerJoin('registered_users as r', 'r.id', 'e.registered_user_id')
      .select('e.id')
      .where('e.course_id', '=', courseId)
      .where('e.classroom_id', 'is', null)
      .where('p.key', '=', profileKey)
      .orderBy('r.last_name')
      .orderBy('r.name')
      .orderBy('e.id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Each classroom gets its ids in one statement (the auto split). */
  async applySplit(courseId: number, plan: Array<{ classroomId: number; ids: number[] }>) {
    await this.db.transaction().execute(async (trx) => {
      for (const p of plan) {
        if (!p.ids.length) continue;
        await trx
          .updateTable('course_registered_users')
          .set({ classroom_id: p.classroomId, updated_at: sql`now()` })
          .where('course_id', '=', courseId)
          .where('id', 'in', p.ids)
          .execute();
      }
    });
  }

  async lastSync(courseId: number) {
    const r = await this.db
      .selectFrom('courses')
      .select('last_sync_at')
      .where('id', '=', courseId)
      .executeTakeFirst();
    return r?.last_sync_at ?? null;
  }

  async lookupId(
    table: 'profiles' | 'classrooms' | 'final_statuses' | 'courses' | 'registered_users',
    id: number,
  ) {
    return (
      (await this.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !==
      undefined
    );
  }

  async profileIdByKey(key: string): Promise<number> {
    return (
      await this.db
        .selectFrom('profiles')
        .select('id')
        .where('key', '=', key)
        .executeTakeFirstOrThrow()
    ).id;
  }

  async classroomName(id: number): Promise<string | undefined> {
    return (
      await this.db
        .selectFrom('classrooms')
        .select('description')
        .where('id', '=', id)
        .executeTakeFirst()
    )?.description;
  }

  /** The roster export: every enrolment of a course with its student, classroom and profile. */
  roster(courseId: number) {
    return this.base()
      .where('e.course_id', '=', courseId)
      .orderBy('cl.description')
      .orderBy('r.last_name')
      .orderBy('r.name')
      .execute();
  }
}

export type EnrolmentRow = NonNullable<Awaited<ReturnType<EnrolmentRepository['findById']>>>;

export interface ActivityResultRow {
  id: number;
  activity_id: number;
  course_registered_user_id: number;
  status_moodle: string | null;
  qualification_moodle: string | null;
  description: string;
  type: string | null;
  weighing: number | string;
  id_activity_moodle: number | null;
  section_id: number | null;
  section_description: string | null;
}
