import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN } from './fixtures.js';
import { loadConfig } from '../src/config.js';
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
    const row = await ctx.db.selectFrom('users').select('password').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.password).not.toContain(u.password);
    const tokens = await ctx.db.selectFrom('access_tokens').select('token_hash').where('user_id', '=', u.id).execute();
    expect(tokens.map((t) => t.token_hash)).toContain(createHash('sha256').update(u.token).digest('hex'));
    const all = JSON.stringify(await ctx.db.selectFrom('access_tokens').selectAll().execute());
    expect(all).not.toContain(u.token);
  });
});

describe('browser-facing defences', () => {
  it('closes CORS when CORS_ORIGINS is empty (the default): no origin is allowed', async () => {
    expect(ctx.config.CORS_ORIGINS).toEqual([]);
    for (const origin of ['https://sigaf.example.cl', 'http://localhost:5173', 'null']) {
      const pre = await ctx.request({ method: 'OPTIONS', url: '/api/auth/login', headers: { origin, 'access-control-request-method': 'POST' } });
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
    const limited = await createTestContext({ LOGIN_MAX_FAILURES_PER_IP: 3, LOGIN_MAX_FAILURES_PER_ACCOUNT: 100 });
    try {
      const attempt = (n: number) => limited.request({ method: 'POST', url: '/api/auth/login', payload: { email: `nadie${n}@sigaf.cl`, password: 'incorrecta' } });
      for (let n = 0; n < 3; n++) expect((await attempt(n)).statusCode).toBe(401);
      const blocked = await attempt(99);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toMatchObject({ success: false, statusCode: 429 });
      // Even the right password waits while the IP is over the limit.
      expect((await limited.request({ method: 'POST', url: '/api/auth/login', payload: { email: TEST_ADMIN.email, password: TEST_ADMIN.password } })).statusCode).toBe(429);
      const audit = await limited.db.selectFrom('audit_log').select(['action', 'entity_id']).where('action', 'in', ['login_failed', 'login_blocked']).execute();
      expect(audit.filter((a) => a.action === 'login_failed')).toHaveLength(3);
      expect(audit.filter((a) => a.action === 'login_blocked').map((a) => a.entity_id)).toEqual(['nadie99@sigaf.cl', TEST_ADMIN.email]);
    } finally {
      await limited.close();
    }
  });

  it('concurrent sign-ins cannot get past the limits: the count and the record are one atomic step before any password check', async () => {
    const { email, password } = await ctx.userWithRole('operator');
    const burst = await Promise.all(
      Array.from({ length: 36 }, (_, i) => ctx.request({ method: 'POST', url: '/api/auth/login', payload: { email, password: i === 35 ? password : `incorrecta-${i}` }, remoteAddress: `10.1.0.${i + 1}` })),
    );
    const checks = await ctx.db.selectFrom('login_attempts').select(['success']).where('email', '=', email).where('ip', 'like', '10.1.0.%').execute();
    expect(checks.length).toBeLessThanOrEqual(ctx.config.LOGIN_MAX_FAILURES_PER_ACCOUNT);
    expect(burst.filter((r) => r.statusCode !== 429).length).toBe(checks.length);
    expect(burst.filter((r) => r.statusCode === 200).length).toBe(checks.filter((c) => c.success).length);

    const perIp = await createTestContext({ LOGIN_MAX_FAILURES_PER_IP: 30, LOGIN_MAX_FAILURES_PER_ACCOUNT: 1000 });
    try {
      const many = await Promise.all(Array.from({ length: 150 }, (_, i) => perIp.request({ method: 'POST', url: '/api/auth/login', payload: { email: `n${i}@sigaf.cl`, password: 'incorrecta' }, remoteAddress: '10.2.0.9' })));
      const ran = await perIp.db.selectFrom('login_attempts').select('id').where('ip', '=', '10.2.0.9').execute();
      expect(ran.length).toBe(30);
      expect(many.filter((r) => r.statusCode === 429).length).toBe(120);
    } finally {
      await perIp.close();
    }
  });

  it('five wrong passwords from elsewhere do not lock the owner out of an address they signed in from before', async () => {
    const { email, password } = await ctx.userWithRole('admin');
    const login = (pw: string, ip: string) => ctx.request({ method: 'POST', url: '/api/auth/login', payload: { email, password: pw }, remoteAddress: ip });
    expect((await login(password, '10.3.0.1')).statusCode).toBe(200);
    for (let i = 0; i < ctx.config.LOGIN_MAX_FAILURES_PER_ACCOUNT; i++) expect((await login('incorrecta', `10.4.0.${i + 1}`)).statusCode).toBe(401);
    // The attacker, from any new address, is held by the account's limit, even with the right password...
    expect((await login(password, '10.4.9.9')).statusCode).toBe(429);
    expect((await login('incorrecta', '10.4.9.10')).statusCode).toBe(429);
    // ...and the owner, from the address they use, still gets in.
    expect((await login(password, '10.3.0.1')).statusCode).toBe(200);
  });

  it('failures of other accounts from a shared address do not lock out staff who signed in from it before; a newcomer there waits', async () => {
    const office = await createTestContext({ LOGIN_MAX_FAILURES_PER_IP: 3, LOGIN_MAX_FAILURES_PER_ACCOUNT: 100 });
    try {
      const login = (email: string, password: string) => office.request({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: '10.5.0.1' });
      const staff = await office.userWithRole('operator');
      const newcomer = await office.userWithRole('operator');
      expect((await login(staff.email, staff.password)).statusCode).toBe(200);
      for (let n = 0; n < 3; n++) expect((await login(`nadie${n}@sigaf.cl`, 'incorrecta')).statusCode).toBe(401);
      expect((await login('otro@sigaf.cl', 'incorrecta')).statusCode).toBe(429);
      expect((await login(newcomer.email, newcomer.password)).statusCode).toBe(429);
      // Known staff get in, many at once too.
      const burst = await Promise.all(Array.from({ length: 20 }, () => login(staff.email, staff.password)));
      expect(burst.map((r) => r.statusCode)).toEqual(Array.from({ length: 20 }, () => 200));
      // A wrong password of a known pair is still a failure, counted and audited.
      expect((await login(staff.email, 'incorrecta')).statusCode).toBe(401);
      const failed = await office.db.selectFrom('audit_log').select('entity_id').where('action', '=', 'login_failed').execute();
      expect(failed.map((a) => a.entity_id)).toContain(staff.email);
    } finally {
      await office.close();
    }
  });

  it('TRUST_PROXY names the proxies: rotating X-Forwarded-For from anyone else does not dodge the per-IP limit', async () => {
    const behind = await createTestContext({ TRUST_PROXY: ['10.9.0.0/16'], LOGIN_MAX_FAILURES_PER_IP: 3, LOGIN_MAX_FAILURES_PER_ACCOUNT: 1000 });
    try {
      const attempt = (n: number, from: string) =>
        behind.request({ method: 'POST', url: '/api/auth/login', payload: { email: `x${n}@sigaf.cl`, password: 'incorrecta' }, remoteAddress: from, headers: { 'x-forwarded-for': `203.0.113.${n}` } });
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

describe('TRUST_PROXY values', () => {
  it('false, a hop count or addresses/CIDRs; true and junk refuse to start with a clear message', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.2, 192.168.0.0/16,loopback' }).TRUST_PROXY).toEqual(['10.0.0.2', '192.168.0.0/16', 'loopback']);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/would trust any client/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(/TRUST_PROXY/);
  });
});
