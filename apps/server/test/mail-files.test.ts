import fs from 'node:fs';
import path from 'node:path';
import { MAIL_MSG } from '@sigaf/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emlFileName } from '../src/modules/mail/transport.js';
import {
  MAIL_CLEANUP_JOB,
  SENT_FILE_RETENTION_DAYS,
  UNUSED_UPLOAD_HOURS,
} from '../src/modules/mail/files.js';
import { createTestContext, type TestContext } from './helpers.js';
import { leaves, parseMime } from './mail-receiver.js';
import {
  deliverAll,
  multipart,
  outboxCounts,
  PDF,
  PNG,
  seedMailTickets,
  tempDir,
  testWorker,
  waitFor,
} from './mail-data.js';

/** Mail preview (POST /mail/preview) and the clean-up of attachment files. */
type Json = Record<string, any>;

let ctx: TestContext;
let dataDir: string;
let opA: { id: number; token: string };
let opB: { id: number; token: string };
let course: Awaited<ReturnType<typeof seedMailTickets>>;

beforeAll(async () => {
  dataDir = tempDir();
  ctx = await createTestContext({ DATA_DIR: dataDir });
  opA = await ctx.userWithRole('operator');
  opB = await ctx.userWithRole('operator');
  course = await seedMailTickets(ctx.db, opA.id, 4, { noEmail: [1] });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const api = (method: 'GET' | 'POST', url: string, token: string, payload?: unknown) =>
  ctx.request({
    method,
    url: `/api/v2${url}`,
    token,
    ...(payload !== undefined ? { payload: payload as Json } : {}),
  });

async function upload(token: string, name: string, content: Buffer): Promise<string> {
  const body = multipart({}, [{ name, content }]);
  const res = await ctx.request({
    method: 'POST',
    url: '/api/v2/mail/upload/file',
    token,
    payload: body.payload,
    headers: body.headers,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json()._data.name;
}

const fileOf = (name: string) => path.join(dataDir, 'uploads', name);
const HOUR = 3_600_000;

describe('preview', () => {
  it('renders the first recipient’s message exactly as it is delivered, with the count; nothing is queued', async () => {
    const body = {
      ticketsId: JSON.stringify([course.tickets[1], course.tickets[0], course.tickets[2]]),
      subject: 'Aviso para {nombre} ({codigo_ticket})',
      text: '<p>Hola <b>{nombre}</b> del {aula}</p><img src=x onerror="window.pwned=1"><script>alert(1)</script>',
    };
    const before = await outboxCounts(ctx.db);
    const res = await api('POST', '/mail/preview', opA.token, body);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json()._data;
    expect(data).toMatchObject({
      total: 3,
      recipients: 2,
      skipped: [{ ticketId: course.tickets[1], reason: MAIL_MSG.noStudentEmail }],
    });
    expect(data.sample).toMatchObject({
      ticketId: course.tickets[0],
      ticketCode: `MAIL-${course.tag}-0`,
      student: 'Nombre0 Apellido0',
      to: course.address(0),
      replyTo: 'curso@sigaf.test',
      subject: `Aviso para Nombre0 (MAIL-${course.tag}-0)`,
    });
    expect(data.sample.html).toContain(`<p>Hola <b>Nombre0</b> del Aula X${course.tag}</p>`);
    expect(data.sample.html).not.toMatch(/<img|<script|onerror/);
    expect(data.sample.html).toMatch(/^<!doctype html>/);
    expect(data.sample.text).toBe(
      `Hola Nombre0 del Aula X${course.tag}\n\n--\nCurso ${course.tag}`,
    );
    expect(await outboxCounts(ctx.db)).toEqual(before);

    // The same mail, queued and delivered: the .eml of the first student carries the previewed parts.
    const sent = await api('POST', '/mail/massive', opA.token, body);
    expect(sent.statusCode, sent.body).toBe(201);
    await deliverAll(ctx);
    const row = await ctx.db
      .selectFrom('mail_messages')
      .selectAll()
      .where('id', '=', sent.json()._data.messages[0])
      .executeTakeFirstOrThrow();
    expect(row.subject).toBe(data.sample.subject);
    const mime = parseMime(
      fs.readFileSync(path.join(dataDir, 'outbox', emlFileName(row.message_id)), 'utf8'),
    );
    const parts = leaves(mime);
    expect(
      parts
        .find((p) => p.headers.get('content-type')?.startsWith('text/html'))!
        .body.toString()
        .trim(),
    ).toBe(data.sample.html);
    expect(
      parts
        .find((p) => p.headers.get('content-type')?.startsWith('text/plain'))!
        .body.toString()
        .trim(),
    ).toBe(data.sample.text);
  });

  it('answers the count with no sample when no student has an address; validates like sending', async () => {
    const none = await api('POST', '/mail/preview', opA.token, {
      ticketsId: [course.tickets[1]],
      subject: 'x',
      text: '<p>y</p>',
    });
    expect(none.json()._data).toEqual({
      total: 1,
      recipients: 0,
      skipped: [{ ticketId: course.tickets[1], reason: MAIL_MSG.noStudentEmail }],
      sample: null,
    });
    const bad = await api('POST', '/mail/preview', opA.token, {
      ticketsId: [2_000_000_000],
      subject: '',
      text: '<script>x</script>',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()._data.errors).toMatchObject({ subject: [MAIL_MSG.subjectRequired] });
    const missing = await api('POST', '/mail/preview', opA.token, {
      ticketsId: [2_000_000_000],
      subject: 'a',
      text: '<p>b</p>',
    });
    expect(missing.json()._data.errors).toEqual({
      ticketsId: [MAIL_MSG.ticketsNotFound([2_000_000_000])],
    });
    const empty = await api('POST', '/mail/preview', opA.token, {
      ticketsId: [course.tickets[0]],
      subject: 'a',
      text: '<script>b</script>',
    });
    expect(empty.json()._data.errors).toEqual({ text: [MAIL_MSG.bodyRequired] });
    const tutor = await ctx.userWithRole('tutor');
    expect(
      (
        await api('POST', '/mail/preview', tutor.token, {
          ticketsId: [course.tickets[0]],
          subject: 'a',
          text: '<p>b</p>',
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('attachment clean-up', () => {
  it('removes unused uploads after 24 h and the files of sent mail after the retention period, keeping the rest', async () => {
    const mail = ctx.app.services.mailFiles;
    const fresh = await upload(opA.token, 'nuevo.pdf', PDF);
    const stale = await upload(opA.token, 'viejo.pdf', PDF);
    const sentFile = await upload(opA.token, 'enviado.png', PNG);
    const pendingFile = await upload(opB.token, 'pendiente.pdf', PDF);
    // An upload schedules the clean-up job for the next full hour.
    const job = await ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('type', '=', MAIL_CLEANUP_JOB)
      .where('status', '=', 'queued')
      .executeTakeFirstOrThrow();
    expect(new Date(job.run_at).getTime() % HOUR).toBe(0);
    expect(new Date(job.run_at).getTime()).toBeGreaterThan(Date.now());
    expect(new Date(job.run_at).getTime() - Date.now()).toBeLessThanOrEqual(HOUR);

    const sent = await api('POST', '/mail/single', opA.token, {
      ticketId: course.tickets[0],
      subject: 'a',
      text: '<p>b</p>',
      files: [sentFile],
    });
    expect(sent.statusCode, sent.body).toBe(201);
    await deliverAll(ctx);
    // A message left failed keeps its file whatever its age: it may be retried.
    await ctx.db
      .updateTable('tickets')
      .set({ user_assigned_id: opB.id })
      .where('id', '=', course.tickets[2]!)
      .execute();
    const failed = await api('POST', '/mail/single', opB.token, {
      ticketId: course.tickets[2],
      subject: 'a',
      text: '<p>b</p>',
      files: [pendingFile],
    });
    const failedId = failed.json()._data.messages[0];
    await ctx.db
      .updateTable('jobs')
      .set({ status: 'cancelled' })
      .where('unique_key', '=', `mail.send:${failedId}`)
      .execute();
    await ctx.db
      .updateTable('mail_messages')
      .set({ status: 'failed', updated_at: sql`now() - interval '90 days'` })
      .where('id', '=', failedId)
      .execute();

    // A file on disk with no row (written before a crash), and one just written.
    const stray = `${'ab'.repeat(16)}.pdf`;
    const strayNew = `${'cd'.repeat(16)}.pdf`;
    fs.writeFileSync(fileOf(stray), PDF);
    fs.writeFileSync(fileOf(strayNew), PDF);
    const old = new Date(Date.now() - (UNUSED_UPLOAD_HOURS + 1) * HOUR);
    fs.utimesSync(fileOf(stray), old, old);

    // Nothing is due yet but the old stray file.
    expect(await mail.cleanupFiles()).toEqual({ unused: 0, expired: 0, strays: 1 });
    expect(fs.existsSync(fileOf(stray))).toBe(false);
    expect(fs.existsSync(fileOf(strayNew))).toBe(true);

    // Age them: the stale upload and the sent message's file are now due.
    await sql`update mail_attachments set created_at = ${old.toISOString()}::timestamptz where stored_name in (${sql.join([stale, sentFile, pendingFile])})`.execute(
      ctx.db,
    );
    await ctx.db
      .updateTable('mail_messages')
      .set({ sent_at: sql`now() - ${`${SENT_FILE_RETENTION_DAYS + 1} days`}::interval` })
      .where('id', '=', sent.json()._data.messages[0])
      .execute();

    // The job does it (run now instead of at the next hour).
    await ctx.db
      .updateTable('jobs')
      .set({ run_at: sql`now()` })
      .where('id', '=', job.id)
      .execute();
    const worker = testWorker(ctx);
    worker.start();
    const done = await waitFor(
      async () => {
        const j = await ctx.db
          .selectFrom('jobs')
          .selectAll()
          .where('id', '=', job.id)
          .executeTakeFirstOrThrow();
        return j.status === 'done' ? j : null;
      },
      20_000,
      'clean-up job',
    );
    await worker.stop();
    expect(done.result).toEqual({ unused: 1, expired: 1, strays: 0 });

    expect(fs.existsSync(fileOf(stale))).toBe(false);
    expect(
      await ctx.db
        .selectFrom('mail_attachments')
        .select('id')
        .where('stored_name', '=', stale)
        .executeTakeFirst(),
    ).toBeUndefined();
    expect(fs.existsSync(fileOf(sentFile))).toBe(false);
    const purged = await ctx.db
      .selectFrom('mail_attachments')
      .selectAll()
      .where('stored_name', '=', sentFile)
      .executeTakeFirstOrThrow();
    expect(purged.purged_at).toBeTruthy();
    expect(fs.existsSync(fileOf(fresh))).toBe(true);
    expect(fs.existsSync(fileOf(pendingFile))).toBe(true);
    expect(fs.existsSync(fileOf(strayNew))).toBe(true);

    // The outbox still names the removed file; reading it or sending it again says why not.
    const msg = await api('GET', `/mail/outbox/${sent.json()._data.messages[0]}`, opA.token);
    expect(msg.json()._data.properties.attachments.map((a: Json) => a.name)).toEqual([sentFile]);
    const gone = await api('GET', `/mail/file/${sentFile}`, opA.token);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().message).toBe(MAIL_MSG.fileRemoved);
    // (Another subject: the same content within seconds would be the first send answered again.)
    const again = await api('POST', '/mail/single', opA.token, {
      ticketId: course.tickets[0],
      subject: 'a de nuevo',
      text: '<p>b</p>',
      files: [sentFile],
    });
    expect(again.statusCode).toBe(422);
    expect(again.json()._data.errors).toEqual({ files: [MAIL_MSG.fileRemoved] });

    // Files are still kept (fresh, pending): the job planned its next run.
    const next = await ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('type', '=', MAIL_CLEANUP_JOB)
      .where('status', '=', 'queued')
      .execute();
    expect(next).toHaveLength(1);
    expect(new Date(next[0]!.run_at).getTime()).toBeGreaterThan(Date.now());

    // A second run finds nothing new.
    expect(await mail.cleanupFiles()).toEqual({ unused: 0, expired: 0, strays: 0 });
  });
});
