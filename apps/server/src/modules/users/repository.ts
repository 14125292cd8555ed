import type { ListQuery } from '@sigaf/contract';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { paginate, personSearch, sortColumn } from '../../db/pagination.js';
import type { Database } from '../../db/database.js';
import type { UserTable } from '../../db/schema.js';

/** A user with their role, as every user query returns it (never deleted ones). */
export type UserRow = Omit<Selectable<UserTable>, 'deleted_at' | 'current_course_id'> & {
  role_key: string | null;
  role_description: string;
};

const USER_SORTS = { id: 'u.id', name: 'u.name', email: 'u.email', rut: 'u.rut' } as const;

export class UserRepository {
  constructor(private readonly db: Database) {}

  private base(db: Database = this.db) {
    return db
      .selectFrom('users as u')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .select([
        'u.id',
        'u.rut',
        'u.name',
        'u.phone',
        'u.mobile',
        'u.email',
        'u.password',
        'u.is_first_login',
        'u.role_id',
        'r.key as role_key',
        'r.description as role_description',
        'u.created_at',
        'u.updated_at',
      ])
      .where('u.deleted_at', 'is', null);
  }

  list(q: ListQuery & { excludeRoles?: string[] }) {
    let query = this.base();
    if (q.excludeRoles?.length)
      query = query.where((eb) =>
        eb.or([eb('r.key', 'is', null), eb('r.key', 'not in', q.excludeRoles!)]),
      );
    if (q.search)
      query = query.where(
        personSearch(sql`u.name`, sql`coalesce(u.rut, '')`, q.search, [sql`u.email`]),
      );
    const col = sortColumn(USER_SORTS, q.sort, 'name');
    return paginate(
      query.orderBy(sql.ref(col), q.order === 'desc' ? 'desc' : 'asc').orderBy('u.id'),
      q,
    );
  }

  /** The course the user's screens open on (migration 0033), or null. */
  async currentCourse(id: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('users')
      .select('current_course_id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.current_course_id ?? null;
  }

  async setCurrentCourse(id: number, courseId: number | null): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ current_course_id: courseId })
      .where('id', '=', id)
      .execute();
  }

  /** Soft delete: tickets keep their creator; the e-mail is freed for a new account. */
  async softDelete(id: number) {
    await this.db
      .updateTable('users')
      .set({
        deleted_at: sql`now()`,
        email: sql`left(id || '.eliminado.' || email, 255)`,
        rut: null,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .execute();
  }

  findById(id: number, db?: Database): Promise<UserRow | undefined> {
    return this.base(db).where('u.id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.base()
      .where(sql`lower(u.email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  }

  async emailTaken(email: string, exceptId?: number): Promise<boolean> {
    let q = this.db
      .selectFrom('users')
      .select('id')
      .where(sql`lower(email)`, '=', email.toLowerCase());
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async roleExists(id: number): Promise<boolean> {
    return (
      (await this.db.selectFrom('roles').select('id').where('id', '=', id).executeTakeFirst()) !==
      undefined
    );
  }

  async insert(values: Insertable<UserTable>): Promise<number> {
    const row = await this.db
      .insertInto('users')
      .values(values)
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, values: Updateable<UserTable>, db: Database = this.db) {
    await db
      .updateTable('users')
      .set({ ...values, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  /** `update` only while the stored password hash is still `passwordWas` (the one a password change was checked against); false otherwise. */
  async updateIfPassword(
    id: number,
    values: Updateable<UserTable>,
    passwordWas: string,
  ): Promise<boolean> {
    const r = await this.db
      .updateTable('users')
      .set({ ...values, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('password', '=', passwordWas)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
