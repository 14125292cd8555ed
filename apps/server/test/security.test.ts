import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MSG } from '@sigaf/contract';
import { TEST_ADMIN } from './fixtures.js';
import { loadConfig } from '../src/config.js';
import { verifyPassword } from '../src/lib/passwords.js';
import { createTestContext, type TestContext } from './helpers.js';

/** Claims of SECURITY.md that no other test states on its own. */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

describe('credentials at rest', () => {
  it('stores passwords as argon2id hashes and bearer tokens only as their SHA-256', async () => {
    const u = await ctx.userWithRole('operator');
    const row = await ctx.db
      .selectFrom('users')
      .select('password')
      .where('id', '=', u.id)
      .executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.password).not.toContain(u.password);
    const tokens = await ctx.db
      .selectFrom('access_tokens')
      .select('token_hash')
      .where('user_id', '=', u.id)
      .execute();
    expect(tokens.map((t) => t.token_hash)).toContain(
      createHash('sha256').update(u.token).digest('hex'),
    );
    const all = JSON.stringify(await ctx.db.selectFrom('access_tokens').selectAll().execute());
    expect(all).not.toContain(u.token);
  });
});

describe('browser-facing defences', () => {
  it('closes CORS when CORS_ORIGINS is empty (the default): no origin is allowed', async () => {
    expect(ctx.config.CORS_ORIGINS).toEqual([]);
    for (const origin of ['https://sigaf.example.cl', 'http://localhost:5173', 'null']) {
      const pre = await ctx.request({
        method: 'OPTIONS',
        url: '/api/auth/login',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(pre.headers['access-control-allow-origin'], origin).toBeUndefined();
      const get = await ctx.request({ method: 'GET', url: '/health', headers: { origin } });
      expect(get.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });

  it('sends the security headers on API answers and errors', async () => {
    const token = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
    for (const res of [
      await ctx.request({ method: 'GET', url: '/api/v2/courses', token }),
      await ctx.request({ method: 'GET', url: '/api/v2/nothing-here', token }),
      await ctx.request({ method: 'POST', url: '/api/auth/login', payload: '{broken' }),
    ]) {
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });
});

describe('sign-in limits', () => {
  it('limits failed sign-ins per IP across different accounts (429), audited', async () => {
    const limited = await createTestContext({
      LOGIN_MAX_FAILURES_PER_IP: 3,
      LOGIN_MAX_FAILURES_PER_ACCOUNT: 100,
    });
    try {
      const attempt = (n: number) =>
        limited.request({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: `nadie${n}@sigaf.cl`, password: 'incorrecta' },
        });
      for (let n = 0; n < 3; n++) expect((await attempt(n)).statusCode).toBe(401);
      const blocked = await attempt(99);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toMatchObject({ success: false, statusCode: 429 });
      // Even the right password waits while the IP is over the limit.
      expect(
        (
          await limited.request({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
          })
        ).statusCode,
      ).toBe(429);
      const audit = await limited.db
        .selectFrom('audit_log')
        .select(['action', 'entity_id'])
        .where('action', 'in', ['login_failed', 'login_blocked'])
        .execute();
      expect(audit.filter((a) => a.action === 'login_failed')).toHaveLength(3);
      expect(audit.filter((a) => a.action === 'login_blocked').map((a) => a.entity_id)).toEqual([
        'nadie99@sigaf.cl',
        TEST_ADMIN.email,
      ]);
    } finally {
      await limited.close();
    }
  });

  it('concurrent sign-ins cannot get past the limits: the count and the record are one atomic step before any password check', async () => {
    const { email, password } = await ctx.userWithRole('operator');
    const burst = await Promise.all(
      Array.from({ length: 36 }, (_, i) =>
        ctx.request({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email, password: i === 35 ? password : `incorrecta-${i}` },
          remoteAddress: `10.1.0.${i + 1}`,
        }),
      ),
    );
    const checks = await ctx.db
      .selectFrom('login_attempts')
      .select(['success'])
      .where('email', '=', email)
      .where('ip', 'like', '10.1.0.%')
      .execute();
    expect(checks.length).toBeLessThanOrEqual(ctx.config.LOGIN_MAX_FAILURES_PER_ACCOUNT);
    expect(burst.filter((r) => r.statusCode !== 429).length).toBe(checks.length);
    expect(burst.filter((r) => r.statusCode === 200).length).toBe(
      checks.filter((c) => c.success).length,
    );

    const perIp = await createTestContext({
      LOGIN_MAX_FAILURES_PER_IP: 30,
      LOGIN_MAX_FAILURES_PER_ACCOUNT: 1000,
    });
    try {
      const many = await Promise.all(
        Array.from({ length: 150 }, (_, i) =>
          perIp.request({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email: `n${i}@sigaf.cl`, password: 'incorrecta' },
            remoteAddress: '10.2.0.9',
          }),
        ),
      );
      const ran = await perIp.db
        .selectFrom('login_attempts')
        .select('id')
        .where('ip', '=', '10.2.0.9')
        .execute();
      expect(ran.length).toBe(30);
      expect(many.filter((r) => r.statusCode === 429).length).toBe(120);
    } finally {
      await perIp.close();
    }
  });

  it('five wrong passwords from elsewhere do not lock the owner out of an address they signed in from before', async () => {
    const { email, password } = await ctx.userWithRole('admin');
    const login = (pw: string, ip: string) =>
      ctx.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: pw },
        remoteAddress: ip,
      });
    expect((await login(password, '10.3.0.1')).statusCode).toBe(200);
    for (let i = 0; i < ctx.config.LOGIN_MAX_FAILURES_PER_ACCOUNT; i++)
      expect((await login('incorrecta', `10.4.0.${i + 1}`)).statusCode).toBe(401);
    // The attacker, from any new address, is held by the account's limit, even with the right password...
    expect((await login(password, '10.4.9.9')).statusCode).toBe(429);
    expect((await login('incorrecta', '10.4.9.10')).statusCode).toBe(429);
    // ...and the owner, from the address they use, still gets in, a couple of typos included.
    expect((await login(password, '10.3.0.1')).statusCode).toBe(200);
    for (let i = 0; i < 3; i++)
      expect((await login('incorrecta', '10.3.0.1')).statusCode).toBe(401);
    expect((await login(password, '10.3.0.1')).statusCode).toBe(200);
  });

  it('an address the account signed in from before is held too: LOGIN_MAX_FAILURES_KNOWN_ADDRESS failures of that account there, then 429 even for the right password', async () => {
    const { email, password } = await ctx.userWithRole('operator');
    const login = (pw: string) =>
      ctx.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: pw },
        remoteAddress: '10.6.0.1',
      });
    expect((await login(password)).statusCode).toBe(200);
    const known = 10; // LOGIN_MAX_FAILURES_KNOWN_ADDRESS, by default
    const answers: number[] = [];
    for (let i = 0; i < 35; i++) answers.push((await login(`incorrecta-${i}`)).statusCode);
    expect(answers).toEqual([
      ...Array.from({ length: known }, () => 401),
      ...Array.from({ length: 35 - known }, () => 429),
    ]);
    expect(ctx.config.LOGIN_MAX_FAILURES_KNOWN_ADDRESS).toBe(known);
    expect((await login(password)).statusCode).toBe(429);
    const audit = await ctx.db
      .selectFrom('audit_log')
      .select(['action', 'changes'])
      .where('entity_id', '=', email)
      .where('action', 'in', ['login_failed', 'login_blocked'])
      .execute();
    expect(audit.filter((a) => a.action === 'login_failed')).toHaveLength(known);
    const blocked = audit.filter((a) => a.action === 'login_blocked');
    expect(blocked).toHaveLength(35 - known + 1);
    expect(blocked.every((a) => JSON.stringify(a.changes).includes('address'))).toBe(true);
    // However many arrive at once from a known address, no more than its allowance of checks run.
    const other = await ctx.userWithRole('operator');
    const at = (pw: string) =>
      ctx.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: other.email, password: pw },
        remoteAddress: '10.6.0.2',
      });
    expect((await at(other.password)).statusCode).toBe(200);
    const burst = await Promise.all(Array.from({ length: 36 }, (_, i) => at(`incorrecta-${i}`)));
    expect(burst.filter((r) => r.statusCode === 401)).toHaveLength(known);
    expect(burst.filter((r) => r.statusCode === 429)).toHaveLength(36 - known);
  });

  it("at a shared address, strangers' failures do not lock out staff known there; failures of accounts known there count up to LOGIN_MAX_FAILURES_PER_IP, then everyone there waits", async () => {
    const office = await createTestContext({
      LOGIN_MAX_FAILURES_PER_IP: 4,
      LOGIN_MAX_FAILURES_PER_ACCOUNT: 100,
      LOGIN_MAX_FAILURES_KNOWN_ADDRESS: 2,
    });
    try {
      const login = (email: string, password: string) =>
        office.request({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email, password },
          remoteAddress: '10.5.0.1',
        });
      const staff = [];
      for (let i = 0; i < 5; i++) staff.push(await office.userWithRole('operator'));
      const newcomer = await office.userWithRole('operator');
      for (const s of staff) expect((await login(s.email, s.password)).statusCode).toBe(200);
      // Someone else there tries other accounts: after LOGIN_MAX_FAILURES_PER_IP failures, strangers and newcomers there wait...
      for (let n = 0; n < 4; n++)
        expect((await login(`nadie${n}@sigaf.cl`, 'incorrecta')).statusCode).toBe(401);
      expect((await login('otro@sigaf.cl', 'incorrecta')).statusCode).toBe(429);
      expect((await login(newcomer.email, newcomer.password)).statusCode).toBe(429);
      // ...while staff who signed in there before get in, several at once too, and a colleague's typo does not change that.
      const burst = await Promise.all(staff.slice(0, 3).map((s) => login(s.email, s.password)));
      expect(burst.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      expect((await login(staff[0]!.email, 'incorrecta')).statusCode).toBe(401);
      expect((await login(staff[1]!.email, staff[1]!.password)).statusCode).toBe(200);
      // Guessing at one known account there: its allowance at that address (2, the typo included), then 429, right password or not.
      expect((await login(staff[0]!.email, 'incorrecta')).statusCode).toBe(401);
      expect((await login(staff[0]!.email, 'incorrecta')).statusCode).toBe(429);
      expect((await login(staff[0]!.email, staff[0]!.password)).statusCode).toBe(429);
      // Guessing across the accounts known there: LOGIN_MAX_FAILURES_PER_IP failures of them in all, then every known account there waits too.
      expect((await login(staff[2]!.email, 'incorrecta')).statusCode).toBe(401);
      expect((await login(staff[3]!.email, 'incorrecta')).statusCode).toBe(401);
      expect((await login(staff[4]!.email, staff[4]!.password)).statusCode).toBe(429);
      // Elsewhere they still get in: the account-wide limit is far.
      expect(
        (
          await office.request({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email: staff[4]!.email, password: staff[4]!.password },
            remoteAddress: '10.5.0.2',
          })
        ).statusCode,
      ).toBe(200);
      // A wrong password of a known pair is still a failure, counted and audited.
      const failed = await office.db
        .selectFrom('audit_log')
        .select('entity_id')
        .where('action', '=', 'login_failed')
        .execute();
      expect(failed.map((a) => a.entity_id)).toContain(staff[0]!.email);
    } finally {
      await office.close();
    }
  });

  it('a stolen session cannot guess the password through an own password change: failed current-password checks share the sign-in count, then 429 in Spanish, audited', async () => {
    const owner = await ctx.userWithRole('operator');
    const change = (current: string) =>
      ctx.request({
        method: 'PUT',
        url: `/api/v2/users/${owner.id}`,
        token: owner.token,
        payload: { password: 'Robada-Clave-2026', current_password: current },
        remoteAddress: '10.8.0.1',
      });
    const signIn = (password: string, ip: string) =>
      ctx.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: owner.email, password },
        remoteAddress: ip,
      });
    // Two failed sign-ins elsewhere and three wrong current passwords with the stolen token: the account's five.
    for (let i = 0; i < 2; i++)
      expect((await signIn('incorrecta', '10.8.0.2')).statusCode).toBe(401);
    for (let i = 0; i < 3; i++) {
      const wrong = await change(`no-es-esta-${i}`);
      expect([wrong.statusCode, wrong.json()._data.errors.current_password]).toEqual([
        422,
        [AUTH_MSG.currentPasswordWrong],
      ]);
    }
    const blocked = await change(owner.password);
    expect([blocked.statusCode, blocked.json().message]).toEqual([
      429,
      AUTH_MSG.currentPasswordTooManyAttempts,
    ]);
    expect((await signIn(owner.password, '10.8.0.3')).statusCode).toBe(429);
    // Nothing changed, and the owner still signs in from the address they signed in from before.
    expect((await signIn(owner.password, '127.0.0.1')).statusCode).toBe(200);
    const audit = await ctx.db
      .selectFrom('audit_log')
      .select(['action', 'user_id'])
      .where('entity_id', '=', owner.email)
      .where('action', 'in', ['password_check_failed', 'password_check_blocked'])
      .execute();
    expect(audit.filter((a) => a.action === 'password_check_failed')).toHaveLength(3);
    expect(audit.filter((a) => a.action === 'password_check_blocked')).toHaveLength(1);
    expect(audit.every((a) => a.user_id === owner.id)).toBe(true);
  });

  it('password changes sent together with the same current password: one is made, the others answer 409, and the password in force is the one answered 200', async () => {
    const inForce = async (id: number, password: string) =>
      verifyPassword(
        (
          await ctx.db
            .selectFrom('users')
            .select('password')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).password,
        password,
      );
    const owner = await ctx.userWithRole('operator');
    const own = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        ctx.request({
          method: 'PUT',
          url: `/api/v2/users/${owner.id}`,
          token: owner.token,
          payload: { password: `Cambio-Junto-${i}-2026`, current_password: owner.password },
          remoteAddress: '10.7.0.1',
        }),
      ),
    );
    expect(own.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(
      await inForce(owner.id, `Cambio-Junto-${own.findIndex((a) => a.statusCode === 200)}-2026`),
    ).toBe(true);
    // The first-login change, which needs no current password, is made once too.
    const fresh = await ctx.userWithRole('operator', { firstLogin: true });
    const first = await Promise.all(
      [0, 1, 2].map((i) =>
        ctx.request({
          method: 'PUT',
          url: `/api/v2/users/${fresh.id}`,
          token: fresh.token,
          payload: { password: `Primera-Junta-${i}-2026` },
          remoteAddress: '10.7.0.2',
        }),
      ),
    );
    expect(first.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    expect(
      await inForce(fresh.id, `Primera-Junta-${first.findIndex((a) => a.statusCode === 200)}-2026`),
    ).toBe(true);
  });

  it('TRUST_PROXY names the proxies: rotating X-Forwarded-For from anyone else does not dodge the per-IP limit', async () => {
    const behind = await createTestContext({
      TRUST_PROXY: ['10.9.0.0/16'],
      LOGIN_MAX_FAILURES_PER_IP: 3,
      LOGIN_MAX_FAILURES_PER_ACCOUNT: 1000,
    });
    try {
      const attempt = (n: number, from: string) =>
        behind.request({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: `x${n}@sigaf.cl`, password: 'incorrecta' },
          remoteAddress: from,
          headers: { 'x-forwarded-for': `203.0.113.${n}` },
        });
      // A client that is not a listed proxy: its header is ignored; its own address is limited.
      const direct = [];
      for (let n = 1; n <= 5; n++) direct.push((await attempt(n, '198.51.100.7')).statusCode);
      expect(direct).toEqual([401, 401, 401, 429, 429]);
      // Through a listed proxy, each real client is counted on its own.
      for (let n = 1; n <= 5; n++) expect((await attempt(n, '10.9.0.2')).statusCode).toBe(401);
    } finally {
      await behind.close();
    }
  });
});

describe('listening address', () => {
  it("listens on loopback unless HOST says otherwise: a first start, which prints the administrator's password, is not reachable from the network", () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '' }).HOST).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });
});

describe('TRUST_PROXY values', () => {
  it('false, a hop count or addresses/CIDRs; true and junk refuse to start with a clear message', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.2, 192.168.0.0/16,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.2',
      '192.168.0.0/16',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/would trust any client/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(/TRUST_PROXY/);
  });
});
