import {
  activitiesList,
  activityUpdate,
  authLogin,
  authLogout,
  authUser,
  catalogueDelete,
  categoriesList,
  categoryCourses,
  categoryDelete,
  categorySave,
  courseActivitiesBySection,
  courseDelete,
  coursesList,
  courseSave,
  legacyActivity,
  plainCatalogueList,
  plainCatalogueSave,
  platformsList,
  sectionSave,
  sectionsList,
  statusTicketSave,
  statusTicketsList,
  ticketCatalogueList,
  ticketCatalogueSave,
  uploadFile,
  usersDelete,
  usersList,
  usersSignupCreated,
  usersSignupRefused,
  usersUpdate,
} from '../../../../packages/contract/src/legacy/index.js';
import { computeDv, RESOURCES } from '@sigaf/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { waitFor } from '../mail-data.js';
import {
  BACKEND,
  demoWorld,
  expectShape,
  originalClient,
  type DemoWorld,
  type OriginalClient,
} from './original-client.js';

/**
 * The original SIGAF 1.8.6 client against our server, for authentication, staff users, the
 * catalogues, sections, platforms, categories, courses, activities and files
 * (docs/development/original-api.md §1.1, §1.9, §2.1-§2.9, §2.17): every call as it sends it, every answer
 * checked against what it reads.
 */

let world: DemoWorld;
let client: OriginalClient;
const admin = { email: 'demo.admin@sigaf.cl' };

/** The original's `User` form as views/Login.vue posts it to /api/auth/login (models/User.js). */
function loginForm(email: string, password: string, extra: Record<string, unknown> = {}) {
  return {
    id: '',
    rut: '',
    name: '',
    phone: '',
    mobile: '',
    email,
    role: null,
    password,
    isFirstLogin: '',
    role_id: '',
    ...extra,
  };
}

async function signIn(
  c: OriginalClient,
  email: string,
  password: string,
  extra: Record<string, unknown> = {},
) {
  const res = await c.call('POST', '/api/auth/login', loginForm(email, password, extra));
  expect(res.status, `login ${email}`).toBe(200);
  c.token = expectShape(authLogin, res, 'POST /api/auth/login').access_token;
  return res;
}

beforeAll(async () => {
  world = await demoWorld();
  // The first course arrives synchronised with Moodle: its activities are there once the sync has run.
  world.worker.start();
  await waitFor(
    async () =>
      Number(
        (
          await world.ctx.db
            .selectFrom('activities')
            .select(sql<number>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ) > 0,
    60_000,
    'the first course synchronised',
  );
  client = originalClient(world.ctx);
  await signIn(client, admin.email, world.password);
}, 120_000);
afterAll(() => world?.close());

describe('§1.1 transport and §1.9 sign-in, as the original client does them', () => {
  it('§5.12 signs in with `Authorization: null` and the whole user form, reads the session user, signs out', async () => {
    const c = originalClient(world.ctx);
    // Before any sign-in axios sends the literal header `Authorization: null`.
    await signIn(c, ' operador1@sigaf.cl ', ` ${world.password} `);
    const me = expectShape(authUser, await c.call('GET', 'api/auth/user'), 'GET /api/auth/user');
    expect(me.user.properties).toMatchObject({
      name: 'Paula Operadora Reyes',
      role: { description: 'Operador' },
      isFirstLogin: 1,
    });
    // The drawer's avatar reads the first letters of the first two words of the name.
    expect(me.user.properties.name.split(' ')[1]).toBeTruthy();
    const out = await c.call('GET', '/api/auth/logout');
    expect(out.status).toBe(200);
    expectShape(authLogout, out, 'GET /api/auth/logout');
    // After sign-out the header is `Authorization: null` again, and the next sign-in works.
    c.token = null;
    expect((await c.call('GET', '/api/auth/user')).status).toBe(401);
    await signIn(c, 'operador1@sigaf.cl', world.password);
    // A still-valid Bearer on the login route is ignored too.
    await signIn(c, 'operador1@sigaf.cl', world.password, { isFirstLogin: 1 });
  });

  it('§5.12 role descriptions are the four the client compares with (§4)', async () => {
    const roles = expectShape(
      plainCatalogueList,
      await client.call('GET', '/api/v2/roles'),
      'GET /api/v2/roles',
    );
    expect(roles._data.collections.map((r) => r.properties.description)).toEqual(
      expect.arrayContaining(['Administrador', 'Tutor', 'Operador', 'Developer']),
    );
  });

  it('§5.12 GETs arrive with the JSON content type and no body; DELETEs with the body `true`', async () => {
    // Every GET of this file goes through the same client; one DELETE of an unknown value shows
    // that the body `true` reaches the route (a 404 in the envelope, not a 400 for the body).
    const res = await client.call('DELETE', '/api/v2/type-tickets/999999');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, statusCode: 404 });
  });
});

describe('§2.2 staff users and the first sign-in', () => {
  it('§5.1 lists users with their role description on every row', async () => {
    const list = expectShape(
      usersList,
      await client.call('GET', '/api/v2/users'),
      'GET /api/v2/users',
    );
    expect(list._data.collections.length).toBeGreaterThanOrEqual(6);
    expect(
      list._data.collections.every((u) => typeof u.properties.role.description === 'string'),
    ).toBe(true);
  });

  it('§5.11 creates a user (statusCode 201), refuses a taken e-mail (statusCode 406 in a 2xx), edits and deletes it (HTTP 200); the new user changes the password at first sign-in', async () => {
    const roles = expectShape(
      plainCatalogueList,
      await client.call('GET', '/api/v2/roles'),
      'GET /api/v2/roles',
    )._data.collections;
    const operator = roles.find((r) => r.properties.description === 'Operador')!.properties;
    // views/maintenance/User.vue:342-344: the form plus the fixed password `sigaf` and isFirstLogin 0.
    const form = {
      id: '',
      rut: '11.111.111-1',
      name: 'Ramón Operador Soto',
      phone: '',
      mobile: '+56912345678',
      email: 'ramon.soto@sigaf.cl',
      role: operator,
      password: 'sigaf',
      isFirstLogin: 0,
      role_id: operator.id,
    };
    const signup = await client.call('POST', '/api/v2/users/signup', form);
    const created = expectShape(usersSignupCreated, signup, 'POST /api/v2/users/signup');
    expect(created._data.properties).toMatchObject({
      email: 'ramon.soto@sigaf.cl',
      role: { description: 'Operador' },
      isFirstLogin: 0,
    });
    const id = created._data.properties.id;

    const dup = await client.call('POST', '/api/v2/users/signup', {
      ...form,
      email: 'RAMON.SOTO@sigaf.cl',
    });
    expect(dup.status).toBeGreaterThanOrEqual(200);
    expect(dup.status).toBeLessThan(300);
    expectShape(usersSignupRefused, dup, 'POST /api/v2/users/signup (e-mail taken)');

    // The fixed `sigaf` is not the new user's password: the generated temporary one is (the
    // original screen does not show it; our client does).
    const temporary: string = signup.body._data.temporaryPassword;
    expect(temporary).not.toBe('sigaf');
    const wrong = await originalClient(world.ctx).call(
      'POST',
      '/api/auth/login',
      loginForm('ramon.soto@sigaf.cl', 'sigaf'),
    );
    expect(wrong.status).toBe(401);

    // First sign-in (§1.9): login, session user with isFirstLogin 0, the PUT the password
    // dialog sends with the token, then the login again with the new password.
    const ramon = originalClient(world.ctx);
    await signIn(ramon, 'ramon.soto@sigaf.cl', temporary);
    const me = expectShape(
      authUser,
      await ramon.call('GET', '/api/auth/user'),
      'GET /api/auth/user',
    ).user.properties;
    expect(me.isFirstLogin).toBe(0);
    const firstToken = ramon.token;
    const change = await ramon.call('PUT', `/api/v2/users/${me.id}`, {
      id: me.id,
      rut: me.rut,
      name: me.name,
      phone: me.phone,
      mobile: me.mobile,
      email: me.email,
      role: null,
      password: 'Grua-Horquilla-77',
      isFirstLogin: 1,
      role_id: me.role.id,
    });
    expect(change.status).toBe(200);
    expectShape(usersUpdate, change, 'PUT /api/v2/users/{id} (first-login password)');
    ramon.token = firstToken;
    await signIn(ramon, 'ramon.soto@sigaf.cl', 'Grua-Horquilla-77', {
      isFirstLogin: 1,
      id: me.id,
      role_id: me.role.id,
    });
    const after = expectShape(
      authUser,
      await ramon.call('GET', '/api/auth/user'),
      'GET /api/auth/user',
    ).user.properties;
    expect(after.isFirstLogin).toBe(1);

    // Maintenance edit: the getter row plus `password: 'sigaf'` and isFirstLogin 0; the
    // password the user chose stays.
    const row = expectShape(
      usersList,
      await client.call('GET', '/api/v2/users'),
      'GET /api/v2/users',
    )._data.collections.find((u) => u.properties.id === id)!.properties;
    const edit = await client.call('PUT', `/api/v2/users/${id}`, {
      ...row,
      name: 'Ramón Operador Soto Díaz',
      password: 'sigaf',
      isFirstLogin: 0,
      role_id: row.role.id,
    });
    expect(edit.status).toBe(200);
    expect(expectShape(usersUpdate, edit, 'PUT /api/v2/users/{id}')._data.properties).toMatchObject(
      { id, name: 'Ramón Operador Soto Díaz', isFirstLogin: 1 },
    );
    await signIn(originalClient(world.ctx), 'ramon.soto@sigaf.cl', 'Grua-Horquilla-77');

    const del = await client.call('DELETE', `/api/v2/users/${id}`);
    expect(del.status).toBe(200);
    expectShape(usersDelete, del, 'DELETE /api/v2/users/{id}');
    const gone = expectShape(
      usersList,
      await client.call('GET', '/api/v2/users'),
      'GET /api/v2/users',
    );
    expect(gone._data.collections.some((u) => u.properties.id === id)).toBe(false);
  });
});

describe('§2.2 one person, two accounts', () => {
  it('§5.11 a staff RUT another account has is accepted, as the original did: statusCode 201 ("Operación realizada con éxito."), on create and on edit', async () => {
    const roles = expectShape(
      plainCatalogueList,
      await client.call('GET', '/api/v2/roles'),
      'GET /api/v2/roles',
    )._data.collections.map((r) => r.properties);
    const role = (description: string) => roles.find((r) => r.description === description)!;
    // Roles are one per account: an operator who also tutors has two accounts, two e-mails, one RUT.
    const form = (email: string, r: { id: number; description: string }) => ({
      id: '',
      rut: '12.345.678-5',
      name: 'Inés Doble Rol',
      phone: '',
      mobile: '+56912345679',
      email,
      role: r,
      password: 'sigaf',
      isFirstLogin: 0,
      role_id: r.id,
    });
    const ids: number[] = [];
    for (const [email, r] of [
      ['ines.operadora@sigaf.cl', role('Operador')],
      ['ines.tutora@sigaf.cl', role('Tutor')],
    ] as const) {
      const res = await client.call('POST', '/api/v2/users/signup', form(email, r));
      // user.js postUser: statusCode 201 pushes the row and the screen says "Operación realizada con éxito.".
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
      ids.push(
        expectShape(usersSignupCreated, res, `POST /api/v2/users/signup (${email})`)._data
          .properties.id,
      );
    }
    const listed = expectShape(
      usersList,
      await client.call('GET', '/api/v2/users'),
      'GET /api/v2/users',
    )._data.collections.filter((u) => ids.includes(u.properties.id));
    expect(listed.map((u) => [u.properties.email, u.properties.rut])).toEqual([
      ['ines.operadora@sigaf.cl', '12.345.678-5'],
      ['ines.tutora@sigaf.cl', '12.345.678-5'],
    ]);
    // A third account edited to the same RUT (the maintenance edit sends the whole row).
    const other = expectShape(
      usersSignupCreated,
      await client.call('POST', '/api/v2/users/signup', {
        ...form('ines.admin@sigaf.cl', role('Administrador')),
        rut: '11.111.111-1',
      }),
      'POST /api/v2/users/signup',
    )._data.properties;
    ids.push(other.id);
    const edit = await client.call('PUT', `/api/v2/users/${other.id}`, {
      ...other,
      rut: '12.345.678-5',
      password: 'sigaf',
      isFirstLogin: 0,
      role_id: other.role.id,
    });
    expect(edit.status).toBe(200);
    expect(expectShape(usersUpdate, edit, 'PUT /api/v2/users/{id}')._data.properties.rut).toBe(
      '12.345.678-5',
    );
    for (const id of ids)
      expect((await client.call('DELETE', `/api/v2/users/${id}`)).status).toBe(200);
  });
});

const TICKET_CATALOGUES = [
  'status-tickets',
  'type-tickets',
  'motive-tickets',
  'priority-tickets',
  'source-tickets',
] as const;
const PLAIN_CATALOGUES = [
  'classrooms',
  'final-statuses',
  'roles',
  'profiles',
  'status-detail-tickets',
] as const;

describe('§2.3 catalogues with a ticket count, §2.4 plain catalogues, §2.5 sections', () => {
  it('§5.1 flat relationships on every catalogue with tickets; status-tickets carry the operators by `name`', async () => {
    for (const path of TICKET_CATALOGUES) {
      const schema = path === 'status-tickets' ? statusTicketsList : ticketCatalogueList;
      const list: z.infer<typeof ticketCatalogueList> = expectShape(
        schema,
        await client.call('GET', `/api/v2/${path}`),
        `GET /api/v2/${path}`,
      );
      expect(list._data.collections.length, path).toBeGreaterThan(0);
      expect(
        list._data.collections.some((c) => c.relationships.numberOfElements > 0),
        path,
      ).toBe(true);
      // Each count is the tickets' own (read from the counts kept by triggers).
      const column = RESOURCES.find((d) => d.path === path)!.ticketColumn!;
      const { rows } = await sql<{
        id: number;
        n: number;
      }>`select ${sql.ref(column)} as id, count(*)::int as n from tickets group by 1`.execute(
        world.ctx.db,
      );
      const want = new Map(rows.map((r) => [r.id, r.n]));
      for (const c of list._data.collections)
        expect(c.relationships.numberOfElements, `${path} ${c.properties.id}`).toBe(
          want.get(c.properties.id) ?? 0,
        );
    }
    const statuses = expectShape(
      statusTicketsList,
      await client.call('GET', '/api/v2/status-tickets'),
      'GET /api/v2/status-tickets',
    )._data.collections;
    const open = statuses.find((s) => s.properties.description === 'Abierto')!;
    const operators = open.relationships.data.map((d) => d.name);
    expect(operators.length).toBeGreaterThan(0);
    const { rows: byOperator } = await sql<{ name: string }>`
      select coalesce(u.name, 'Sin asignar') as name from tickets t join status_tickets st on st.id = t.status_ticket_id and st.description = 'Abierto'
      left join users u on u.id = t.user_assigned_id group by 1 order by 1`.execute(world.ctx.db);
    expect([...operators].sort()).toEqual(byOperator.map((r) => r.name).sort());
    expect(operators).toEqual(expect.arrayContaining([expect.stringMatching(/Operador/)]));
    // The hard-coded descriptions the client compares with (§4).
    const descriptions = async (path: string) =>
      (await client.call('GET', `/api/v2/${path}`)).body._data.collections.map(
        (c: { properties: { description: string } }) => c.properties.description,
      );
    expect(await descriptions('status-tickets')).toEqual(
      expect.arrayContaining(['Abierto', 'Cerrado']),
    );
    expect(await descriptions('type-tickets')).toEqual(
      expect.arrayContaining(['Correo electrónico', 'Contacto telefónico']),
    );
    expect(await descriptions('source-tickets')).toEqual(
      expect.arrayContaining(['Entrante', 'Saliente']),
    );
    expect(await descriptions('priority-tickets')).toEqual(
      expect.arrayContaining(['Alta', 'Media', 'Baja']),
    );
  });

  it('§5.11 creates, edits (HTTP 200) and deletes (body `true`, HTTP 200) a value in every catalogue', async () => {
    for (const path of TICKET_CATALOGUES) {
      const save = path === 'status-tickets' ? statusTicketSave : ticketCatalogueSave;
      const post = await client.call('POST', `/api/v2/${path}`, {
        id: '',
        description: 'Valor de prueba',
      });
      const item: z.infer<typeof ticketCatalogueSave>['_data'] = expectShape(
        save,
        post,
        `POST /api/v2/${path}`,
      )._data;
      expect(item.relationships.numberOfElements).toBe(0);
      // The PUT body is the getter row, its `tickets` object included.
      const put = await client.call('PUT', `/api/v2/${path}/${item.properties.id}`, {
        id: item.properties.id,
        description: 'Valor editado',
        tickets: {
          numberOfElements: item.relationships.numberOfElements,
          href: item.relationships.links.href,
        },
      });
      expect(put.status, path).toBe(200);
      expect(expectShape(save, put, `PUT /api/v2/${path}/{id}`)._data.properties.description).toBe(
        'Valor editado',
      );
      const del = await client.call('DELETE', `/api/v2/${path}/${item.properties.id}`);
      expect(del.status, path).toBe(200);
      expectShape(catalogueDelete, del, `DELETE /api/v2/${path}/{id}`);
    }
    for (const path of PLAIN_CATALOGUES) {
      const list = expectShape(
        plainCatalogueList,
        await client.call('GET', `/api/v2/${path}`),
        `GET /api/v2/${path}`,
      );
      expect(list._data.collections.length, path).toBeGreaterThan(0);
      const post = await client.call('POST', `/api/v2/${path}`, {
        id: '',
        description: 'Valor de prueba',
      });
      const item = expectShape(plainCatalogueSave, post, `POST /api/v2/${path}`)._data;
      const put = await client.call('PUT', `/api/v2/${path}/${item.properties.id}`, {
        id: item.properties.id,
        description: 'Valor editado',
      });
      expect(put.status, path).toBe(200);
      expect(
        expectShape(plainCatalogueSave, put, `PUT /api/v2/${path}/{id}`)._data.properties
          .description,
      ).toBe('Valor editado');
      const del = await client.call('DELETE', `/api/v2/${path}/${item.properties.id}`);
      expect(del.status, path).toBe(200);
      expectShape(catalogueDelete, del, `DELETE /api/v2/${path}/{id}`);
      const after = expectShape(
        plainCatalogueList,
        await client.call('GET', `/api/v2/${path}`),
        `GET /api/v2/${path}`,
      );
      expect(
        after._data.collections.some((c) => c.properties.id === item.properties.id),
        path,
      ).toBe(false);
    }
  });

  it('§5.15 sections list their activities as an array; create, edit and delete one', async () => {
    const list = expectShape(
      sectionsList,
      await client.call('GET', '/api/v2/sections'),
      'GET /api/v2/sections',
    )._data.collections;
    expect(list.map((s) => s.properties.description)).toEqual(
      expect.arrayContaining(['Formativa', 'Renuncia']),
    );
    expect(list.some((s) => s.properties.activities.length > 0)).toBe(true);
    const post = await client.call('POST', '/api/v2/sections', { id: '', description: 'Unidad 9' });
    const item = expectShape(sectionSave, post, 'POST /api/v2/sections')._data;
    expect(item.properties.activities).toEqual([]);
    // The PUT body is the getter row: `activities` and `numberActivities` included.
    const put = await client.call('PUT', `/api/v2/sections/${item.properties.id}`, {
      id: item.properties.id,
      description: 'Unidad 10',
      activities: [],
      numberActivities: 0,
    });
    expect(put.status).toBe(200);
    expect(
      expectShape(sectionSave, put, 'PUT /api/v2/sections/{id}')._data.properties.description,
    ).toBe('Unidad 10');
    const del = await client.call('DELETE', `/api/v2/sections/${item.properties.id}`);
    expect(del.status).toBe(200);
    expectShape(catalogueDelete, del, 'DELETE /api/v2/sections/{id}');
  });

  it('§2.5 a course’s activities, each with its section description, never null (FollowStudentReport)', async () => {
    const courseId = world.summary.queuedCourseId!;
    const first = await world.ctx.db
      .selectFrom('activities')
      .select(['id', 'section_id'])
      .where('course_id', '=', courseId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const unit = await world.ctx.db
      .selectFrom('sections')
      .select(['id', 'description'])
      .where('key', '=', 'pre_test_a')
      .executeTakeFirstOrThrow();
    await world.ctx.db
      .updateTable('activities')
      .set({ section_id: unit.id })
      .where('id', '=', first.id)
      .execute();
    try {
      const res = await client.call('GET', `/api/v2/courses/${courseId}/activities`);
      const data = expectShape(
        courseActivitiesBySection,
        res,
        'GET /api/v2/courses/{id}/activities',
      )._data.relationships.collection.data;
      const count = await world.ctx.db
        .selectFrom('activities')
        .select(sql<number>`count(*)`.as('n'))
        .where('course_id', '=', courseId)
        .executeTakeFirstOrThrow();
      expect(data).toHaveLength(Number(count.n));
      expect(
        data.find((a) => (a.properties as unknown as { id: number }).id === first.id)!.properties
          .section.description,
      ).toBe(unit.description);
    } finally {
      await world.ctx.db
        .updateTable('activities')
        .set({ section_id: first.section_id })
        .where('id', '=', first.id)
        .execute();
    }
  });
});

describe('§4 values the client hard-codes', () => {
  it('the catalogue ids it compares with: status 1 Abierto and 2 Cerrado, contact attempt 1 Exitoso, profile 1 Estudiante, classroom 1', async () => {
    const byId = async (path: string) =>
      new Map(
        expectShape(
          plainCatalogueList,
          await client.call('GET', `/api/v2/${path}`),
          `GET /api/v2/${path}`,
        )._data.collections.map((c) => [c.properties.id, c.properties.description]),
      );
    const statuses = await byId('status-tickets');
    expect([statuses.get(1), statuses.get(2)]).toEqual(['Abierto', 'Cerrado']);
    expect((await byId('status-detail-tickets')).get(1)).toBe('Exitoso');
    expect((await byId('profiles')).get(1)).toBe('Estudiante');
    expect((await byId('classrooms')).has(1)).toBe(true);
    // System values cannot be deleted (the client relies on them).
    const del = await client.call('DELETE', '/api/v2/status-tickets/1');
    expect([del.status, del.body.success]).toEqual([409, false]);
  });
});

describe('§2.6 platforms, §2.7 categories and the followed category→courses link, §2.8 courses', () => {
  it('§5.1 platforms and categories have flat relationships; §5.2 every category’s link answers its courses in `relationships.collections.data`', async () => {
    const platforms = expectShape(
      platformsList,
      await client.call('GET', '/api/v2/platforms'),
      'GET /api/v2/platforms',
    )._data.collections;
    expect(
      platforms.find((p) => p.properties.id === world.summary.platformId)!.relationships
        .numberOfElements,
    ).toBe(world.summary.categories);
    const categories = expectShape(
      categoriesList,
      await client.call('GET', '/api/v2/categories'),
      'GET /api/v2/categories',
    )._data.collections;
    expect(categories.length).toBe(world.summary.categories);
    let courses = 0;
    for (const category of categories) {
      expect(
        category.relationships.links.href.startsWith(`${BACKEND}/`) ||
          category.relationships.links.href.startsWith('/'),
      ).toBe(true);
      const followed = await client.follow(category.relationships.links.href);
      expect(followed.status).toBe(200);
      const items = expectShape(
        categoryCourses,
        followed,
        'GET {category.relationships.links.href}',
      )._data.relationships.collections.data;
      expect(items.length).toBe(category.relationships.numberOfElements);
      courses += items.length;
      for (const course of items)
        expect(course.properties.idCourseMoodle).toEqual(expect.any(Number));
    }
    expect(courses).toBe(world.summary.courses);
  });

  it('§5.15 courses have status 1 and `category.properties`; ids match across endpoints (§1.8)', async () => {
    const list = expectShape(
      coursesList,
      await client.call('GET', '/api/v2/courses'),
      'GET /api/v2/courses',
    )._data.collections;
    expect(list.filter((c) => c.properties.status === 1)).toHaveLength(world.summary.courses);
    const categories = expectShape(
      categoriesList,
      await client.call('GET', '/api/v2/categories'),
      'GET /api/v2/categories',
    )._data.collections;
    for (const c of list)
      expect(
        categories.some((cat) => cat.properties.id === c.properties.category.properties.id),
      ).toBe(true);
  });

  it('§5.11 creates a category and a course, edits both (HTTP 200) and deletes both (HTTP 200)', async () => {
    const platform = expectShape(
      platformsList,
      await client.call('GET', '/api/v2/platforms'),
      'GET /api/v2/platforms',
    )._data.collections[0]!;
    // models/Category.js + Category.vue:315-320.
    const categoryForm = {
      id: '',
      description: 'Soldadura al arco',
      categoryCode: 'SOLD',
      idCategoryMoodle: '',
      status: 1,
      platform: {
        id: platform.properties.id,
        description: platform.properties.description,
        categories: { numberOfElements: 0, href: '' },
      },
      category_code: 'SOLD',
      platform_id: platform.properties.id,
      id_category_moodle: '',
    };
    const category = expectShape(
      categorySave,
      await client.call('POST', '/api/v2/categories/post', categoryForm),
      'POST /api/v2/categories/post',
    )._data;
    expect(category.properties.platform.properties.description).toBe(
      platform.properties.description,
    );
    const row = category.properties;
    const putCategory = await client.call('PUT', `/api/v2/categories/put/${row.id}`, {
      id: row.id,
      description: 'Soldadura al arco eléctrico',
      categoryCode: row.categoryCode,
      courses: { numberOfElements: 0, href: category.relationships.links.href },
      idCategoryMoodle: 90,
      platform: row.platform.properties,
      status: 1,
      category_code: row.categoryCode,
      platform_id: row.platform.properties.id,
      id_category_moodle: 90,
    });
    expect(putCategory.status).toBe(200);
    expect(
      expectShape(categorySave, putCategory, 'PUT /api/v2/categories/put/{id}')._data.properties,
    ).toMatchObject({ description: 'Soldadura al arco eléctrico', idCategoryMoodle: 90 });

    const categoryRow = {
      id: row.id,
      description: 'Soldadura al arco eléctrico',
      categoryCode: row.categoryCode,
      courses: {},
      idCategoryMoodle: 90,
      platform: row.platform.properties,
      status: 1,
    };
    const courseForm = {
      id: '',
      description: 'Soldadura básica',
      email: 'soldadura@sigaf.cl',
      password: 'Correo-Curso-1',
      idCourseMoodle: '',
      category: categoryRow,
      status: 1,
      category_id: row.id,
      id_course_moodle: '',
    };
    const course = expectShape(
      courseSave,
      await client.call('POST', '/api/v2/courses/post', courseForm),
      'POST /api/v2/courses/post',
    )._data;
    expect(course.properties).toMatchObject({
      status: 1,
      category: { properties: { id: row.id } },
    });
    const stored = await world.ctx.db
      .selectFrom('courses')
      .select('password_encrypted')
      .where('id', '=', course.properties.id)
      .executeTakeFirstOrThrow();
    // The edit sends the getter row back, its (masked) password included: the stored one stays.
    const c = course.properties;
    const putCourse = await client.call('PUT', `/api/v2/courses/${c.id}`, {
      id: c.id,
      description: 'Soldadura básica MIG',
      email: c.email,
      password: c.password,
      idCourseMoodle: 321,
      category: c.category.properties,
      status: 1,
      category_id: row.id,
      id_course_moodle: 321,
    });
    expect(putCourse.status).toBe(200);
    expect(
      expectShape(courseSave, putCourse, 'PUT /api/v2/courses/{id}')._data.properties,
    ).toMatchObject({ description: 'Soldadura básica MIG', idCourseMoodle: 321 });
    const kept = await world.ctx.db
      .selectFrom('courses')
      .select('password_encrypted')
      .where('id', '=', c.id)
      .executeTakeFirstOrThrow();
    expect(kept.password_encrypted).toBe(stored.password_encrypted);

    const followed = await client.follow(category.relationships.links.href);
    expect(
      expectShape(
        categoryCourses,
        followed,
        'GET {category.relationships.links.href}',
      )._data.relationships.collections.data.map((x) => x.properties.id),
    ).toEqual([c.id]);

    const delCourse = await client.call('DELETE', `/api/v2/courses/${c.id}`);
    expect(delCourse.status).toBe(200);
    expectShape(courseDelete, delCourse, 'DELETE /api/v2/courses/{id}');
    const delCategory = await client.call('DELETE', `/api/v2/categories/${row.id}`);
    expect(delCategory.status).toBe(200);
    expectShape(categoryDelete, delCategory, 'DELETE /api/v2/categories/{id}');
  });
});

describe('§2.9 activities', () => {
  it('§5.15 every activity has `section.properties` and `course.properties` (never null); the edit answers the list shape', async () => {
    const list = expectShape(
      activitiesList,
      await client.call('GET', '/api/v2/activities'),
      'GET /api/v2/activities',
    )._data.collections;
    expect(list.length).toBeGreaterThan(0);
    const courses = expectShape(
      coursesList,
      await client.call('GET', '/api/v2/courses'),
      'GET /api/v2/courses',
    )._data.collections;
    for (const a of list)
      expect(courses.some((c) => c.properties.id === a.properties.course.properties.id)).toBe(true);

    const sections = expectShape(
      sectionsList,
      await client.call('GET', '/api/v2/sections'),
      'GET /api/v2/sections',
    )._data.collections;
    const unit = sections.find((s) => /^Unidad \d/.test(s.properties.description)) ?? sections[0]!;
    const a = list[0]!.properties;
    // activity.js:98-132: the getter row with the chosen section object, `section_id`, and the weighing as typed (a string).
    const chosen = {
      id: unit.properties.id,
      description: unit.properties.description,
      activities: unit.properties.activities,
      numberActivities: unit.properties.activities.length,
    };
    const put = await client.call('PUT', `/api/v2/activities/${a.id}`, {
      id: a.id,
      description: a.description,
      weighing: '15',
      section: chosen,
      course: a.course.properties,
      idActivityMoodle: a.idActivityMoodle,
      type: a.type,
      section_id: chosen.id,
    });
    expect(put.status).toBe(200);
    const updated = expectShape(activityUpdate, put, 'PUT /api/v2/activities/{id}')._data;
    expect(updated.properties).toMatchObject({
      weighing: 15,
      section: { properties: { id: unit.properties.id } },
    });
  });

  it('§5.15 an activity without a section has the placeholder section', async () => {
    const a = await world.ctx.db
      .selectFrom('activities')
      .select(['id', 'section_id'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await world.ctx.db
      .updateTable('activities')
      .set({ section_id: null })
      .where('id', '=', a.id)
      .execute();
    try {
      const list = expectShape(
        activitiesList,
        await client.call('GET', '/api/v2/activities'),
        'GET /api/v2/activities',
      )._data.collections;
      const item = list.find((x) => x.properties.id === a.id)!;
      expect(legacyActivity.parse(item).properties.section.properties).toEqual({
        id: '',
        description: '',
      });
    } finally {
      await world.ctx.db
        .updateTable('activities')
        .set({ section_id: a.section_id })
        .where('id', '=', a.id)
        .execute();
    }
  });
});

describe('§2.17 files', () => {
  it('uploads a student list for a course (multipart, `success`) and downloads the course’s workbook', async () => {
    const courseId = world.summary.queuedCourseId!;
    const boundary = '----WebKitFormBoundarySigaf';
    const csv = `rut;dv;nombre;paterno;materno;email\r\n16.000.000;${computeDv(16_000_000)};Elena;Mora;Paz;elena.mora@correo.cl\r\n`;
    const payload = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="alumnos.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="courseId"\r\n\r\n${courseId}\r\n--${boundary}--\r\n`,
    );
    // axios drops the JSON content type for a FormData body; the browser sets the boundary.
    const headers = {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      accept: 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      authorization: `Bearer ${client.token}`,
    };
    const res = await world.ctx.app.inject({
      method: 'POST',
      url: '/api/v2/upload-file',
      headers,
      payload,
    });
    expect([res.statusCode, res.json().success], res.body).toEqual([200, true]);
    expectShape(
      uploadFile,
      { status: res.statusCode, headers: res.headers, body: res.json(), raw: res.rawPayload },
      'POST /api/v2/upload-file',
    );

    const course = expectShape(
      coursesList,
      await client.call('GET', '/api/v2/courses'),
      'GET /api/v2/courses',
    )._data.collections.find((c) => c.properties.id === courseId)!;
    const file = await client.call(
      'GET',
      `/api/v2/download-file/excel/${courseId}/${encodeURIComponent(course.properties.description)}`,
    );
    expect(file.status).toBe(200);
    expect(file.raw.subarray(0, 2).toString()).toBe('PK');
  });
});
