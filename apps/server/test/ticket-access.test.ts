import { legacy, MSG, TICKET_MSG, type RoleKey } from '@sigaf/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';
import { seedCourse, ticketKeys } from './data.js';

/**
 * The one rule for single tickets (docs/development/permissions.md; SECURITY.md): administrators and
 * developers read and change every ticket; an operator only those assigned to them or created by
 * them; tutors no ticket at all. Every route that takes a ticket, an attempt, a lock or a mail of a
 * ticket is called here on the caller's own record and on another operator's, for each role.
 */
type Json = Record<string, any>;

let ctx: TestContext;
let keys: Awaited<ReturnType<typeof ticketKeys>>;
let enrolments: number[];
let next = 0;
const users: Record<
  'admin' | 'developer' | 'operator' | 'other' | 'tutor',
  { id: number; token: string }
> = {} as never;

/** One ticket with an attempt and an administrator's lock, created by and assigned to `owner`. */
interface Record_ {
  ticket: number;
  attempt: number;
  lock: number;
}

async function recordOf(
  owner: { id: number },
  enrolment = enrolments[next++ % enrolments.length]!,
): Promise<Record_> {
  const created = await ctx.request({
    method: 'POST',
    url: '/api/v2/tickets',
    token: users.admin.token,
    payload: {
      course_registered_user_id: enrolment,
      type_ticket_id: keys.email,
      status_ticket_id: keys.open,
      priority_ticket_id: keys.high,
      source_ticket_id: keys.outgoing,
      motive_ticket_id: keys.welcome,
      user_assigned_id: owner.id,
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const ticket = created.json()._data.properties.id as number;
  await ctx.db
    .updateTable('tickets')
    .set({ user_create_id: owner.id })
    .where('id', '=', ticket)
    .execute();
  const attempt = (
    await ctx.db
      .insertInto('ticket_details')
      .values({
        ticket_id: ticket,
        user_created_id: owner.id,
        status_detail_ticket_id: keys.failure,
        comment: 'Primer intento',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const lock = (
    await ctx.db
      .insertInto('log_editing_tickets')
      .values({
        ticket_id: ticket,
        user_id: users.admin.id,
        expires_at: sql<Date>`now() + interval '10 minutes'`,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  return { ticket, attempt, lock };
}

/** What a refused call must not have changed. */
async function snapshot(r: Record_) {
  const t = await ctx.db
    .selectFrom('tickets')
    .select(['version', 'status_ticket_id', 'user_assigned_id', 'priority_ticket_id'])
    .where('id', '=', r.ticket)
    .executeTakeFirst();
  const count = async (
    table: 'ticket_details' | 'log_editing_tickets' | 'mail_messages' | 'ticket_history',
  ) =>
    Number(
      (
        await ctx.db
          .selectFrom(table)
          .select(sql<number>`count(*)`.as('n'))
          .where('ticket_id', '=', r.ticket)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const comment = await ctx.db
    .selectFrom('ticket_details')
    .select('comment')
    .where('id', '=', r.attempt)
    .executeTakeFirst();
  return {
    t,
    attempts: await count('ticket_details'),
    locks: await count('log_editing_tickets'),
    mails: await count('mail_messages'),
    history: await count('ticket_history'),
    comment,
  };
}

type Call = (
  r: Record_,
  caller: { id: number; token: string },
) => { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: Json };

/** Routes of the administration screens: operators are refused by role on every record. */
const ADMIN_ONLY = new Set(['DELETE /ticket-details/{id}']);

/** Every route that reaches one ticket (or its attempts, lock or mail). */
const ROUTES: Array<[string, Call]> = [
  ['GET /tickets/{id}', (r) => ({ method: 'GET', url: `/tickets/${r.ticket}` })],
  [
    'GET /tickets/{id}/ticket-details',
    (r) => ({ method: 'GET', url: `/tickets/${r.ticket}/ticket-details` }),
  ],
  ['GET /tickets/{id}/history', (r) => ({ method: 'GET', url: `/tickets/${r.ticket}/history` })],
  [
    'PUT /tickets/{id} (reassign to myself)',
    (r, caller) => ({
      method: 'PUT',
      url: `/tickets/${r.ticket}`,
      payload: { user_assigned_id: caller.id },
    }),
  ],
  ['DELETE /tickets/{id}', (r) => ({ method: 'DELETE', url: `/tickets/${r.ticket}` })],
  [
    'POST /tickets/bulk (close)',
    (r) => ({
      method: 'POST',
      url: '/tickets/bulk',
      payload: { action: 'close', ids: [r.ticket] },
    }),
  ],
  [
    'GET /ticket-details?ticket_id=',
    (r) => ({ method: 'GET', url: `/ticket-details?ticket_id=${r.ticket}&perPage=1000` }),
  ],
  ['GET /ticket-details/{id}', (r) => ({ method: 'GET', url: `/ticket-details/${r.attempt}` })],
  [
    'POST /ticket-details',
    (r) => ({
      method: 'POST',
      url: '/ticket-details',
      payload: {
        ticket_id: r.ticket,
        status_detail_ticket_id: keys.failure,
        comment: 'Otro intento',
      },
    }),
  ],
  [
    'POST /ticket-details/multiple',
    (r) => ({
      method: 'POST',
      url: '/ticket-details/multiple',
      payload: {
        ticket_id: [r.ticket],
        status_detail_ticket_id: keys.failure,
        comment: 'Otro intento',
      },
    }),
  ],
  [
    'PUT /ticket-details/{id}',
    (r) => ({
      method: 'PUT',
      url: `/ticket-details/${r.attempt}`,
      payload: { comment: 'Cambiado' },
    }),
  ],
  [
    'DELETE /ticket-details/{id}',
    (r) => ({ method: 'DELETE', url: `/ticket-details/${r.attempt}` }),
  ],
  [
    'GET /log-editing-tickets/ticket/{id}',
    (r) => ({ method: 'GET', url: `/log-editing-tickets/ticket/${r.ticket}` }),
  ],
  [
    'GET /log-editing-tickets/{id}',
    (r) => ({ method: 'GET', url: `/log-editing-tickets/${r.lock}` }),
  ],
  [
    'POST /log-editing-tickets',
    (r) => ({ method: 'POST', url: '/log-editing-tickets', payload: { ticket_id: r.ticket } }),
  ],
  [
    'PUT /log-editing-tickets/{id}',
    (r) => ({ method: 'PUT', url: `/log-editing-tickets/${r.lock}` }),
  ],
  [
    'DELETE /log-editing-tickets/{id}',
    (r) => ({ method: 'DELETE', url: `/log-editing-tickets/${r.lock}` }),
  ],
  [
    'POST /mail/single',
    (r) => ({
      method: 'POST',
      url: '/mail/single',
      payload: { ticketId: r.ticket, subject: 'Hola', text: '<p>Hola</p>' },
    }),
  ],
  [
    'POST /mail/massive',
    (r) => ({
      method: 'POST',
      url: '/mail/massive',
      payload: { ticketsId: [r.ticket], subject: 'Hola', text: '<p>Hola</p>' },
    }),
  ],
  [
    'POST /mail/preview',
    (r) => ({
      method: 'POST',
      url: '/mail/preview',
      payload: { ticketsId: [r.ticket], subject: 'Hola', text: '<p>Hola</p>' },
    }),
  ],
];

beforeAll(async () => {
  ctx = await createTestContext();
  keys = await ticketKeys(ctx.db);
  const adminRow = await ctx.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', TEST_ADMIN.email)
    .executeTakeFirstOrThrow();
  users.admin = { id: adminRow.id, token: await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password) };
  for (const [name, role] of [
    ['developer', 'developer'],
    ['operator', 'operator'],
    ['other', 'operator'],
    ['tutor', 'tutor'],
  ] as const) {
    const u = await ctx.userWithRole(role as RoleKey);
    users[name] = { id: u.id, token: u.token };
  }
  const course = await seedCourse(ctx.db, {
    categoryCode: 'ACC',
    course: 'Acceso',
    students: 30,
    firstRut: 16_100_000,
  });
  enrolments = course.enrolments.map((e) => e.id);
});
afterAll(() => ctx?.close());

const call = (c: ReturnType<Call>, token: string) =>
  ctx.request({
    method: c.method,
    url: `/api/v2${c.url}`,
    token,
    ...(c.payload ? { payload: c.payload } : {}),
  });

/** Refused by the record rule: a 403 with its message, or (a list, a bulk action) the record left out or refused. */
function refusedByRule(route: string, res: { statusCode: number; json(): Json }): boolean {
  const body = res.json();
  if (route.startsWith('GET /ticket-details?'))
    return res.statusCode === 200 && body._data.collections.length === 0;
  if (route.startsWith('POST /tickets/bulk'))
    return res.statusCode === 200 && body._data.refused[0]?.reason === TICKET_MSG.notYours;
  return res.statusCode === 403 && body.message === TICKET_MSG.notYours;
}

describe('single tickets: route × (own record, another operator’s) × role', () => {
  for (const [route, make] of ROUTES) {
    it(route, async () => {
      if (ADMIN_ONLY.has(route)) {
        const own = await recordOf(users.operator);
        const before = await snapshot(own);
        const res = await call(make(own, users.operator), users.operator.token);
        expect([res.statusCode, res.json().message]).toEqual([403, MSG.forbidden]);
        expect(await snapshot(own)).toEqual(before);
      }
      // Operator: their own record passes the rule; another operator's is refused and nothing changes.
      const own = await recordOf(users.operator);
      const others = await recordOf(users.other);
      const before = await snapshot(others);
      const otherRes = await call(make(others, users.operator), users.operator.token);
      expect(await snapshot(others)).toEqual(before);
      if (!ADMIN_ONLY.has(route)) {
        const ownRes = await call(make(own, users.operator), users.operator.token);
        expect(
          refusedByRule(route, ownRes),
          `${route} own: ${ownRes.statusCode} ${ownRes.body}`,
        ).toBe(false);
        expect(ownRes.statusCode, ownRes.body).toBeLessThan(500);
        expect(
          refusedByRule(route, otherRes),
          `${route} other: ${otherRes.statusCode} ${otherRes.body}`,
        ).toBe(true);
      } else expect(otherRes.statusCode).toBe(403);

      // Administrators and developers: any operator's record.
      for (const who of ['admin', 'developer'] as const) {
        const r = await recordOf(users.other);
        const res = await call(make(r, users[who]), users[who].token);
        expect(refusedByRule(route, res), `${route} ${who}: ${res.statusCode} ${res.body}`).toBe(
          false,
        );
        expect(res.statusCode, res.body).toBeLessThan(500);
      }

      // Tutors: no ticket route at all.
      const r = await recordOf(users.other);
      const before2 = await snapshot(r);
      const tutorRes = await call(make(r, users.tutor), users.tutor.token);
      expect(tutorRes.statusCode).toBe(403);
      expect(tutorRes.json().message).toBe(MSG.forbidden);
      expect(await snapshot(r)).toEqual(before2);
    });
  }

  it('the attempt list without a ticket holds only the operator’s own tickets’ attempts', async () => {
    const own = await recordOf(users.operator);
    const others = await recordOf(users.other);
    const res = await call(
      { method: 'GET', url: '/ticket-details?perPage=1000' },
      users.operator.token,
    );
    const tickets = new Set(res.json()._data.collections.map((c: Json) => c.properties.ticketId));
    expect(tickets.has(own.ticket)).toBe(true);
    expect(tickets.has(others.ticket)).toBe(false);
    const all = await call(
      { method: 'GET', url: '/ticket-details?perPage=1000' },
      users.admin.token,
    );
    expect(
      new Set(all.json()._data.collections.map((c: Json) => c.properties.ticketId)).has(
        others.ticket,
      ),
    ).toBe(true);
  });

  it('a ticket created by one operator and assigned to another is both of theirs', async () => {
    const shared = await recordOf(users.other);
    await ctx.db
      .updateTable('tickets')
      .set({ user_create_id: users.operator.id })
      .where('id', '=', shared.ticket)
      .execute();
    for (const who of ['operator', 'other'] as const)
      expect(
        (await call({ method: 'GET', url: `/tickets/${shared.ticket}` }, users[who].token))
          .statusCode,
      ).toBe(200);
  });
});

describe('a student’s ticket history: the one exception to the rule', () => {
  it('lists every ticket of the student to each role that works tickets, with the attempts only of those the caller may work, with and without ?page=', async () => {
    const mine = await recordOf(users.operator);
    const enrolment = (
      await ctx.db
        .selectFrom('tickets')
        .select('course_registered_user_id')
        .where('id', '=', mine.ticket)
        .executeTakeFirstOrThrow()
    ).course_registered_user_id;
    const theirs = await recordOf(users.other, enrolment);
    const comments = {
      [mine.ticket]: 'Observación del operador dueño',
      [theirs.ticket]: 'Observación reservada de otro operador',
    };
    for (const r of [mine, theirs])
      await ctx.db
        .updateTable('ticket_details')
        .set({ comment: comments[r.ticket]! })
        .where('id', '=', r.attempt)
        .execute();
    const works = {
      admin: [mine, theirs],
      developer: [mine, theirs],
      operator: [mine],
      other: [theirs],
    } as const;

    for (const url of [
      `/course-registered-user/${enrolment}/tickets`,
      `/course-registered-user/${enrolment}/tickets?page=1&perPage=50`,
    ]) {
      for (const who of ['admin', 'developer', 'operator', 'other'] as const) {
        const res = await call({ method: 'GET', url }, users[who].token);
        expect(res.statusCode, `${who} ${url}: ${res.body}`).toBe(200);
        const body = res.json();
        // The original client's shape, whoever asks (numberOfElements counts relationships.array).
        if (!url.includes('page=')) legacy.getEnrolmentTickets.parse(body);
        const rows = new Map<number, Json>(
          body._data.collections.map((c: Json) => [c.properties.id, c]),
        );
        for (const r of [mine, theirs]) {
          const row = rows.get(r.ticket)!;
          // Every ticket is listed with its summary: code, state, operator, its number of attempts.
          expect(row, `${who} ${url} lists ticket ${r.ticket}`).toBeDefined();
          expect(row.properties).toMatchObject({
            ticketCode: expect.any(String),
            statusTicket: { key: 'open' },
            userAssigned: { id: r === mine ? users.operator.id : users.other.id },
            attempts: 1,
          });
          if ((works[who] as readonly Record_[]).includes(r)) {
            expect(row.relationships.numberOfElements).toBe(1);
            expect(row.relationships.array.map((d: Json) => d.comment)).toEqual([
              comments[r.ticket],
            ]);
          } else {
            // Not the caller's to work: the same keys, no attempt.
            expect(Object.keys(row.properties).sort()).toEqual(
              Object.keys(rows.get(works[who][0]!.ticket)!.properties).sort(),
            );
            expect(row.relationships).toMatchObject({ numberOfElements: 0, array: [] });
            expect(res.body).not.toContain(comments[r.ticket]);
          }
        }
      }
      const tutor = await call({ method: 'GET', url }, users.tutor.token);
      expect([tutor.statusCode, tutor.json().message]).toEqual([403, MSG.forbidden]);
    }
  });
});
