import type { ListQuery } from '@sigaf/contract';
import { sql } from 'kysely';
import { OneValueQuery } from '../../db/compiled.js';
import type { Database } from '../../db/database.js';
import { likePattern, paginate, sortColumn } from '../../db/pagination.js';

export const LOCK_SORTS = {
  id: 'l.id',
  createdAt: 'l.created_at',
  ticketCode: 't.ticket_code',
  user: 'u.name',
} as const;

/** Edit locks (log_editing_tickets): one row per ticket, valid until expires_at. */
export class TicketLockRepository {
  constructor(private readonly db: Database) {}

  private base(db: Database = this.db) {
    return db
      .selectFrom('log_editing_tickets as l')
      .innerJoin('tickets as t', 't.id', 'l.ticket_id')
      .innerJoin('users as u', 'u.id', 'l.user_id')
      .select([
        'l.id',
        'l.ticket_id',
        't.ticket_code',
        'l.user_id',
        'u.name as user_name',
        'l.created_at',
        'l.updated_at',
        'l.expires_at',
        sql<boolean>`l.expires_at <= now()`.as('expired'),
      ]);
  }

  /** Active locks (the unlock screen). */
  listActive(q: ListQuery) {
    let query = this.base().where('l.expires_at', '>', sql<Date>`now()`);
    if (q.search) {
      const p = likePattern(q.search);
      query = query.where((eb) =>
        eb.or([eb('t.ticket_code', 'ilike', p), eb('u.name', 'ilike', p)]),
      );
    }
    const col = sortColumn(LOCK_SORTS, q.sort, 'createdAt');
    return paginate(
      query.orderBy(sql.ref(col), q.order === 'desc' ? 'desc' : 'asc').orderBy('l.id'),
      q,
    );
  }

  findById(id: number, db: Database = this.db) {
    return this.base(db).where('l.id', '=', id).executeTakeFirst();
  }

  findMany(ids: number[]) {
    if (!ids.length) return Promise.resolve([]);
    return this.base().where('l.id', 'in', ids).execute();
  }

  private readonly activeQuery = new OneValueQuery(() =>
    this.base()
      .where(sql<boolean>`l.ticket_id = any(${[0]}::int[])`)
      .where('l.expires_at', '>', sql<Date>`now()`),
  );

  /** The locks on these tickets that have not expired (asked before every attempt is written: one prepared query). */
  activeOn(ticketIds: number[], db: Database = this.db) {
    if (!ticketIds.length) return Promise.resolve([]);
    return this.activeQuery.rows(db, ticketIds);
  }

  async active(ticketId: number, db: Database = this.db) {
    return (await this.activeOn([ticketId], db))[0];
  }

  /**
   * Takes or renews a lock in one statement: it succeeds when the ticket has no lock, its lock has
   * expired, or the lock is the caller's own (then only expires_at moves). Undefined otherwise.
   */
  async acquire(ticketId: number, userId: number, ttlMinutes: number) {
    const r = await sql<{ id: number }>`
      insert into log_editing_tickets as l (ticket_id, user_id, expires_at)
      values (${ticketId}, ${userId}, now() + make_interval(secs => ${ttlMinutes * 60}::float8))
      on conflict (ticket_id) do update set
        user_id = excluded.user_id,
        expires_at = excluded.expires_at,
        created_at = case when l.user_id = excluded.user_id and l.expires_at > now() then l.created_at else now() end,
        updated_at = now()
      where l.user_id = excluded.user_id or l.expires_at <= now()
      returning l.id`.execute(this.db);
    return r.rows[0]?.id;
  }

  /** Renews the caller's own active lock. */
  async refresh(id: number, userId: number, ttlMinutes: number) {
    const r = await this.db
      .updateTable('log_editing_tickets')
      .set({
        expires_at: sql`now() + make_interval(secs => ${ttlMinutes * 60}::float8)`,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** A saved ticket frees the caller's lock (and any expired one). */
  async releaseAfterUpdate(ticketIds: number[], userId: number, db: Database) {
    if (!ticketIds.length) return;
    await db
      .deleteFrom('log_editing_tickets')
      .where('ticket_id', 'in', ticketIds)
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('expires_at', '<=', sql<Date>`now()`)]))
      .execute();
  }

  async deleteMany(ids: number[], db: Database = this.db) {
    if (!ids.length) return [];
    return db
      .deleteFrom('log_editing_tickets')
      .where('id', 'in', ids)
      .returning(['id', 'ticket_id', 'user_id'])
      .execute();
  }
}

export type TicketLockRow = NonNullable<Awaited<ReturnType<TicketLockRepository['findById']>>>;
