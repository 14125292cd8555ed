import fs from 'node:fs';
import { computeDv, formatRut } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ticketKeys } from './data.js';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';
import { outboxCounts, tempDir, testWorker, waitFor } from './mail-data.js';

/**
 * A mail from Mi agenda is a contact: the message names its student (enrolment) in the outbox, is
 * filed on the student's open ticket (logged there as an attempt once sent), and the student leaves
 * "at risk without contact" as soon as it is queued, with or without a ticket.
 *
 *   Ana    never accessed, open ticket of opA's      -> mail: on the ticket, attempt logged when sent
 *   Bruno  never accessed, closed ticket of opA's    -> mail: no open ticket, still a contact
 *   Carla  never accessed, closed ticket of opA's    -> not written to: stays at risk
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

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
  const category = (await db.insertInto('categories').values({ description: 'Agenda correo', category_code: 'AGMA', platform_id: platform.id }).returning('id').executeTakeFirstOrThrow()).id;
  const course = (await db.insertInto('courses').values({ description: 'Curso agenda correo', category_id: category, last_sync_at: new Date() }).returning('id').executeTakeFirstOrThrow()).id;
  const student = (await db.selectFrom('profiles').select('id').where('key', '=', 'student').executeTakeFirstOrThrow()).id;
  const k = await ticketKeys(db);
  let body = 22_100_000;
  for (const name of ['Ana', 'Bruno', 'Carla']) {
    const rut = formatRut({ body, dv: computeDv(body) });
    body++;
    const person = (await db.insertInto('registered_users').values({ rut, name, last_name: 'Correo', email: `${name.toLowerCase()}@correo.test` }).returning('id').executeTakeFirstOrThrow()).id;
    enr[name] = (await db.insertInto('course_registered_users').values({ course_id: course, registered_user_id: person, profile_id: student, is_sincronized: true }).returning('id').executeTakeFirstOrThrow()).id;
    const ticket = await db
      .insertInto('tickets')
      .values({
        course_registered_user_id: enr[name]!, course_id: course, ticket_code: `AGMA-CUR-${name}`, status_ticket_id: name === 'Ana' ? k.open : k.closed, type_ticket_id: k.email,
        priority_ticket_id: k.high, source_ticket_id: k.outgoing, motive_ticket_id: k.welcome, user_create_id: opA.id, user_assigned_id: opA.id,
        created_at: new Date(Date.now() - 20 * 86_400_000), closing_date: name === 'Ana' ? null : new Date(),
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
  const res = await ctx.request({ method, url: `/api/v2${url}`, token: opA.token, ...(payload ? { payload } : {}) });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json() as Json;
};
const atRisk = async () => ((await call('GET', '/agenda/students'))._data.collections as Json[]).map((c) => c.properties.name as string).sort();
const mail = (name: string) => call('POST', '/follow-up/mail', { enrolmentIds: [enr[name]], subject: 'Hola {nombre}', text: '<p>¿Podemos ayudarle con el curso?</p>', CCRecipient: [], files: [] });

describe('agenda: a mail is a contact', () => {
  it('a mail to an at-risk student takes them off the list, names them in the outbox and is logged on their open ticket when sent', async () => {
    expect(await atRisk()).toEqual(['Ana Correo', 'Bruno Correo', 'Carla Correo']);

    await mail('Ana');
    await mail('Bruno');
    // Queued is enough: the operator has written to them.
    expect(await atRisk()).toEqual(['Carla Correo']);
    const workload = (await ctx.request({ method: 'GET', url: '/api/v2/agenda/workload', token: await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password) })).json() as Json;
    expect(workload._data.collections.find((c: Json) => c.properties.userId === opA.id)?.properties.atRisk).toBe(1);

    const outbox = (await call('GET', '/mail/outbox'))._data.collections.map((c: Json) => c.properties) as Json[];
    const byStudent = Object.fromEntries(outbox.map((m) => [m.student, m]));
    expect(byStudent['Ana Correo']).toMatchObject({ enrolmentId: enr.Ana, ticketId: openTicket, ticketCode: 'AGMA-CUR-Ana', toAddress: 'ana@correo.test' });
    expect(byStudent['Bruno Correo']).toMatchObject({ enrolmentId: enr.Bruno, ticketId: null, toAddress: 'bruno@correo.test' });

    // Delivered: the attempt is on Ana's ticket, by the operator who wrote.
    const worker = testWorker(ctx);
    worker.start();
    try {
      await waitFor(async () => {
        const c = await outboxCounts(ctx.db);
        return !c.queued && !c.sending;
      }, 20_000, 'outbox drained');
    } finally {
      await worker.stop();
    }
    const attempts = await ctx.db.selectFrom('ticket_details').select(['ticket_id', 'user_created_id', 'comment']).where('ticket_id', '=', openTicket).execute();
    expect(attempts).toEqual([{ ticket_id: openTicket, user_created_id: opA.id, comment: expect.stringContaining('Hola Ana') }]);
    expect(await atRisk()).toEqual(['Carla Correo']);
  });

  it('a failed mail is no contact', async () => {
    await mail('Carla');
    expect(await atRisk()).toEqual([]);
    await ctx.db.updateTable('mail_messages').set({ status: 'failed' }).where('enrolment_id', '=', enr.Carla!).execute();
    expect(await atRisk()).toEqual(['Carla Correo']);
  });
});
