import { sql } from 'kysely';
import { OneValueQuery } from '../../db/compiled.js';
import type { Database } from '../../db/database.js';
import { sha256 } from '../../lib/crypto.js';

export interface ActiveToken {
  tokenId: number;
  userId: number;
  roleId: number;
  roleKey: string | null;
  /** FIRST_LOGIN_PENDING until the user has replaced the temporary password. */
  firstLogin: number;
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
      .select(['t.id as tokenId', 'u.id as userId', 'u.role_id as roleId', 'r.key as roleKey', 'u.is_first_login as firstLogin'])
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

  /**
   * Reserves one password check for (email, ip), or says which limit refuses it. Counting and
   * recording happen in one transaction that first takes advisory locks on the account and on the
   * IP, so concurrent sign-ins cannot all read the count before any of them is recorded: at most
   * `perAccount` checks per account and `perIp` per IP run in a window, however many arrive at
   * once. The check is recorded as a failure until `markSucceeded`. An IP that has signed in to
   * this account before (in `knownDays`) is not held by the account's limit, only by its own, so
   * an attacker elsewhere cannot lock the owner out.
   */
  async reserveCheck(email: string, ip: string, limits: { windowMinutes: number; perAccount: number; perIp: number; knownDays: number }): Promise<{ id: number } | { refused: 'account' | 'ip' }> {
    const account = email.toLowerCase().slice(0, 255);
    return this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`sigaf-login-account:${account}`}))`.execute(trx);
      await sql`select pg_advisory_xact_lock(hashtext(${`sigaf-login-ip:${ip}`}))`.execute(trx);
      const since = sql<Date>`now() - make_interval(mins => ${limits.windowMinutes})`;
      const row = await trx
        .selectNoFrom((eb) => [
          eb.selectFrom('login_attempts').select(sql<number>`count(*)`.as('n')).where(sql`lower(email)`, '=', account).where('success', '=', false).where('created_at', '>', since).as('account'),
          eb.selectFrom('login_attempts').select(sql<number>`count(*)`.as('n')).where('ip', '=', ip).where('success', '=', false).where('created_at', '>', since).as('ip'),
          eb
            .exists(
              eb
                .selectFrom('login_attempts')
                .select('id')
                .where(sql`lower(email)`, '=', account)
                .where('ip', '=', ip)
                .where('success', '=', true)
                .where('created_at', '>', sql<Date>`now() - make_interval(days => ${limits.knownDays})`),
            )
            .as('known'),
        ])
        .executeTakeFirstOrThrow();
      // An account signing in from an address it signed in from before (a known pair) is held by
      // neither limit: failures of other accounts from a shared address (an office behind one NAT)
      // or of the account from elsewhere do not lock its owner out.
      if (!row.known && Number(row.ip) >= limits.perIp) return { refused: 'ip' as const };
      if (!row.known && Number(row.account) >= limits.perAccount) return { refused: 'account' as const };
      const inserted = await trx.insertInto('login_attempts').values({ email: account, ip, success: false }).returning('id').executeTakeFirstOrThrow();
      return { id: Number(inserted.id) };
    });
  }

  /** The reserved check found the right password. */
  async markSucceeded(attemptId: number) {
    await this.db.updateTable('login_attempts').set({ success: true }).where('id', '=', attemptId).execute();
  }
}
