import { FORM_MSG, MSG } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '../src/lib/crypto.js';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';

let ctx: TestContext;
let admin: string;
let platformId: number;
beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  platformId = (await ctx.db.selectFrom('platforms').select('id').executeTakeFirstOrThrow()).id;
});
afterAll(() => ctx.close());

async function createCategory(code = 'SEGU') {
  const res = await ctx.request({
    method: 'POST',
    url: '/api/v2/categories/post',
    token: admin,
    payload: {
      description: `Seguridad ${code}`,
      category_code: code.toLowerCase(),
      id_category_moodle: 3,
      platform_id: platformId,
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json()._data.properties;
}

describe('categories', () => {
  it('create (original path), upper-cases the code, links its courses, update with PUT /categories/put/{id}', async () => {
    const cat = await createCategory('GRUA');
    expect(cat).toMatchObject({
      categoryCode: 'GRUA',
      idCategoryMoodle: 3,
      platform: { id: platformId, description: 'Moodle' },
      status: 1,
    });
    const put = await ctx.request({
      method: 'PUT',
      url: `/api/v2/categories/put/${cat.id}`,
      token: admin,
      payload: { description: 'Grúas horquilla' },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()._data.properties.description).toBe('Grúas horquilla');
    const list = await ctx.request({ method: 'GET', url: '/api/v2/categories', token: admin });
    const item = list
      .json()
      ._data.collections.find((c: { properties: { id: number } }) => c.properties.id === cat.id);
    expect(item.relationships.links.href).toMatch(
      new RegExp(`/api/v2/categories/${cat.id}/courses$`),
    );
  });

  it('validates code length and an unknown platform with Spanish messages', async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v2/categories',
      token: admin,
      payload: { description: 'Sin código', category_code: 'DEMASIADO', platform_id: 999 },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()._data.errors.category_code).toContain(FORM_MSG.max(4));
    const platform = await ctx.request({
      method: 'POST',
      url: '/api/v2/categories',
      token: admin,
      payload: { description: 'Plataforma mala', category_code: 'PLAT', platform_id: 999 },
    });
    expect(platform.statusCode).toBe(422);
    expect(platform.json()._data.errors.platform_id).toContain(FORM_MSG.option);
  });
});

describe('courses', () => {
  it('encrypts the mailbox password, never returns it, and keeps it when an update leaves it blank', async () => {
    const cat = await createCategory('MAIL');
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v2/courses/post',
      token: admin,
      payload: {
        description: 'Curso de correo',
        email: 'curso@sigaf.test',
        password: 'clave-secreta',
        category_id: cat.id,
        id_course_moodle: 4,
      },
    });
    expect(res.statusCode).toBe(201);
    const course = res.json()._data.properties;
    expect(course).toMatchObject({
      hasPassword: true,
      email: 'curso@sigaf.test',
      category: { id: cat.id, categoryCode: 'MAIL' },
    });
    expect(res.body).not.toContain('clave-secreta');
    const stored = await ctx.db
      .selectFrom('courses')
      .select('password_encrypted')
      .where('id', '=', course.id)
      .executeTakeFirstOrThrow();
    expect(stored.password_encrypted).not.toContain('clave-secreta');
    expect(decryptSecret(stored.password_encrypted!, ctx.config.APP_SECRET)).toBe('clave-secreta');

    await ctx.request({
      method: 'PUT',
      url: `/api/v2/courses/${course.id}`,
      token: admin,
      payload: { description: 'Curso de correo 2', password: '' },
    });
    const after = await ctx.db
      .selectFrom('courses')
      .select('password_encrypted')
      .where('id', '=', course.id)
      .executeTakeFirstOrThrow();
    expect(after.password_encrypted).toBe(stored.password_encrypted);
    const list = await ctx.request({ method: 'GET', url: '/api/v2/courses', token: admin });
    expect(list.body).not.toContain('password_encrypted');
    expect(list.body).not.toContain(stored.password_encrypted!);
    // The original client shows `password` and sends it back on every edit: a mask, which keeps the password.
    const listed = list
      .json()
      ._data.collections.find(
        (c: { properties: { id: number } }) => c.properties.id === course.id,
      ).properties;
    expect(listed.password).toBe('********');
    await ctx.request({
      method: 'PUT',
      url: `/api/v2/courses/${course.id}`,
      token: admin,
      payload: { description: 'Curso de correo 3', password: listed.password },
    });
    const masked = await ctx.db
      .selectFrom('courses')
      .select('password_encrypted')
      .where('id', '=', course.id)
      .executeTakeFirstOrThrow();
    expect(decryptSecret(masked.password_encrypted!, ctx.config.APP_SECRET)).toBe('clave-secreta');
  });

  it('lists only status 1 unless all=1, and the category selector gives active courses', async () => {
    const cat = await createCategory('ESTA');
    const mk = async (description: string, status: number) =>
      (
        await ctx.request({
          method: 'POST',
          url: '/api/v2/courses',
          token: admin,
          payload: { description, category_id: cat.id, status },
        })
      ).json()._data.properties.id;
    const active = await mk('Curso activo', 1);
    const inactive = await mk('Curso inactivo', 0);
    const ids = (url: string) =>
      ctx
        .request({ method: 'GET', url, token: admin })
        .then((r) =>
          r.json()._data.collections.map((c: { properties: { id: number } }) => c.properties.id),
        );
    expect(await ids(`/api/v2/courses?category_id=${cat.id}`)).toEqual([active]);
    expect(await ids(`/api/v2/courses?category_id=${cat.id}&all=1`)).toEqual([active, inactive]);
    expect(await ids(`/api/v2/categories/${cat.id}/courses`)).toEqual([active]);
  });

  it('gives a course its activities grouped by section; activities update with section_id', async () => {
    const cat = await createCategory('ACTI');
    const course = (
      await ctx.request({
        method: 'POST',
        url: '/api/v2/courses',
        token: admin,
        payload: { description: 'Curso con actividades', category_id: cat.id },
      })
    ).json()._data.properties;
    const formative = await ctx.db
      .selectFrom('sections')
      .select('id')
      .where('key', '=', 'formative')
      .executeTakeFirstOrThrow();
    const resign = await ctx.db
      .selectFrom('sections')
      .select('id')
      .where('key', '=', 'resign')
      .executeTakeFirstOrThrow();
    const act = await ctx.request({
      method: 'POST',
      url: '/api/v2/activities',
      token: admin,
      payload: {
        description: 'Foro 1',
        course_id: course.id,
        section_id: formative.id,
        weighing: 0,
        id_activity_moodle: 77,
      },
    });
    expect(act.statusCode).toBe(201);
    const id = act.json()._data.properties.id;
    const upd = await ctx.request({
      method: 'PUT',
      url: `/api/v2/activities/${id}`,
      token: admin,
      payload: { section_id: resign.id, weighing: 20 },
    });
    expect(upd.json()._data.properties).toMatchObject({
      weighing: 20,
      section: { id: resign.id, description: 'Renuncia', key: 'resign' },
    });
    const bad = await ctx.request({
      method: 'PUT',
      url: `/api/v2/activities/${id}`,
      token: admin,
      payload: { weighing: 101 },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()._data.errors.weighing).toContain(FORM_MSG.numberMax(100));
    const grouped = await ctx.request({
      method: 'GET',
      url: `/api/v2/courses/${course.id}/activities`,
      token: admin,
    });
    const sections = grouped.json()._data.collections;
    expect(sections).toHaveLength(1);
    expect(sections[0].properties.description).toBe('Renuncia');
    expect(sections[0].relationships.array[0].properties.description).toBe('Foro 1');
    // The original client's reading of the same answer: the activities, each with its section.
    expect(
      grouped
        .json()
        ._data.relationships.collection.data.map(
          (a: { properties: { description: string; section: { description: string } } }) => [
            a.properties.description,
            a.properties.section.description,
          ],
        ),
    ).toEqual([['Foro 1', 'Renuncia']]);
  });
});

describe('users', () => {
  it('the maintenance list shows administrators every account; the operator list hides Tutors', async () => {
    await ctx.userWithRole('developer');
    await ctx.userWithRole('tutor');
    const roles = async (url: string) =>
      new Set(
        (await ctx.request({ method: 'GET', url, token: admin }))
          .json()
          ._data.collections.map(
            (c: { properties: { role: { key: string } } }) => c.properties.role.key,
          ),
      );
    const all = await roles('/api/v2/users');
    expect(all.has('developer')).toBe(true);
    expect(all.has('tutor')).toBe(true);
    const operators = await roles('/api/v2/users?view=operators');
    expect(operators.has('tutor')).toBe(false);
  });

  it('an administrator resets a password (temporary, first login again) and cannot delete themselves', async () => {
    const u = await ctx.userWithRole('operator');
    const reset = await ctx.request({
      method: 'POST',
      url: `/api/v2/users/${u.id}/reset-password`,
      token: admin,
    });
    expect(reset.statusCode).toBe(200);
    const { temporaryPassword, properties } = reset.json()._data;
    expect(properties.isFirstLogin).toBe(0);
    expect(
      (await ctx.request({ method: 'GET', url: '/api/auth/user', token: u.token })).statusCode,
    ).toBe(401);
    expect(await ctx.login(u.email, temporaryPassword)).toBeTruthy();

    const me = (await ctx.request({ method: 'GET', url: '/api/auth/user', token: admin })).json()
      .user.properties;
    const self = await ctx.request({
      method: 'DELETE',
      url: `/api/v2/users/${me.id}`,
      token: admin,
    });
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe('No puede eliminar su propio usuario.');
  });

  it('deleting a user signs them out and frees the e-mail; their record leaves the list', async () => {
    const u = await ctx.userWithRole('operator');
    const del = await ctx.request({ method: 'DELETE', url: `/api/v2/users/${u.id}`, token: admin });
    expect(del.statusCode).toBe(200);
    expect(
      (await ctx.request({ method: 'GET', url: '/api/auth/user', token: u.token })).statusCode,
    ).toBe(401);
    expect(
      (await ctx.request({ method: 'GET', url: `/api/v2/users/${u.id}`, token: admin })).statusCode,
    ).toBe(404);
    const again = await ctx.request({
      method: 'POST',
      url: '/api/v2/users/signup',
      token: admin,
      payload: { name: 'De nuevo', email: u.email, role_id: 3 },
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().message).toBe(MSG.created);
  });
});

describe('bad ids and bodies never give a 500', () => {
  it.each([
    '/api/v2/courses/abc',
    '/api/v2/courses/-1',
    '/api/v2/courses/99999999999',
    '/api/v2/classrooms/1.5',
  ])('GET %s -> 422', async (url) => {
    const res = await ctx.request({ method: 'GET', url, token: admin });
    expect(res.statusCode).toBe(422);
    expect(res.json().success).toBe(false);
  });

  it('wrong types in a body are 422', async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v2/courses',
      token: admin,
      payload: { description: ['x'], category_id: 'abc' },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json()._data.errors)).toEqual(
      expect.arrayContaining(['description', 'category_id']),
    );
  });
});
