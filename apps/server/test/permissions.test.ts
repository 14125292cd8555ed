import { MSG, ROLE_KEYS, type RoleKey } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';

/**
 * Walks the whole permission matrix: every API route the server has, as every role and with no
 * token. A forbidden call must be a 403 in the envelope; an allowed one must pass the guard.
 */
let ctx: TestContext;
const tokens: Partial<Record<RoleKey, string>> = {};
beforeAll(async () => {
  ctx = await createTestContext();
  for (const role of ROLE_KEYS) tokens[role] = (await ctx.userWithRole(role)).token;
});
afterAll(() => ctx.close());

const MISSING_ID = '2147480000';

function concrete(url: string) {
  return url.replace(/:[a-zA-Z_]+/g, (p) => (p === ':rut' ? '11.111.111-1' : MISSING_ID));
}

describe('permission matrix', () => {
  it('every /api route declares its access and each role gets exactly what it declares', async () => {
    // Logout revokes the caller's token: walk it last.
    const routes = [...ctx.app.routeTable].sort(
      (a, b) => Number(a.url.endsWith('/logout')) - Number(b.url.endsWith('/logout')),
    );
    expect(routes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    for (const route of routes) {
      const url = concrete(route.url);
      const anonymous = await ctx.request({
        method: route.method as 'GET',
        url,
        payload: route.method === 'GET' || route.method === 'DELETE' ? 'true' : {},
      });
      if (route.access === 'public') {
        if ([401, 403].includes(anonymous.statusCode))
          failures.push(`${route.method} ${route.url} public but ${anonymous.statusCode}`);
        continue;
      }
      if (anonymous.statusCode !== 401)
        failures.push(`${route.method} ${route.url} without token -> ${anonymous.statusCode}`);
      for (const role of ROLE_KEYS) {
        const res = await ctx.request({
          method: route.method as 'GET',
          url,
          token: tokens[role],
          payload: route.method === 'GET' || route.method === 'DELETE' ? 'true' : {},
        });
        const allowed = route.access === 'authenticated' || route.access.includes(role);
        const denied = res.statusCode === 403 && res.json().message === MSG.forbidden;
        if (allowed && (denied || res.statusCode === 401))
          failures.push(
            `${route.method} ${route.url} as ${role}: expected allowed, got ${res.statusCode}`,
          );
        if (!allowed && !denied)
          failures.push(
            `${route.method} ${route.url} as ${role}: expected 403, got ${res.statusCode}`,
          );
        if (res.statusCode >= 500)
          failures.push(`${route.method} ${route.url} as ${role}: ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('an operator cannot change catalogues, users or courses', async () => {
    const op = (await ctx.userWithRole('operator')).token;
    const attempts = [
      {
        method: 'POST' as const,
        url: '/api/v2/classrooms',
        payload: { description: 'Aula pirata' },
      },
      { method: 'DELETE' as const, url: '/api/v2/status-tickets/1' },
      {
        method: 'POST' as const,
        url: '/api/v2/users/signup',
        payload: { name: 'x', email: 'x@x.cl', role_id: 1 },
      },
      {
        method: 'POST' as const,
        url: '/api/v2/courses/post',
        payload: { description: 'Curso pirata', category_id: 1 },
      },
    ];
    for (const a of attempts) {
      const res = await ctx.request({ ...a, token: op });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ success: false, statusCode: 403, message: MSG.forbidden });
    }
    const count = await ctx.db
      .selectFrom('classrooms')
      .select('id')
      .where('description', '=', 'Aula pirata')
      .execute();
    expect(count).toHaveLength(0);
  });
});
