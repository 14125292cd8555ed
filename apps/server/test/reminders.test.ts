import { MSG, REMINDER_MSG } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ReminderRepository } from '../src/modules/reminders/repository.js';
import { seedChain, ticketKeys } from './data.js';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';

/**
 * Reminders on tickets: who may create, read and change them (the tickets' rule), their states,
 * and the automatic "done" when a contact attempt is logged on the ticket after it fell due.
 * opA owns ticket A; opB owns ticket B; the tutor works no ticket.
 */
let ctx: TestContext;
let admin: string;
let opA: { id: number; token: string };
let opB: { id: number; token: string };
let tutor: { id: number; token: string };
let ticketA: number;
let ticketB: number;
let k: Awaited<ReturnType<typeof ticketKeys>>;

const MIN = 60_000;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  opA = await ctx.userWithRole('operator');
  opB = await ctx.userWithRole('operator');
  tutor = await ctx.userWithRole('tutor');
  ticketA = (await seedChain(ctx.db, opA.id, '9101')).ticket;
  ticketB = (await seedChain(ctx.db, opB.id, '9102')).ticket;
  k = await ticketKeys(ctx.db);
});
afterAll(() => ctx.close());

const post = (url: string, payload: unknown, token: string) =>
  ctx.request({ method: 'POST', url, payload: payload as object, token });
const create = (token: string, body: Record<string, unknown>) =>
  post('/api/v2/reminders', body, token);
const list = async (token: string, qs = '') => {
  const res = await ctx.request({ method: 'GET', url: `/api/v2/reminders${qs}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()._data as {
    collections: Array<{
      properties: {
        id: number;
        state: string;
        overdue: boolean;
        ticketId: number;
        userId: number;
        comment: string;
      };
    }>;
    meta?: unknown;
    numberOfElements: number;
  };
};
const dueCount = async (token: string) =>
  (await ctx.request({ method: 'GET', url: '/api/v2/reminders/due-count', token })).json()._data
    .count as number;

describe('reminders: who may do what', () => {
  it('an operator sets a reminder on their own ticket, for themselves, with a comment', async () => {
    const res = await create(opA.token, {
      ticket_id: ticketA,
      due_at: at(60 * MIN),
      comment: 'Llamar de nuevo',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      success: true,
      statusCode: 201,
      message: REMINDER_MSG.created,
    });
    expect(res.json()._data.properties).toMatchObject({
      ticketId: ticketA,
      userId: opA.id,
      state: 'pending',
      overdue: false,
      comment: 'Llamar de nuevo',
    });
  });

  it("an operator cannot set one on another operator's ticket, nor for someone else", async () => {
    // Another operator's ticket answers as one that does not exist.
    const other = await create(opA.token, { ticket_id: ticketB, due_at: at(MIN) });
    expect(other.statusCode).toBe(422);
    expect(other.json()._data.errors).toEqual({ ticket_id: [REMINDER_MSG.ticketNotFound] });
    const forB = await create(opA.token, { ticket_id: ticketA, due_at: at(MIN), user_id: opB.id });
    expect(forB.statusCode).toBe(403);
    expect(forB.json().message).toBe(REMINDER_MSG.onlySelf);
  });

  it('a tutor has no reminders at all', async () => {
    expect((await create(tutor.token, { ticket_id: ticketA, due_at: at(MIN) })).statusCode).toBe(
      403,
    );
    const res = await ctx.request({ method: 'GET', url: '/api/v2/reminders', token: tutor.token });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(MSG.forbidden);
  });

  it("an administrator sets one for the ticket's operator, not for an operator who cannot touch the ticket", async () => {
    const ok = await create(admin, {
      ticket_id: ticketB,
      due_at: at(30 * MIN),
      user_id: opB.id,
      comment: 'Para B',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()._data.properties.userId).toBe(opB.id);
    const refused = await create(admin, { ticket_id: ticketB, due_at: at(MIN), user_id: opA.id });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()._data.errors.user_id).toEqual([REMINDER_MSG.ownerCannotTouch]);
    const tutorOwner = await create(admin, {
      ticket_id: ticketB,
      due_at: at(MIN),
      user_id: tutor.id,
    });
    expect(tutorOwner.statusCode).toBe(422);
  });

  it('bad input is a 422 in Spanish, never a 500', async () => {
    for (const body of [
      {},
      { ticket_id: 'x', due_at: 'mañana' },
      { ticket_id: ticketA, due_at: '2026-13-45T99:00' },
      { ticket_id: ticketA, due_at: at(MIN), comment: 'x'.repeat(1001) },
      { ticket_id: 2147480000, due_at: at(MIN) },
    ]) {
      const res = await create(opA.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().success).toBe(false);
    }
    const q = await ctx.request({
      method: 'GET',
      url: '/api/v2/reminders?state=viejo&due_from=ayer',
      token: opA.token,
    });
    expect(q.statusCode).toBe(422);
  });

  it('each operator lists only the reminders of their tickets; administrators all, filtered', async () => {
    const a = await list(opA.token);
    expect(a.collections.every((c) => c.properties.ticketId === ticketA)).toBe(true);
    const b = await list(opB.token);
    expect(b.collections.map((c) => c.properties.comment)).toEqual(['Para B']);
    const all = await list(admin, '?page=1&perPage=10');
    expect(all.numberOfElements).toBe(2);
    expect(all.meta).toEqual({ page: 1, perPage: 10, total: 2, lastPage: 1 });
    expect((await list(admin, `?user_id=${opB.id}`)).collections).toHaveLength(1);
    expect((await list(admin, '?mine=true')).collections).toHaveLength(0);
  });

  it("only the owner or an administrator changes a reminder; an operator not another's", async () => {
    const mine = (await list(opA.token)).collections[0]!.properties;
    const theirs = (await list(opB.token)).collections[0]!.properties;
    // On another operator's ticket: as if it did not exist.
    expect(
      (
        await ctx.request({
          method: 'PUT',
          url: `/api/v2/reminders/${theirs.id}`,
          payload: { comment: 'x' },
          token: opA.token,
        })
      ).statusCode,
    ).toBe(404);
    expect((await post(`/api/v2/reminders/${theirs.id}/dismiss`, {}, opA.token)).statusCode).toBe(
      404,
    );
    const edit = await ctx.request({
      method: 'PUT',
      url: `/api/v2/reminders/${mine.id}`,
      payload: { comment: 'Llamar a las 10' },
      token: opA.token,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()._data.properties.comment).toBe('Llamar a las 10');
    const byAdmin = await ctx.request({
      method: 'PUT',
      url: `/api/v2/reminders/${theirs.id}`,
      payload: { comment: 'Revisado' },
      token: admin,
    });
    expect(byAdmin.statusCode).toBe(200);
    expect(
      (await ctx.request({ method: 'GET', url: '/api/v2/reminders/2147480000', token: admin }))
        .statusCode,
    ).toBe(404);
  });
});

describe('reminders: states', () => {
  it('pending -> dismissed by hand; a closed reminder cannot be closed again; reopened by editing', async () => {
    const id = (await create(opA.token, { ticket_id: ticketA, due_at: at(MIN) })).json()._data
      .properties.id;
    const dismissed = await post(`/api/v2/reminders/${id}/dismiss`, {}, opA.token);
    expect(dismissed.statusCode).toBe(200);
    expect(dismissed.json()).toMatchObject({
      message: REMINDER_MSG.dismissed,
      _data: { properties: { state: 'dismissed' } },
    });
    const again = await post(`/api/v2/reminders/${id}/complete`, {}, opA.token);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(REMINDER_MSG.notPending);
    const reopened = await ctx.request({
      method: 'PUT',
      url: `/api/v2/reminders/${id}`,
      payload: { state: 'pending' },
      token: opA.token,
    });
    expect(reopened.json()._data.properties.state).toBe('pending');
    const done = await post(`/api/v2/reminders/${id}/complete`, {}, opA.token);
    expect(done.json()._data.properties).toMatchObject({ state: 'done' });
    expect(done.json()._data.properties.doneAt).not.toBeNull();
  });

  it('the badge counts my pending reminders already due; overdue ones say so', async () => {
    const before = await dueCount(opB.token);
    const id = (await create(opB.token, { ticket_id: ticketB, due_at: at(-5 * MIN) })).json()._data
      .properties.id;
    expect(await dueCount(opB.token)).toBe(before + 1);
    const due = await list(opB.token, '?due=true');
    expect(due.collections.map((c) => c.properties.id)).toContain(id);
    expect(due.collections.find((c) => c.properties.id === id)!.properties.overdue).toBe(true);
    // Snoozed an hour ahead: no longer due.
    const snoozed = await post(
      `/api/v2/reminders/${id}/snooze`,
      { due_at: at(60 * MIN) },
      opB.token,
    );
    expect(snoozed.statusCode, snoozed.body).toBe(200);
    expect(await dueCount(opB.token)).toBe(before);
  });

  it('a contact attempt logged after the due time marks the reminder done; one before it does not', async () => {
    const due = (
      await create(opA.token, { ticket_id: ticketA, due_at: at(-MIN), comment: 'vencido' })
    ).json()._data.properties.id;
    const later = (
      await create(opA.token, { ticket_id: ticketA, due_at: at(60 * MIN), comment: 'futuro' })
    ).json()._data.properties.id;
    const attempt = await post(
      '/api/v2/ticket-details',
      { ticket_id: ticketA, status_detail_ticket_id: k.success, comment: 'Contestó' },
      opA.token,
    );
    expect(attempt.statusCode, attempt.body).toBe(201);
    const detailId = attempt.json()._data.properties?.id ?? attempt.json()._data.id;
    const a = (
      await ctx.request({ method: 'GET', url: `/api/v2/reminders/${due}`, token: opA.token })
    ).json()._data.properties;
    expect(a.state).toBe('done');
    expect(a.ticketDetailId).toBe(detailId);
    const b = (
      await ctx.request({ method: 'GET', url: `/api/v2/reminders/${later}`, token: opA.token })
    ).json()._data.properties;
    expect(b.state).toBe('pending');
  });

  it('several attempts logged at once mark done each due reminder of their tickets, by the first attempt after it', async () => {
    const a = (
      await create(opA.token, { ticket_id: ticketA, due_at: at(-2 * MIN), comment: 'lote A' })
    ).json()._data.properties.id;
    const b = (
      await create(opB.token, { ticket_id: ticketB, due_at: at(-2 * MIN), comment: 'lote B' })
    ).json()._data.properties.id;
    const res = await post(
      '/api/v2/ticket-details/multiple',
      { ticket_id: [ticketA, ticketB], status_detail_ticket_id: k.failure, comment: 'No contesta' },
      admin,
    );
    expect(res.statusCode, res.body).toBe(201);
    for (const [id, token] of [
      [a, opA.token],
      [b, opB.token],
    ] as const) {
      const r = (await ctx.request({ method: 'GET', url: `/api/v2/reminders/${id}`, token })).json()
        ._data.properties;
      expect(r.state).toBe('done');
      expect(r.ticketDetailId).not.toBeNull();
    }
  });

  it('lists by state and due between days, paginated', async () => {
    const done = await list(opA.token, '?state=done&page=1&perPage=1');
    expect(done.meta).toMatchObject({ page: 1, perPage: 1 });
    expect(done.collections.every((c) => c.properties.state === 'done')).toBe(true);
    const none = await list(admin, '?due_from=2001-01-01&due_to=2001-01-31');
    expect(none.collections).toHaveLength(0);
  });
});

describe('reminders: closed once', () => {
  it('a reminder closed by another request between the check and the write answers 409 and keeps that state; of closes sent together one wins', async () => {
    const closes = async (id: number) =>
      (
        await ctx.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('entity', '=', 'reminders')
          .where('entity_id', '=', String(id))
          .where('action', '=', 'update')
          .executeTakeFirstOrThrow()
      ).n;
    const id = (await create(opA.token, { ticket_id: ticketA, due_at: at(MIN) })).json()._data
      .properties.id as number;
    // On PostgreSQL requests run side by side: here another one dismisses it once this one has read it pending.
    const read = ReminderRepository.prototype.find;
    const spy = vi
      .spyOn(ReminderRepository.prototype, 'find')
      .mockImplementationOnce(async function (this: ReminderRepository, rid: number) {
        const row = await read.call(this, rid);
        expect((await post(`/api/v2/reminders/${rid}/dismiss`, {}, opA.token)).statusCode).toBe(
          200,
        );
        return row;
      });
    try {
      const res = await post(`/api/v2/reminders/${id}/complete`, {}, opA.token);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toBe(REMINDER_MSG.notPending);
    } finally {
      spy.mockRestore();
    }
    const now = (
      await ctx.request({ method: 'GET', url: `/api/v2/reminders/${id}`, token: opA.token })
    ).json()._data.properties;
    expect(now.state).toBe('dismissed');
    expect(Number(await closes(id))).toBe(1);

    const other = (await create(opA.token, { ticket_id: ticketA, due_at: at(MIN) })).json()._data
      .properties.id as number;
    const all = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        post(`/api/v2/reminders/${other}/${i % 2 ? 'dismiss' : 'complete'}`, {}, opA.token),
      ),
    );
    expect(all.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(Number(await closes(other))).toBe(1);
  });
});

describe('reminders: lists in every order, paged', () => {
  it('each sort, both ways, pages in the same order as the whole list, with its total; an operator only theirs', async () => {
    // More reminders of both operators, due and created at different moments.
    for (const [i, [token, ticket]] of (
      [
        [opA.token, ticketA],
        [opB.token, ticketB],
        [opA.token, ticketA],
        [opB.token, ticketB],
        [opA.token, ticketA],
      ] as const
    ).entries()) {
      expect(
        (
          await create(token, {
            ticket_id: ticket,
            due_at: at((i % 3) * 7 * MIN + 5 * MIN),
            comment: `Orden ${i}`,
          })
        ).statusCode,
      ).toBe(201);
    }
    type Item = { properties: { id: number } };
    const ids = (items: Item[]) => items.map((c) => c.properties.id);
    for (const sort of ['due_at', 'created_at', 'state', 'operator', 'ticket']) {
      for (const order of ['asc', 'desc']) {
        for (const [who, token] of [
          ['admin', admin],
          ['opA', opA.token],
        ] as const) {
          const whole = await list(token, `?sort=${sort}&order=${order}`);
          const pages: number[] = [];
          for (let page = 1; page <= Math.ceil(whole.numberOfElements / 2); page++) {
            const p = await list(token, `?sort=${sort}&order=${order}&page=${page}&perPage=2`);
            expect(p.meta, `${who} ${sort} ${order} page ${page}`).toMatchObject({
              total: whole.numberOfElements,
              perPage: 2,
              page,
            });
            pages.push(...ids(p.collections));
          }
          expect(pages, `${who} ${sort} ${order}`).toEqual(ids(whole.collections));
          if (who === 'opA')
            expect(
              whole.collections.every(
                (c) => (c as { properties: { ticketId: number } }).properties.ticketId === ticketA,
              ),
            ).toBe(true);
        }
      }
    }
    // The whole list in due order is sorted by due date, ties by id.
    const due = (await list(admin, '?sort=due_at&order=asc')).collections as unknown as Array<{
      properties: { id: number; dueAt: string };
    }>;
    const expected = [...due].sort(
      (x, y) =>
        Date.parse(x.properties.dueAt) - Date.parse(y.properties.dueAt) ||
        x.properties.id - y.properties.id,
    );
    expect(due.map((d) => d.properties.id)).toEqual(expected.map((d) => d.properties.id));
  });
});

describe('reminders: reassignment in the agenda', () => {
  it('refuses, as the single route does and with its reason, a reminder for an operator who cannot touch its ticket; nothing is written', async () => {
    const ticketC = (await seedChain(ctx.db, opA.id, '9103')).ticket;
    const reminder = (
      await create(admin, {
        ticket_id: ticketA,
        due_at: at(60 * MIN),
        user_id: opA.id,
        comment: 'Reasignar',
      })
    ).json()._data.properties.id as number;
    const state = async () => ({
      reminders: await ctx.db
        .selectFrom('reminders')
        .select(['id', 'user_id', 'updated_at'])
        .where('ticket_id', 'in', [ticketA, ticketC])
        .orderBy('id')
        .execute(),
      tickets: await ctx.db
        .selectFrom('tickets')
        .select(['id', 'user_assigned_id', 'version'])
        .where('id', 'in', [ticketA, ticketC])
        .orderBy('id')
        .execute(),
      audit: (
        await ctx.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('entity', '=', 'agenda_reassign')
          .executeTakeFirstOrThrow()
      ).n,
    });

    // The single route: opB neither has ticket A assigned nor created it.
    const single = await ctx.request({
      method: 'PUT',
      url: `/api/v2/reminders/${reminder}`,
      payload: { user_id: opB.id },
      token: admin,
    });
    expect(single.statusCode).toBe(422);
    expect(single.json()._data.errors.user_id).toEqual([REMINDER_MSG.ownerCannotTouch]);

    // The reassignment: the whole request refused with the same reason, even the ticket it also moves.
    const before = await state();
    const res = await post(
      '/api/v2/agenda/reassign',
      { to_user_id: opB.id, reminder_ids: [reminder], ticket_ids: [ticketC] },
      admin,
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe(single.json().message);
    expect(res.json()._data.errors).toEqual({ to_user_id: single.json()._data.errors.user_id });
    expect(await state()).toEqual(before);

    // A ticket whose reassignment is refused (someone else's edit lock) keeps its reminders.
    await ctx.db
      .insertInto('log_editing_tickets')
      .values({ ticket_id: ticketA, user_id: opA.id, expires_at: new Date(Date.now() + 10 * MIN) })
      .execute();
    const locked = await post(
      '/api/v2/agenda/reassign',
      { to_user_id: opB.id, reminder_ids: [reminder], ticket_ids: [ticketA] },
      admin,
    );
    expect(locked.statusCode, locked.body).toBe(200);
    expect(locked.json()._data).toMatchObject({ tickets: 0, reminders: 0, refused: 1 });
    expect(
      (
        await ctx.db
          .selectFrom('reminders')
          .select('user_id')
          .where('id', '=', reminder)
          .executeTakeFirstOrThrow()
      ).user_id,
    ).toBe(opA.id);
    await ctx.db.deleteFrom('log_editing_tickets').where('ticket_id', '=', ticketA).execute();

    // With its ticket reassigned in the same request, the reminder goes too.
    const moved = await post(
      '/api/v2/agenda/reassign',
      { to_user_id: opB.id, reminder_ids: [reminder], ticket_ids: [ticketA] },
      admin,
    );
    expect(moved.statusCode, moved.body).toBe(200);
    expect(
      (
        await ctx.db
          .selectFrom('reminders')
          .select('user_id')
          .where('id', '=', reminder)
          .executeTakeFirstOrThrow()
      ).user_id,
    ).toBe(opB.id);
    expect(
      (
        await ctx.db
          .selectFrom('tickets')
          .select('user_assigned_id')
          .where('id', '=', ticketA)
          .executeTakeFirstOrThrow()
      ).user_assigned_id,
    ).toBe(opB.id);
  });
});

describe('reminders by id: another operator\u2019s record answers as one that does not exist', () => {
  it('every reminder route by id, and a new reminder on a ticket, gives the same status and body for another operator\u2019s reminder or ticket as for a missing one, and changes nothing', async () => {
    const theirsTicket = (await seedChain(ctx.db, opB.id, '9104')).ticket;
    const made = await create(opB.token, {
      ticket_id: theirsTicket,
      due_at: at(-MIN),
      comment: 'Solo de B',
    });
    expect(made.statusCode, made.body).toBe(201);
    // Pending and already due: its owner could edit, snooze, complete or dismiss it.
    const reminder = made.json()._data.properties.id as number;
    const missingReminder = 2_000_000_000;
    const missingTicket = 2_000_000_000;
    const state = async () => ({
      reminders: await ctx.db.selectFrom('reminders').selectAll().orderBy('id').execute(),
      audit: (
        await ctx.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('entity', '=', 'reminders')
          .executeTakeFirstOrThrow()
      ).n,
    });
    const before = await state();

    const put = (url: string, payload: object) =>
      ctx.request({ method: 'PUT', url, payload, token: opA.token });
    const routes: Array<
      [string, (id: number, ticket: number) => Promise<{ statusCode: number; body: string }>]
    > = [
      [
        'GET /reminders/{id}',
        (id) => ctx.request({ method: 'GET', url: `/api/v2/reminders/${id}`, token: opA.token }),
      ],
      [
        'PUT /reminders/{id}',
        (id) => put(`/api/v2/reminders/${id}`, { comment: 'Cambiado por A', due_at: at(60 * MIN) }),
      ],
      [
        'POST /reminders/{id}/snooze',
        (id) => post(`/api/v2/reminders/${id}/snooze`, { due_at: at(60 * MIN) }, opA.token),
      ],
      [
        'POST /reminders/{id}/complete',
        (id) => post(`/api/v2/reminders/${id}/complete`, {}, opA.token),
      ],
      [
        'POST /reminders/{id}/dismiss',
        (id) => post(`/api/v2/reminders/${id}/dismiss`, {}, opA.token),
      ],
      [
        'POST /reminders (ticket_id)',
        (_, ticket) =>
          create(opA.token, {
            ticket_id: ticket,
            due_at: at(60 * MIN),
            comment: 'En ticket ajeno',
          }),
      ],
    ];
    for (const [route, call] of routes) {
      const theirs = await call(reminder, theirsTicket);
      const missing = await call(missingReminder, missingTicket);
      expect(theirs.statusCode, `${route}: ${theirs.body}`).toBeGreaterThanOrEqual(400);
      expect([theirs.statusCode, theirs.body], route).toEqual([missing.statusCode, missing.body]);
    }
    expect(JSON.parse((await routes[0]![1](reminder, theirsTicket)).body)).toMatchObject({
      statusCode: 404,
      message: REMINDER_MSG.notFound,
    });
    expect(JSON.parse((await routes[5]![1](reminder, theirsTicket)).body)).toMatchObject({
      statusCode: 422,
      _data: { errors: { ticket_id: [REMINDER_MSG.ticketNotFound] } },
    });
    expect(await state()).toEqual(before);

    // Their owner, an administrator or a developer still reach it; a tutor is refused by role.
    expect(
      (await ctx.request({ method: 'GET', url: `/api/v2/reminders/${reminder}`, token: opB.token }))
        .statusCode,
    ).toBe(200);
    expect(
      (await ctx.request({ method: 'GET', url: `/api/v2/reminders/${reminder}`, token: admin }))
        .statusCode,
    ).toBe(200);
    const developer = await ctx.userWithRole('developer');
    expect(
      (
        await ctx.request({
          method: 'GET',
          url: `/api/v2/reminders/${reminder}`,
          token: developer.token,
        })
      ).statusCode,
    ).toBe(200);
    const byTutor = await ctx.request({
      method: 'GET',
      url: `/api/v2/reminders/${reminder}`,
      token: tutor.token,
    });
    expect([byTutor.statusCode, byTutor.json().message]).toEqual([403, MSG.forbidden]);
    expect((await post(`/api/v2/reminders/${reminder}/complete`, {}, opB.token)).statusCode).toBe(
      200,
    );
  });
});
