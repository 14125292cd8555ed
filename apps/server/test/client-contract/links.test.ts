import { legacy } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers.js';
import { TEST_ADMIN } from '../fixtures.js';

/**
 * CLIENT_CONTRACT.md §1.2/§3: the links the original client follows are reachable from the
 * browser. They are absolute: PUBLIC_URL when set; otherwise the request's scheme and host, which
 * behind a trusted proxy are the ones it forwards (X-Forwarded-Proto/Host), and only then.
 */
const contexts: TestContext[] = [];
afterAll(async () => {
  for (const c of contexts) await c.close();
});

async function categoryLink(ctx: TestContext, headers: Record<string, string>, remoteAddress = '127.0.0.1') {
  const token = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const platform = (await ctx.request({ method: 'GET', url: '/api/v2/platforms', token })).json()._data.collections[0].properties.id;
  await ctx.request({ method: 'POST', url: '/api/v2/categories', token, payload: { description: 'Enlaces', category_code: 'ENLA', platform_id: platform } });
  const res = await ctx.request({ method: 'GET', url: '/api/v2/categories', token, headers, remoteAddress });
  const body = legacy.categoriesList.parse(res.json());
  return body._data.collections.find((c) => c.properties.description === 'Enlaces')!.relationships.links.href;
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

  it('behind a trusted proxy, the link has the scheme and host the browser used', async () => {
    const link = await categoryLink(behindProxy, { host: 'sigaf-interno:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'sigaf.example.cl' }, '10.1.2.3');
    expect(link).toMatch(/^https:\/\/sigaf\.example\.cl\/api\/v2\/categories\/\d+\/courses$/);
  });

  it('forwarded headers from anyone else are not believed', async () => {
    const link = await categoryLink(direct, { host: 'sigaf.local:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' });
    expect(link).toMatch(/^http:\/\/sigaf\.local:3000\/api\/v2\/categories\/\d+\/courses$/);
  });

  it('PUBLIC_URL wins over the request', async () => {
    const link = await categoryLink(configured, { host: 'sigaf-interno:3000' });
    expect(link).toMatch(/^https:\/\/sigaf\.example\.cl\/api\/v2\/categories\/\d+\/courses$/);
    // The link answers what the client reads there (the category's courses), called by its path.
    const token = await configured.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const res = await configured.request({ method: 'GET', url: new URL(link).pathname, token });
    expect(res.statusCode).toBe(200);
    legacy.categoryCourses.parse(res.json());
  });
});
