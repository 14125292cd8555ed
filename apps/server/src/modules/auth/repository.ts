import { sql } from 'kysely';
import { OneValueQuery } from '../../db/compiled.js';
import type { Database } from '../../db/database.js';
import { sha256 } from '../../lib/crypto.js';

export interface ActiveToken {
  tokenId: number;
  userId: number;
  roleId: number;
  roleKey: string | null;
}

/** Access tokens, stored as SHA-256 hashes, and login attempts for rate limiting and audit. */
export class TokenRepository {
  constructor(private readonly db: Database) {}

  async create(userId: number, token: string, expiresAt: Date, ip: string | null, userAgent: string | null) {
    await this.db
      .insertInto('access_tokens')
      .values({ user_id: userId, token_hash: sha256(token), expires_at: expiresAt, ip, user_agent: userAgent?.slice(0, 300) ?? null })
      .execute();
  }

  /** The live token with this value (read on every request: its query is compiled once). */
  private readonly active = new OneValueQuery<ActiveToken>(() =>
    this.db
      .selectFrom('access_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .select(['t.id as tokenId', 'u.id as userId', 'u.role_id as roleId', 'r.key as roleKey'])
      .where('t.token_hash', '=', '')
      .where('t.revoked_at', 'is', null)
      .where('t.expires_at', '>', sql<Date>`now()`)
      .where('u.deleted_at', 'is', null),
  );

  async findActive(token: string): Promise<ActiveToken | null> {
    return (await this.active.rows(this.db, sha256(token)))[0] ?? null;
  }

  async revoke(tokenId: number) {
    await this.db.updateTable('access_tokens').set({ revoked_at: sql`now()` }).where('id', '=', tokenId).execute();
  }

  /** Revokes every live token of a user, except the one given (the caller's own session). */
  async revokeAllFor(userId: number, exceptTokenId?: number) {
    let q = this.db
      .updateTable('access_tokens')
      .set({ revoked_at: sql`now()` })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (exceptTokenId !== undefined) q = q.where('id', '!=', exceptTokenId);
    await q.execute();
  }

  async recordAttempt(email: string, ip: string, success: boolean) {
    await this.db.insertInto('login_attempts').values({ email: email.toLowerCase().slice(0, 255), ip, success }).execute();
  }

  /** Failed attempts in the window, for one account and for one IP, in one query. */
  async recentFailures(email: string, ip: string, windowMinutes: number): Promise<{ account: number; ip: number }> {
    const since = new Date(Date.now() - windowMinutes * 60_000);
    const row = await this.db
      .selectFrom('login_attempts')
      .select([
        sql<number>`count(*) filter (where lower(email) = ${email.toLowerCase()})`.as('account'),
        sql<number>`count(*) filter (where ip = ${ip})`.as('ip'),
      ])
      .where('success', '=', false)
      .where('created_at', '>', sql<Date>`${since}`)
      .where((eb) => eb.or([eb(sql`lower(email)`, '=', email.toLowerCase()), eb('ip', '=', ip)]))
      .executeTakeFirstOrThrow();
    return { account: Number(row.account), ip: Number(row.ip) };
  }
}
