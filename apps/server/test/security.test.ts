import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN } from './fixtures.js';
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
});
