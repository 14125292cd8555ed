import { sql } from 'kysely';
import { OneValueQuery } from '../../db/compiled.js';
import type { Database } from '../../db/database.js';
import type { ActiveToken } from '../../http/auth.js';
import { sha256 } from '../../lib/crypto.js';

/** Access tokens, stored as SHA-256 hashes, and login attempts for rate limiting and audit. */
export class TokenRepository {
  constructor(private readonly db: Database) {}

  async create(
    userId: number,
    token: string,
    expiresAt: Date,
    ip: string | null,
    userAgent: string | null,
  ) {
    await this.db
      .insertInto('access_tokens')
      .values({
        user_id: userId,
        token_hash: sha256(token),
        expires_at: expiresAt,
        ip,
        user_agent: userAgent?.slice(0, 300) ?? null,
      })
      .execute();
  }

  /** The live token with this value (read on every request: its query is compiled once). */
  private readonly active = new OneValueQuery<ActiveToken>(() =>
    this.db
      .selectFrom('access_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .select([
        't.id as tokenId',
        'u.id as userId',
        'u.role_id as roleId',
        'r.key as roleKey',
        'u.is_first_login as firstLogin',
      ])
      .where('t.token_hash', '=', '')
      .where('t.revoked_at', 'is', null)
      .where('t.expires_at', '>', sql<Date>`now()`)
      .where('u.deleted_at', 'is', null),
  );

  async findActive(token: string): Promise<ActiveToken | null> {
    return (await this.active.rows(this.db, sha256(token)))[0] ?? null;
  }

  async revoke(tokenId: number) {
    await this.db
      .updateTable('access_tokens')
      .set({ revoked_at: sql`now()` })
      .where('id', '=', tokenId)
      .execute();
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
   * Reserves one password check (a sign-in, or the current password of an own password change)
   * for (email, ip), or says which limit refuses it. Counting and recording happen in one
   * transaction that first takes advisory locks on the account and on the IP, so concurrent checks
   * cannot all read the counts before any of them is recorded: however many arrive at once, no
   * limit below is passed. The check is recorded as a failure until `markSucceeded`. Failures are
   * counted within the window:
   *
   * - from an address the account has not signed in from in the last `knownDays`: at most
   *   `perAccount` failures of the account from anywhere, and `perIp` failures of any account from
   *   the address;
   * - from an address the account has signed in from in the last `knownDays` (a known pair): at
   *   most `perKnownAddress` failures of the account from that address, and `perIp` failures from
   *   the address of the accounts known there. The account's failures elsewhere do not count (an
   *   attacker elsewhere cannot lock the owner out), nor do other people's failures at the address
   *   on accounts not known there (a stranger behind the same office NAT cannot lock its staff
   *   out); but a known pair is never free of either limit.
   */
  async reserveCheck(
    email: string,
    ip: string,
    limits: {
      windowMinutes: number;
      perAccount: number;
      perIp: number;
      perKnownAddress: number;
      knownDays: number;
    },
  ): Promise<{ id: number } | { refused: 'account' | 'address' | 'ip' }> {
    const account = email.toLowerCase().slice(0, 255);
    return this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`sigaf-login-account:${account}`}))`.execute(
        trx,
      );
      await sql`select pg_advisory_xact_lock(hashtext(${`sigaf-login-ip:${ip}`}))`.execute(trx);
      const since = sql<Date>`now() - make_interval(mins => ${limits.windowMinutes})`;
      const knownSince = sql<Date>`now() - make_interval(days => ${limits.knownDays})`;
      const { rows } = await sql<{
        known: boolean;
        account: string;
        pair: string;
        ip: string;
        known_at_ip: string;
      }>`
        select
          exists (select 1 from login_attempts where lower(email) = ${account} and ip = ${ip} and success and created_at > ${knownSince}) as known,
          (select count(*) from login_attempts where lower(email) = ${account} and not success and created_at > ${since}) as account,
          (select count(*) from login_attempts where lower(email) = ${account} and ip = ${ip} and not success and created_at > ${since}) as pair,
          (select count(*) from login_attempts where ip = ${ip} and not success and created_at > ${since}) as ip,
          (select count(*) from login_attempts f
             where f.ip = ${ip} and not f.success and f.created_at > ${since}
               and exists (select 1 from login_attempts s where lower(s.email) = lower(f.email) and s.ip = f.ip and s.success and s.created_at > ${knownSince})) as known_at_ip
      `.execute(trx);
      const row = rows[0]!;
      if (row.known) {
        if (Number(row.known_at_ip) >= limits.perIp) return { refused: 'ip' as const };
        if (Number(row.pair) >= limits.perKnownAddress) return { refused: 'address' as const };
      } else {
        if (Number(row.ip) >= limits.perIp) return { refused: 'ip' as const };
        if (Number(row.account) >= limits.perAccount) return { refused: 'account' as const };
      }
      const inserted = await trx
        .insertInto('login_attempts')
        .values({ email: account, ip, success: false })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: Number(inserted.id) };
    });
  }

  /** The reserved check found the right password. */
  async markSucceeded(attemptId: number) {
    await this.db
      .updateTable('login_attempts')
      .set({ success: true })
      .where('id', '=', attemptId)
      .execute();
  }
}
