import ExcelJS from 'exceljs';
import { chileParts, FORM_MSG, MSG, TICKET_MSG } from '@sigaf/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';
import { seedCourse, ticketKeys } from './data.js';

let ctx: TestContext;
let admin: { id: number; token: string };
let opA: { id: number; token: string; name: string };
let opB: { id: number; token: string; name: string };
let tutor: { id: number; token: string };
let keys: Awaited<ReturnType<typeof ticketKeys>>;
let algebra: Awaited<ReturnType<typeof seedCourse>>;
let nandu: Awaited<ReturnType<typeof seedCourse>>;

type Json = Record<string, any>;

async function person(role: 'operator' | 'tutor') {
  const u = await ctx.userWithRole(role);
  const row = await ctx.db
    .selectFrom('users')
    .select('name')
    .where('id', '=', u.id)
    .executeTakeFirstOrThrow();
  return { id: u.id, token: u.token, name: row.name };
}

beforeAll(async () => {
  ctx = await createTestContext();
  const token = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const adminRow = await ctx.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', TEST_ADMIN.email)
    .executeTakeFirstOrThrow();
  admin = { id: adminRow.id, token };
  opA = await person('operator');
  opB = await person('operator');
  tutor = await person('tutor');
  keys = await ticketKeys(ctx.db);
  algebra = await seedCourse(ctx.db, {
    categoryCode: 'mate',
    course: 'Álgebra Básica',
    students: 40,
    firstRut: 10_000_000,
    names: ['Pía', 'Ñuño'],
  });
  nandu = await seedCourse(ctx.db, {
    categoryCode: 'ZOO1',
    course: 'Ñandú y fauna',
    students: 3,
    firstRut: 20_000_000,
  });
});
afterAll(() => ctx.close());

const api = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  token: string,
  payload?: unknown,
) =>
  ctx.request({
    method,
    url: `/api/v2${url}`,
    token,
    ...(payload !== undefined ? { payload: payload as Json } : {}),
  });

function ticketBody(enrolment: number | number[], extra: Json = {}) {
  return {
    course_registered_user_id: enrolment,
    type_ticket_id: keys.phone,
    status_ticket_id: keys.open,
    priority_ticket_id: keys.high,
    source_ticket_id: keys.outgoing,
    motive_ticket_id: keys.welcome,
    user_assigned_id: opA.id,
    ...extra,
  };
}

async function createTicket(token: string, enrolment: number, extra: Json = {}): Promise<Json> {
  const res = await api('POST', '/tickets', token, ticketBody(enrolment, extra));
  expect(res.statusCode, res.body).toBe(201);
  return res.json()._data.properties;
}

async function addAttempt(token: string, ticketId: number, comment = 'No contesta') {
  const res = await api('POST', '/ticket-details', token, {
    ticket_id: ticketId,
    status_detail_ticket_id: keys.failure,
    comment,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json()._data.properties;
}

const getTicket = async (id: number, token = admin.token) =>
  (await api('GET', `/tickets/${id}`, token)).json()._data;

describe('creating tickets', () => {
  it('creates one: code from category and course, creator is the caller, course denormalised, derived fields', async () => {
    const res = await api(
      'POST',
      '/tickets',
      opA.token,
      ticketBody(algebra.enrolments[0]!.id, {
        user_create_id: admin.id,
        closing_date: true,
        course_id: 999,
      }),
    );
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      error: null,
      statusCode: 201,
      message: TICKET_MSG.created,
    });
    const t = body._data.properties;
    expect(t.ticketCode).toBe('MATE-ALG-0001');
    expect(t).toMatchObject({
      version: 1,
      statusTicket: { id: keys.open, description: 'Abierto', key: 'open' },
      typeTicket: { id: keys.phone, key: 'phone' },
      priorityTicket: { description: 'Alta' },
      userCreated: { id: opA.id, name: opA.name },
      userAssigned: { id: opA.id, name: opA.name },
      closingDate: null,
      closingTime: null,
      ageTicket: 0,
      ageText: '< 24h',
      close: false,
      showDeleteButton: true,
      attempts: 0,
      lock: null,
    });
    expect(t.courseRegisteredUser).toMatchObject({
      id: algebra.enrolments[0]!.id,
      classroom: { id: algebra.classroom },
      profile: { key: 'student' },
      course: {
        id: algebra.course,
        description: 'Álgebra Básica',
        category: { categoryCode: 'mate' },
      },
      registeredUser: {
        rut: algebra.enrolments[0]!.rut,
        name: 'Pía',
        lastName: 'Prueba',
        motherLastName: 'Test',
      },
    });
    expect(t.createdAt).toMatch(/^\d{2}-\d{2}-\d{4}$/);
    expect(t.createdTime).toMatch(/^\d{2}:\d{2}$/);
    expect(chileParts(t.createdAtIso)).toMatchObject({ date: t.createdAt, time: t.createdTime });
    expect(body._data.relationships).toMatchObject({
      numberOfElements: 0,
      links: { href: expect.stringMatching(/\/api\/v2\/tickets\/\d+\/ticket-details$/) },
      array: [],
    });
    // The original server's names beside ours, and its raw enrolment (docs/development/original-api.md §1.6, §1.7).
    expect(t).toMatchObject({
      timeCreatedAt: t.createdTime,
      updatedAt: t.createdAt,
      timeClosingDate: null,
    });
    expect(t.courseRegisteredUser).toMatchObject({
      is_sincronized: 0,
      classroom_id: algebra.classroom,
      registered_user: {
        rut: algebra.enrolments[0]!.rut,
        name: 'Pía',
        last_name: 'Prueba',
        mother_last_name: 'Test',
      },
      course: { category_id: expect.any(Number) },
      activity_course_users: [],
    });
    const row = await ctx.db
      .selectFrom('tickets')
      .selectAll()
      .where('id', '=', t.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      course_id: algebra.course,
      user_create_id: opA.id,
      closing_date: null,
    });
  });

  it('validates: 422 per field in Spanish, referenced ids checked, never a 500', async () => {
    let res = await api('POST', '/tickets', opA.token, { course_registered_user_id: '' });
    expect(res.statusCode).toBe(422);
    const errors = res.json()._data.errors;
    for (const f of [
      'course_registered_user_id',
      'type_ticket_id',
      'status_ticket_id',
      'priority_ticket_id',
      'source_ticket_id',
      'motive_ticket_id',
    ]) {
      expect(errors[f], f).toEqual([FORM_MSG.option]);
    }
    res = await api(
      'POST',
      '/tickets',
      opA.token,
      ticketBody(algebra.enrolments[0]!.id, { type_ticket_id: 99999, motive_ticket_id: 'x' }),
    );
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json()._data.errors).sort()).toEqual(['motive_ticket_id']);
    res = await api(
      'POST',
      '/tickets',
      opA.token,
      ticketBody(algebra.enrolments[0]!.id, { type_ticket_id: 99999 }),
    );
    expect(res.json()._data.errors).toEqual({ type_ticket_id: [FORM_MSG.option] });
    res = await api(
      'POST',
      '/tickets',
      opA.token,
      ticketBody(2_000_000_000, { user_assigned_id: tutor.id }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json()._data.errors).toEqual({
      course_registered_user_id: [FORM_MSG.option],
      user_assigned_id: [TICKET_MSG.operatorInvalid],
    });
    res = await api('POST', '/tickets', opA.token, 'no es json' as unknown as Json);
    expect(res.statusCode).toBeLessThan(500);
    expect((await api('GET', '/tickets/2000000000', opA.token)).statusCode).toBe(404);
    expect((await api('GET', '/tickets/abc', opA.token)).statusCode).toBe(422);
    expect(
      (await api('PUT', '/tickets/2000000000', opA.token, { priority_ticket_id: keys.low }))
        .statusCode,
    ).toBe(404);
    expect((await api('DELETE', '/tickets/2000000000', opA.token)).statusCode).toBe(404);
    expect(
      (
        await api('POST', '/ticket-details', opA.token, {
          ticket_id: 2_000_000_000,
          status_detail_ticket_id: keys.failure,
          comment: '',
        })
      ).json()._data.errors,
    ).toEqual({
      comment: [TICKET_MSG.commentRequired],
    });
    const tutorRes = await api('GET', '/tickets', tutor.token);
    expect(tutorRes.statusCode).toBe(403);
  });

  it('creates many with consecutive codes in one call, across prefixes', async () => {
    const ids = [
      algebra.enrolments[1]!.id,
      nandu.enrolments[0]!.id,
      algebra.enrolments[2]!.id,
      nandu.enrolments[1]!.id,
    ];
    const res = await api('POST', '/tickets/multiple', opA.token, ticketBody(ids));
    expect(res.statusCode).toBe(201);
    // An array of ticket resources, as the original client reads it.
    const items = res.json()._data.map((c: Json) => c.properties);
    expect(res.json().message).toBe(TICKET_MSG.createdMany(4));
    const codes = Object.fromEntries(
      items.map((t: Json) => [t.courseRegisteredUser.id, t.ticketCode]),
    );
    expect(codes[algebra.enrolments[1]!.id]).toBe('MATE-ALG-0002');
    expect(codes[algebra.enrolments[2]!.id]).toBe('MATE-ALG-0003');
    expect(codes[nandu.enrolments[0]!.id]).toBe('ZOO1-NAN-0001');
    expect(codes[nandu.enrolments[1]!.id]).toBe('ZOO1-NAN-0002');
    const bad = await api(
      'POST',
      '/tickets/multiple',
      opA.token,
      ticketBody([algebra.enrolments[3]!.id, 2_000_000_000]),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json()._data.errors.course_registered_user_id[0]).toContain('2000000000');
    const empty = await api('POST', '/tickets/multiple', opA.token, ticketBody([]));
    expect(empty.json()._data.errors.course_registered_user_id).toEqual([
      TICKET_MSG.selectStudents,
    ]);
    // Nothing of the refused call was written.
    const count = await ctx.db
      .selectFrom('tickets')
      .select(sql<number>`count(*)`.as('n'))
      .where('course_registered_user_id', '=', algebra.enrolments[3]!.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('hands out unique, gap-free codes under ~30 concurrent creates', async () => {
    const before = await ctx.db
      .selectFrom('ticket_code_sequences')
      .select('last_value')
      .where('prefix', '=', 'MATE-ALG')
      .executeTakeFirstOrThrow();
    const enrolments = algebra.enrolments.slice(5, 35);
    const results = await Promise.all(
      enrolments.map((e, i) =>
        i % 5 === 0
          ? api('POST', '/tickets/multiple', opB.token, ticketBody([e.id]))
          : api('POST', '/tickets', opB.token, ticketBody(e.id)),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(enrolments.map(() => 201));
    const rows = await ctx.db
      .selectFrom('tickets')
      .select('ticket_code')
      .where(
        'course_registered_user_id',
        'in',
        enrolments.map((e) => e.id),
      )
      .execute();
    const numbers = rows.map((r) => Number(r.ticket_code.split('-').at(-1))).sort((a, b) => a - b);
    expect(new Set(rows.map((r) => r.ticket_code)).size).toBe(30);
    expect(numbers).toEqual(Array.from({ length: 30 }, (_, i) => before.last_value + 1 + i));
  });

  it('a prefix used for the first time by concurrent creates starts at 0001 without gaps', async () => {
    const fresh = await seedCourse(ctx.db, {
      categoryCode: 'NEW1',
      course: 'Química',
      students: 12,
      firstRut: 22_000_000,
    });
    const results = await Promise.all(
      fresh.enrolments.map((e) => api('POST', '/tickets', opA.token, ticketBody(e.id))),
    );
    expect(results.map((r) => r.statusCode)).toEqual(fresh.enrolments.map(() => 201));
    const got = results.map((r) => r.json()._data.properties.ticketCode).sort();
    expect(got).toEqual(
      Array.from({ length: 12 }, (_, i) => `NEW1-QUI-${String(i + 1).padStart(4, '0')}`),
    );
  });

  it('starts a new prefix after the highest code that already has it', async () => {
    const p = await seedCourse(ctx.db, {
      categoryCode: 'HIST',
      course: 'Historia',
      students: 1,
      firstRut: 21_000_000,
    });
    await ctx.db
      .insertInto('tickets')
      .values({
        course_registered_user_id: p.enrolments[0]!.id,
        course_id: p.course,
        ticket_code: 'HIST-HIS-0041',
        type_ticket_id: keys.phone,
        status_ticket_id: keys.closed,
        priority_ticket_id: keys.low,
        source_ticket_id: keys.incoming,
        motive_ticket_id: keys.problem,
        user_create_id: admin.id,
      })
      .execute();
    const t = await createTicket(admin.token, p.enrolments[0]!.id);
    expect(t.ticketCode).toBe('HIST-HIS-0042');
  });

  it('codes past 9999 keep every digit, and nothing is written when one enrolment is refused', async () => {
    const p = await seedCourse(ctx.db, {
      categoryCode: 'GEO',
      course: 'Geografía',
      students: 3,
      firstRut: 23_000_000,
    });
    await createTicket(admin.token, p.enrolments[0]!.id);
    await ctx.db
      .updateTable('ticket_code_sequences')
      .set({ last_value: 9998 })
      .where('prefix', '=', 'GEO-GEO')
      .execute();
    const many = await api(
      'POST',
      '/tickets/multiple',
      admin.token,
      ticketBody([p.enrolments[1]!.id, p.enrolments[2]!.id]),
    );
    expect(many.statusCode, many.body).toBe(201);
    const codes = await ctx.db
      .selectFrom('tickets')
      .select('ticket_code')
      .where('course_id', '=', p.course)
      .orderBy('id')
      .execute();
    expect(codes.map((c) => c.ticket_code)).toEqual([
      'GEO-GEO-0001',
      'GEO-GEO-9999',
      'GEO-GEO-10000',
    ]);
    const refused = await api(
      'POST',
      '/tickets/multiple',
      admin.token,
      ticketBody([p.enrolments[0]!.id, 2_147_480_000]),
    );
    expect(refused.statusCode).toBe(422);
    expect(
      await ctx.db.selectFrom('tickets').select('id').where('course_id', '=', p.course).execute(),
    ).toHaveLength(3);
    const seq = await ctx.db
      .selectFrom('ticket_code_sequences')
      .select('last_value')
      .where('prefix', '=', 'GEO-GEO')
      .executeTakeFirstOrThrow();
    expect(seq.last_value).toBe(10000);
    // A search by code finds exactly the codes containing the text, whichever part of it the index is
    // asked for (a number of seven digits or more: the index of such codes, migration 0027).
    await ctx.db
      .updateTable('ticket_code_sequences')
      .set({ last_value: 1_234_566 })
      .where('prefix', '=', 'GEO-GEO')
      .execute();
    const long = await createTicket(admin.token, p.enrolments[1]!.id);
    expect(long.ticketCode).toBe('GEO-GEO-1234567');
    const all = [...codes.map((c) => c.ticket_code), long.ticketCode as string];
    for (const term of [
      'geo-geo-1000',
      '9999',
      'GEO-0001',
      'eo-geo-999',
      'O-GEO-10000',
      'XGEO-GEO-0001',
      'geo-geo-0000',
      'GEO-GEO',
      '-1000',
      'geo-geo-9999 ',
      '1234567',
      '2345678',
      '12345678',
      '234567',
      'geo-1234567',
      '-1234567',
    ]) {
      const want = all.filter((c) => c.toLowerCase().includes(term.trim().toLowerCase())).sort();
      const byRoute = await api(
        'GET',
        `/tickets/code/${encodeURIComponent(term)}?course_id=${p.course}`,
        admin.token,
      );
      expect(
        byRoute
          .json()
          ._data.collections.map((c: Json) => c.properties.ticketCode)
          .sort(),
        term,
      ).toEqual(want);
      const bySearch = await api(
        'GET',
        `/tickets?course_id=${p.course}&status=all&search=${encodeURIComponent(term)}&page=1&perPage=10`,
        admin.token,
      );
      expect(
        bySearch
          .json()
          ._data.collections.map((c: Json) => c.properties.ticketCode)
          .sort(),
        term,
      ).toEqual(want);
    }
  });
});

describe('contact attempts', () => {
  it('adds one and many; the creator is the caller; the ticket shows them with their outcome', async () => {
    // Created by A, assigned to B: both may work it.
    const t = await createTicket(opA.token, algebra.enrolments[36]!.id, {
      user_assigned_id: opB.id,
    });
    const d = await addAttempt(opB.token, t.id, 'Llamada sin respuesta');
    expect(d).toMatchObject({
      ticketId: t.id,
      comment: 'Llamada sin respuesta',
      statusDetailTicket: { id: keys.failure, description: 'Fallido', key: 'failure' },
      userCreated: { id: opB.id, name: opB.name },
    });
    const t2 = await createTicket(opA.token, algebra.enrolments[37]!.id);
    const many = await api('POST', '/ticket-details/multiple', opA.token, {
      ticket_id: [t.id, t2.id],
      status_detail_ticket_id: keys.success,
      comment: 'Correo enviado',
      user_created_id: admin.id,
    });
    expect(many.statusCode).toBe(201);
    expect(
      many
        .json()
        ._data.collections.map((c: Json) => [c.properties.ticketId, c.properties.userCreated.id]),
    ).toEqual([
      [t.id, opA.id],
      [t2.id, opA.id],
    ]);
    const full = await getTicket(t.id, opA.token);
    expect(full.relationships.numberOfElements).toBe(2);
    expect(
      full.relationships.collection.data.map((x: Json) => [
        x.properties.comment,
        x.properties.userCreated.id,
      ]),
    ).toEqual([
      ['Llamada sin respuesta', opB.id],
      ['Correo enviado', opA.id],
    ]);
    // The same attempts raw (snake_case), for the original client's history table.
    expect(
      full.relationships.array.map((x: Json) => [
        x.comment,
        x.user_created.name,
        x.status_detail_ticket.description,
      ]),
    ).toEqual([
      ['Llamada sin respuesta', opB.name, 'Fallido'],
      ['Correo enviado', opA.name, 'Exitoso'],
    ]);
    expect(full.properties).toMatchObject({ attempts: 2, showDeleteButton: false });
    const list = await api('GET', `/tickets/${t.id}/ticket-details`, opA.token);
    expect(list.json()._data.numberOfElements).toBe(2);
    // The same attempts where the original client reads them when it follows the ticket's link.
    const followed = list.json()._data.relationships.collection.data.map((x: Json) => x.properties);
    expect(followed.map((x: Json) => x.comment)).toEqual([
      'Llamada sin respuesta',
      'Correo enviado',
    ]);
    expect(followed[0].createdAt).toBe(`${followed[0].createdDate} ${followed[0].createdTime}`);
    expect(followed[0].createdAt).toMatch(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}$/);
    // Unassigned, the operator is still an object (the original client reads its id and name).
    const unassigned = await api('PUT', `/tickets/${t2.id}`, opA.token, { user_assigned_id: null });
    expect(unassigned.json()._data.properties.userAssigned).toEqual({
      id: 0,
      name: TICKET_MSG.unassigned,
    });
    const missing = await api('POST', '/ticket-details/multiple', opA.token, {
      ticket_id: [t.id, 2_000_000_000],
      status_detail_ticket_id: keys.success,
      comment: 'x',
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()._data.errors.ticket_id[0]).toContain('2000000000');
  });

  it('the medium and direction are recorded when sent, left unsaid when not (the original client), refused when unknown', async () => {
    const t = await createTicket(opA.token, algebra.enrolments[37]!.id);
    const said = await api('POST', '/ticket-details', opA.token, {
      ticket_id: t.id,
      status_detail_ticket_id: keys.success,
      comment: 'Respondió por WhatsApp',
      medium: 'whatsapp',
      direction: 'incoming',
    });
    expect(said.statusCode, said.body).toBe(201);
    const plain = await addAttempt(opA.token, t.id, 'Sin medio');
    const many = await api('POST', '/ticket-details/multiple', opA.token, {
      ticket_id: [t.id],
      status_detail_ticket_id: keys.success,
      comment: 'Presencial',
      medium: 'in_person',
    });
    expect(many.statusCode, many.body).toBe(201);
    const rows = await ctx.db
      .selectFrom('ticket_details')
      .select(['id', 'comment', 'medium', 'direction'])
      .where('ticket_id', '=', t.id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.comment, r.medium, r.direction])).toEqual([
      ['Respondió por WhatsApp', 'whatsapp', 'incoming'],
      ['Sin medio', null, null],
      ['Presencial', 'in_person', null],
    ]);
    expect(rows[1]!.id).toBe(plain.id);
    const bad = await api('POST', '/ticket-details', opA.token, {
      ticket_id: t.id,
      status_detail_ticket_id: keys.success,
      comment: 'x',
      medium: 'paloma',
      direction: 'arriba',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()._data.errors).toMatchObject({
      medium: [TICKET_MSG.attemptMedium],
      direction: [TICKET_MSG.attemptDirection],
    });
  });

  it('deleting an attempt is for administrators and developers only, and stays in the history', async () => {
    const t = await createTicket(opA.token, algebra.enrolments[38]!.id);
    const d = await addAttempt(opA.token, t.id, 'Intento a borrar');
    const denied = await api('DELETE', `/ticket-details/${d.id}`, opA.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(MSG.forbidden);
    const res = await api('DELETE', `/ticket-details/${d.id}`, admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: TICKET_MSG.detailDeleted });
    const history = (await api('GET', `/tickets/${t.id}/history`, opA.token))
      .json()
      ._data.collections.map((c: Json) => c.properties);
    const entry = history.find((h: Json) => h.action === 'delete_attempt');
    expect(entry).toMatchObject({
      actionText: 'Intento de contacto eliminado',
      user: { id: admin.id },
      changes: { comment: ['Intento a borrar', null], statusDetailTicket: ['Fallido', null] },
    });
    expect((await api('DELETE', `/ticket-details/${d.id}`, admin.token)).statusCode).toBe(404);
  });
});

describe('updating, closing and versions', () => {
  it('increments the version, refuses a stale one with 409, and records the history with descriptions', async () => {
    const t = await createTicket(opA.token, algebra.enrolments[39]!.id);
    const res = await api('PUT', `/tickets/${t.id}`, opA.token, {
      ticket_id: t.id,
      version: 1,
      priority_ticket_id: keys.low,
      user_assigned_id: opB.id,
      closing_date: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(TICKET_MSG.updated);
    expect(res.json()._data.properties).toMatchObject({
      version: 2,
      priorityTicket: { description: 'Baja' },
      userAssigned: { id: opB.id },
    });
    const stale = await api('PUT', `/tickets/${t.id}`, opB.token, {
      version: 1,
      priority_ticket_id: keys.medium,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ success: false, message: TICKET_MSG.staleVersion });
    expect((await getTicket(t.id)).properties.priorityTicket.description).toBe('Baja');
    const mismatch = await api('PUT', `/tickets/${t.id}`, opA.token, { ticket_id: t.id + 1 });
    expect(mismatch.json()._data.errors).toEqual({ ticket_id: [TICKET_MSG.ticketMismatch] });
    const history = (await api('GET', `/tickets/${t.id}/history`, opA.token))
      .json()
      ._data.collections.map((c: Json) => c.properties);
    expect(history.map((h: Json) => h.action)).toEqual(['create', 'update']);
    expect(history[0].changes).toMatchObject({
      ticketCode: [null, t.ticketCode],
      statusTicket: [null, 'Abierto'],
    });
    expect(history[1]).toMatchObject({
      user: { id: opA.id, name: opA.name },
      changes: { priorityTicket: ['Alta', 'Baja'], userAssigned: [opA.name, opB.name] },
    });
    expect(history[1].createdAt).toMatch(/^\d{2}-\d{2}-\d{4}$/);
    expect((await api('GET', '/tickets/2000000000/history', opA.token)).statusCode).toBe(404);
  });

  it('closing stamps the closing date once; a re-save keeps it; reopening clears it; age counts to closing', async () => {
    const t = await createTicket(opA.token, nandu.enrolments[2]!.id);
    let res = await api('PUT', `/tickets/${t.id}`, opA.token, { status_ticket_id: keys.closed });
    expect(res.json().message).toBe(TICKET_MSG.closed);
    let p = res.json()._data.properties;
    expect(p).toMatchObject({
      close: true,
      statusTicket: { key: 'closed' },
      closingDate: chileParts(new Date()).date,
    });
    // Move the dates back: created 5 days before the closing date, closed long ago.
    await ctx.db
      .updateTable('tickets')
      .set({
        created_at: new Date('2024-03-01T15:00:00Z'),
        closing_date: new Date('2024-03-04T18:30:00Z'),
      })
      .where('id', '=', t.id)
      .execute();
    res = await api('PUT', `/tickets/${t.id}`, opA.token, {
      priority_ticket_id: keys.low,
      status_ticket_id: keys.closed,
    });
    p = res.json()._data.properties;
    expect(p).toMatchObject({
      closingDate: '04-03-2024',
      closingTime: '15:30',
      createdAt: '01-03-2024',
      ageTicket: 3,
      ageText: '3 días',
    });
    expect(res.json().message).toBe(TICKET_MSG.updated);
    res = await api('PUT', `/tickets/${t.id}`, opA.token, { status_ticket_id: keys.open });
    expect(res.json().message).toBe(TICKET_MSG.reopened);
    p = res.json()._data.properties;
    expect(p).toMatchObject({ close: false, closingDate: null, closingTime: null });
    expect(p.ageTicket).toBeGreaterThan(100);
    const history = (await api('GET', `/tickets/${t.id}/history`, opA.token))
      .json()
      ._data.collections.map((c: Json) => c.properties);
    expect(history.at(-1).changes).toMatchObject({
      statusTicket: ['Cerrado', 'Abierto'],
      closingDate: ['04-03-2024 15:30', null],
    });
    // One day old: "1 día"; a ticket created closed has its closing date at once.
    await ctx.db
      .updateTable('tickets')
      .set({ created_at: sql`now() - interval '26 hours'` })
      .where('id', '=', t.id)
      .execute();
    expect((await getTicket(t.id)).properties).toMatchObject({ ageTicket: 1, ageText: '1 día' });
    const closed = await createTicket(opA.token, nandu.enrolments[2]!.id, {
      status_ticket_id: keys.closed,
    });
    expect(closed).toMatchObject({ close: true, closingDate: closed.createdAt, ageText: '< 24h' });
  });
});

describe('edit locks', () => {
  it('one holder at a time; the holder saves (which releases the lock); the other gets 409 with name and time', async () => {
    const t = await createTicket(opA.token, algebra.enrolments[4]!.id, {
      user_assigned_id: opB.id,
    });
    const taken = await api('POST', '/log-editing-tickets', opA.token, {
      ticket_id: t.id,
      user_id: opB.id,
    });
    expect(taken.statusCode).toBe(201);
    const lock = taken.json()._data.properties;
    expect(lock).toMatchObject({
      ticket: { id: t.id, ticketCode: t.ticketCode },
      user: { id: opA.id, name: opA.name },
      expired: false,
    });
    const since = chileParts(lock.createdAtIso).time;
    const message = TICKET_MSG.locked(opA.name, since);
    expect(message).toMatch(
      /^No se puede editar\. Este ticket está bloqueado por .+ desde las \d{2}:\d{2}\.$/,
    );

    const other = await api('POST', '/log-editing-tickets', opB.token, { ticket_id: t.id });
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toBe(message);
    const otherSave = await api('PUT', `/tickets/${t.id}`, opB.token, {
      priority_ticket_id: keys.low,
    });
    expect(otherSave.statusCode).toBe(409);
    expect(otherSave.json().message).toBe(message);
    const otherDelete = await api('DELETE', `/tickets/${t.id}`, admin.token);
    expect(otherDelete.statusCode).toBe(409);
    expect(
      (
        await api('POST', '/ticket-details', opB.token, {
          ticket_id: t.id,
          status_detail_ticket_id: keys.failure,
          comment: 'x',
        })
      ).statusCode,
    ).toBe(409);

    const found = await api('GET', `/log-editing-tickets/ticket/${t.id}`, opB.token);
    expect(found.json()._data.properties).toMatchObject({
      id: lock.id,
      user: { name: opA.name },
      since,
    });
    // For its holder the ticket is free to edit (taking the lock again renews it).
    expect(
      (await api('GET', `/log-editing-tickets/ticket/${t.id}`, opA.token)).json(),
    ).toMatchObject({ statusCode: 204, _data: null });
    expect((await getTicket(t.id, opB.token)).properties.lock).toMatchObject({
      user: { id: opA.id },
    });

    const save = await api('PUT', `/tickets/${t.id}`, opA.token, {
      version: t.version,
      priority_ticket_id: keys.low,
    });
    expect(save.statusCode).toBe(200);
    expect(save.json()._data.properties.lock).toBeNull();
    // A free ticket: HTTP 200 with statusCode 204 in the body (the original client edits only then).
    const gone = await api('GET', `/log-editing-tickets/ticket/${t.id}`, opB.token);
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toMatchObject({
      success: true,
      statusCode: 204,
      message: TICKET_MSG.notLocked,
      _data: null,
    });
    expect((await api('GET', '/log-editing-tickets/ticket/2000000000', opB.token)).statusCode).toBe(
      404,
    );
    expect(
      (await api('POST', '/log-editing-tickets', opB.token, { ticket_id: 2_000_000_000 }))
        .statusCode,
    ).toBe(404);
  });

  it('taking your own lock again renews it; an expired lock no longer blocks anyone', async () => {
    const t = await createTicket(opA.token, algebra.enrolments[3]!.id, {
      user_assigned_id: opB.id,
    });
    const first = (await api('POST', '/log-editing-tickets', opA.token, { ticket_id: t.id })).json()
      ._data.properties;
    await ctx.db
      .updateTable('log_editing_tickets')
      .set({ expires_at: sql`now() + interval '1 minute'` })
      .where('id', '=', first.id)
      .execute();
    const again = await api('POST', '/log-editing-tickets', opA.token, { ticket_id: t.id });
    expect(again.statusCode).toBe(200);
    expect(again.json().message).toBe(TICKET_MSG.lockRefreshed);
    const renewed = again.json()._data.properties;
    expect(renewed.id).toBe(first.id);
    expect(renewed.createdAtIso).toBe(first.createdAtIso);
    expect(new Date(renewed.expiresAt).getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
    const put = await api('PUT', `/log-editing-tickets/${first.id}`, opA.token);
    expect(put.statusCode).toBe(200);
    expect((await api('PUT', `/log-editing-tickets/${first.id}`, opB.token)).statusCode).toBe(409);

    await ctx.db
      .updateTable('log_editing_tickets')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('id', '=', first.id)
      .execute();
    expect(
      (await api('GET', `/log-editing-tickets/ticket/${t.id}`, opB.token)).json(),
    ).toMatchObject({ statusCode: 204, _data: null });
    expect((await getTicket(t.id)).properties.lock).toBeNull();
    const save = await api('PUT', `/tickets/${t.id}`, opB.token, {
      motive_ticket_id: keys.problem,
    });
    expect(save.statusCode).toBe(200);
    // The save cleared the expired lock; opB now takes a fresh one.
    const taken = await api('POST', '/log-editing-tickets', opB.token, { ticket_id: t.id });
    expect(taken.statusCode).toBe(201);
    expect(taken.json()._data.properties.user.id).toBe(opB.id);
  });

  it('unlock: the holder or an administrator; the admin list shows active locks; unlock many', async () => {
    const t1 = await createTicket(opA.token, algebra.enrolments[35]!.id, {
      user_assigned_id: opB.id,
    });
    const t2 = await createTicket(opA.token, algebra.enrolments[36]!.id, {
      user_assigned_id: opB.id,
    });
    const l1 = (await api('POST', '/log-editing-tickets', opA.token, { ticket_id: t1.id })).json()
      ._data.properties;
    const l2 = (await api('POST', '/log-editing-tickets', opB.token, { ticket_id: t2.id })).json()
      ._data.properties;
    const denied = await api('DELETE', `/log-editing-tickets/${l1.id}`, opB.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(TICKET_MSG.unlockForbidden);
    expect((await api('GET', '/log-editing-tickets', opA.token)).statusCode).toBe(403);
    const list = (await api('GET', '/log-editing-tickets', admin.token)).json()._data;
    const entries = list.collections.map((c: Json) => c.properties);
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: l1.id,
          ticket: { id: t1.id, ticketCode: t1.ticketCode, ticket_code: t1.ticketCode },
          user: { id: opA.id, name: opA.name },
        }),
      ]),
    );
    expect(entries.every((e: Json) => !e.expired)).toBe(true);

    const res = await api('DELETE', `/log-editing-tickets/${l1.id}`, admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, error: null, message: TICKET_MSG.unlocked });
    const history = (await api('GET', `/tickets/${t1.id}/history`, admin.token))
      .json()
      ._data.collections.map((c: Json) => c.properties);
    expect(history.at(-1)).toMatchObject({
      action: 'unlock',
      changes: { lockedBy: [opA.name, null] },
    });
    const own = await api('DELETE', `/log-editing-tickets/${l2.id}`, opB.token);
    expect(own.statusCode).toBe(200);

    const l3 = (await api('POST', '/log-editing-tickets', opA.token, { ticket_id: t1.id })).json()
      ._data.properties;
    const l4 = (await api('POST', '/log-editing-tickets', opB.token, { ticket_id: t2.id })).json()
      ._data.properties;
    const many = await api(
      'DELETE',
      `/log-editing-tickets/multiple/${encodeURIComponent(JSON.stringify([l3.id, l4.id, 2_000_000_000]))}`,
      admin.token,
    );
    expect(many.statusCode).toBe(200);
    expect(many.json()._data.deleted.sort()).toEqual([l3.id, l4.id].sort());
    expect(many.json()._data.notFound).toEqual([2_000_000_000]);
    expect(
      (await api('DELETE', '/log-editing-tickets/multiple/nada', admin.token)).statusCode,
    ).toBe(422);
  });
});

describe('deleting tickets', () => {
  it('only without attempts, and only by its creator or an administrator/developer', async () => {
    // Created by A, assigned to B: B works it but may not delete it.
    const mine = await createTicket(opA.token, nandu.enrolments[0]!.id, {
      user_assigned_id: opB.id,
    });
    expect((await getTicket(mine.id, opA.token)).properties.showDeleteButton).toBe(true);
    expect((await getTicket(mine.id, opB.token)).properties.showDeleteButton).toBe(false);
    expect((await getTicket(mine.id, admin.token)).properties.showDeleteButton).toBe(true);
    const other = await api('DELETE', `/tickets/${mine.id}`, opB.token);
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(TICKET_MSG.deleteForbidden);
    const ok = await api('DELETE', `/tickets/${mine.id}`, opA.token);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(TICKET_MSG.deleted);
    expect((await api('GET', `/tickets/${mine.id}`, opA.token)).statusCode).toBe(404);
    const audit = await ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'tickets')
      .where('entity_id', '=', String(mine.id))
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ action: 'delete', user_id: opA.id });

    const withAttempt = await createTicket(opA.token, nandu.enrolments[0]!.id);
    await addAttempt(opA.token, withAttempt.id);
    for (const token of [opA.token, admin.token]) {
      const res = await api('DELETE', `/tickets/${withAttempt.id}`, token);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(TICKET_MSG.hasDetails);
    }
    const byAdmin = await createTicket(opB.token, nandu.enrolments[0]!.id);
    expect((await api('DELETE', `/tickets/${byAdmin.id}`, admin.token)).statusCode).toBe(200);
  });

  it('bulk delete without `partial` (the original client) deletes all or none: a refusal is a 409 naming each ticket', async () => {
    const a = await createTicket(opA.token, nandu.enrolments[1]!.id);
    const b = await createTicket(opA.token, nandu.enrolments[1]!.id);
    await addAttempt(opA.token, b.id);
    const codes = await ctx.db
      .selectFrom('tickets')
      .select(['id', 'ticket_code'])
      .where('id', 'in', [a.id, b.id])
      .execute();
    const code = (id: number) => codes.find((c) => c.id === id)!.ticket_code;
    const url = `/tickets/multiple/${encodeURIComponent(JSON.stringify([a.id, b.id, 2_000_000_000]))}`;
    expect((await api('DELETE', url, opA.token)).statusCode).toBe(403);
    const refused = await api('DELETE', url, admin.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      success: false,
      statusCode: 409,
      message: TICKET_MSG.deletedNone([
        TICKET_MSG.hasDetailsOf(code(b.id)),
        TICKET_MSG.notFoundOf(2_000_000_000),
      ]),
      _data: {
        deleted: [],
        refused: [
          { id: b.id, reason: TICKET_MSG.hasDetails },
          { id: 2_000_000_000, reason: TICKET_MSG.notFound },
        ],
      },
    });
    // Nothing was deleted, not even the ticket without attempts.
    for (const t of [a, b])
      expect((await api('GET', `/tickets/${t.id}`, admin.token)).statusCode).toBe(200);

    const c = await createTicket(opA.token, nandu.enrolments[1]!.id);
    const all = await api(
      'DELETE',
      `/tickets/multiple/${encodeURIComponent(JSON.stringify([a.id, c.id]))}`,
      admin.token,
    );
    expect([all.statusCode, all.json()._data, all.json().message]).toEqual([
      200,
      { deleted: [a.id, c.id], refused: [] },
      TICKET_MSG.deletedMany(2, 0),
    ]);
    for (const t of [a, c])
      expect((await api('GET', `/tickets/${t.id}`, admin.token)).statusCode).toBe(404);
    const audit = await ctx.db
      .selectFrom('audit_log')
      .select('entity_id')
      .where('entity', '=', 'tickets')
      .where('action', '=', 'delete')
      .where('entity_id', 'in', [String(a.id), String(c.id)])
      .execute();
    expect(audit).toHaveLength(2);
  });

  it("bulk delete with `partial` (this product's screens) deletes what the rules allow and reports the rest", async () => {
    const a = await createTicket(opA.token, nandu.enrolments[1]!.id);
    const b = await createTicket(opA.token, nandu.enrolments[1]!.id);
    await addAttempt(opA.token, b.id);
    const url = `/tickets/multiple/${encodeURIComponent(JSON.stringify([a.id, b.id, 2_000_000_000]))}?partial=1`;
    expect((await api('DELETE', url, opA.token)).statusCode).toBe(403);
    const res = await api('DELETE', url, admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()._data).toEqual({
      deleted: [a.id],
      refused: [
        { id: b.id, reason: TICKET_MSG.hasDetails },
        { id: 2_000_000_000, reason: TICKET_MSG.notFound },
      ],
    });
    expect(res.json().message).toBe(TICKET_MSG.deletedMany(1, 2));
    expect((await api('DELETE', '/tickets/multiple/[1,', admin.token)).statusCode).toBe(422);
  });
});

describe('lists', () => {
  let course: Awaited<ReturnType<typeof seedCourse>>;
  const made: Json[] = [];

  beforeAll(async () => {
    course = await seedCourse(ctx.db, {
      categoryCode: 'LIST',
      course: 'Listas',
      students: 6,
      firstRut: 15_500_000,
      names: ['Valentina', 'Benjamín', 'Catalina', 'Diego', 'Emilia', 'Felipe'],
    });
    const plan = [
      { e: 0, by: opA, assigned: opA.id, priority: keys.high, status: keys.open, daysAgo: 10 },
      { e: 1, by: opA, assigned: opB.id, priority: keys.low, status: keys.open, daysAgo: 8 },
      { e: 2, by: opB, assigned: opA.id, priority: keys.medium, status: keys.closed, daysAgo: 6 },
      { e: 3, by: opB, assigned: opB.id, priority: keys.high, status: keys.open, daysAgo: 4 },
      { e: 4, by: opA, assigned: opA.id, priority: keys.low, status: keys.open, daysAgo: 2 },
      { e: 0, by: opA, assigned: opA.id, priority: keys.low, status: keys.closed, daysAgo: 1 },
    ];
    for (const p of plan) {
      const t = await createTicket(p.by.token, course.enrolments[p.e]!.id, {
        user_assigned_id: p.assigned,
        priority_ticket_id: p.priority,
        status_ticket_id: p.status,
      });
      await ctx.db
        .updateTable('tickets')
        .set({ created_at: sql`now() - make_interval(days => ${p.daysAgo})` })
        .where('id', '=', t.id)
        .execute();
      made.push({ ...t, ...p });
    }
    await addAttempt(opA.token, made[0]!.id);
    await addAttempt(opA.token, made[0]!.id);
  });

  const codes = (res: { json(): Json }) =>
    res.json()._data.collections.map((c: Json) => c.properties.ticketCode);
  const q = (params: Record<string, string | number>) =>
    `?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;

  it('GET /tickets: open ones, oldest first; operators see only their own; attempts counted', async () => {
    const all = await api('GET', `/tickets${q({ course_id: course.course })}`, admin.token);
    expect(codes(all)).toEqual([made[0], made[1], made[3], made[4]].map((t) => t!.ticketCode));
    const first = all.json()._data.collections[0];
    // A list row carries its attempts raw (the original client's history), not presented.
    expect(first.relationships.numberOfElements).toBe(2);
    expect(first.relationships.collection).toBeUndefined();
    expect(first.relationships.array).toHaveLength(2);
    expect(first.properties.attempts).toBe(2);
    const mine = await api('GET', `/tickets${q({ course_id: course.course })}`, opA.token);
    expect(codes(mine)).toEqual([made[0], made[4]].map((t) => t!.ticketCode));
    const dev = (await ctx.userWithRole('developer')).token;
    expect(codes(await api('GET', `/tickets${q({ course_id: course.course })}`, dev))).toHaveLength(
      4,
    );
  });

  it("compact lists (this product's screens) are the same tickets without the raw attempts and Moodle results", async () => {
    const full = (
      await api(
        'GET',
        `/tickets${q({ course_id: course.course, status: 'all', page: 1, perPage: 10 })}`,
        admin.token,
      )
    ).json()._data;
    const compact = (
      await api(
        'GET',
        `/tickets${q({ course_id: course.course, status: 'all', page: 1, perPage: 10, compact: 'true' })}`,
        admin.token,
      )
    ).json()._data;
    expect(compact.meta).toEqual(full.meta);
    expect(compact.collections.map((c: Json) => c.properties.id)).toEqual(
      full.collections.map((c: Json) => c.properties.id),
    );
    expect(full.collections[0].properties.courseRegisteredUser).toHaveProperty(
      'activity_course_users',
    );
    for (const [i, c] of compact.collections.entries()) {
      expect(c.relationships.array).toBeUndefined();
      expect(c.properties.courseRegisteredUser).not.toHaveProperty('activity_course_users');
      expect(c.properties.attempts).toBe(full.collections[i].properties.attempts);
      const { activity_course_users: _, ...rest } =
        full.collections[i].properties.courseRegisteredUser;
      expect(c.properties.courseRegisteredUser).toEqual(rest);
    }
    const bad = await api('GET', `/tickets${q({ compact: 'quizás' })}`, admin.token);
    expect(bad.statusCode).toBe(422);
    expect(bad.json()._data.errors).toHaveProperty('compact');
  });

  it('a whole list (its names joined) shows each ticket as its page does (names looked up per row)', async () => {
    // One ticket under an edit lock (its holder's name), one student without a classroom.
    const lock = await api('POST', '/log-editing-tickets', opB.token, { ticket_id: made[1]!.id });
    expect(lock.statusCode, lock.body).toBe(201);
    await ctx.db
      .updateTable('course_registered_users')
      .set({ classroom_id: null })
      .where('id', '=', course.enrolments[3]!.id)
      .execute();
    try {
      const whole = (
        await api('GET', `/tickets${q({ course_id: course.course, status: 'all' })}`, admin.token)
      ).json()._data.collections;
      const paged = (
        await api(
          'GET',
          `/tickets${q({ course_id: course.course, status: 'all', page: 1, perPage: 50 })}`,
          admin.token,
        )
      ).json()._data.collections;
      expect(whole).toHaveLength(made.length);
      expect(whole).toEqual(paged);
      expect(
        JSON.stringify(whole.find((c: Json) => c.properties.id === made[1]!.id).properties.lock),
      ).toContain(opB.name);
    } finally {
      await api(
        'DELETE',
        `/log-editing-tickets/${lock.json()._data?.properties?.id ?? 0}`,
        opB.token,
      );
      await ctx.db
        .updateTable('course_registered_users')
        .set({ classroom_id: course.classroom })
        .where('id', '=', course.enrolments[3]!.id)
        .execute();
    }
  });

  it('totals across every course (read from the kept counts) equal the tickets themselves', async () => {
    const live = async (where: ReturnType<typeof sql>) =>
      (
        await sql<{ n: number }>`select count(*)::int as n from tickets t where ${where}`.execute(
          ctx.db,
        )
      ).rows[0]!.n;
    const open = sql`t.status_ticket_id = ${keys.open}`;
    const cases: Array<[Json, ReturnType<typeof sql>]> = [
      [{ status: 'all', user_assigned_id: opA.id }, sql`t.user_assigned_id = ${opA.id}`],
      [
        { status: 'open', user_assigned_id: opB.id },
        sql`t.user_assigned_id = ${opB.id} and ${open}`,
      ],
      [
        { status: 'closed', priority_ticket_id: keys.low },
        sql`t.priority_ticket_id = ${keys.low} and t.status_ticket_id <> ${keys.open}`,
      ],
      [{ status: 'all' }, sql`true`],
    ];
    for (const [filters, where] of cases) {
      const page = await api(
        'GET',
        `/tickets${q({ ...filters, page: 1, perPage: 3 })}`,
        admin.token,
      );
      expect(page.json()._data.meta.total, JSON.stringify(filters)).toBe(await live(where));
    }
    const byRoute = await api(
      'GET',
      `/tickets/operator/${opA.id}${q({ page: 1, perPage: 3 })}`,
      admin.token,
    );
    expect(byRoute.json()._data.meta.total).toBe(await live(sql`t.user_assigned_id = ${opA.id}`));
    // An operator's own list: the same counts, as theirs.
    const mine = await api(
      'GET',
      `/tickets${q({ status: 'all', page: 1, perPage: 3 })}`,
      opB.token,
    );
    expect(mine.json()._data.meta.total).toBe(await live(sql`t.user_assigned_id = ${opB.id}`));
  });

  it('paginates and sorts on the server', async () => {
    const page = await api(
      'GET',
      `/tickets${q({ course_id: course.course, status: 'all', page: 2, perPage: 4 })}`,
      admin.token,
    );
    expect(page.json()._data.meta).toEqual({ page: 2, perPage: 4, total: 6, lastPage: 2 });
    expect(codes(page)).toEqual([made[4], made[5]].map((t) => t!.ticketCode));
    const byPriority = await api(
      'GET',
      `/tickets${q({ course_id: course.course, sort: 'priority', order: 'asc' })}`,
      admin.token,
    );
    expect(
      byPriority.json()._data.collections.map((c: Json) => c.properties.priorityTicket.key),
    ).toEqual(['high', 'high', 'low', 'low']);
    const byAttempts = await api(
      'GET',
      `/tickets${q({ course_id: course.course, sort: 'attempts', order: 'desc' })}`,
      admin.token,
    );
    expect(codes(byAttempts)[0]).toBe(made[0]!.ticketCode);
    const bad = await api('GET', `/tickets${q({ page: 0 })}`, admin.token);
    expect(bad.statusCode).toBe(422);
  });

  it('filters: status, catalogue values, operator, classroom, dates in both spellings, search by code, RUT or name', async () => {
    const base = { course_id: course.course };
    expect(
      codes(await api('GET', `/tickets${q({ ...base, status: 'closed' })}`, admin.token)),
    ).toEqual([made[2], made[5]].map((t) => t!.ticketCode));
    expect(
      codes(
        await api('GET', `/tickets${q({ ...base, status_ticket_id: keys.closed })}`, admin.token),
      ),
    ).toHaveLength(2);
    expect(
      codes(
        await api(
          'GET',
          `/tickets${q({ ...base, status: 'all', priority_ticket_id: keys.low })}`,
          admin.token,
        ),
      ),
    ).toHaveLength(3);
    expect(
      codes(
        await api(
          'GET',
          `/tickets${q({ ...base, status: 'all', user_assigned_id: opB.id })}`,
          admin.token,
        ),
      ),
    ).toEqual([made[1], made[3]].map((t) => t!.ticketCode));
    expect(
      codes(
        await api(
          'GET',
          `/tickets${q({ status: 'all', classroom_id: course.classroom })}`,
          admin.token,
        ),
      ),
    ).toHaveLength(6);
    const day = (n: number) => chileParts(new Date(Date.now() - n * 86_400_000));
    const ranged = await api(
      'GET',
      `/tickets${q({ ...base, status: 'all', from: day(7).date, to: day(3).day })}`,
      admin.token,
    );
    expect(codes(ranged)).toEqual([made[2], made[3]].map((t) => t!.ticketCode));
    const bad = await api('GET', `/tickets${q({ from: '31-02-2024' })}`, admin.token);
    expect(bad.statusCode).toBe(422);
    expect(bad.json()._data.errors.from).toEqual([TICKET_MSG.invalidDate]);
    const rut = course.enrolments[1]!.rut;
    for (const search of [rut, rut.replace(/\./g, ''), rut.replace(/[.-]/g, '')]) {
      expect(
        codes(await api('GET', `/tickets${q({ status: 'all', search })}`, admin.token)),
        search,
      ).toEqual([made[1]!.ticketCode]);
    }
    for (const search of ['benjamín', 'BENJAMIN prueba', 'BENJAMÍN']) {
      expect(
        codes(await api('GET', `/tickets${q({ status: 'all', search })}`, admin.token)),
        search,
      ).toEqual([made[1]!.ticketCode]);
    }
    expect(
      codes(
        await api(
          'GET',
          `/tickets${q({ status: 'all', search: made[3]!.ticketCode.toLowerCase() })}`,
          admin.token,
        ),
      ),
    ).toEqual([made[3]!.ticketCode]);
    // Within a course (its students read first, then their tickets): the same matches, and the page's total.
    for (const search of [
      rut.replace(/[.-]/g, ''),
      'benjamín',
      'BENJAMIN prueba',
      made[3]!.ticketCode.toLowerCase(),
    ]) {
      const found = await api(
        'GET',
        `/tickets${q({ ...base, status: 'all', search, page: 1, perPage: 10 })}`,
        admin.token,
      );
      const want = search === made[3]!.ticketCode.toLowerCase() ? made[3]! : made[1]!;
      expect(codes(found), search).toEqual([want.ticketCode]);
      expect(found.json()._data.meta.total, search).toBe(1);
      const after = await api(
        'GET',
        `/tickets${q({ ...base, status: 'all', search, page: 2, perPage: 10 })}`,
        admin.token,
      );
      expect(codes(after), search).toEqual([]);
      expect(after.json()._data.meta.total, search).toBe(1);
    }
    expect(
      codes(
        await api(
          'GET',
          `/tickets${q({ ...base, status: 'all', search: 'nadie-se-llama-asi' })}`,
          admin.token,
        ),
      ),
    ).toEqual([]);
  });

  it("a course's search follows its students' names and RUTs as they change (kept on each enrolment)", async () => {
    const search = async (text: string) =>
      codes(
        await api(
          'GET',
          `/tickets${q({ course_id: course.course, status: 'all', search: text, page: 1, perPage: 10 })}`,
          admin.token,
        ),
      );
    const student = course.enrolments[2]!;
    expect(await search('catalina')).toEqual([made[2]!.ticketCode]);
    await ctx.db
      .updateTable('registered_users')
      .set({ name: 'Josefina', last_name: 'Ñúñez' })
      .where('id', '=', student.studentId)
      .execute();
    expect(await search('catalina')).toEqual([]);
    expect(await search('josefina nunez')).toEqual([made[2]!.ticketCode]);
    await ctx.db
      .updateTable('registered_users')
      .set({ rut: '9.999.999-3' })
      .where('id', '=', student.studentId)
      .execute();
    expect(await search('9999999')).toEqual([made[2]!.ticketCode]);
    expect(await search(student.rut.replace(/[.-]/g, '').slice(0, -1))).toEqual([]);
    // The enrolment moved to another student (as an administrator may correct it): that student's name.
    const other = await ctx.db
      .insertInto('registered_users')
      .values({ rut: '8.888.888-8', name: 'Remigio', last_name: 'Otro' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.db
      .updateTable('course_registered_users')
      .set({ registered_user_id: other.id })
      .where('id', '=', student.id)
      .execute();
    expect(await search('josefina')).toEqual([]);
    expect(await search('remigio')).toEqual([made[2]!.ticketCode]);
    await ctx.db
      .updateTable('course_registered_users')
      .set({ registered_user_id: student.studentId })
      .where('id', '=', student.id)
      .execute();
    await ctx.db
      .updateTable('registered_users')
      .set({ name: student.name, last_name: 'Prueba', rut: student.rut })
      .where('id', '=', student.studentId)
      .execute();
    expect(await search('catalina')).toEqual([made[2]!.ticketCode]);
  });

  it('the route lists: course (open, newest first), code, operator, dates, an enrolment history', async () => {
    const byCourse = await api(
      'GET',
      `/tickets/course-registered-users/course/${course.course}`,
      admin.token,
    );
    expect(codes(byCourse)).toEqual([made[4], made[3], made[1], made[0]].map((t) => t!.ticketCode));
    expect(codes(await api('GET', `/tickets/code/${made[2]!.ticketCode}`, admin.token))).toEqual([
      made[2]!.ticketCode,
    ]);
    expect(codes(await api('GET', `/tickets/code/${made[2]!.ticketCode}`, opB.token))).toEqual([]);
    const byOperator = await api(
      'GET',
      `/tickets/operator/${opA.id}${q({ course_id: course.course })}`,
      admin.token,
    );
    expect(codes(byOperator)).toEqual(
      [made[5], made[4], made[2], made[0]].map((t) => t!.ticketCode),
    );
    const d = (n: number) => chileParts(new Date(Date.now() - n * 86_400_000));
    // Backwards and in two spellings: the same range.
    const byDates = await api(
      'GET',
      `/tickets/dates/${d(3).day}/${d(7).date}${q({ course_id: course.course })}`,
      admin.token,
    );
    expect(codes(byDates)).toEqual([made[3], made[2]].map((t) => t!.ticketCode));
    const badDates = await api('GET', '/tickets/dates/ayer/hoy', admin.token);
    expect(badDates.statusCode).toBe(422);
    expect(Object.keys(badDates.json()._data.errors)).toEqual(['from', 'to']);
    const history = await api(
      'GET',
      `/course-registered-user/${course.enrolments[0]!.id}/tickets`,
      opB.token,
    );
    expect(codes(history)).toEqual([made[5], made[0]].map((t) => t!.ticketCode));
    expect(
      (await api('GET', '/course-registered-user/2000000000/tickets', admin.token)).statusCode,
    ).toBe(404);
  });

  it('bulk actions apply per ticket with the same rules and report what was refused', async () => {
    // B's own (assigned), B's own but locked by an administrator, A's (not B's), a missing one.
    const targets = [made[1]!, made[3]!, made[4]!];
    await api('POST', '/log-editing-tickets', admin.token, { ticket_id: made[3]!.id });
    const res = await api('POST', '/tickets/bulk', opB.token, {
      ids: targets.map((t) => t.id).concat(2_000_000_000),
      action: 'close',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()._data.updated).toEqual([made[1]!.id]);
    expect(res.json()._data.refused).toEqual([
      { id: made[3]!.id, reason: expect.stringContaining('bloqueado por') },
      { id: made[4]!.id, reason: TICKET_MSG.notYours },
      { id: 2_000_000_000, reason: TICKET_MSG.notFound },
    ]);
    expect((await getTicket(made[4]!.id)).properties.close).toBe(false);
    expect((await getTicket(made[1]!.id)).properties).toMatchObject({
      close: true,
      closingDate: chileParts(new Date()).date,
    });
    const assign = await api('POST', '/tickets/bulk', admin.token, {
      ids: [made[1]!.id, made[4]!.id],
      action: 'assign',
      user_assigned_id: opB.id,
    });
    expect(assign.json()._data).toEqual({ updated: [made[1]!.id, made[4]!.id], refused: [] });
    expect((await getTicket(made[4]!.id)).properties.userAssigned.id).toBe(opB.id);
    const status = await api('POST', '/tickets/bulk', admin.token, {
      ids: [made[1]!.id],
      action: 'status',
      status_ticket_id: keys.open,
    });
    expect(status.json()._data.updated).toEqual([made[1]!.id]);
    expect((await getTicket(made[1]!.id)).properties.closingDate).toBeNull();
    const missing = await api('POST', '/tickets/bulk', admin.token, {
      ids: [made[1]!.id],
      action: 'assign',
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()._data.errors).toEqual({ user_assigned_id: [FORM_MSG.required] });
    expect(
      (await api('POST', '/tickets/bulk', admin.token, { ids: [], action: 'close' })).json()._data
        .errors.ids,
    ).toEqual([TICKET_MSG.selectTickets]);
  });

  it('exports the filtered tickets to .xlsx with the report columns and the attempt history', async () => {
    const t = made[0]!;
    await addAttempt(admin.token, t.id, 'Contestó; pide otra llamada');
    const res = await api('GET', `/tickets/export${q({ course_id: course.course })}`, admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain(
      `tickets-${chileParts(new Date()).date}.xlsx`,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(String(ws.getRow(1).getCell(1).value)).toBe('REPORTE HISTÓRICO DE TICKET CURSO LISTAS');
    expect((ws.getRow(2).values as unknown[]).slice(1)).toEqual([
      'N°',
      'CÓDIGO TICKET',
      'RUT',
      'NOMBRE',
      'APELLIDOS',
      'AULA',
      'ÚLTIMO ACCESO',
      'ORIGEN',
      'TIPO',
      'MOTIVO',
      'PRIORIDAD',
      'CREADOR',
      'OPERADOR',
      'ESTADO',
      'FECHA DE CREACIÓN',
      'FECHA DE CIERRE',
      'ANTIGÜEDAD',
      'ESTADO DE ÚLTIMO INTENTO',
      'COMENTARIO',
      'FECHA DE REGISTRO',
      'OPERADOR',
      'HISTÓRICO DE CONTACTOS',
    ]);
    expect(ws.rowCount).toBe(2 + 6);
    const row = (ws.getRow(3).values as unknown[]).slice(1);
    expect(row.slice(0, 4)).toEqual([1, t.ticketCode, course.enrolments[0]!.rut, 'Valentina']);
    expect(row[4]).toBe('Prueba Test');
    expect(row[16]).toBe('10 días');
    // The ticket's dates are date cells.
    expect([
      ws.getRow(3).getCell(15).type,
      ws.getRow(3).getCell(15).numFmt,
      ws.getRow(3).getCell(20).type,
    ]).toEqual([ExcelJS.ValueType.Date, 'dd-mm-yyyy hh:mm', ExcelJS.ValueType.Date]);
    expect(row.slice(17, 19)).toEqual(['Fallido', 'Contestó; pide otra llamada']);
    expect(row[20]).toBe(TEST_ADMIN.name);
    expect(String(row[21])).toMatch(
      /^1\. \d{2}-\d{2}-\d{4} \d{2}:\d{2} - Fallido - .+: No contesta\n2\. .+No contesta$/,
    );
    const scoped = await api('GET', `/tickets/export${q({ course_id: course.course })}`, opB.token);
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(scoped.rawPayload as unknown as ArrayBuffer);
    expect(wb2.worksheets[0]!.rowCount).toBe(2 + 3);
  });
});

describe('saved filters', () => {
  it('each user saves, replaces by name, lists and deletes their own presets', async () => {
    const res = await api('POST', '/ticket-filters', opA.token, {
      name: 'Mis abiertos',
      filters: { status: 'open', priority_ticket_id: keys.high, junk: 1 },
    });
    expect(res.statusCode).toBe(201);
    const preset = res.json()._data.properties;
    expect(preset).toMatchObject({
      name: 'Mis abiertos',
      filters: { status: 'open', priority_ticket_id: keys.high },
    });
    expect(preset.filters.junk).toBeUndefined();
    const again = await api('POST', '/ticket-filters', opA.token, {
      name: 'mis ABIERTOS',
      filters: { status: 'closed' },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()._data.properties).toMatchObject({
      id: preset.id,
      name: 'mis ABIERTOS',
      filters: { status: 'closed' },
    });
    expect((await api('GET', '/ticket-filters', opA.token)).json()._data.numberOfElements).toBe(1);
    expect((await api('GET', '/ticket-filters', opB.token)).json()._data.numberOfElements).toBe(0);
    expect((await api('DELETE', `/ticket-filters/${preset.id}`, opB.token)).statusCode).toBe(404);
    const bad = await api('POST', '/ticket-filters', opA.token, {
      name: '',
      filters: { from: 'mañana' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()._data.errors).toEqual({ name: [TICKET_MSG.presetNameRequired] });
    const badFilter = await api('POST', '/ticket-filters', opA.token, {
      name: 'Fechas',
      filters: { from: 'mañana' },
    });
    expect(badFilter.json()._data.errors).toEqual({ 'filters.from': [TICKET_MSG.invalidDate] });
    expect((await api('DELETE', `/ticket-filters/${preset.id}`, opA.token)).statusCode).toBe(200);
    expect((await api('GET', '/ticket-filters', opA.token)).json()._data.numberOfElements).toBe(0);
  });
});
