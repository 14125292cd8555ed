import fs from 'node:fs';
import { TICKET_MSG } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCourse, ticketKeys } from './data.js';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';
import { deliverAll, tempDir } from './mail-data.js';

/**
 * A mail to enrolments (Seguimiento, Mi agenda) is filed only on an open ticket its writer may
 * touch (TicketAccess); otherwise it is a contact without a ticket. The outbox names a ticket only
 * to those who may open it.
 *
 *   student 0: open ticket of opB's only         -> opA's mail: no ticket, no attempt on opB's ticket
 *   student 1: open tickets of opB's and opA's   -> opA's mail: on opA's ticket
 *   student 2: open ticket of opA's, reassigned to opB after the mail was queued -> no attempt on it
 */
type Json = Record<string, any>;

let ctx: TestContext;
let dataDir: string;
let opA: { id: number; token: string };
let opB: { id: number; token: string };
let admin: string;
let enrolments: number[];
let keys: Awaited<ReturnType<typeof ticketKeys>>;

async function openTicket(enrolment: number, course: number, owner: number, code: string) {
  const row = await ctx.db
    .insertInto('tickets')
    .values({
      course_registered_user_id: enrolment,
      course_id: course,
      ticket_code: code,
      status_ticket_id: keys.open,
      type_ticket_id: keys.email,
      priority_ticket_id: keys.high,
      source_ticket_id: keys.outgoing,
      motive_ticket_id: keys.welcome,
      user_create_id: owner,
      user_assigned_id: owner,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

let course: number;
beforeAll(async () => {
  dataDir = tempDir();
  ctx = await createTestContext({ DATA_DIR: dataDir });
  admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  opA = await ctx.userWithRole('operator');
  opB = await ctx.userWithRole('operator');
  keys = await ticketKeys(ctx.db);
  const seeded = await seedCourse(ctx.db, {
    categoryCode: 'MTA',
    course: 'Correo y tickets',
    students: 3,
    firstRut: 23_100_000,
  });
  course = seeded.course;
  enrolments = seeded.enrolments.map((e) => e.id);
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const as = async (token: string, method: 'GET' | 'POST', url: string, payload?: Json) =>
  ctx.request({ method, url: `/api/v2${url}`, token, ...(payload ? { payload } : {}) });
const mailBody = (enrolment: number) => ({
  enrolmentIds: [enrolment],
  subject: 'Seguimiento {codigo_ticket}',
  text: '<p>Hola {nombre}</p>',
  CCRecipient: [],
  files: [],
});
const attemptsOn = (ticket: number) =>
  ctx.db
    .selectFrom('ticket_details')
    .select(['user_created_id', 'comment'])
    .where('ticket_id', '=', ticket)
    .execute();

describe('follow-up mail and another operator’s ticket', () => {
  it('is a contact without a ticket when the student’s open ticket is another operator’s: nothing written there, nothing of it in the outbox', async () => {
    const theirs = await openTicket(enrolments[0]!, course, opB.id, 'MTA-COR-B0');
    // The preview fills {codigo_ticket} with nothing of opB's either.
    const preview = await as(
      opA.token,
      'POST',
      '/follow-up/mail/preview',
      mailBody(enrolments[0]!),
    );
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()._data.sample.subject).not.toContain('MTA-COR-B0');

    const sent = await as(opA.token, 'POST', '/follow-up/mail', mailBody(enrolments[0]!));
    expect(sent.statusCode, sent.body).toBe(201);
    const id = sent.json()._data.messages[0] as number;
    expect(
      await ctx.db
        .selectFrom('mail_messages')
        .select(['ticket_id', 'enrolment_id', 'subject'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
    ).toEqual({
      ticket_id: null,
      enrolment_id: enrolments[0],
      subject: 'Seguimiento',
    });
    await deliverAll(ctx);
    expect(await attemptsOn(theirs)).toEqual([]);

    const outbox = (await as(opA.token, 'GET', '/mail/outbox'))
      .json()
      ._data.collections.map((c: Json) => c.properties) as Json[];
    expect(outbox.find((m) => m.id === id)).toMatchObject({
      ticketId: null,
      ticketCode: null,
      enrolmentId: enrolments[0],
      status: 'sent',
    });
    // opB opens their ticket; opA may not filter the outbox by it.
    const filtered = await as(opA.token, 'GET', `/mail/outbox?ticket_id=${theirs}`);
    expect([filtered.statusCode, filtered.json().message]).toEqual([403, TICKET_MSG.notYours]);
  });

  it('is filed on the caller’s own open ticket when the student also has another operator’s', async () => {
    const mine = await openTicket(enrolments[1]!, course, opA.id, 'MTA-COR-A1');
    const theirs = await openTicket(enrolments[1]!, course, opB.id, 'MTA-COR-B1');
    // opB's is the latest: it would be chosen if the rule were not asked.
    await ctx.db
      .updateTable('tickets')
      .set({ updated_at: new Date(Date.now() + 60_000) })
      .where('id', '=', theirs)
      .execute();
    await ctx.db
      .updateTable('tickets')
      .set({ user_assigned_id: opB.id })
      .where('id', '=', mine)
      .execute();
    // Assigned to opB but created by opA: still opA's to write (TicketAccess), and opB's latest one is not.
    const sent = await as(opA.token, 'POST', '/follow-up/mail', mailBody(enrolments[1]!));
    expect(sent.statusCode, sent.body).toBe(201);
    await deliverAll(ctx);
    expect(await attemptsOn(theirs)).toEqual([]);
    expect(await attemptsOn(mine)).toEqual([
      { user_created_id: opA.id, comment: expect.stringContaining('MTA-COR-A1') },
    ]);
  });

  it('leaves no attempt on a ticket reassigned away before the mail is sent, and the outbox stops naming it', async () => {
    const ticket = await openTicket(enrolments[2]!, course, opA.id, 'MTA-COR-A2');
    const sent = await as(opA.token, 'POST', '/follow-up/mail', mailBody(enrolments[2]!));
    expect(sent.statusCode, sent.body).toBe(201);
    const id = sent.json()._data.messages[0] as number;
    expect(
      (await as(opA.token, 'GET', `/mail/outbox/${id}`)).json()._data.properties,
    ).toMatchObject({ ticketId: ticket, ticketCode: 'MTA-COR-A2' });
    const moved = await as(admin, 'POST', '/agenda/reassign', {
      to_user_id: opB.id,
      ticket_ids: [ticket],
      reminder_ids: [],
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await ctx.db
      .updateTable('tickets')
      .set({ user_create_id: opB.id })
      .where('id', '=', ticket)
      .execute();
    await deliverAll(ctx);
    expect(await attemptsOn(ticket)).toEqual([]);
    // opA cannot open the ticket (403), so their outbox names none; the administrator's does.
    expect((await as(opA.token, 'GET', `/tickets/${ticket}`)).statusCode).toBe(403);
    expect(
      (await as(opA.token, 'GET', `/mail/outbox/${id}`)).json()._data.properties,
    ).toMatchObject({ ticketId: null, ticketCode: null, status: 'sent' });
    const list = (await as(opA.token, 'GET', '/mail/outbox'))
      .json()
      ._data.collections.map((c: Json) => c.properties) as Json[];
    expect(list.find((m) => m.id === id)).toMatchObject({ ticketId: null, ticketCode: null });
    expect((await as(admin, 'GET', `/mail/outbox/${id}`)).json()._data.properties).toMatchObject({
      ticketId: ticket,
      ticketCode: 'MTA-COR-A2',
    });
  });
});
