import fs from 'node:fs';
import { IDEMPOTENCY_MSG } from '@sigaf/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';
import { seedMailTickets, tempDir } from './mail-data.js';

/** A send made twice (a double click, a retry) is one send: Idempotency-Key, or the same content within seconds. */
type Json = Record<string, any>;

let ctx: TestContext;
let dataDir: string;
let admin: string;
let op: { id: number; token: string };
let course: Awaited<ReturnType<typeof seedMailTickets>>;
/** A second server on the same database: nothing kept in one process's memory. */
let other: FastifyInstance;

beforeAll(async () => {
  dataDir = tempDir();
  ctx = await createTestContext({ DATA_DIR: dataDir });
  admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  op = await ctx.userWithRole('operator');
  course = await seedMailTickets(ctx.db, op.id, 6);
  other = await buildApp(ctx.config, ctx.db);
  await other.ready();
});
afterAll(async () => {
  await other?.close();
  await ctx.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let keys = 0;
const freshKey = () => `clave-${Date.now()}-${++keys}`;

const post = (url: string, token: string, payload: Json, key?: string, app?: FastifyInstance) => {
  const headers = {
    'content-type': 'application/json',
    authorization: `Bearer ${token}`,
    ...(key ? { 'idempotency-key': key } : {}),
  };
  return app
    ? app.inject({ method: 'POST', url: `/api/v2${url}`, headers, payload })
    : ctx.request({ method: 'POST', url: `/api/v2${url}`, token, payload, headers });
};

/** Messages queued to a student (by ticket) or in the course for an enrolment. */
const messagesOf = async (ticketId: number) =>
  (
    await ctx.db
      .selectFrom('mail_messages')
      .select('id')
      .where('ticket_id', '=', ticketId)
      .execute()
  ).length;
const allMessages = async () =>
  (await ctx.db.selectFrom('mail_messages').select('id').execute()).length;
const enrolmentOf = async (ticketId: number) =>
  (
    await ctx.db
      .selectFrom('tickets')
      .select('course_registered_user_id')
      .where('id', '=', ticketId)
      .executeTakeFirstOrThrow()
  ).course_registered_user_id;

describe('a send with an Idempotency-Key', () => {
  it('repeated with the same key is answered with the first answer and sends nothing more', async () => {
    const key = freshKey();
    const body = {
      ticketId: course.tickets[0]!,
      subject: 'Recordatorio',
      text: '<p>Hola {nombre}</p>',
    };
    const first = await post('/mail/single', op.token, body, key);
    expect(first.statusCode, first.body).toBe(201);
    expect(await messagesOf(course.tickets[0]!)).toBe(1);
    const again = await post('/mail/single', op.token, body, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await messagesOf(course.tickets[0]!)).toBe(1);
  });

  it('the same key with other content is a 422 in Spanish; nothing is sent', async () => {
    const key = freshKey();
    const ticketId = course.tickets[1]!;
    expect(
      (
        await post(
          '/mail/single',
          op.token,
          { ticketId, subject: 'Primero', text: '<p>Uno</p>' },
          key,
        )
      ).statusCode,
    ).toBe(201);
    const res = await post(
      '/mail/single',
      op.token,
      { ticketId, subject: 'Otro asunto', text: '<p>Uno</p>' },
      key,
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(IDEMPOTENCY_MSG.keyReused);
    expect(await messagesOf(ticketId)).toBe(1);
  });

  it('a malformed key is a 422 in Spanish, before anything is sent', async () => {
    const before = await allMessages();
    for (const key of ['corta', 'con espacios y más', 'x'.repeat(101)]) {
      const res = await post(
        '/mail/single',
        op.token,
        { ticketId: course.tickets[2]!, subject: 'Clave mala', text: '<p>x</p>' },
        key,
      );
      expect(res.statusCode, key).toBe(422);
      expect(res.json().message).toBe(IDEMPOTENCY_MSG.invalidKey);
    }
    expect(await allMessages()).toBe(before);
  });

  it('a key belongs to its user: another user with the same key sends their own', async () => {
    const key = freshKey();
    const body = { ticketId: course.tickets[2]!, subject: 'Dos personas', text: '<p>Hola</p>' };
    expect((await post('/mail/single', op.token, body, key)).statusCode).toBe(201);
    const theirs = await post('/mail/single', admin, body, key);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(await messagesOf(course.tickets[2]!)).toBe(2);
  });

  it('a refused send frees its key: the corrected one goes with the same key', async () => {
    const key = freshKey();
    const ticketId = course.tickets[3]!;
    expect(
      (await post('/mail/single', op.token, { ticketId, subject: '   ', text: '' }, key))
        .statusCode,
    ).toBe(422);
    expect(
      (
        await post(
          '/mail/single',
          op.token,
          { ticketId, subject: 'Ahora sí', text: '<p>Hola</p>' },
          key,
        )
      ).statusCode,
    ).toBe(201);
    expect(await messagesOf(ticketId)).toBe(1);
  });

  it('two clicks, two keys, the same content within seconds: one send, and either key answers it later', async () => {
    const body = { ticketId: course.tickets[3]!, subject: 'Doble clic', text: '<p>Hola</p>' };
    const before = await messagesOf(course.tickets[3]!);
    const [k1, k2] = [freshKey(), freshKey()];
    const first = await post('/mail/single', op.token, body, k1);
    const second = await post('/mail/single', op.token, body, k2);
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await messagesOf(course.tickets[3]!)).toBe(before + 1);
    // Past the seconds of the same content, each key still answers with the one send.
    await ctx.db.deleteFrom('idempotent_sends').where('key', 'like', 'same:%').execute();
    const retry = await post('/mail/single', op.token, body, k2);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await messagesOf(course.tickets[3]!)).toBe(before + 1);
  });

  it('two servers on one database, the same key at the same moment: one send', async () => {
    const key = freshKey();
    const ticketIds = [course.tickets[4]!, course.tickets[5]!];
    const body = {
      ticketsId: JSON.stringify(ticketIds),
      subject: 'Masivo',
      text: '<p>Hola {nombre}</p>',
    };
    const [a, b] = await Promise.all([
      post('/mail/massive', op.token, body, key),
      post('/mail/massive', op.token, body, key, other),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json()).toEqual(b.json());
    expect(
      [a.headers['idempotent-replayed'], b.headers['idempotent-replayed']].filter(Boolean),
    ).toEqual(['true']);
    expect((await messagesOf(ticketIds[0]!)) + (await messagesOf(ticketIds[1]!))).toBe(2);
  });
});

describe('a send without a key', () => {
  it('the same follow-up mail twice within seconds is one send; other content is another', async () => {
    const enrolmentIds = [await enrolmentOf(course.tickets[0]!)];
    const body = {
      enrolmentIds,
      subject: 'Seguimiento {nombre}',
      text: '<p>¿Cómo va el curso?</p>',
      CCRecipient: [],
      files: [],
    };
    const before = await allMessages();
    const first = await post('/follow-up/mail', op.token, body);
    expect(first.statusCode, first.body).toBe(201);
    const again = await post('/follow-up/mail', op.token, body, undefined, other);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await allMessages()).toBe(before + 1);
    expect(
      (await post('/follow-up/mail', op.token, { ...body, subject: 'Otro asunto' })).statusCode,
    ).toBe(201);
    expect(await allMessages()).toBe(before + 2);
  });

  it('the same mail from another user is their own send', async () => {
    const body = { ticketId: course.tickets[1]!, subject: 'Misma carta', text: '<p>Igual</p>' };
    const before = await messagesOf(course.tickets[1]!);
    expect((await post('/mail/single', op.token, body)).statusCode).toBe(201);
    expect((await post('/mail/single', admin, body)).statusCode).toBe(201);
    expect(await messagesOf(course.tickets[1]!)).toBe(before + 2);
  });

  it('the kept sends are bounded: expired rows are removed at the next send', async () => {
    await ctx.db
      .updateTable('idempotent_sends')
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .execute();
    expect(
      (
        await post('/mail/single', op.token, {
          ticketId: course.tickets[2]!,
          subject: 'Limpieza',
          text: '<p>x</p>',
        })
      ).statusCode,
    ).toBe(201);
    const rows = await ctx.db.selectFrom('idempotent_sends').select('key').execute();
    expect(rows).toHaveLength(1);
  });
});
