import type { ListQuery } from '@sigaf/contract';
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Database } from '../../db/database.js';
import { likePattern, paginate, sortColumn } from '../../db/pagination.js';
import type { ActivityTable, CourseTable } from '../../db/schema.js';

const SORTS = {
  id: 'c.id',
  description: 'c.description',
  email: 'c.email',
  idCourseMoodle: 'c.id_course_moodle',
} as const;

export class CourseRepository {
  constructor(private readonly db: Database) {}

  private base() {
    return this.db
      .selectFrom('courses as c')
      .innerJoin('categories as cat', 'cat.id', 'c.category_id')
      .select([
        'c.id',
        'c.description',
        'c.email',
        'c.id_course_moodle',
        'c.category_id',
        'c.status',
        'c.last_sync_at',
        'c.created_at',
        'c.updated_at',
        sql<boolean>`c.password_encrypted is not null`.as('has_password'),
        'cat.description as category_description',
        'cat.category_code',
        sql<number>`(select count(*) from course_registered_users e where e.course_id = c.id)`.as(
          'enrolments_count',
        ),
      ]);
  }

  list(q: ListQuery & { categoryId?: number; includeInactive?: boolean }) {
    let query = this.base();
    if (!q.includeInactive) query = query.where('c.status', '=', 1);
    if (q.categoryId) query = query.where('c.category_id', '=', q.categoryId);
    if (q.search) {
      const p = likePattern(q.search);
      query = query.where((eb) =>
        eb.or([eb('c.description', 'ilike', p), eb('c.email', 'ilike', p)]),
      );
    }
    const col = sortColumn(SORTS, q.sort, 'id');
    return paginate(
      query.orderBy(sql.ref(col), q.order === 'desc' ? 'desc' : 'asc').orderBy('c.id'),
      q,
    );
  }

  findById(id: number) {
    return this.base().where('c.id', '=', id).executeTakeFirst();
  }

  async insert(values: Insertable<CourseTable>) {
    return (
      await this.db.insertInto('courses').values(values).returning('id').executeTakeFirstOrThrow()
    ).id;
  }

  async update(id: number, values: Updateable<CourseTable>) {
    await this.db
      .updateTable('courses')
      .set({ ...values, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number) {
    await this.db.deleteFrom('courses').where('id', '=', id).execute();
  }

  async usage(id: number): Promise<{ enrolments: number; tickets: number }> {
    const r = await this.db
      .selectNoFrom([
        sql<number>`(select count(*) from course_registered_users where course_id = ${id})`.as(
          'enrolments',
        ),
        sql<number>`(select count(*) from tickets where course_id = ${id})`.as('tickets'),
      ])
      .executeTakeFirstOrThrow();
    return { enrolments: Number(r.enrolments), tickets: Number(r.tickets) };
  }

  async categoryExists(id: number) {
    return (
      (await this.db
        .selectFrom('categories')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst()) !== undefined
    );
  }

  /** A course's activities with their sections (GET /courses/{id}/activities). */
  activitiesOf(courseId: number) {
    return this.db
      .selectFrom('activities as a')
      .leftJoin('sections as s', 's.id', 'a.section_id')
      .select([
        'a.id',
        'a.description',
        'a.type',
        'a.weighing',
        'a.id_activity_moodle',
        'a.section_id',
        'a.course_id',
        'a.removed_at',
        'a.hidden',
        'a.moodle_unseen_at',
        'a.excluded_from_progress',
        's.description as section_description',
        's.key as section_key',
      ])
      .where('a.course_id', '=', courseId)
      .orderBy('s.id')
      .orderBy('a.id')
      .execute();
  }
}

export type CourseRow = NonNullable<Awaited<ReturnType<CourseRepository['findById']>>>;

const ACTIVITY_SORTS = {
  id: 'a.id',
  description: 'a.description',
  weighing: 'a.weighing',
  idActivityMoodle: 'a.id_activity_moodle',
} as const;

export class ActivityRepository {
  constructor(private readonly db: Database) {}

  private base() {
    return this.db
      .selectFrom('activities as a')
      .innerJoin('courses as c', 'c.id', 'a.course_id')
      .leftJoin('sections as s', 's.id', 'a.section_id')
      .select([
        'a.id',
        'a.description',
        'a.type',
        'a.weighing',
        'a.id_activity_moodle',
        'a.section_id',
        'a.course_id',
        'a.created_at',
        'a.updated_at',
        'a.removed_at',
        'a.hidden',
        'a.moodle_unseen_at',
        'a.excluded_from_progress',
        's.description as section_description',
        's.key as section_key',
        'c.description as course_description',
      ]);
  }

  list(q: ListQuery & { courseId?: number; sectionId?: number }) {
    let query = this.base();
    if (q.courseId) query = query.where('a.course_id', '=', q.courseId);
    if (q.sectionId) query = query.where('a.section_id', '=', q.sectionId);
    if (q.search) query = query.where('a.description', 'ilike', likePattern(q.search));
    const col = sortColumn(ACTIVITY_SORTS, q.sort, 'id');
    return paginate(
      query.orderBy(sql.ref(col), q.order === 'desc' ? 'desc' : 'asc').orderBy('a.id'),
      q,
    );
  }

  findById(id: number) {
    return this.base().where('a.id', '=', id).executeTakeFirst();
  }

  async insert(values: Insertable<ActivityTable>) {
    return (
      await this.db
        .insertInto('activities')
        .values(values)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  async update(id: number, values: Updateable<ActivityTable>) {
    await this.db
      .updateTable('activities')
      .set({ ...values, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  /** Marks removed an activity marked unseen (not removed); false when it is not so (any more). */
  async confirmRemoval(id: number) {
    const done = await this.db
      .updateTable('activities')
      .set({ removed_at: sql`now()`, moodle_unseen_at: null, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('moodle_unseen_at', 'is not', null)
      .where('removed_at', 'is', null)
      .executeTakeFirst();
    return done.numUpdatedRows > 0n;
  }

  async delete(id: number) {
    await this.db.deleteFrom('activities').where('id', '=', id).execute();
  }

  async exists(table: 'courses' | 'sections', id: number) {
    return (
      (await this.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !==
      undefined
    );
  }
}

export type ActivityRow = NonNullable<Awaited<ReturnType<ActivityRepository['findById']>>>;
