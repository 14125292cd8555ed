import { AUTH_MSG, MSG } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({
    LOGIN_MAX_FAILURES_PER_ACCOUNT: 3,
    CORS_ORIGINS: ['https://cliente.example.cl'],
  });
});
afterAll(() => ctx.close());

describe('POST /api/auth/login', () => {
  it('returns a bearer token for the right password', async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token_type).toBe('Bearer');
    expect(body.access_token).toMatch(/^[\w-]{40,}$/);
    expect(new Date(body.expires_at).getTime()).toBeGreaterThan(Date.now());
  });

  it('accepts the whole user form the original client posts, trimming and ignoring case', async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: {
        id: '',
        rut: '',
        name: '',
        phone: '',
        mobile: '',
        email: ` ${TEST_ADMIN.email.toUpperCase()} `,
        role: null,
        password: ` ${TEST_ADMIN.password} `,
        isFirstLogin: '',
        role_id: '',
      },
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers 401 Unauthorized for a wrong password or unknown e-mail, without telling which', async () => {
    const wrong = await ctx.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: TEST_ADMIN.email, password: 'nope-nope' },
    });
    const unknown = await ctx.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nadie@sigaf.test', password: 'nope-nope' },
    });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        success: false,
        message: MSG.unauthorized,
        statusCode: 401,
      });
    }
  });

  it('rejects malformed input with 422 and Spanish per-field messages', async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'no-es-correo', password: '' },
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body._data.errors.email).toContain(AUTH_MSG.emailInvalid);
    expect(body._data.errors.password).toContain(AUTH_MSG.passwordRequired);
  });

  it('answers broken JSON with 400 in the envelope, never 500', async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message: MSG.badJson });
  });

  it('limits failed attempts per account (429) and audits them', async () => {
    const { email } = await ctx.userWithRole('operator');
    // From an address the account never signed in from (at the owner's own address the account's failures there are counted instead: SECURITY.md).
    for (let i = 0; i < 3; i++) {
      const r = await ctx.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: 'wrong-password' },
        remoteAddress: '10.7.0.1',
      });
      expect(r.statusCode).toBe(401);
    }
    const blocked = await ctx.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'wrong-password' },
      remoteAddress: '10.7.0.2',
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(MSG.tooManyRequests);
    const audit = await ctx.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity_id', '=', email)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['login_failed', 'login_blocked']),
    );
  });
});

describe('session', () => {
  it('GET /api/auth/user returns the signed-in user without the password', async () => {
    const token = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const res = await ctx.request({ method: 'GET', url: '/api/auth/user', token, payload: 'true' });
    expect(res.statusCode).toBe(200);
    const user = res.json().user;
    expect(user.links.href).toMatch(/^\/api\/v2\/users\/\d+$/);
    expect(user.properties).toMatchObject({
      email: TEST_ADMIN.email,
      name: TEST_ADMIN.name,
      isFirstLogin: 1,
      role: { description: 'Administrador', key: 'admin' },
    });
    expect(JSON.stringify(user)).not.toContain('argon2');
  });

  it('accepts GET with a JSON body and an empty JSON body, as the original client sends them', async () => {
    const token = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
    for (const payload of ['true', '']) {
      const res = await ctx.request({ method: 'GET', url: '/api/auth/user', token, payload });
      expect(res.statusCode).toBe(200);
    }
  });

  it('answers 401 without a token and with a garbage token', async () => {
    const none = await ctx.request({ method: 'GET', url: '/api/auth/user' });
    const garbage = await ctx.request({ method: 'GET', url: '/api/auth/user', token: 'garbage' });
    expect(none.statusCode).toBe(401);
    expect(garbage.statusCode).toBe(401);
    expect(none.json().success).toBe(false);
  });

  it('logout revokes the token', async () => {
    const token = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const out = await ctx.request({
      method: 'GET',
      url: '/api/auth/logout',
      token,
      payload: 'true',
    });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({ success: true, message: MSG.logout });
    const after = await ctx.request({ method: 'GET', url: '/api/auth/user', token });
    expect(after.statusCode).toBe(401);
  });

  it('an expired token is refused', async () => {
    const token = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
    await ctx.db
      .updateTable('access_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('revoked_at', 'is', null)
      .execute();
    const res = await ctx.request({ method: 'GET', url: '/api/auth/user', token });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(MSG.tokenExpired);
  });
});

describe('first login: PUT /api/v2/users/{id}', () => {
  it('sets the new password and the flag to 1 with the body the original client sends, then the new password works', async () => {
    const u = await ctx.userWithRole('operator', { firstLogin: true });
    const me = (await ctx.request({ method: 'GET', url: '/api/auth/user', token: u.token })).json()
      .user.properties;
    expect(me.isFirstLogin).toBe(0);
    const res = await ctx.request({
      method: 'PUT',
      url: `/api/v2/users/${u.id}`,
      token: u.token,
      payload: {
        id: u.id,
        rut: '',
        name: me.name,
        phone: '',
        mobile: me.mobile,
        email: me.email,
        role: null,
        password: 'nueva-clave',
        isFirstLogin: 1,
        role_id: me.role.id,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()._data.properties.isFirstLogin).toBe(1);
    await expect(ctx.login(u.email, u.password)).rejects.toThrow();
    const again = await ctx.login(u.email, 'nueva-clave');
    expect(again).toBeTruthy();
  });

  it('rejects a short password with the Spanish message', async () => {
    const u = await ctx.userWithRole('operator', { firstLogin: true });
    const res = await ctx.request({
      method: 'PUT',
      url: `/api/v2/users/${u.id}`,
      token: u.token,
      payload: { password: '123', isFirstLogin: 1 },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()._data.errors.password).toContain(AUTH_MSG.newPasswordMin);
  });

  it('does not let a non-administrator change someone else or their own role', async () => {
    const a = await ctx.userWithRole('operator');
    const b = await ctx.userWithRole('tutor');
    const other = await ctx.request({
      method: 'PUT',
      url: `/api/v2/users/${b.id}`,
      token: a.token,
      payload: { password: 'takeover1' },
    });
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(MSG.ownRecordOnly);
    const adminRole = await ctx.db
      .selectFrom('roles')
      .select('id')
      .where('key', '=', 'admin')
      .executeTakeFirstOrThrow();
    const escalate = await ctx.request({
      method: 'PUT',
      url: `/api/v2/users/${a.id}`,
      token: a.token,
      payload: { role_id: adminRole.id },
    });
    expect(escalate.statusCode).toBe(403);
    const role = await ctx.db
      .selectFrom('users')
      .select('role_id')
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(role.role_id).not.toBe(adminRole.id);
  });

  it("a password change revokes the user's other sessions", async () => {
    const u = await ctx.userWithRole('operator');
    const second = await ctx.login(u.email, u.password);
    const res = await ctx.request({
      method: 'PUT',
      url: `/api/v2/users/${u.id}`,
      token: u.token,
      payload: { password: 'otra-clave-1', current_password: u.password },
    });
    expect(res.statusCode).toBe(200);
    expect(
      (await ctx.request({ method: 'GET', url: '/api/auth/user', token: second })).statusCode,
    ).toBe(401);
    expect(
      (await ctx.request({ method: 'GET', url: '/api/auth/user', token: u.token })).statusCode,
    ).toBe(200);
  });
});

describe('until the temporary password is changed', () => {
  it('every API route but who-am-I, sign-out and the own password change answers 403 in Spanish', async () => {
    const u = await ctx.userWithRole('admin', { firstLogin: true });
    const probes = ctx.app.routeTable.filter(
      (r) => r.access !== 'public' && !(r.method === 'GET' && r.url === '/api/auth/logout'),
    );
    expect(probes.length).toBeGreaterThan(150);
    for (const r of probes) {
      const url = r.url.replace(/:([A-Za-z_]+)/g, (_, name: string) =>
        name === 'id' && r.url === '/api/v2/users/:id' ? String(u.id + 1) : '1',
      );
      const res = await ctx.request({
        method: r.method as 'GET',
        url,
        token: u.token,
        ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: {} }),
      });
      if (r.method === 'GET' && r.url === '/api/auth/user') expect(res.statusCode).toBe(200);
      else
        expect([res.statusCode, res.json().message], `${r.method} ${url}`).toEqual([
          403,
          AUTH_MSG.firstLoginRequired,
        ]);
    }
  });

  it('the own change is allowed, must differ from the temporary password, and then everything opens', async () => {
    const u = await ctx.userWithRole('operator', { firstLogin: true });
    const same = await ctx.request({
      method: 'PUT',
      url: `/api/v2/users/${u.id}`,
      token: u.token,
      payload: { password: u.password, isFirstLogin: 1 },
    });
    expect([same.statusCode, same.json()._data.errors.password]).toEqual([
      422,
      [AUTH_MSG.passwordSameAsCurrent],
    ]);
    const done = await ctx.request({
      method: 'PUT',
      url: `/api/v2/users/${u.id}`,
      token: u.token,
      payload: { password: 'Cambiada-Ya-2026', isFirstLogin: 1 },
    });
    expect(done.statusCode).toBe(200);
    expect(
      (await ctx.request({ method: 'GET', url: '/api/v2/tickets', token: u.token })).statusCode,
    ).toBe(200);
    expect(
      (await ctx.request({ method: 'GET', url: '/api/auth/logout', token: u.token })).statusCode,
    ).toBe(200);
  });
});

describe('password policy', () => {
  it('an own change (after the first login) needs the current password', async () => {
    const u = await ctx.userWithRole('operator');
    const missing = await ctx.request({
      method: 'PUT',
      url: `/api/v2/users/${u.id}`,
      token: u.token,
      payload: { password: 'Nueva-Clave-2026' },
    });
    expect([missing.statusCode, missing.json()._data.errors.current_password]).toEqual([
      422,
      [AUTH_MSG.currentPasswordRequired],
    ]);
    const wrong = await ctx.request({
      method: 'PUT',
      url: `/api/v2/users/${u.id}`,
      token: u.token,
      payload: { password: 'Nueva-Clave-2026', current_password: 'no-es-esta' },
    });
    expect([wrong.statusCode, wrong.json()._data.errors.current_password]).toEqual([
      422,
      [AUTH_MSG.currentPasswordWrong],
    ]);
    await expect(ctx.login(u.email, u.password)).resolves.toBeTruthy();
  });

  it('refuses short, common and own-name passwords, for own changes, sign-ups and administrators alike', async () => {
    const u = await ctx.userWithRole('operator');
    const me = (await ctx.request({ method: 'GET', url: '/api/auth/user', token: u.token })).json()
      .user.properties;
    const local = String(me.email)
      .split('@')[0]!
      .replace(/[^a-z]/gi, '');
    const admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const cases: Array<[string, string]> = [
      ['corta1', AUTH_MSG.newPasswordMin],
      ['password', AUTH_MSG.passwordTooCommon],
      ['12345678', AUTH_MSG.passwordTooCommon],
      ['Qwertyuiop', AUTH_MSG.passwordTooCommon],
      [`${local}2026!`, AUTH_MSG.passwordLikeIdentity],
    ];
    for (const [password, message] of cases) {
      const own = await ctx.request({
        method: 'PUT',
        url: `/api/v2/users/${u.id}`,
        token: u.token,
        payload: { password, current_password: u.password },
      });
      expect([own.statusCode, own.json()._data?.errors?.password], password).toEqual([
        422,
        [message],
      ]);
      const byAdmin = await ctx.request({
        method: 'PUT',
        url: `/api/v2/users/${u.id}`,
        token: admin,
        payload: { password },
      });
      expect(byAdmin.statusCode, password).toBe(422);
    }
    const role = await ctx.db
      .selectFrom('roles')
      .select('id')
      .where('key', '=', 'operator')
      .executeTakeFirstOrThrow();
    const signup = await ctx.request({
      method: 'POST',
      url: '/api/v2/users/signup',
      token: admin,
      payload: {
        name: 'Juan Pérez',
        email: 'juan.perez@sigaf.test',
        role_id: role.id,
        password: 'Perez.1234',
      },
    });
    expect([signup.statusCode, signup.json()._data.errors.password]).toEqual([
      422,
      [AUTH_MSG.passwordLikeIdentity],
    ]);
    await expect(ctx.login(u.email, u.password)).resolves.toBeTruthy();
  });
});

describe('POST /api/v2/users/signup', () => {
  it('creates a user with a temporary password (201 in the body) and refuses a duplicate e-mail with 406 in the body of a 2xx answer', async () => {
    const admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const role = await ctx.db
      .selectFrom('roles')
      .select('id')
      .where('key', '=', 'operator')
      .executeTakeFirstOrThrow();
    const payload = {
      rut: '12.345.678-5',
      name: 'Olga Operadora',
      phone: '',
      mobile: '+56922222222',
      email: 'olga@sigaf.test',
      role_id: role.id,
    };
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v2/users/signup',
      token: admin,
      payload,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ success: true, statusCode: 201, message: MSG.created });
    expect(body._data.properties).toMatchObject({
      email: 'olga@sigaf.test',
      isFirstLogin: 0,
      rut: '12.345.678-5',
    });
    const token = await ctx.login('olga@sigaf.test', body._data.temporaryPassword);
    expect(token).toBeTruthy();

    const dup = await ctx.request({
      method: 'POST',
      url: '/api/v2/users/signup',
      token: admin,
      payload: { ...payload, rut: '', email: 'OLGA@sigaf.test' },
    });
    // The original client reads the refusal from the body (docs/development/original-api.md#users); a non-2xx would show a generic error.
    expect(dup.statusCode).toBe(200);
    expect(dup.json()).toMatchObject({ success: false, statusCode: 406, message: MSG.emailExists });
    expect(
      await ctx.db
        .selectFrom('users')
        .select('id')
        .where('email', 'ilike', 'olga@sigaf.test')
        .execute(),
    ).toHaveLength(1);
  });

  it('validates RUT and e-mail in Spanish, and is for administrators only', async () => {
    const admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const bad = await ctx.request({
      method: 'POST',
      url: '/api/v2/users/signup',
      token: admin,
      payload: { rut: '12.345.678-9', name: 'X', email: 'x', role_id: 1 },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()._data.errors.rut).toContain('RUT no válido');
    const op = await ctx.userWithRole('operator');
    const forbidden = await ctx.request({
      method: 'POST',
      url: '/api/v2/users/signup',
      token: op.token,
      payload: { name: 'X', email: 'x@y.cl', role_id: 1 },
    });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ success: false, message: MSG.forbidden });
  });
});

describe('the staff list', () => {
  it('shows administrators every account, Developers included; the operator picker and other roles do not list Developers', async () => {
    const dev = await ctx.userWithRole('developer');
    const admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const ids = async (token: string, q = '') =>
      (await ctx.request({ method: 'GET', url: `/api/v2/users?perPage=1000${q}`, token }))
        .json()
        ._data.collections.map((c: { properties: { id: number } }) => c.properties.id);
    expect(await ids(admin)).toContain(dev.id);
    expect(await ids(dev.token)).toContain(dev.id);
    const op = await ctx.userWithRole('operator');
    expect(await ids(op.token)).not.toContain(dev.id);
    expect(await ids(admin, '&view=operators')).toContain(dev.id);
  });
});

describe('transport', () => {
  it('GET /health reports the database', async () => {
    const res = await ctx.request({ method: 'GET', url: '/health' });
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('unknown API paths answer 404 in the envelope', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v2/no-existe' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, message: MSG.badUrl });
  });

  it('sends security headers and allows only configured CORS origins', async () => {
    const allowed = await ctx.request({
      method: 'OPTIONS',
      url: '/api/auth/login',
      headers: {
        origin: 'https://cliente.example.cl',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-requested-with',
      },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://cliente.example.cl');
    expect(String(allowed.headers['access-control-allow-headers'])).toContain('x-requested-with');
    const denied = await ctx.request({
      method: 'OPTIONS',
      url: '/api/auth/login',
      headers: { origin: 'https://malicioso.example.com', 'access-control-request-method': 'POST' },
    });
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();
    const res = await ctx.request({ method: 'GET', url: '/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('serves the OpenAPI document to signed-in staff only (API_DOCS=staff); the interactive page only when public', async () => {
    expect((await ctx.request({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(401);
    expect((await ctx.request({ method: 'GET', url: '/api/docs' })).statusCode).toBe(404);
    const tutor = await ctx.userWithRole('tutor');
    const res = await ctx.request({ method: 'GET', url: '/api/docs/json', token: tutor.token });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toEqual(
      expect.arrayContaining(['/api/auth/login', '/api/v2/users/signup']),
    );
    const open = await createTestContext({ API_DOCS: 'public' });
    try {
      expect((await open.request({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
      expect((await open.request({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(
        400,
      );
    } finally {
      await open.close();
    }
    const off = await createTestContext({ API_DOCS: 'off' });
    try {
      expect(
        (
          await off.request({
            method: 'GET',
            url: '/api/docs/json',
            token: (await off.userWithRole('admin')).token,
          })
        ).statusCode,
      ).toBe(404);
    } finally {
      await off.close();
    }
  });
});
