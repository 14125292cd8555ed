import {
  deleteTicket,
  deleteTicketDetail,
  deleteTicketLock,
  deleteTicketsMultiple,
  deleteTicketsMultipleRefused,
  getEnrolmentTickets,
  getTicket,
  getTicketDetailsHref,
  getTicketLockFree,
  getTicketLockHeld,
  getTicketLocks,
  getTickets,
  getTicketsByCode,
  getTicketsByDates,
  getTicketsByOperator,
  getTicketsOfCourse,
  postTicket,
  postTicketDetail,
  postTicketDetailsMultiple,
  postTicketLock,
  postTicketsMultiple,
  putTicket,
  usersList,
} from '../../../../packages/contract/src/legacy/index.js';
import {
  PERMISSIONS,
  RESERVED_USER,
  ROLE_KEYS,
  TICKET_MSG,
  type Capability,
} from '@sigaf/contract';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { seed } from '../../src/db/seed.js';
import { TEST_ADMIN } from '../fixtures.js';
import { createTestContext } from '../helpers.js';
import { waitFor } from '../mail-data.js';
import { ROOT } from '../server-process.js';
import {
  demoWorld,
  expectShape,
  originalClient,
  type ClientAnswer,
  type DemoWorld,
  type OriginalClient,
} from './original-client.js';

/**
 * The original SIGAF 1.8.6 client against our server, for tickets, their contact attempts and
 * their edit locks (docs/development/original-api.md §2.10-§2.12, §1.5-§1.7, §3 row 2): every call as it sends
 * it, every answer checked against what it reads, and its ticket workflows step by step.
 */

let world: DemoWorld;
let admin: OriginalClient;
let op1: OriginalClient;
let op1Id: number;
let adminId: number;
/** The demo course that arrives synchronised with Moodle (its students have activity results). */
let courseId: number;
const ids: Record<
  | 'open'
  | 'closed'
  | 'email'
  | 'phone'
  | 'incoming'
  | 'outgoing'
  | 'high'
  | 'medium'
  | 'low'
  | 'problem'
  | 'success'
  | 'failure',
  number
> = {} as never;

type Ticket = z.infer<typeof getTicket>['_data'];

/**
 * Administración ticket › Eliminar (ManageTicket.vue confirmDeleteTicket, ticket.js
 * deleteMultipleTicket): the selected rows are removed from the table, without a message, only
 * when the answer is a 2xx with `success: true`; anything else (axios throws on a non-2xx) shows
 * "Ha ocurrido un error." and keeps every selected row.
 */
const manageTicketRemovesRows = (res: ClientAnswer) =>
  res.status >= 200 && res.status < 300 && res.body?.success === true;

/** Calls as the original client and checks the HTTP status and the answer's shape. */
async function expectCall<T extends z.ZodTypeAny>(
  c: OriginalClient,
  method: string,
  url: string,
  schema: T,
  status = 200,
  body?: unknown,
): Promise<z.infer<T>> {
  const what = `${method} ${url}`;
  const res = await c.call(method, url, body);
  expect(res.status, `${what}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(status);
  return expectShape(schema, res, what);
}

async function signIn(c: OriginalClient, email: string) {
  const res = await c.call('POST', '/api/auth/login', {
    id: '',
    rut: '',
    name: '',
    phone: '',
    mobile: '',
    email,
    role: null,
    password: world.password,
    isFirstLogin: '',
    role_id: '',
  });
  expect(res.status).toBe(200);
  c.token = res.body.access_token;
  return (await c.call('GET', '/api/auth/user')).body.user.properties.id as number;
}

/** The six option ids and the two users, as SigafCreateSingleTicket.vue:703-719 sends them. */
function ticketBody(enrolment: number | number[], extra: Record<string, unknown> = {}) {
  return {
    course_registered_user_id: enrolment,
    type_ticket_id: ids.phone,
    source_ticket_id: ids.outgoing,
    status_ticket_id: ids.open,
    priority_ticket_id: ids.medium,
    motive_ticket_id: ids.problem,
    user_create_id: op1Id,
    user_assigned_id: op1Id,
    ...extra,
  };
}

/** The PUT body of SigafEditSingleTicket.vue:655-672 / EditTicket.vue:373-391 (no version). */
function editBody(t: Ticket, changes: Record<string, unknown> = {}) {
  const p = t.properties;
  return {
    ticket_id: p.id,
    course_registered_user_id: p.courseRegisteredUser.id,
    type_ticket_id: p.typeTicket.id,
    source_ticket_id: p.sourceTicket.id,
    status_ticket_id: p.statusTicket.id,
    priority_ticket_id: p.priorityTicket.id,
    motive_ticket_id: p.motiveTicket.id,
    user_assigned_id: p.userAssigned.id,
    user_create_id: p.userCreated.id,
    ...changes,
  };
}

/** Enrolments of the course that have Moodle results, without tickets of this file yet. */
let spareEnrolments: number[] = [];
const nextEnrolment = () => spareEnrolments.shift()!;

beforeAll(async () => {
  world = await demoWorld();
  world.worker.start();
  courseId = world.summary.queuedCourseId!;
  await waitFor(
    async () =>
      Number(
        (
          await world.ctx.db
            .selectFrom('activity_course_users')
            .select(sql<number>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ) > 0,
    90_000,
    'the first course synchronised',
  );
  const db = world.ctx.db;
  // What staff do first (Mantenedor › Sección, Configuración › Actividades): the course's
  // activities filed in a unit, so the student card reads a percentage of them.
  const unit = await db
    .insertInto('sections')
    .values({ description: 'Unidad 1' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('activities')
    .set({ section_id: unit.id })
    .where('course_id', '=', courseId)
    .execute();
  const key = async (
    table:
      | 'status_tickets'
      | 'type_tickets'
      | 'source_tickets'
      | 'priority_tickets'
      | 'motive_tickets'
      | 'status_detail_tickets',
    k: string,
  ) => (await db.selectFrom(table).select('id').where('key', '=', k).executeTakeFirstOrThrow()).id;
  Object.assign(ids, {
    open: await key('status_tickets', 'open'),
    closed: await key('status_tickets', 'closed'),
    email: await key('type_tickets', 'email'),
    phone: await key('type_tickets', 'phone'),
    incoming: await key('source_tickets', 'incoming'),
    outgoing: await key('source_tickets', 'outgoing'),
    high: await key('priority_tickets', 'high'),
    medium: await key('priority_tickets', 'medium'),
    low: await key('priority_tickets', 'low'),
    problem: await key('motive_tickets', 'problem'),
    success: await key('status_detail_tickets', 'success'),
    failure: await key('status_detail_tickets', 'failure'),
  });
  spareEnrolments = (
    await sql<{ id: number }>`
      select e.id from course_registered_users e
      where e.course_id = ${courseId} and exists (select 1 from activity_course_users a where a.course_registered_user_id = e.id)
        and not exists (select 1 from tickets t where t.course_registered_user_id = e.id)
      order by e.id`.execute(db)
  ).rows.map((r) => r.id);
  admin = originalClient(world.ctx);
  op1 = originalClient(world.ctx);
  adminId = await signIn(admin, 'demo.admin@sigaf.cl');
  op1Id = await signIn(op1, 'operador1@sigaf.cl');
}, 150_000);
afterAll(() => world?.close());

describe('§2.10 the ticket screen of a course', () => {
  it('§5.1 §5.4 §5.5 §5.6 "Buscar" lists the course tickets as the original reads them (flat relationships, raw enrolment, raw attempts, dates)', async () => {
    const list = await expectCall(
      admin,
      'GET',
      `/api/v2/tickets/course-registered-users/course/${courseId}`,
      getTicketsOfCourse,
    );
    const rows = list._data.collections;
    expect(rows.length).toBeGreaterThan(0);
    // The screen shows the open ones; the list is the course's open tickets.
    expect(rows.every((t) => t.properties.statusTicket.description === 'Abierto')).toBe(true);
    for (const t of rows) {
      const p = t.properties;
      expect(t.relationships.links.href).toMatch(
        new RegExp(`/api/v2/tickets/${p.id}/ticket-details$`),
      );
      expect(p.updatedAt).toBe(p.createdAt);
      expect(p.courseRegisteredUser.course.category_id).toBeGreaterThan(0);
      // Attempts are oldest first, as the history sub-table lists them.
      const times = t.relationships.array.map((d) => new Date(d.created_at).getTime());
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
    // Students of the synchronised course carry their Moodle results (the student card, mapUser).
    const withResults = rows.find(
      (t) => t.properties.courseRegisteredUser.activity_course_users.length > 0,
    );
    expect(withResults, 'a ticket whose student has Moodle results').toBeDefined();
    const result = withResults!.properties.courseRegisteredUser.activity_course_users[0]!;
    expect(['Tareas', 'Foros', 'Cuestionarios', 'Encuestas']).toContain(result.activity.type);
    // The demo tickets all have attempts: the count is read as "Intentos", the raw ones expand the history.
    expect(rows.every((t) => t.relationships.numberOfElements > 0)).toBe(true);
    const raw = rows[0]!.relationships.array[0]!;
    expect(['Exitoso', 'Fallido']).toContain(raw.status_detail_ticket.description);
    expect(raw.status_detail_ticket_id === ids.success).toBe(
      raw.status_detail_ticket.description === 'Exitoso',
    );
  });

  it('§5.6 an operator sees only the tickets assigned to them (userAssigned.id, never null); the Dashboard list loads', async () => {
    const list = await expectCall(
      op1,
      'GET',
      `/api/v2/tickets/course-registered-users/course/${courseId}`,
      getTicketsOfCourse,
    );
    expect(list._data.collections.length).toBeGreaterThan(0);
    expect(list._data.collections.every((t) => t.properties.userAssigned.id === op1Id)).toBe(true);
    await expectCall(op1, 'GET', '/api/v2/tickets', getTickets);
    const all = await expectCall(admin, 'GET', '/api/v2/tickets', getTickets);
    expect(all._data.collections.length).toBeGreaterThan(0);
  });

  it('§5.4 §5.5 the raw attempts and enrolments of a page are read in a bounded number of queries, whatever its size', async () => {
    // Every statement the server runs goes through the database's executor: count them per request.
    const executor = world.ctx.db.getExecutor() as unknown as {
      executeQuery: (...args: unknown[]) => Promise<unknown>;
    };
    const original = executor.executeQuery;
    let count = 0;
    executor.executeQuery = function (this: unknown, ...args: unknown[]) {
      count++;
      return original.apply(this, args);
    };
    const queriesFor = async (perPage: number) => {
      count = 0;
      const list = await expectCall(
        admin,
        'GET',
        `/api/v2/tickets?course_id=${courseId}&status=all&page=1&perPage=${perPage}`,
        getTickets,
      );
      expect(list._data.collections).toHaveLength(perPage);
      return count;
    };
    // The fewest of three requests: a statement of background work (a keeper's tick) or of set-up
    // (a new pooled connection on PostgreSQL) may fall within one request's count.
    const fewest = async (perPage: number) =>
      Math.min(await queriesFor(perPage), await queriesFor(perPage), await queriesFor(perPage));
    try {
      const small = await fewest(2);
      // At least the page, its attempts and its enrolments' Moodle results.
      expect(small).toBeGreaterThanOrEqual(3);
      // Twenty times the tickets, the same statements: an N+1 read would add dozens.
      expect(Math.abs((await fewest(40)) - small)).toBeLessThanOrEqual(1);
    } finally {
      executor.executeQuery = original;
    }
  });

  it('§5.3 follows a ticket\'s ticket-details href: the attempts, oldest first, with "dd-mm-yyyy HH:MM"', async () => {
    const list = await expectCall(
      op1,
      'GET',
      `/api/v2/tickets/course-registered-users/course/${courseId}`,
      getTicketsOfCourse,
    );
    const t =
      list._data.collections.find((x) => x.relationships.numberOfElements > 1) ??
      list._data.collections[0]!;
    const res = await op1.follow(t.relationships.links.href);
    expect(res.status).toBe(200);
    const details = expectShape(getTicketDetailsHref, res, `GET ${t.relationships.links.href}`)
      ._data.relationships.collection.data;
    expect(details.map((d) => d.properties.id)).toEqual(t.relationships.array.map((d) => d.id));
    // The summary splits createdAt on the space: the date, then the hour.
    const [date, hour] = details[0]!.properties.createdAt.split(' ');
    expect(date).toMatch(/^\d{2}-\d{2}-\d{4}$/);
    expect(hour).toMatch(/^\d{2}:\d{2}$/);
    // "Operador responsable": the avatar reads the first two words of the name.
    expect(details[0]!.properties.userCreated.name.split(' ')[1]).toBeTruthy();
  });
});

describe('§2.10 §2.11 creating tickets', () => {
  it('§5.6 "Individual": POST /tickets gives a full ticket resource, then its first attempt; the student history lists it', async () => {
    const enrolment = nextEnrolment();
    const created = await expectCall(
      op1,
      'POST',
      '/api/v2/tickets',
      postTicket,
      201,
      ticketBody(enrolment),
    );
    const t = created._data;
    expect(t.properties).toMatchObject({
      statusTicket: { description: 'Abierto' },
      userAssigned: { id: op1Id },
      userCreated: { id: op1Id },
      closingDate: null,
      ageTicket: 0,
    });
    expect(t.relationships.numberOfElements).toBe(0);
    expect(t.properties.courseRegisteredUser.id).toBe(enrolment);
    expect(t.properties.courseRegisteredUser.activity_course_users.length).toBeGreaterThan(0);

    await expectCall(op1, 'POST', '/api/v2/ticket-details', postTicketDetail, 201, {
      comment: 'Se contacta al alumno.',
      ticket_id: t.properties.id,
      status_detail_ticket_id: ids.success,
      user_created_id: op1Id,
    });

    const history = await expectCall(
      op1,
      'GET',
      `/api/v2/course-registered-user/${enrolment}/tickets`,
      getEnrolmentTickets,
    );
    const mine = history._data.collections.find((x) => x.properties.id === t.properties.id)!;
    expect(mine.relationships.numberOfElements).toBe(1);
    expect(mine.relationships.array[0]).toMatchObject({
      comment: 'Se contacta al alumno.',
      status_detail_ticket_id: ids.success,
      user_created: { name: 'Paula Operadora Reyes' },
    });
  });

  it('§5.6 a ticket created closed (`closing_date: true`) has its closing date and time', async () => {
    const created = await expectCall(
      op1,
      'POST',
      '/api/v2/tickets',
      postTicket,
      201,
      ticketBody(nextEnrolment(), { status_ticket_id: ids.closed, closing_date: true }),
    );
    expect(created._data.properties.statusTicket.description).toBe('Cerrado');
    expect(created._data.properties.closingDate).toBe(created._data.properties.createdAt);
    expect(created._data.properties.timeClosingDate).toMatch(/^\d{2}:\d{2}$/);
  });

  it('§5.6 "Masivo": POST /tickets/multiple answers an array of ticket resources; the first attempt goes to all of them', async () => {
    const enrolments = [nextEnrolment(), nextEnrolment(), nextEnrolment()];
    const created = await expectCall(
      op1,
      'POST',
      '/api/v2/tickets/multiple',
      postTicketsMultiple,
      201,
      ticketBody(enrolments, { type_ticket_id: ids.email }),
    );
    expect(created._data.map((t) => t.properties.courseRegisteredUser.id)).toEqual(enrolments);
    const ticketIds = created._data.map((t) => t.properties.id);
    await expectCall(
      op1,
      'POST',
      '/api/v2/ticket-details/multiple',
      postTicketDetailsMultiple,
      201,
      {
        comment: 'Correo masivo enviado.',
        ticket_id: ticketIds,
        status_detail_ticket_id: ids.success,
        user_created_id: op1Id,
      },
    );
    for (const id of ticketIds) {
      const t = await expectCall(op1, 'GET', `/api/v2/tickets/${id}`, getTicket);
      expect(t._data.relationships.numberOfElements).toBe(1);
      expect(t._data.relationships.array[0]!.comment).toBe('Correo masivo enviado.');
    }
  });

  it('§5.11 deletes a ticket without attempts (body `true`): HTTP 200', async () => {
    const created = await expectCall(
      op1,
      'POST',
      '/api/v2/tickets',
      postTicket,
      201,
      ticketBody(nextEnrolment()),
    );
    await expectCall(op1, 'DELETE', `/api/v2/tickets/${created._data.properties.id}`, deleteTicket);
    expect((await op1.call('GET', `/api/v2/tickets/${created._data.properties.id}`)).status).toBe(
      404,
    );
  });

  it('§5.11 bad input is a 4xx with a Spanish message, never a 500', async () => {
    const bad = await op1.call('POST', '/api/v2/tickets', ticketBody(2_000_000_000));
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ success: false });
    expect(bad.body.message).toMatch(/[a-záéíóúñ]/i);
    const dates = await admin.call('GET', '/api/v2/tickets/dates/hoy/mañana');
    expect(dates.status).toBe(422);
    expect(dates.body.message).toBeTruthy();
  });
});

describe('§2.10 §2.12 working a ticket under its edit lock', () => {
  it('§5.7 §5.11 opens, locks (lookup 200 + statusCode 204), saves (PUT 200, lock freed), adds an attempt, then cancels an edit (DELETE lock 200)', async () => {
    const created = await expectCall(
      op1,
      'POST',
      '/api/v2/tickets',
      postTicket,
      201,
      ticketBody(nextEnrolment()),
    );
    const id = created._data.properties.id;

    // STableTicket.vue:304-317: fetch the ticket, look for a lock, compare versions, lock, open the details.
    const fresh = await expectCall(op1, 'GET', `/api/v2/tickets/${id}`, getTicket);
    expect(fresh._data.properties.version).toBe(created._data.properties.version);
    const free = await expectCall(
      op1,
      'GET',
      `/api/v2/log-editing-tickets/ticket/${id}`,
      getTicketLockFree,
    );
    expect(free.statusCode).toBe(204);
    const lock = await expectCall(op1, 'POST', '/api/v2/log-editing-tickets', postTicketLock, 201, {
      ticket_id: id,
      user_id: op1Id,
    });
    expect(lock._data.properties.ticket.ticket_code).toBe(created._data.properties.ticketCode);
    const followed = await op1.follow(fresh._data.relationships.links.href);
    expect(followed.status).toBe(200);
    expectShape(getTicketDetailsHref, followed, 'GET ticket-details href');

    // Someone else opening it now reads "bloqueado": HTTP 200, any statusCode but 204.
    const held = await expectCall(
      admin,
      'GET',
      `/api/v2/log-editing-tickets/ticket/${id}`,
      getTicketLockHeld,
    );
    expect(held._data.properties.user.name).toBe('Paula Operadora Reyes');
    // Its holder may open it again (a tab closed without "Cancelar"): taking the lock again renews it.
    await expectCall(op1, 'GET', `/api/v2/log-editing-tickets/ticket/${id}`, getTicketLockFree);
    const renewed = await expectCall(
      op1,
      'POST',
      '/api/v2/log-editing-tickets',
      postTicketLock,
      200,
      { ticket_id: id, user_id: op1Id },
    );
    expect(renewed._data.properties.id).toBe(lock._data.properties.id);

    // "Guardar": the PUT (no version), then the attempt, then the ticket again.
    const saved = await expectCall(
      op1,
      'PUT',
      `/api/v2/tickets/${id}`,
      putTicket,
      200,
      editBody(fresh._data, { priority_ticket_id: ids.high }),
    );
    expect(saved._data.properties).toMatchObject({
      priorityTicket: { description: 'Alta' },
      version: fresh._data.properties.version + 1,
    });
    await expectCall(op1, 'POST', '/api/v2/ticket-details', postTicketDetail, 201, {
      comment: 'No contesta.',
      ticket_id: id,
      status_detail_ticket_id: ids.failure,
      user_created_id: op1Id,
    });
    const after = await expectCall(op1, 'GET', `/api/v2/tickets/${id}`, getTicket);
    expect(after._data.relationships.array.map((d) => d.status_detail_ticket.description)).toEqual([
      'Fallido',
    ]);
    // The save freed the lock (the original client never releases it after saving).
    await expectCall(op1, 'GET', `/api/v2/log-editing-tickets/ticket/${id}`, getTicketLockFree);

    // Open again and "Cancelar": the dialog deletes the lock by `_data.properties.id`.
    const again = await expectCall(
      op1,
      'POST',
      '/api/v2/log-editing-tickets',
      postTicketLock,
      201,
      { ticket_id: id, user_id: op1Id },
    );
    await expectCall(
      op1,
      'DELETE',
      `/api/v2/log-editing-tickets/${again._data.properties.id}`,
      deleteTicketLock,
    );
    await expectCall(op1, 'GET', `/api/v2/log-editing-tickets/ticket/${id}`, getTicketLockFree);

    // Closing it: the status "Cerrado" with `closing_date: true`.
    const closed = await expectCall(
      op1,
      'PUT',
      `/api/v2/tickets/${id}`,
      putTicket,
      200,
      editBody(after._data, { status_ticket_id: ids.closed, closing_date: true }),
    );
    expect(closed._data.properties).toMatchObject({
      statusTicket: { description: 'Cerrado' },
      closingDate: closed._data.properties.createdAt,
    });
  });

  it('§5.7 an administrator takes the lock over while the operator edits: her save is refused (409, who holds it), nothing written, and her "Cancelar" leaves the new lock', async () => {
    const created = await expectCall(
      op1,
      'POST',
      '/api/v2/tickets',
      postTicket,
      201,
      ticketBody(nextEnrolment()),
    );
    const id = created._data.properties.id;
    const fresh = await expectCall(op1, 'GET', `/api/v2/tickets/${id}`, getTicket);
    const mine = await expectCall(op1, 'POST', '/api/v2/log-editing-tickets', postTicketLock, 201, {
      ticket_id: id,
      user_id: op1Id,
    });
    // Desbloqueo ticket, then the administrator opens it.
    await expectCall(
      admin,
      'DELETE',
      `/api/v2/log-editing-tickets/${mine._data.properties.id}`,
      deleteTicketLock,
    );
    await expectCall(admin, 'POST', '/api/v2/log-editing-tickets', postTicketLock, 201, {
      ticket_id: id,
      user_id: adminId,
    });

    // Her "Guardar": refused. SigafEditSingleTicket.vue reads only `success` of putTicket and shows
    // nothing when it is false, whatever the status and message (no answer makes it speak).
    const refused = await op1.call(
      'PUT',
      `/api/v2/tickets/${id}`,
      editBody(fresh._data, { priority_ticket_id: ids.high }),
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false });
    expect(refused.body.message).toMatch(
      /^No se puede editar\. Este ticket está bloqueado por .+ desde las \d{2}:\d{2}\.$/,
    );
    const after = await expectCall(op1, 'GET', `/api/v2/tickets/${id}`, getTicket);
    expect(after._data.properties).toMatchObject({
      version: fresh._data.properties.version,
      priorityTicket: fresh._data.properties.priorityTicket,
    });
    // Closing the dialog deletes the lock she took: gone, the administrator's stays.
    expect(
      (await op1.call('DELETE', `/api/v2/log-editing-tickets/${mine._data.properties.id}`)).status,
    ).toBe(404);
    const held = await expectCall(
      op1,
      'GET',
      `/api/v2/log-editing-tickets/ticket/${id}`,
      getTicketLockHeld,
    );
    expect(held._data.properties.user.id).toBe(adminId);
    await expectCall(
      admin,
      'PUT',
      `/api/v2/tickets/${id}`,
      putTicket,
      200,
      editBody(after._data, { priority_ticket_id: ids.low }),
    );
  });

  it('§5.7 "Desbloqueo ticket": the lock list with the ticket code and operator, and an unlock by the administrator', async () => {
    const created = await expectCall(
      op1,
      'POST',
      '/api/v2/tickets',
      postTicket,
      201,
      ticketBody(nextEnrolment()),
    );
    const id = created._data.properties.id;
    const lock = await expectCall(op1, 'POST', '/api/v2/log-editing-tickets', postTicketLock, 201, {
      ticket_id: id,
      user_id: op1Id,
    });
    const locks = await expectCall(admin, 'GET', '/api/v2/log-editing-tickets', getTicketLocks);
    const row = locks._data.collections.find((l) => l.properties.id === lock._data.properties.id)!;
    expect(row.properties).toMatchObject({
      ticket: { ticket_code: created._data.properties.ticketCode },
      user: { name: 'Paula Operadora Reyes' },
    });
    await expectCall(
      admin,
      'DELETE',
      `/api/v2/log-editing-tickets/${row.properties.id}`,
      deleteTicketLock,
    );
    await expectCall(op1, 'GET', `/api/v2/log-editing-tickets/ticket/${id}`, getTicketLockFree);
  });
});

describe('§2.10 Administración ticket', () => {
  it('§5.6 searches by code, operator and dates: `_data.collections` always, every ticket resource complete', async () => {
    const some = (
      await expectCall(
        admin,
        'GET',
        `/api/v2/tickets/course-registered-users/course/${courseId}`,
        getTicketsOfCourse,
      )
    )._data.collections[0]!;
    const byCode = await expectCall(
      admin,
      'GET',
      `/api/v2/tickets/code/${encodeURIComponent(some.properties.ticketCode)}`,
      getTicketsByCode,
    );
    expect(byCode._data.collections.map((t) => t.properties.ticketCode)).toContain(
      some.properties.ticketCode,
    );
    const none = await expectCall(
      admin,
      'GET',
      '/api/v2/tickets/code/NO-EXISTE-9999',
      getTicketsByCode,
    );
    expect(none._data.collections).toEqual([]);

    const byOperator = await expectCall(
      admin,
      'GET',
      `/api/v2/tickets/operator/${op1Id}`,
      getTicketsByOperator,
    );
    expect(byOperator._data.collections.length).toBeGreaterThan(0);
    expect(byOperator._data.collections.every((t) => t.properties.userAssigned.id === op1Id)).toBe(
      true,
    );

    // The range picker gives YYYY-MM-DD, in the order picked (here the later day first).
    const day = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const byDates = await expectCall(
      admin,
      'GET',
      `/api/v2/tickets/dates/${day(1)}/${day(-10)}`,
      getTicketsByDates,
    );
    expect(byDates._data.collections.length).toBeGreaterThan(0);
    const toDay = (ddmmyyyy: string) => ddmmyyyy.split('-').reverse().join('-');
    expect(
      byDates._data.collections.every(
        (t) => toDay(t.properties.createdAt) >= day(-11) && toDay(t.properties.createdAt) <= day(1),
      ),
    ).toBe(true);
  });

  it('§5.5 §5.11 the edit dialog: PUT as the administrator (HTTP 200), deletes an attempt by its raw id, deletes tickets in bulk', async () => {
    const byOperator = await expectCall(
      admin,
      'GET',
      `/api/v2/tickets/operator/${op1Id}`,
      getTicketsByOperator,
    );
    const t = byOperator._data.collections.find((x) => x.relationships.array.length > 1)!;
    const saved = await expectCall(
      admin,
      'PUT',
      `/api/v2/tickets/${t.properties.id}`,
      putTicket,
      200,
      editBody(t, { motive_ticket_id: ids.problem, priority_ticket_id: ids.low }),
    );
    expect(saved._data.properties.priorityTicket.description).toBe('Baja');
    expect(saved._data.relationships.array.length).toBe(t.relationships.array.length);

    const attempt = t.relationships.array[0]!;
    await expectCall(admin, 'DELETE', `/api/v2/ticket-details/${attempt.id}`, deleteTicketDetail);
    const after = await expectCall(admin, 'GET', `/api/v2/tickets/${t.properties.id}`, getTicket);
    expect(after._data.relationships.array.map((d) => d.id)).not.toContain(attempt.id);

    const made = await expectCall(
      admin,
      'POST',
      '/api/v2/tickets/multiple',
      postTicketsMultiple,
      201,
      ticketBody([nextEnrolment(), nextEnrolment()], { user_create_id: adminId }),
    );
    const gone = made._data.map((x) => x.properties.id);
    await expectCall(
      admin,
      'DELETE',
      `/api/v2/tickets/multiple/${JSON.stringify(gone)}`,
      deleteTicketsMultiple,
    );
    for (const id of gone)
      expect((await admin.call('GET', `/api/v2/tickets/${id}`)).status).toBe(404);
  });

  it('§5.11 Eliminar of a ticket with contact attempts: a failure the screen shows ("Ha ocurrido un error.", rows kept), nothing deleted', async () => {
    const byOperator = await expectCall(
      admin,
      'GET',
      `/api/v2/tickets/operator/${op1Id}`,
      getTicketsByOperator,
    );
    const withAttempts = byOperator._data.collections.find(
      (x) => x.relationships.array.length > 0,
    )!;
    const without = (
      await expectCall(
        admin,
        'POST',
        '/api/v2/tickets',
        postTicket,
        201,
        ticketBody(nextEnrolment(), { user_create_id: adminId }),
      )
    )._data;
    // The selection as the screen sends it: the ids as JSON, raw in the path.
    const selected = [without.properties.id, withAttempts.properties.id];
    const res = await admin.call('DELETE', `/api/v2/tickets/multiple/${JSON.stringify(selected)}`);
    expect(res.status).toBe(409);
    const refused = expectShape(
      deleteTicketsMultipleRefused,
      res,
      'DELETE /api/v2/tickets/multiple (a ticket with attempts)',
    );
    expect(manageTicketRemovesRows(res)).toBe(false);
    expect(refused._data.refused).toEqual([
      { id: withAttempts.properties.id, reason: TICKET_MSG.hasDetails },
    ]);
    expect(refused.message).toBe(
      TICKET_MSG.deletedNone([TICKET_MSG.hasDetailsOf(withAttempts.properties.ticketCode)]),
    );
    // The rows the screen keeps are still there, attempts and all (not even the one without attempts went).
    for (const id of selected) await expectCall(admin, 'GET', `/api/v2/tickets/${id}`, getTicket);
    expect(
      (await expectCall(admin, 'GET', `/api/v2/tickets/${withAttempts.properties.id}`, getTicket))
        ._data.relationships.array.length,
    ).toBe(withAttempts.relationships.array.length);
    // Selecting only what can go: the rows disappear and the tickets are gone.
    const ok = await admin.call(
      'DELETE',
      `/api/v2/tickets/multiple/${JSON.stringify([without.properties.id])}`,
    );
    expectShape(deleteTicketsMultiple, ok, 'DELETE /api/v2/tickets/multiple');
    expect(manageTicketRemovesRows(ok)).toBe(true);
    expect((await admin.call('GET', `/api/v2/tickets/${without.properties.id}`)).status).toBe(404);
  });

  it('§5.6 an operator at Administración ticket by URL: searches give their own tickets, Eliminar is refused as the screen shows errors; the permission matrix says so', async () => {
    const db = world.ctx.db;
    const op2Id = (
      await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'operador2@sigaf.cl')
        .executeTakeFirstOrThrow()
    ).id;
    const theirs = await db
      .selectFrom('tickets')
      .select(['id', 'ticket_code'])
      .where('user_assigned_id', '=', op2Id)
      .where('user_create_id', '!=', op1Id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    // Searches: the same tickets an operator works anywhere else (assigned to them), never another's.
    const mine = (
      await expectCall(op1, 'GET', `/api/v2/tickets/operator/${op1Id}`, getTicketsByOperator)
    )._data.collections;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((t) => t.properties.userAssigned.id === op1Id)).toBe(true);
    expect(
      (await expectCall(op1, 'GET', `/api/v2/tickets/operator/${op2Id}`, getTicketsByOperator))
        ._data.collections,
    ).toEqual([]);
    const own = mine[0]!.properties;
    expect(
      (
        await expectCall(
          op1,
          'GET',
          `/api/v2/tickets/code/${encodeURIComponent(own.ticketCode)}`,
          getTicketsByCode,
        )
      )._data.collections.map((t) => t.properties.id),
    ).toContain(own.id);
    expect(
      (
        await expectCall(
          op1,
          'GET',
          `/api/v2/tickets/code/${encodeURIComponent(theirs.ticket_code)}`,
          getTicketsByCode,
        )
      )._data.collections,
    ).toEqual([]);
    const day = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const byDates = (
      await expectCall(op1, 'GET', `/api/v2/tickets/dates/${day(-60)}/${day(1)}`, getTicketsByDates)
    )._data.collections;
    expect(byDates.length).toBeGreaterThan(0);
    expect(byDates.every((t) => t.properties.userAssigned.id === op1Id)).toBe(true);
    // Eliminar and the edit dialog's "Eliminar intento" are administrators': refused, the screen says so, nothing goes.
    const del = await op1.call('DELETE', `/api/v2/tickets/multiple/${JSON.stringify([own.id])}`);
    expect([del.status, manageTicketRemovesRows(del)]).toEqual([403, false]);
    const attempt = mine.find((t) => t.relationships.array.length > 0)!.relationships.array[0]!;
    expect((await op1.call('DELETE', `/api/v2/ticket-details/${attempt.id}`)).status).toBe(403);
    await expectCall(op1, 'GET', `/api/v2/tickets/${own.id}`, getTicket);

    // docs/development/permissions.md and PERMISSIONS say the same, and the routes declare it.
    const matrix = fs
      .readFileSync(path.join(ROOT, 'docs/development/permissions.md'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .map((line) => {
        const cells = line
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim());
        return {
          key: /`(\w+)`/.exec(cells[0]!)![1] as Capability,
          text: cells[0]!,
          roles: ROLE_KEYS.filter((_, i) => cells[i + 1] === '✓'),
        };
      });
    for (const row of matrix)
      if (row.key in PERMISSIONS)
        expect(row.roles, row.key).toEqual(
          ROLE_KEYS.filter((r) => PERMISSIONS[row.key].includes(r)),
        );
    const rowOf = (what: RegExp) => {
      const rows = matrix.filter((r) => what.test(r.text));
      expect(rows, String(what)).toHaveLength(1);
      return rows[0]!;
    };
    const access = (method: string, url: string) =>
      world.ctx.app.routeTable.find((r) => r.method === method && r.url === url)!.access;
    const searches = rowOf(/Administración ticket.*(code|operator|dates)/);
    expect(searches.roles).toEqual(['admin', 'developer', 'operator']);
    for (const url of [
      '/api/v2/tickets/code/:code',
      '/api/v2/tickets/operator/:id',
      '/api/v2/tickets/dates/:from/:to',
    ])
      expect(access('GET', url), url).toEqual(PERMISSIONS[searches.key]);
    const actions = rowOf(/Administración ticket.*Eliminar/);
    expect(actions.roles).toEqual(['admin', 'developer']);
    for (const url of ['/api/v2/tickets/multiple/:ids', '/api/v2/ticket-details/:id'])
      expect(access('DELETE', url), url).toEqual(PERMISSIONS[actions.key]);
  });
});

/** The operator pickers and user id 2: docs/development/original-api.md §2.2. */
describe('§2.2 the operator pickers (SAutocompleteOperatorTicket.vue drops the user with id 2)', () => {
  /** user.js fetchUsers: no tutors, no developers; the picker then leaves out id 2. */
  const pickable = (users: Array<{ id: number; role: { description: string } }>) =>
    users
      .filter((u) => u.role.description !== 'Tutor' && u.role.description !== 'Developer')
      .filter((u) => u.id !== 2);

  it('offers every operator of the demo: id 2 is the reserved account, which signs nobody in and no list shows', async () => {
    const db = world.ctx.db;
    const operators = await db
      .selectFrom('users')
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select('users.id')
      .where('roles.key', '=', 'operator')
      .where('users.deleted_at', 'is', null)
      .execute();
    expect(operators.length).toBeGreaterThan(1);
    const users = expectShape(
      usersList,
      await admin.call('GET', '/api/v2/users'),
      'GET /api/v2/users',
    )._data.collections.map((u) => u.properties);
    expect(pickable(users).map((u) => u.id)).toEqual(
      expect.arrayContaining(operators.map((o) => o.id)),
    );
    expect(users.some((u) => u.id === RESERVED_USER.id)).toBe(false);
    // Searching by operador1 in Administración ticket: her own id, not the hidden one.
    expect(op1Id).not.toBe(RESERVED_USER.id);
    const reserved = await db
      .selectFrom('users')
      .select(['email', 'deleted_at'])
      .where('id', '=', RESERVED_USER.id)
      .executeTakeFirstOrThrow();
    expect(reserved.email).toBe(RESERVED_USER.email);
    expect(reserved.deleted_at).not.toBeNull();
    for (const password of ['!', '', world.password])
      expect(
        (await originalClient(world.ctx).signIn(RESERVED_USER.email, password)).status,
      ).not.toBe(200);
    expect((await admin.call('GET', `/api/v2/users/${RESERVED_USER.id}`)).status).toBe(404);
  });

  it('a new installation: the first administrator is 1, id 2 is reserved, the second account created gets 3; an installation whose id 2 is a person keeps her', async () => {
    const ctx = await createTestContext();
    try {
      const first = await ctx.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', TEST_ADMIN.email)
        .executeTakeFirstOrThrow();
      expect(first.id).toBe(1);
      const second = await ctx.userWithRole('operator');
      expect(second.id).toBe(3);
      const client = originalClient(ctx);
      client.token = second.token;
      const users = expectShape(
        usersList,
        await client.call('GET', '/api/v2/users'),
        'GET /api/v2/users',
      )._data.collections.map((u) => u.properties);
      expect(pickable(users).map((u) => u.id)).toContain(second.id);

      // An installation from before: id 2 is a person. Starting again (the seed runs at every start) leaves her as she is.
      await ctx.db.deleteFrom('users').where('id', '=', RESERVED_USER.id).execute();
      const role = (
        await ctx.db
          .selectFrom('roles')
          .select('id')
          .where('key', '=', 'operator')
          .executeTakeFirstOrThrow()
      ).id;
      await ctx.db
        .insertInto('users')
        .values({
          id: RESERVED_USER.id,
          name: 'Olga Operadora',
          email: 'olga@sigaf.test',
          password: '!',
          is_first_login: 0,
          role_id: role,
          rut: null,
          phone: null,
          mobile: null,
        })
        .execute();
      await seed(ctx.db, {
        adminEmail: TEST_ADMIN.email,
        adminPassword: TEST_ADMIN.password,
        adminName: TEST_ADMIN.name,
      });
      const kept = await ctx.db
        .selectFrom('users')
        .select(['email', 'deleted_at'])
        .where('id', '=', RESERVED_USER.id)
        .executeTakeFirstOrThrow();
      expect(kept).toEqual({ email: 'olga@sigaf.test', deleted_at: null });
    } finally {
      await ctx.close();
    }
  });
});
