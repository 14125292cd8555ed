import { sql, type Insertable, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import type { MoodleCourseSyncTable } from '../../db/schema.js';
import { appendProgressHistory, writtenEnrolments } from '../outcomes/history-repository.js';
import type {
  EnrolmentValues,
  LocalActivity,
  LocalEnrolment,
  LocalResult,
  PeoplePlan,
  StudentValues,
} from './plan.js';

/** Namespace of the advisory locks that serialise the write phase of syncs of one course. */
const SYNC_LOCK = 47_110_001;
/** Rows per statement: each column travels as one array parameter, so statements stay few. */
const CHUNK = 10_000;

function chunks<T>(rows: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** One column of many rows as a typed array parameter (`$1::int[]`), for `unnest`. */
const column = (values: readonly unknown[], type: string) => sql`${values}::${sql.raw(type)}[]`;

/**
 * `update table set c = v.c ... from unnest(ids, c, ...) v where t.id = v.id`: many rows with
 * different values in one statement per chunk. Columns are given with their SQL types.
 */
async function updateMany<R extends { id: number }>(
  db: Database,
  table: string,
  columns: Record<string, string>,
  rows: readonly R[],
): Promise<number> {
  const names = Object.keys(columns);
  for (const part of chunks(rows)) {
    const arrays = [
      column(
        part.map((r) => r.id),
        'bigint',
      ),
      ...names.map((c) =>
        column(
          part.map((r) => (r as Record<string, unknown>)[c] ?? null),
          columns[c]!,
        ),
      ),
    ];
    const set = sql.join(names.map((c) => sql`${sql.ref(c)} = v.${sql.ref(c)}`));
    await sql`update ${sql.table(table)} as t set ${set}, updated_at = now()
      from unnest(${sql.join(arrays)}) as v (id, ${sql.join(names.map((c) => sql.ref(c)))})
      where t.id = v.id`.execute(db);
  }
  return rows.length;
}

export interface CourseContext {
  id: number;
  description: string;
  id_course_moodle: number | null;
  platform_id: number;
  url: string | null;
  token_encrypted: string | null;
}

export class MoodleSyncRepository {
  constructor(private readonly db: Database) {}

  // --- Settings -------------------------------------------------------------------------

  platform(id: number) {
    return this.db
      .selectFrom('platforms')
      .select(['id', 'description', 'url', 'token_encrypted'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async savePlatform(id: number, url: string, tokenEncrypted: string | undefined) {
    await this.db
      .updateTable('platforms')
      .set({
        url,
        ...(tokenEncrypted ? { token_encrypted: tokenEncrypted } : {}),
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .execute();
  }

  // --- Courses ----------------------------------------------------------------------------

  course(id: number): Promise<CourseContext | undefined> {
    return this.db
      .selectFrom('courses as c')
      .innerJoin('categories as cat', 'cat.id', 'c.category_id')
      .innerJoin('platforms as p', 'p.id', 'cat.platform_id')
      .select([
        'c.id',
        'c.description',
        'c.id_course_moodle',
        'p.id as platform_id',
        'p.url',
        'p.token_encrypted',
      ])
      .where('c.id', '=', id)
      .executeTakeFirst();
  }

  /** A Moodle course linked to a local course of this platform, if any (the connection test reads one participant of it). */
  async linkedMoodleCourse(platformId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('courses as c')
      .innerJoin('categories as k', 'k.id', 'c.category_id')
      .select('c.id_course_moodle')
      .where('k.platform_id', '=', platformId)
      .where('c.id_course_moodle', 'is not', null)
      .orderBy('c.id')
      .executeTakeFirst();
    return row?.id_course_moodle ?? undefined;
  }

  async coursesByMoodleId(moodleId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('courses')
      .select('id')
      .where('id_course_moodle', '=', moodleId)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** A course's enrolments with their student's name. */
  private enrolmentsWithNames(courseId: number) {
    return this.db
      .selectFrom('course_registered_users as e')
      .innerJoin('registered_users as r', 'r.id', 'e.registered_user_id')
      .select(['e.id', 'r.name', 'r.last_name'])
      .where('e.course_id', '=', courseId);
  }

  /** The enrolment, in a course, of the student Moodle knows by this user id. */
  enrolmentOfMoodleUser(courseId: number, moodleUserId: number) {
    return this.enrolmentsWithNames(courseId)
      .where('r.id_registered_moodle', '=', moodleUserId)
      .executeTakeFirst();
  }

  async studentIdByRut(rut: string) {
    return (
      await this.db
        .selectFrom('registered_users')
        .select('id')
        .where('rut', '=', rut)
        .executeTakeFirst()
    )?.id;
  }

  enrolmentOf(courseId: number, studentId: number) {
    return this.enrolmentsWithNames(courseId)
      .where('e.registered_user_id', '=', studentId)
      .executeTakeFirst();
  }

  // --- Local state of a course (read inside the sync's transaction) ---------------------

  /** Serialises the write phase of syncs of one course (the lock ends with the transaction). */
  async lockCourse(trx: Database, courseId: number) {
    await sql`select pg_advisory_xact_lock(${SYNC_LOCK}::int, ${courseId}::int)`.execute(trx);
  }

  enrolments(db: Database, courseId: number, onlyEnrolmentId?: number): Promise<LocalEnrolment[]> {
    let q = db
      .selectFrom('course_registered_users as e')
      .innerJoin('registered_users as r', 'r.id', 'e.registered_user_id')
      .select([
        'e.id',
        'e.registered_user_id',
        'r.rut',
        'r.name',
        'r.last_name',
        'e.last_access_registered_moodle',
        'e.last_access_text',
        'e.is_sincronized',
        'e.moodle_suspended',
        'e.moodle_seen',
        'e.final_qualification_moodle',
        'e.status_moodle',
        'r.id_registered_moodle',
        'r.rut_registered_moodle',
        'r.name_registered_moodle',
        'r.email_registered_moodle',
        'r.status_moodle as student_status_moodle',
      ])
      .where('e.course_id', '=', courseId);
    if (onlyEnrolmentId) q = q.where('e.id', '=', onlyEnrolmentId);
    return q.orderBy('e.id').execute();
  }

  activities(db: Database, courseId: number): Promise<LocalActivity[]> {
    return db
      .selectFrom('activities as a')
      .leftJoin('sections as s', 's.id', 'a.section_id')
      .select([
        'a.id',
        'a.id_activity_moodle',
        'a.description',
        'a.type',
        's.key as section_key',
        'a.removed_at',
        'a.hidden',
        'a.moodle_unseen_at',
      ])
      .where('a.course_id', '=', courseId)
      .orderBy('a.id')
      .execute();
  }

  /** The stored results of some enrolments of a course. */
  async results(
    db: Database,
    courseId: number,
    enrolmentIds: readonly number[],
  ): Promise<LocalResult[]> {
    const out: LocalResult[] = [];
    for (const part of chunks(enrolmentIds)) {
      const { rows } =
        await sql<LocalResult>`select r.id, r.activity_id, r.course_registered_user_id, r.status_moodle, r.qualification_moodle, r.completion_state, r.grade
        from activity_course_users r
        join course_registered_users e on e.id = r.course_registered_user_id
        where e.course_id = ${courseId} and r.course_registered_user_id = any(${column(part, 'int')})`.execute(
          db,
        );
      for (const r of rows) out.push({ ...r, grade: r.grade === null ? null : Number(r.grade) });
    }
    return out;
  }

  /**
   * Each enrolment's stored results as one text (see resultFingerprint in diff.ts): the sync
   * compares it with what Moodle says and reads the rows only of the students that differ.
   */
  async resultFingerprints(
    db: Database,
    courseId: number,
    onlyEnrolmentId?: number,
  ): Promise<Map<number, string>> {
    const { rows } = await sql<{
      id: number;
      fingerprint: string;
    }>`select r.course_registered_user_id as id,
        string_agg(concat_ws(',', r.activity_id, quote_nullable(r.status_moodle), quote_nullable(r.qualification_moodle),
          coalesce(r.completion_state::text, '-'), coalesce(r.grade::text, '-')), ';' order by r.activity_id) as fingerprint
      from activity_course_users r
      join course_registered_users e on e.id = r.course_registered_user_id
      where e.course_id = ${courseId} ${onlyEnrolmentId ? sql`and e.id = ${onlyEnrolmentId}` : sql``}
      group by r.course_registered_user_id`.execute(db);
    return new Map(rows.map((r) => [Number(r.id), r.fingerprint]));
  }

  async sectionIdByKey(db: Database, key: string): Promise<number | null> {
    return (
      (await db.selectFrom('sections').select('id').where('key', '=', key).executeTakeFirst())
        ?.id ?? null
    );
  }

  // --- Writes (inside the transaction) ----------------------------------------------------

  async insertActivities(
    db: Database,
    courseId: number,
    sectionId: number | null,
    rows: ReadonlyArray<{
      id_activity_moodle: number;
      description: string;
      type: string;
      hidden: boolean;
    }>,
  ) {
    for (const part of chunks(rows, 500)) {
      await db
        .insertInto('activities')
        .values(
          part.map((r) => ({ ...r, course_id: courseId, section_id: sectionId, weighing: 0 })),
        )
        .execute();
    }
    return rows.length;
  }

  updateActivities(
    db: Database,
    rows: ReadonlyArray<{
      id: number;
      description: string;
      type: string;
      hidden: boolean;
      removed_at: Date | null;
      moodle_unseen_at: Date | null;
    }>,
  ) {
    const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
    return updateMany(
      db,
      'activities',
      {
        description: 'varchar',
        type: 'varchar',
        hidden: 'boolean',
        removed_at: 'timestamptz',
        moodle_unseen_at: 'timestamptz',
      },
      rows.map((r) => ({
        ...r,
        removed_at: iso(r.removed_at),
        moodle_unseen_at: iso(r.moodle_unseen_at),
      })),
    );
  }

  updateEnrolments(db: Database, rows: readonly EnrolmentValues[]) {
    return updateMany(
      db,
      'course_registered_users',
      {
        last_access_registered_moodle: 'timestamptz',
        last_access_text: 'varchar',
        is_sincronized: 'boolean',
        moodle_suspended: 'boolean',
        moodle_seen: 'boolean',
        final_qualification_moodle: 'varchar',
        status_moodle: 'varchar',
      },
      rows.map(
        ({
          id,
          last_access_registered_moodle,
          last_access_text,
          is_sincronized,
          moodle_suspended,
          moodle_seen,
          final_qualification_moodle,
          status_moodle,
        }) => ({
          id,
          last_access_text,
          is_sincronized,
          moodle_suspended,
          moodle_seen,
          final_qualification_moodle,
          status_moodle,
          last_access_registered_moodle: last_access_registered_moodle
            ? new Date(last_access_registered_moodle).toISOString()
            : null,
        }),
      ),
    );
  }

  updateStudents(db: Database, rows: readonly StudentValues[]) {
    return updateMany(
      db,
      'registered_users',
      {
        id_registered_moodle: 'int',
        rut_registered_moodle: 'varchar',
        name_registered_moodle: 'varchar',
        email_registered_moodle: 'varchar',
        status_moodle: 'varchar',
      },
      rows,
    );
  }

  async insertResults(db: Database, rows: ReadonlyArray<Omit<LocalResult, 'id'>>) {
    for (const part of chunks(rows)) {
      await sql`insert into activity_course_users (activity_id, course_registered_user_id, status_moodle, qualification_moodle, completion_state, grade)
        select * from unnest(${sql.join([
          column(
            part.map((r) => r.activity_id),
            'int',
          ),
          column(
            part.map((r) => r.course_registered_user_id),
            'int',
          ),
          column(
            part.map((r) => r.status_moodle),
            'varchar',
          ),
          column(
            part.map((r) => r.qualification_moodle),
            'varchar',
          ),
          column(
            part.map((r) => r.completion_state),
            'smallint',
          ),
          column(
            part.map((r) => r.grade),
            'numeric',
          ),
        ])})`.execute(db);
    }
    return rows.length;
  }

  updateResults(db: Database, rows: readonly LocalResult[]) {
    return updateMany(
      db,
      'activity_course_users',
      {
        status_moodle: 'varchar',
        qualification_moodle: 'varchar',
        completion_state: 'smallint',
        grade: 'numeric',
      },
      rows,
    );
  }

  /**
   * The figures over time (migration 0035): a history row for each student of the course whose
   * figures the plan changed (everybody's when the activities changed; one student's in a
   * one-student sync), and a first one for those without any.
   */
  appendHistory(
    db: Database,
    courseId: number,
    plan: PeoplePlan,
    activitiesChanged: boolean,
    onlyEnrolmentId?: number,
  ) {
    return appendProgressHistory(db, {
      courseId,
      enrolmentIds: writtenEnrolments(plan),
      all: activitiesChanged,
      only: onlyEnrolmentId,
    });
  }

  async stampCourse(db: Database, courseId: number) {
    await db
      .updateTable('courses')
      .set({ last_sync_at: sql`now()` })
      .where('id', '=', courseId)
      .execute();
  }

  // --- Sync state -----------------------------------------------------------------------------

  syncState(courseId: number) {
    return this.db
      .selectFrom('moodle_course_syncs')
      .selectAll()
      .where('course_id', '=', courseId)
      .executeTakeFirst();
  }

  /** Upserts a course's sync state with the given columns. */
  async saveState(
    courseId: number,
    values: Partial<Omit<Insertable<MoodleCourseSyncTable>, 'course_id'>> & {
      state: MoodleCourseSyncTable['state'];
      scope: string;
    },
    db: Database = this.db,
  ) {
    const json = (v: unknown): RawBuilder<unknown> | undefined =>
      v === undefined ? undefined : sql`${v === null ? null : JSON.stringify(v)}::jsonb`;
    const row = { ...values, progress: json(values.progress), result: json(values.result) };
    const set = Object.fromEntries(Object.entries(row).filter(([, v]) => v !== undefined));
    await db
      .insertInto('moodle_course_syncs')
      .values({ course_id: courseId, ...set } as Insertable<MoodleCourseSyncTable>)
      .onConflict((oc) => oc.column('course_id').doUpdateSet({ ...set, updated_at: sql`now()` }))
      .execute();
  }

  /** The student's activities with Moodle's results in one course (the answer of a student sync). */
  studentResults(enrolmentId: number) {
    return this.db
      .selectFrom('activity_course_users as r')
      .innerJoin('activities as a', 'a.id', 'r.activity_id')
      .leftJoin('sections as s', 's.id', 'a.section_id')
      .select([
        'r.id',
        'r.activity_id',
        'a.description',
        'a.type',
        'a.weighing',
        'a.id_activity_moodle',
        's.description as section_description',
        's.key as section_key',
        'r.status_moodle',
        'r.qualification_moodle',
        'r.completion_state',
        'r.grade',
        'r.updated_at',
      ])
      .where('r.course_registered_user_id', '=', enrolmentId)
      .orderBy('a.id')
      .execute();
  }

  lastSyncAt(courseId: number) {
    return this.db
      .selectFrom('courses')
      .select('last_sync_at')
      .where('id', '=', courseId)
      .executeTakeFirst();
  }
}
