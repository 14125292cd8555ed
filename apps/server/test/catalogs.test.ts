import { CATALOGUE_MAX, FORM_MSG, MSG, RESOURCES } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_TABLES } from '../src/modules/catalogs/declarations.js';
import { seedChain } from './data.js';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';

let ctx: TestContext;
let admin: string;
beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(() => ctx.close());

const catalogues = RESOURCES.filter((r) => r.catalogue && !r.listOnly);

// One suite per declared catalogue, generated from the same declarations that drive the routes.
describe.each(catalogues.map((d) => [d.path, d] as const))('catalogue /api/v2/%s', (path, decl) => {
  const min = decl.fields[0]!.min!;
  const url = `/api/v2/${path}`;

  it('lists in the envelope with links from the server root (PUBLIC_URL unset)', async () => {
    const res = await ctx.request({ method: 'GET', url, token: admin, payload: 'true' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, error: null, statusCode: 200, message: MSG.ok });
    expect(body._data.links.href).toBe(`/api/v2/${path}`);
    expect(body._data.numberOfElements).toBe(body._data.collections.length);
    for (const item of body._data.collections) {
      expect(item.properties).toEqual(
        expect.objectContaining({ id: expect.any(Number), description: expect.any(String) }),
      );
      // One flat relationship (docs/development/original-api.md#flat-relationships).
      if (decl.ticketColumn)
        expect(item.relationships).toMatchObject({
          numberOfElements: expect.any(Number),
          links: { href: expect.stringContaining(decl.ticketColumn) },
        });
    }
  });

  it('creates, refuses a duplicate (any case), updates and deletes', async () => {
    const name = `Nuevo ${path}`.slice(0, CATALOGUE_MAX);
    const created = await ctx.request({
      method: 'POST',
      url,
      token: admin,
      payload: { description: `  ${name}  ` },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      success: true,
      statusCode: 201,
      message: MSG.created,
      _data: { properties: { description: name, protected: false } },
    });
    const id = created.json()._data.properties.id;

    const dup = await ctx.request({
      method: 'POST',
      url,
      token: admin,
      payload: { description: name.toUpperCase() },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toContain('Ya existe');

    const renamed = await ctx.request({
      method: 'PUT',
      url: `${url}/${id}`,
      token: admin,
      payload: { description: `${name.slice(0, 20)} v2` },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()._data.properties.description).toBe(`${name.slice(0, 20)} v2`);

    const del = await ctx.request({
      method: 'DELETE',
      url: `${url}/${id}`,
      token: admin,
      payload: 'true',
    });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({ success: true, error: null, message: MSG.deleted });
    const gone = await ctx.request({ method: 'GET', url: `${url}/${id}`, token: admin });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ success: false, message: MSG.notFound });
  });

  it('validates length with Spanish messages (422)', async () => {
    const short = await ctx.request({
      method: 'POST',
      url,
      token: admin,
      payload: { description: 'x'.repeat(min - 1) },
    });
    expect(short.statusCode).toBe(422);
    expect(short.json()._data.errors.description).toContain(FORM_MSG.min(min));
    const long = await ctx.request({
      method: 'POST',
      url,
      token: admin,
      payload: { description: 'x'.repeat(CATALOGUE_MAX + 1) },
    });
    expect(long.json()._data.errors.description).toContain(FORM_MSG.max(CATALOGUE_MAX));
    const missing = await ctx.request({ method: 'POST', url, token: admin, payload: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()._data.errors.description).toContain(FORM_MSG.required);
  });

  it('paginates, searches and sorts on the server', async () => {
    for (const n of [1, 2, 3])
      await ctx.request({
        method: 'POST',
        url,
        token: admin,
        payload: { description: `Zeta pag ${n}` },
      });
    const page = await ctx.request({
      method: 'GET',
      url: `${url}?page=2&perPage=2&search=zeta%20pag&sort=description&order=desc`,
      token: admin,
    });
    const data = page.json()._data;
    expect(data.meta).toEqual({ page: 2, perPage: 2, total: 3, lastPage: 2 });
    expect(
      data.collections.map(
        (c: { properties: { description: string } }) => c.properties.description,
      ),
    ).toEqual(['Zeta pag 1']);
  });

  it('refuses to delete the values the system relies on', async () => {
    const list = (await ctx.request({ method: 'GET', url, token: admin })).json()._data.collections;
    const seeded = list.find((c: { properties: { protected: boolean } }) => c.properties.protected);
    if (!seeded) return expect(CATALOGUE_TABLES[path]).toBeDefined();
    const res = await ctx.request({
      method: 'DELETE',
      url: `${url}/${seeded.properties.id}`,
      token: admin,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      'Este valor es utilizado por el sistema y no se puede eliminar.',
    );
  });
});

describe('values in use', () => {
  it('cannot be deleted (409 saying why), and nothing is orphaned', async () => {
    const me = (await ctx.request({ method: 'GET', url: '/api/auth/user', token: admin })).json()
      .user.properties;
    const chain = await seedChain(ctx.db, me.id);
    const cases: Array<[string, number, string]> = [
      ['classrooms', chain.classroom, '1 matrículas'],
      ['final-statuses', chain.finalStatus, '1 matrículas'],
      ['sections', chain.section, '1 actividades'],
      ['motive-tickets', chain.motive, '1 tickets'],
    ];
    for (const [path, id, why] of cases) {
      const res = await ctx.request({
        method: 'DELETE',
        url: `/api/v2/${path}/${id}`,
        token: admin,
      });
      expect(res.statusCode, path).toBe(409);
      expect(res.json().message).toBe(`No se puede eliminar porque está en uso por ${why}.`);
    }
    const cat = await ctx.request({
      method: 'DELETE',
      url: `/api/v2/categories/${chain.category}`,
      token: admin,
    });
    expect(cat.statusCode).toBe(409);
    const course = await ctx.request({
      method: 'DELETE',
      url: `/api/v2/courses/${chain.course}`,
      token: admin,
    });
    expect(course.statusCode).toBe(409);
    expect(course.json().message).toContain('1 matrícula(s) y 1 ticket(s)');
    const still = await ctx.db
      .selectFrom('tickets')
      .select('id')
      .where('id', '=', chain.ticket)
      .execute();
    expect(still).toHaveLength(1);
  });

  it('status tickets carry their tickets grouped by operator name', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v2/status-tickets', token: admin });
    const open = res
      .json()
      ._data.collections.find((c: { properties: { key: string } }) => c.properties.key === 'open');
    expect(open.properties.ticketsCount).toBeGreaterThanOrEqual(1);
    expect(open.relationships.data).toEqual(
      expect.arrayContaining([
        { name: TEST_ADMIN.name, operator: TEST_ADMIN.name, count: expect.any(Number) },
      ]),
    );
  });

  it('platforms are list-only', async () => {
    const list = await ctx.request({ method: 'GET', url: '/api/v2/platforms', token: admin });
    expect(list.json()._data.collections[0].properties.description).toBe('Moodle');
    const post = await ctx.request({
      method: 'POST',
      url: '/api/v2/platforms',
      token: admin,
      payload: { description: 'Otra' },
    });
    expect(post.statusCode).toBe(404);
  });
});
