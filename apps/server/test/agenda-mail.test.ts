import fs from 'node:fs';
import { computeDv, formatRut } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { AtRiskTally } from '../src/kept/at-risk-tally.js';
import { AgendaRepository } from '../src/modules/agenda/repository.js';
import { StudentFiguresRepository } from '../src/modules/dashboard/student-figures.js';
import { FollowUpRepository } from '../src/modules/follow-up/repository.js';
import { ticketKeys } from './data.js';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';
import { deliverAll, tempDir } from './mail-data.js';

/**
 * A mail from Mi agenda is a contact: the message names its student (enrolment) in the outbox, is
 * filed on the student's open ticket (logged there as an attempt once sent), and the student leaves
 * "at risk without contact" as soon as it is queued, with or without a ticket.
 *
 *   Ana    never accessed, open ticket of opA's      -> mail: on the ticket, attempt logged when sent
 *   Bruno  never accessed, closed ticket of opA's    -> mail: no open ticket, still a contact
 *   Carla  never accessed, closed ticket of opA's    -> not written to: stays at risk
 */
type Json = Record<string, any>;

let ctx: TestContext;
let dataDir: string;
let opA: { id: number; token: string };
const enr: Record<string, number> = {};
let openTicket: number;

beforeAll(async () => {
  dataDir = tempDir();
  ctx = await createTestContext({ DATA_DIR: dataDir });
  await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  opA = await ctx.userWithRole('operator');
  const db = ctx.db;
  const platform = await db.selectFrom('platforms').select('id').executeTakeFirstOrThrow();
  const category = (
    await db
      .insertInto('categories')
      .values({ description: 'Agenda correo', category_code: 'AGMA', platform_id: platform.id })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const course = (
    await db
      .insertInto('courses')
      .values({
        description: 'Curso agenda correo',
        category_id: category,
        last_sync_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const student = (
    await db
      .selectFrom('profiles')
      .select('id')
      .where('key', '=', 'student')
      .executeTakeFirstOrThrow()
  ).id;
  const k = await ticketKeys(db);
  let body = 22_100_000;
  for (const name of ['Ana', 'Bruno', 'Carla']) {
    const rut = formatRut({ body, dv: computeDv(body) });
    body++;
    const person = (
      await db
        .insertInto('registered_users')
        .values({ rut, name, last_name: 'Correo', email: `${name.toLowerCase()}@correo.test` })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    enr[name] = (
      await db
        .insertInto('course_registered_users')
        .values({
          course_id: course,
          registered_user_id: person,
          profile_id: student,
          is_sincronized: true,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const ticket = await db
      .insertInto('tickets')
      .values({
        course_registered_user_id: enr[name]!,
        course_id: course,
        ticket_code: `AGMA-CUR-${name}`,
        status_ticket_id: name === 'Ana' ? k.open : k.closed,
        type_ticket_id: k.email,
        priority_ticket_id: k.high,
        source_ticket_id: k.outgoing,
        motive_ticket_id: k.welcome,
        user_create_id: opA.id,
        user_assigned_id: opA.id,
        created_at: new Date(Date.now() - 20 * 86_400_000),
        closing_date: name === 'Ana' ? null : new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (name === 'Ana') openTicket = ticket.id;
  }
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const call = async (method: 'GET' | 'POST', url: string, payload?: Json) => {
  const res = await ctx.request({
    method,
    url: `/api/v2${url}`,
    token: opA.token,
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json() as Json;
};
const atRisk = async () =>
  ((await call('GET', '/agenda/students'))._data.collections as Json[])
    .map((c) => c.properties.name as string)
    .sort();
const mail = (name: string) =>
  call('POST', '/follow-up/mail', {
    enrolmentIds: [enr[name]],
    subject: 'Hola {nombre}',
    text: '<p>¿Podemos ayudarle con el curso?</p>',
    CCRecipient: [],
    files: [],
  });

describe('agenda: a mail is a contact', () => {
  it('a mail to an at-risk student takes them off the list, names them in the outbox and is logged on their open ticket when sent', async () => {
    expect(await atRisk()).toEqual(['Ana Correo', 'Bruno Correo', 'Carla Correo']);
    // The workload table counts Ana for opA (her open ticket is theirs; Bruno's and Carla's are closed).
    const admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const opAtRisk = async () =>
      (
        (
          await ctx.request({ method: 'GET', url: '/api/v2/agenda/workload', token: admin })
        ).json() as Json
      )._data.collections.find((c: Json) => c.properties.userId === opA.id)?.properties.atRisk;
    expect(await opAtRisk()).toBe(1);

    await mail('Ana');
    await mail('Bruno');
    // Queued is enough: the operator has written to them.
    expect(await atRisk()).toEqual(['Carla Correo']);
    expect(await opAtRisk()).toBe(0);

    const outbox = (await call('GET', '/mail/outbox'))._data.collections.map(
      (c: Json) => c.properties,
    ) as Json[];
    const byStudent = Object.fromEntries(outbox.map((m) => [m.student, m]));
    expect(byStudent['Ana Correo']).toMatchObject({
      enrolmentId: enr.Ana,
      ticketId: openTicket,
      ticketCode: 'AGMA-CUR-Ana',
      toAddress: 'ana@correo.test',
    });
    expect(byStudent['Bruno Correo']).toMatchObject({
      enrolmentId: enr.Bruno,
      ticketId: null,
      toAddress: 'bruno@correo.test',
    });

    // Delivered: the attempt is on Ana's ticket, by the operator who wrote.
    await deliverAll(ctx);
    const attempts = await ctx.db
      .selectFrom('ticket_details')
      .select(['ticket_id', 'user_created_id', 'comment'])
      .where('ticket_id', '=', openTicket)
      .execute();
    expect(attempts).toEqual([
      {
        ticket_id: openTicket,
        user_created_id: opA.id,
        comment: expect.stringContaining('Hola Ana'),
      },
    ]);
    expect(await atRisk()).toEqual(['Carla Correo']);
  });

  it('a failed mail is no contact', async () => {
    await mail('Carla');
    expect(await atRisk()).toEqual([]);
    await ctx.db
      .updateTable('mail_messages')
      .set({ status: 'failed' })
      .where('enrolment_id', '=', enr.Carla!)
      .execute();
    expect(await atRisk()).toEqual(['Carla Correo']);
  });
});

describe('agenda: most urgent first', () => {
  /**
   * Another course of the same operator: Dora withdrawing (accessed an hour ago), Emilio 10 days
   * without access, Flor never accessed, Gonzalo 20 days without access. Without a sort: Dora,
   * Flor, Gonzalo, Emilio; each row with its RUT.
   */
  it('lists withdrawing students first, then by last access, oldest first, each with its RUT', async () => {
    const db = ctx.db;
    const k = await ticketKeys(db);
    const category = (
      await db
        .selectFrom('categories')
        .select('id')
        .where('category_code', '=', 'AGMA')
        .executeTakeFirstOrThrow()
    ).id;
    const course = (
      await db
        .insertInto('courses')
        .values({ description: 'Curso urgencia', category_id: category, last_sync_at: new Date() })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const resign = (
      await db
        .selectFrom('sections')
        .select('id')
        .where('key', '=', 'resign')
        .executeTakeFirstOrThrow()
    ).id;
    const form = (
      await db
        .insertInto('activities')
        .values({ description: 'Renuncia', course_id: course, section_id: resign, weighing: 0 })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const student = (
      await db
        .selectFrom('profiles')
        .select('id')
        .where('key', '=', 'student')
        .executeTakeFirstOrThrow()
    ).id;
    const DAY = 86_400_000;
    const ruts: Record<string, string> = {};
    let body = 22_200_000;
    for (const [name, last] of [
      ['Dora', Date.now() - 3_600_000],
      ['Emilio', Date.now() - 10 * DAY],
      ['Flor', null],
      ['Gonzalo', Date.now() - 20 * DAY],
    ] as const) {
      const rut = formatRut({ body, dv: computeDv(body) });
      body++;
      ruts[name] = rut;
      const person = (
        await db
          .insertInto('registered_users')
          .values({ rut, name, last_name: 'Urgencia' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      const e = (
        await db
          .insertInto('course_registered_users')
          .values({
            course_id: course,
            registered_user_id: person,
            profile_id: student,
            is_sincronized: true,
            last_access_registered_moodle: last === null ? null : new Date(last),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      if (name === 'Dora')
        await db
          .insertInto('activity_course_users')
          .values({
            course_registered_user_id: e,
            activity_id: form,
            status_moodle: 'En curso',
            completion_state: 0,
          })
          .execute();
      await db
        .insertInto('tickets')
        .values({
          course_registered_user_id: e,
          course_id: course,
          ticket_code: `AGMA-URG-${name}`,
          status_ticket_id: k.closed,
          type_ticket_id: k.phone,
          priority_ticket_id: k.high,
          source_ticket_id: k.outgoing,
          motive_ticket_id: k.welcome,
          user_create_id: opA.id,
          user_assigned_id: opA.id,
          created_at: new Date(Date.now() - 30 * DAY),
          closing_date: new Date(),
        })
        .execute();
    }
    const list = ((await call('GET', '/agenda/students?perPage=50'))._data.collections as Json[])
      .map((c) => c.properties)
      .filter((r) => r.courseId === course);
    expect(list.map((r) => [r.name, r.rut])).toEqual([
      ['Dora Urgencia', ruts.Dora],
      ['Flor Urgencia', ruts.Flor],
      ['Gonzalo Urgencia', ruts.Gonzalo],
      ['Emilio Urgencia', ruts.Emilio],
    ]);
    // Paged one by one: the same order.
    const paged: string[] = [];
    for (let page = 1; page <= 5; page++)
      paged.push(
        ...(
          (await call('GET', `/agenda/students?page=${page}&perPage=1`))._data.collections as Json[]
        )
          .map((c) => c.properties)
          .filter((r) => r.courseId === course)
          .map((r) => r.name as string),
      );
    expect(paged).toEqual([
      'Dora Urgencia',
      'Flor Urgencia',
      'Gonzalo Urgencia',
      'Emilio Urgencia',
    ]);
  });
});

describe('agenda: workload per operator', () => {
  let gonzaloTicket: number;
  it('counts for each operator the at-risk students with an open ticket of theirs: not the whole course, not closed cases, and the count moves with the ticket', async () => {
    const db = ctx.db;
    const opB = await ctx.userWithRole('operator');
    const k = await ticketKeys(db);
    const gonzalo = await db
      .selectFrom('course_registered_users as e')
      .innerJoin('registered_users as r', 'r.id', 'e.registered_user_id')
      .select(['e.id', 'e.course_id'])
      .where('r.name', '=', 'Gonzalo')
      .executeTakeFirstOrThrow();
    const ticket = await db
      .insertInto('tickets')
      .values({
        course_registered_user_id: gonzalo.id,
        course_id: gonzalo.course_id,
        ticket_code: 'AGMA-URG-B1',
        status_ticket_id: k.open,
        type_ticket_id: k.phone,
        priority_ticket_id: k.high,
        source_ticket_id: k.outgoing,
        motive_ticket_id: k.welcome,
        user_create_id: opB.id,
        user_assigned_id: opB.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const workload = async () =>
      (
        (
          await ctx.request({ method: 'GET', url: '/api/v2/agenda/workload', token: admin })
        ).json() as Json
      )._data.collections.map((c: Json) => c.properties) as Json[];
    let list = await workload();
    // At risk with a ticket of opA's: Carla, Dora, Emilio, Flor, Gonzalo, every one closed (Ana, with
    // the open one, was written to): none is opA's load. Gonzalo's open ticket is opB's.
    expect(list.find((w) => w.userId === opA.id)).toMatchObject({ atRisk: 0 });
    expect(list.find((w) => w.userId === opB.id)).toMatchObject({ atRisk: 1, openTickets: 1 });
    // Reassigned to opA, the ticket takes Gonzalo with it.
    const moved = await ctx.request({
      method: 'POST',
      url: '/api/v2/agenda/reassign',
      payload: { to_user_id: opA.id, ticket_ids: [ticket.id], reminder_ids: [] },
      token: admin,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    list = await workload();
    expect(list.find((w) => w.userId === opA.id)).toMatchObject({ atRisk: 1 });
    expect(list.find((w) => w.userId === opB.id)).toMatchObject({ atRisk: 0, openTickets: 0 });
    gonzaloTicket = ticket.id;
  });

  it('keeps the at-risk column for WORKLOAD_AT_RISK_SECONDS: served as counted, then recounted behind, then before answering; a reassignment counts again at once', async () => {
    const db = ctx.db;
    const k = await ticketKeys(db);
    const opB = (
      await db
        .selectFrom('tickets')
        .select('user_create_id')
        .where('id', '=', gonzaloTicket)
        .executeTakeFirstOrThrow()
    ).user_create_id!;
    const setOpen = (open: boolean) =>
      db
        .updateTable('tickets')
        .set({ status_ticket_id: open ? k.open : k.closed, closing_date: open ? null : new Date() })
        .where('id', '=', gonzaloTicket)
        .execute();
    // Through the API of a server that keeps the column (the tests' own server counts at every request).
    const kept = await buildApp({ ...ctx.config, WORKLOAD_AT_RISK_SECONDS: 60 }, db);
    try {
      const admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
      const read = async () => {
        const body = (
          await kept.inject({
            method: 'GET',
            url: '/api/v2/agenda/workload',
            headers: { authorization: `Bearer ${admin}` },
          })
        ).json() as Json;
        const at = (id: number) =>
          body._data.collections.find((c: Json) => c.properties.userId === id)?.properties.atRisk ??
          0;
        return { countedAt: body._data.atRiskCountedAt as string, opA: at(opA.id), opB: at(opB) };
      };
      const first = await read();
      expect(first.opA).toBe(1);
      await setOpen(false);
      // Gonzalo's case closed meanwhile: served as counted, with the time it was counted.
      expect(await read()).toEqual(first);
      // A Moodle sync that ended since (in this process or another) counts again before the answer.
      const { course_id } = await db
        .selectFrom('tickets')
        .select('course_id')
        .where('id', '=', gonzaloTicket)
        .executeTakeFirstOrThrow();
      await new Promise((r) => setTimeout(r, 5));
      await db
        .insertInto('moodle_course_syncs')
        .values({ course_id, state: 'done', scope: 'full', finished_at: new Date() })
        .onConflict((oc) =>
          oc.column('course_id').doUpdateSet({ state: 'done', finished_at: new Date() }),
        )
        .execute();
      const synced = await read();
      expect(synced.opA).toBe(0);
      expect(Date.parse(synced.countedAt)).toBeGreaterThan(Date.parse(first.countedAt));
      // A reassignment (back to opB, reopened) counts again before the next answer.
      await setOpen(true);
      const moved = await kept.inject({
        method: 'POST',
        url: '/api/v2/agenda/reassign',
        payload: { to_user_id: opB, ticket_ids: [gonzaloTicket], reminder_ids: [] },
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      const after = await read();
      expect(after).toMatchObject({ opA: 0, opB: 1 });
      expect(Date.parse(after.countedAt)).toBeGreaterThanOrEqual(Date.parse(first.countedAt));
    } finally {
      await kept.close();
    }

    // The ages, on a clock of the test's own, with the real count.
    let now = 0;
    const repo = new AgendaRepository(
      db,
      new FollowUpRepository(db, new StudentFiguresRepository(db)),
    );
    const tally = new AtRiskTally(
      () => repo.atRiskByOperator(),
      60,
      undefined,
      () => now,
    );
    // Counted when the server starts: the first read is answered with that count.
    tally.warm();
    now = 5_000;
    const warmed = await tally.read();
    expect(warmed.at).toBe(0);
    expect(warmed.counts.get(opB)).toBe(1);
    await setOpen(false);
    now = 59_000;
    expect(await tally.read()).toMatchObject({ at: 0 });
    // Older than a minute: still served as counted, while a recount runs behind it.
    now = 61_000;
    const stale = await tally.read();
    expect(stale.at).toBe(0);
    expect(stale.counts.get(opB)).toBe(1);
    await vi.waitFor(async () => expect((await tally.read()).at).toBe(61_000), { timeout: 10_000 });
    expect((await tally.read()).counts.get(opB) ?? 0).toBe(0);
    // Ten minutes unread: the request waits for a new count.
    await setOpen(true);
    now = 61_000 + 601_000;
    const waited = await tally.read();
    expect(waited.at).toBe(now);
    expect(waited.counts.get(opB)).toBe(1);
    // Forgotten: counted again at once, even within the minute.
    await setOpen(false);
    tally.forget();
    expect((await tally.read()).counts.get(opB) ?? 0).toBe(0);
    await setOpen(true);
  });
});
