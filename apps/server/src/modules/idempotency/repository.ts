import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** A send under a key: its content's fingerprint and, once made, its answer. */
export interface SendRow {
  fingerprint: string;
  status_code: number | null;
  response: string | null;
}

/** The sends made once (migration 0041): one row per user and key, kept until it expires. */
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  /** Takes the key for a send being made, kept `seconds` at least; false when the user already holds it. */
  async claim(userId: number, key: string, fingerprint: string, seconds: number): Promise<boolean> {
    await sql`delete from idempotent_sends where expires_at < now()`.execute(this.db);
    const { rows } = await sql`
      insert into idempotent_sends (user_id, key, fingerprint, expires_at) values (${userId}, ${key}, ${fingerprint}, now() + make_interval(secs => ${seconds}))
      on conflict do nothing returning key`.execute(this.db);
    return rows.length > 0;
  }

  /** Keeps the send's answer for `seconds` from now. */
  async finish(
    userId: number,
    key: string,
    status: number,
    response: string,
    seconds: number,
  ): Promise<void> {
    await sql`update idempotent_sends set status_code = ${status}, response = ${response}, expires_at = now() + make_interval(secs => ${seconds})
      where user_id = ${userId} and key = ${key}`.execute(this.db);
  }

  /** Lets the key go (the send failed: nothing was sent). */
  async release(userId: number, key: string): Promise<void> {
    await this.db
      .deleteFrom('idempotent_sends')
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .execute();
  }

  find(userId: number, key: string): Promise<SendRow | undefined> {
    return this.db
      .selectFrom('idempotent_sends')
      .select(['fingerprint', 'status_code', 'response'])
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .where('expires_at', '>=', sql<Date>`now()`)
      .executeTakeFirst();
  }
}
