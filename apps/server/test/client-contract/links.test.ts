import { legacy } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers.js';
import { TEST_ADMIN } from '../fixtures.js';

/**
 * docs/development/original-api.md §1.2/§3: the links the original client follows are reachable from the
 * browser: absolute from PUBLIC_URL when it is set; otherwise paths from the server's root, which
 * the client joins to its backend address. Never built from the request's Host or
 * X-Forwarded-Host, which any client can set (host-header injection).
 */
const contexts: TestContext[] = [];
afterAll(async () => {
  for (const c of contexts) await c.close();
});

async function categoryAnswer(
  ctx: TestContext,
  headers: Record<string, string>,
  remoteAddress = '127.0.0.1',
) {
  const token = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const platform = (await ctx.request({ method: 'GET', url: '/api/v2/platforms', token })).json()
    ._data.collections[0].properties.id;
  await ctx.request({
    method: 'POST',
    url: '/api/v2/categories',
    token,
    payload: { description: 'Enlaces', category_code: 'ENLA', platform_id: platform },
  });
  const res = await ctx.request({
    method: 'GET',
    url: '/api/v2/categories',
    token,
    headers,
    remoteAddress,
  });
  const body = legacy.categoriesList.parse(res.json());
  return {
    raw: res.body,
    link: body._data.collections.find((c) => c.properties.description === 'Enlaces')!.relationships
      .links.href,
    token,
  };
}

describe('followed links (§1.2, §3)', () => {
  let behindProxy: TestContext;
  let direct: TestContext;
  let configured: TestContext;

  beforeAll(async () => {
    behindProxy = await createTestContext({ TRUST_PROXY: ['10.1.0.0/16'] });
    direct = await createTestContext();
    configured = await createTestContext({ PUBLIC_URL: 'https://sigaf.example.cl/' });
    contexts.push(behindProxy, direct, configured);
  });

  it('without PUBLIC_URL, links are paths from the server root: a Host of evil.example never enters them, directly or behind a trusted proxy', async () => {
    for (const [ctx, from] of [
      [direct, '127.0.0.1'],
      [behindProxy, '10.1.2.3'],
    ] as const) {
      const { raw, link, token } = await categoryAnswer(
        ctx,
        { host: 'evil.example', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' },
        from,
      );
      expect(link).toMatch(/^\/api\/v2\/categories\/\d+\/courses$/);
      expect(raw).not.toContain('evil.example');
      // The original client joins the path to its backend address: it answers what the client reads there.
      const res = await ctx.request({ method: 'GET', url: link, token });
      expect(res.statusCode).toBe(200);
      legacy.categoryCourses.parse(res.json());
      // Another answer with a link: the signed-in user.
      const me = await ctx.request({
        method: 'GET',
        url: '/api/auth/user',
        token,
        headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
        remoteAddress: from,
      });
      expect(me.body).not.toContain('evil.example');
      expect(me.json().user.links.href).toMatch(/^\/api\/v2\/users\/\d+$/);
    }
  });

  it('PUBLIC_URL wins over the request', async () => {
    const { raw, link } = await categoryAnswer(configured, {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
    });
    expect(raw).not.toContain('evil.example');
    expect(link).toMatch(/^https:\/\/sigaf\.example\.cl\/api\/v2\/categories\/\d+\/courses$/);
    // The link answers what the client reads there (the category's courses), called by its path.
    const token = await configured.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const res = await configured.request({ method: 'GET', url: new URL(link).pathname, token });
    expect(res.statusCode).toBe(200);
    legacy.categoryCourses.parse(res.json());
  });
});
