import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** Saved list filters, per user. */
export class TicketFilterRepository {
  constructor(private readonly db: Database) {}

  list(userId: number) {
    return this.db
      .selectFrom('ticket_filter_presets')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy(sql`lower(name)`)
      .orderBy('id')
      .execute();
  }

  /** Saves under a name: a preset with the same name (any case) is replaced. */
  async save(userId: number, name: string, filters: unknown) {
    const r = await sql<{ id: number; inserted: boolean }>`
      insert into ticket_filter_presets as f (user_id, name, filters) values (${userId}, ${name}, ${JSON.stringify(filters)}::jsonb)
      on conflict (user_id, lower(name)) do update set name = excluded.name, filters = excluded.filters, updated_at = now()
      returning f.id, (f.xmax = 0) as inserted`.execute(this.db);
    const row = r.rows[0]!;
    return { id: row.id, inserted: Boolean(row.inserted) };
  }

  findById(id: number, userId: number) {
    return this.db
      .selectFrom('ticket_filter_presets')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async delete(id: number, userId: number) {
    const r = await this.db
      .deleteFrom('ticket_filter_presets')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}

export type TicketFilterRow = NonNullable<Awaited<ReturnType<TicketFilterRepository['findById']>>>;
