import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptSecret } from '../src/lib/crypto.js';
import { createTestContext, type TestContext } from './helpers.js';
import {
  createReceiver,
  header,
  headerParam,
  leaves,
  parseMime,
  type ReceivedMail,
  type Receiver,
} from './mail-receiver.js';
import { multipart, PDF, PNG, seedMailTickets, tempDir, testWorker, waitFor } from './mail-data.js';

/** Delivery to a real SMTP server (smtp-server on 127.0.0.1): content, volume, outages, restarts. */
type Json = Record<string, any>;

let ctx: TestContext;
let smtp: Receiver;
let dataDir: string;
let op: { id: number; token: string };

beforeAll(async () => {
  smtp = await createReceiver();
  dataDir = tempDir();
  ctx = await createTestContext({ DATA_DIR: dataDir, SMTP_URL: smtp.url, JOBS_CONCURRENCY: 16 });
  op = await ctx.userWithRole('operator');
});
afterAll(async () => {
  await ctx.close();
  await smtp.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const api = (url: string, payload: unknown, token = op.token) =>
  ctx.request({ method: 'POST', url: `/api/v2${url}`, token, payload: payload as Json });

const messageIdOf = (m: ReceivedMail) => header(parseMime(m.raw), 'message-id');
const receivedFor = (ids: Set<string>) => smtp.messages.filter((m) => ids.has(messageIdOf(m)));

async function messageIds(mailIds: number[]) {
  const rows = await ctx.db
    .selectFrom('mail_messages')
    .select('message_id')
    .where('id', 'in', mailIds)
    .execute();
  return new Set(rows.map((r) => r.message_id));
}

/** Every message arrived exactly once: one received copy per Message-ID. */
function expectExactlyOnce(ids: Set<string>) {
  const got = receivedFor(ids).map(messageIdOf);
  expect(new Set(got).size).toBe(ids.size);
  expect(got.length).toBe(ids.size);
}

async function allSent(mailIds: number[]) {
  const rows = await ctx.db
    .selectFrom('mail_messages')
    .select('status')
    .where('id', 'in', mailIds)
    .execute();
  return rows.every((r) => r.status === 'sent');
}

describe('delivery over SMTP', () => {
  it('a single mail with attachments and CC arrives intact', async () => {
    const course = await seedMailTickets(ctx.db, op.id, 1);
    await ctx.db
      .updateTable('registered_users')
      .set({ name: 'María José', last_name: 'Ñúñez' })
      .where('email', '=', course.address(0))
      .execute();
    const files: Json[] = [];
    for (const [name, content] of [
      ['Guía de estudio ñ.pdf', PDF],
      ['foto.png', PNG],
    ] as const) {
      const body = multipart({}, [{ name, content }]);
      const res = await ctx.request({
        method: 'POST',
        url: '/api/v2/mail/upload/file',
        token: op.token,
        payload: body.payload,
        headers: body.headers,
      });
      expect(res.statusCode, res.body).toBe(201);
      files.push(res.json()._data);
    }
    const res = await api('/mail/single', {
      ticketId: course.tickets[0]!,
      subject: 'Información importante, {nombre}: ¿revisaste la acción formativa?',
      text: '<p>Hola <strong>{nombre} {apellido}</strong>,</p><p>Adjuntamos la guía. ¡Éxito!</p>',
      CCRecipient: 'jefatura@correo.test;tutora@correo.test',
      files: files.map((f) => f.name),
    });
    expect(res.statusCode, res.body).toBe(201);
    const [mailId] = res.json()._data.messages as number[];
    const row = await ctx.db
      .selectFrom('mail_messages')
      .selectAll()
      .where('id', '=', mailId!)
      .executeTakeFirstOrThrow();

    const worker = testWorker(ctx);
    worker.start();
    try {
      await waitFor(() => allSent([mailId!]), 20_000, 'single mail sent');
    } finally {
      await worker.stop();
    }
    const [got, ...more] = receivedFor(new Set([row.message_id]));
    expect(more).toEqual([]);
    expect(got!.from).toBe('no-reply@sigaf.local');
    expect(got!.to.sort()).toEqual(
      [course.address(0), 'jefatura@correo.test', 'tutora@correo.test'].sort(),
    );
    expect(got!.auth).toBeNull();
    // eslint-disable-next-line no-control-regex -- the 7-bit range starts at NUL
    expect(got!.raw).not.toMatch(/[^\x00-\x7f]/); // 7-bit on the wire: everything non-ASCII encoded

    const mime = parseMime(got!.raw);
    expect(header(mime, 'from')).toBe('SIGAF <no-reply@sigaf.local>');
    expect(header(mime, 'reply-to')).toBe('curso@sigaf.test');
    expect(header(mime, 'to')).toBe(course.address(0));
    expect(header(mime, 'cc')).toBe('jefatura@correo.test, tutora@correo.test');
    expect(header(mime, 'subject')).toBe(
      'Información importante, María José: ¿revisaste la acción formativa?',
    );
    expect(header(mime, 'message-id')).toBe(row.message_id);
    const parts = leaves(mime);
    const text = parts.find((p) => p.headers.get('content-type')?.startsWith('text/plain'))!;
    const html = parts.find((p) => p.headers.get('content-type')?.startsWith('text/html'))!;
    expect(text.body.toString('utf8')).toContain(
      'Hola María José Ñúñez,\n\nAdjuntamos la guía. ¡Éxito!',
    );
    expect(html.body.toString('utf8')).toContain(
      '<p>Hola <strong>María José Ñúñez</strong>,</p><p>Adjuntamos la guía. ¡Éxito!</p>',
    );
    const attachments = parts.filter((p) =>
      /attachment/i.test(p.headers.get('content-disposition') ?? ''),
    );
    expect(attachments).toHaveLength(2);
    const pdf = attachments.find((p) =>
      p.headers.get('content-type')?.startsWith('application/pdf'),
    )!;
    expect(headerParam(pdf, 'content-disposition', 'filename')).toBe('Guía de estudio ñ.pdf');
    expect(pdf.body).toEqual(PDF);
    expect(
      attachments.find((p) => p.headers.get('content-type')?.startsWith('image/png'))!.body,
    ).toEqual(PNG);
  });

  it('a course with its own mailbox sends as itself, signed in with its (encrypted) password', async () => {
    const course = await seedMailTickets(ctx.db, op.id, 1, {
      courseEmail: 'matematica@cursos.test',
      coursePassword: encryptSecret('clave-del-curso', ctx.config.APP_SECRET),
    });
    const res = await api('/mail/single', {
      ticketId: course.tickets[0]!,
      subject: 'Desde el curso',
      text: 'Hola',
    });
    const [mailId] = res.json()._data.messages as number[];
    const worker = testWorker(ctx);
    worker.start();
    try {
      await waitFor(() => allSent([mailId!]), 20_000);
    } finally {
      await worker.stop();
    }
    const [got] = receivedFor(await messageIds([mailId!]));
    expect(got!.auth).toEqual({ user: 'matematica@cursos.test', pass: 'clave-del-curso' });
    expect(got!.from).toBe('matematica@cursos.test');
    const mime = parseMime(got!.raw);
    expect(header(mime, 'from').replace(/"/g, '')).toBe(
      `Curso ${course.tag} <matematica@cursos.test>`,
    );
    expect(mime.headers.has('reply-to')).toBe(false);
  });

  it('a massive mail of 500 messages arrives exactly once each', async () => {
    const course = await seedMailTickets(ctx.db, op.id, 500);
    const started = Date.now();
    const res = await api('/mail/massive', {
      ticketsId: JSON.stringify(course.tickets),
      subject: 'Recordatorio para {nombre}',
      text: '<p>Hola {nombre}, tu código es {codigo_ticket}.</p>',
    });
    expect(res.statusCode, res.body).toBe(201);
    const mailIds = res.json()._data.messages as number[];
    expect(mailIds).toHaveLength(500);
    const worker = testWorker(ctx, { concurrency: 16 });
    worker.start();
    try {
      await waitFor(() => allSent(mailIds), 50_000, '500 messages sent');
    } finally {
      await worker.stop();
    }
    const ids = await messageIds(mailIds);
    expectExactlyOnce(ids);
    const received = receivedFor(ids);
    expect(new Set(received.map((m) => m.to[0])).size).toBe(500);
    const sample = received.find((m) => m.to[0] === course.address(123))!;
    expect(header(parseMime(sample.raw), 'subject')).toBe('Recordatorio para Nombre123');
    const attempts = await ctx.db
      .selectFrom('ticket_details')
      .select(sql<number>`count(*)`.as('n'))
      .where('ticket_id', 'in', course.tickets)
      .where('comment', '=', 'Correo enviado: Recordatorio para Nombre0')
      .executeTakeFirstOrThrow();
    expect(Number(attempts.n)).toBe(1);
    const logged = await ctx.db
      .selectFrom('ticket_details')
      .select(sql<number>`count(*)`.as('n'))
      .where('ticket_id', 'in', course.tickets)
      .executeTakeFirstOrThrow();
    expect(Number(logged.n)).toBe(500);
    expect(Date.now() - started).toBeLessThan(55_000);
  }, 90_000);

  it('SMTP down for the first attempts, then up: everything arrives, nothing twice', async () => {
    const course = await seedMailTickets(ctx.db, op.id, 30);
    await smtp.stop();
    try {
      const res = await api('/mail/massive', {
        ticketsId: course.tickets,
        subject: 'Tras la caída',
        text: 'Hola {nombre}',
      });
      const mailIds = res.json()._data.messages as number[];
      const worker = testWorker(ctx, { concurrency: 8, retryBaseMs: 150 });
      worker.start();
      try {
        // Every message failed at least once and waits for its next attempt, with the error kept.
        await waitFor(
          async () => {
            const rows = await ctx.db
              .selectFrom('mail_messages')
              .select(['status', 'attempts', 'last_error'])
              .where('id', 'in', mailIds)
              .execute();
            return (
              rows.every((r) => r.attempts >= 1 && r.status === 'queued' && r.last_error) &&
              rows.some((r) => r.attempts >= 2)
            );
          },
          20_000,
          'failed attempts',
        );
        await smtp.start();
        await waitFor(() => allSent(mailIds), 30_000, 'sent after the outage');
      } finally {
        await worker.stop();
      }
      expectExactlyOnce(await messageIds(mailIds));
      const rows = await ctx.db
        .selectFrom('mail_messages')
        .select(['attempts', 'last_error'])
        .where('id', 'in', mailIds)
        .execute();
      expect(rows.every((r) => r.attempts >= 2 && r.attempts <= 5 && r.last_error === null)).toBe(
        true,
      );
    } finally {
      await smtp.start();
    }
  }, 60_000);

  it('SMTP down for all 5 attempts: the message fails with the last error, and a retry by hand delivers it', async () => {
    const course = await seedMailTickets(ctx.db, op.id, 1);
    await smtp.stop();
    let mailId: number;
    try {
      const res = await api('/mail/single', {
        ticketId: course.tickets[0]!,
        subject: 'Sin servidor',
        text: 'Hola',
      });
      mailId = res.json()._data.messages[0];
      const worker = testWorker(ctx, { retryBaseMs: 20 });
      worker.start();
      try {
        await waitFor(
          async () =>
            (
              await ctx.db
                .selectFrom('mail_messages')
                .select('status')
                .where('id', '=', mailId)
                .executeTakeFirstOrThrow()
            ).status === 'failed',
          20_000,
          'failed',
        );
      } finally {
        await worker.stop();
      }
      const row = await ctx.db
        .selectFrom('mail_messages')
        .select(['attempts', 'last_error'])
        .where('id', '=', mailId)
        .executeTakeFirstOrThrow();
      expect(row.attempts).toBe(5);
      expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
      const job = await ctx.db
        .selectFrom('jobs')
        .select(['status', 'attempts'])
        .where('unique_key', '=', `mail.send:${mailId}`)
        .executeTakeFirstOrThrow();
      expect(job).toEqual({ status: 'failed', attempts: 5 });
    } finally {
      await smtp.start();
    }
    const outbox = await ctx.request({
      method: 'GET',
      url: `/api/v2/mail/outbox?status=failed&ticket_id=${course.tickets[0]!}`,
      token: op.token,
    });
    expect(outbox.json()._data.collections.map((c: Json) => c.properties.id)).toEqual([mailId]);
    expect((await api(`/mail/outbox/${mailId}/retry`, {})).statusCode).toBe(200);
    const worker = testWorker(ctx);
    worker.start();
    try {
      await waitFor(() => allSent([mailId]), 20_000);
    } finally {
      await worker.stop();
    }
    expectExactlyOnce(await messageIds([mailId]));
  });

  it('a mailbox the server refuses (550) fails at once, without retries', async () => {
    const course = await seedMailTickets(ctx.db, op.id, 1);
    await ctx.db
      .updateTable('registered_users')
      .set({ email: `rechazo.${course.tag}@correo.test` })
      .where('email', '=', course.address(0))
      .execute();
    const res = await api('/mail/single', {
      ticketId: course.tickets[0]!,
      subject: 'No existe',
      text: 'Hola',
    });
    const [mailId] = res.json()._data.messages as number[];
    const worker = testWorker(ctx);
    worker.start();
    try {
      await waitFor(
        async () =>
          (
            await ctx.db
              .selectFrom('mail_messages')
              .select('status')
              .where('id', '=', mailId!)
              .executeTakeFirstOrThrow()
          ).status === 'failed',
        20_000,
      );
    } finally {
      await worker.stop();
    }
    const row = await ctx.db
      .selectFrom('mail_messages')
      .select(['attempts', 'last_error'])
      .where('id', '=', mailId!)
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(1);
    expect(row.last_error).toContain('El buzón no existe');
    expect(
      await ctx.db
        .selectFrom('jobs')
        .select(['status', 'attempts'])
        .where('unique_key', '=', `mail.send:${mailId}`)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'failed', attempts: 1 });
  });

  it('a worker stopped mid-batch and a new one started: everything arrives, nothing twice', async () => {
    const course = await seedMailTickets(ctx.db, op.id, 120);
    const res = await api('/mail/massive', {
      ticketsId: course.tickets,
      subject: 'Relevo de trabajador',
      text: 'Hola {nombre}',
    });
    const mailIds = res.json()._data.messages as number[];
    smtp.delayMs = 40;
    const before = smtp.messages.length;
    try {
      const first = testWorker(ctx, { concurrency: 8, id: 'primero' });
      first.start();
      await waitFor(
        async () => first.inFlight > 0 && smtp.messages.length - before >= 20,
        30_000,
        'part of the batch',
      );
      await first.stop();
      const half = await ctx.db
        .selectFrom('mail_messages')
        .select(['status'])
        .where('id', 'in', mailIds)
        .execute();
      expect(half.some((r) => r.status === 'queued')).toBe(true);
      expect(half.some((r) => r.status === 'sending')).toBe(false);
      const second = testWorker(ctx, { concurrency: 8, id: 'segundo' });
      second.start();
      try {
        await waitFor(() => allSent(mailIds), 30_000, 'the rest');
      } finally {
        await second.stop();
      }
    } finally {
      smtp.delayMs = 0;
    }
    expectExactlyOnce(await messageIds(mailIds));
    const by = await ctx.db
      .selectFrom('jobs')
      .select(['locked_by', sql<number>`count(*)`.as('n')])
      .where(
        'unique_key',
        'in',
        mailIds.map((id) => `mail.send:${id}`),
      )
      .groupBy('locked_by')
      .execute();
    expect(by.map((b) => b.locked_by).sort()).toEqual(['primero', 'segundo']);
  }, 60_000);

  it('after a crash: jobs left running are recovered; a message sent before the crash is not sent again', async () => {
    const course = await seedMailTickets(ctx.db, op.id, 2);
    const res = await api('/mail/massive', {
      ticketsId: course.tickets,
      subject: 'Tras el corte',
      text: 'Hola',
    });
    const [delivered, pending] = res.json()._data.messages as number[];
    // Message 1 was delivered and marked sent, but the process died before its job was marked done.
    await ctx.db
      .updateTable('jobs')
      .set({ run_at: sql`now() + interval '1 hour'` })
      .where('unique_key', '=', `mail.send:${pending}`)
      .execute();
    const one = testWorker(ctx);
    one.start();
    await waitFor(() => allSent([delivered!]), 20_000);
    await one.stop();
    await ctx.db
      .updateTable('jobs')
      .set({ status: 'running', locked_by: 'muerto', locked_at: sql`now() - interval '1 hour'` })
      .where('unique_key', '=', `mail.send:${delivered}`)
      .execute();
    // Message 2's attempt started (status 'sending') and the process died before reaching SMTP.
    await ctx.db
      .updateTable('jobs')
      .set({
        status: 'running',
        attempts: 1,
        locked_by: 'muerto',
        locked_at: sql`now() - interval '1 hour'`,
      })
      .where('unique_key', '=', `mail.send:${pending}`)
      .execute();
    await ctx.db
      .updateTable('mail_messages')
      .set({ status: 'sending', attempts: 1, updated_at: sql`now() - interval '1 hour'` })
      .where('id', '=', pending!)
      .execute();

    const worker = testWorker(ctx, { staleMs: 5_000 });
    worker.start();
    try {
      await waitFor(
        async () => {
          const jobs = await ctx.db
            .selectFrom('jobs')
            .select('status')
            .where('unique_key', 'in', [`mail.send:${delivered}`, `mail.send:${pending}`])
            .execute();
          return jobs.length === 2 && jobs.every((j) => j.status === 'done');
        },
        20_000,
        'recovered jobs',
      );
    } finally {
      await worker.stop();
    }
    expect(await allSent([delivered!, pending!])).toBe(true);
    expectExactlyOnce(await messageIds([delivered!, pending!]));
    const job = await ctx.db
      .selectFrom('jobs')
      .select(['result', 'attempts'])
      .where('unique_key', '=', `mail.send:${delivered}`)
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ result: { skipped: 'already sent' }, attempts: 2 });
    expect(
      (
        await ctx.db
          .selectFrom('mail_messages')
          .select('attempts')
          .where('id', '=', pending!)
          .executeTakeFirstOrThrow()
      ).attempts,
    ).toBe(2);
  });
});
