import type { ListQuery } from '@sigaf/contract';
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Database } from '../../db/database.js';
import { likePattern, paginate, sortColumn } from '../../db/pagination.js';
import type { CategoryTable } from '../../db/schema.js';

const SORTS = {
  id: 'c.id',
  description: 'c.description',
  categoryCode: 'c.category_code',
  idCategoryMoodle: 'c.id_category_moodle',
} as const;

export class CategoryRepository {
  constructor(private readonly db: Database) {}

  private base() {
    return this.db
      .selectFrom('categories as c')
      .innerJoin('platforms as p', 'p.id', 'c.platform_id')
      .select([
        'c.id',
        'c.description',
        'c.category_code',
        'c.id_category_moodle',
        'c.platform_id',
        'c.status',
        'c.created_at',
        'c.updated_at',
        'p.description as platform_description',
        sql<number>`(select count(*) from courses co where co.category_id = c.id and co.status = 1)`.as(
          'courses_count',
        ),
      ]);
  }

  list(q: ListQuery & { platformId?: number }) {
    let query = this.base();
    if (q.search) {
      const p = likePattern(q.search);
      query = query.where((eb) =>
        eb.or([eb('c.description', 'ilike', p), eb('c.category_code', 'ilike', p)]),
      );
    }
    if (q.platformId) query = query.where('c.platform_id', '=', q.platformId);
    const col = sortColumn(SORTS, q.sort, 'id');
    return paginate(
      query.orderBy(sql.ref(col), q.order === 'desc' ? 'desc' : 'asc').orderBy('c.id'),
      q,
    );
  }

  findById(id: number) {
    return this.base().where('c.id', '=', id).executeTakeFirst();
  }

  async insert(values: Insertable<CategoryTable>) {
    return (
      await this.db
        .insertInto('categories')
        .values(values)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  async update(id: number, values: Updateable<CategoryTable>) {
    await this.db
      .updateTable('categories')
      .set({ ...values, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number) {
    await this.db.deleteFrom('categories').where('id', '=', id).execute();
  }

  async courseCount(id: number): Promise<number> {
    const r = await this.db
      .selectFrom('courses')
      .select(sql<number>`count(*)`.as('n'))
      .where('category_id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async platformExists(id: number) {
    return (
      (await this.db
        .selectFrom('platforms')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst()) !== undefined
    );
  }
}

export type CategoryRow = NonNullable<Awaited<ReturnType<CategoryRepository['findById']>>>;
