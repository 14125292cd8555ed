import fs from 'node:fs';
import path from 'node:path';
import { MAIL_MSG, MSG } from '@sigaf/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlToText, safeFileName, sanitizeBody } from '../src/modules/mail/content.js';
import { emlFileName } from '../src/modules/mail/transport.js';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';
import { header, leaves, parseMime } from './mail-receiver.js';
import {
  deliverAll,
  multipart,
  PDF,
  PNG,
  seedMailTickets,
  tempDir,
  testWorker,
  waitFor,
} from './mail-data.js';

/** Mail without an SMTP server: the API, the outbox, and .eml files in DATA_DIR/outbox. */
type Json = Record<string, any>;

let ctx: TestContext;
let dataDir: string;
let admin: { id: number; token: string };
let opA: { id: number; token: string };
let opB: { id: number; token: string };
let tutor: { token: string };
let course: Awaited<ReturnType<typeof seedMailTickets>>;

beforeAll(async () => {
  dataDir = tempDir();
  ctx = await createTestContext({ DATA_DIR: dataDir, MAIL_MAX_ATTACHMENT_MB: 1 });
  const token = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  admin = {
    id: (
      await ctx.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', TEST_ADMIN.email)
        .executeTakeFirstOrThrow()
    ).id,
    token,
  };
  opA = await ctx.userWithRole('operator');
  opB = await ctx.userWithRole('operator');
  tutor = await ctx.userWithRole('tutor');
  course = await seedMailTickets(ctx.db, opA.id, 4, { noEmail: [3] });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

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

async function upload(token: string, name: string, content: Buffer) {
  const body = multipart({}, [{ name, content }]);
  return ctx.request({
    method: 'POST',
    url: '/api/v2/mail/upload/file',
    token,
    payload: body.payload,
    headers: body.headers,
  });
}

describe('attachments', () => {
  it('uploads a file under a random name, with its sanitised original name, type and size', async () => {
    const res = await upload(opA.token, '../../etc/Informe: año 2024.pdf', PDF);
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json()._data;
    expect(data).toMatchObject({
      size: PDF.length,
      mime: 'application/pdf',
      originalName: 'Informe_ año 2024.pdf',
    });
    expect(data.name).toMatch(/^[a-f0-9]{32}\.pdf$/);
    // Without PUBLIC_URL a link is a path from the server root (never built from the Host header).
    expect(data.url).toBe(`/api/v2/mail/file/${data.name}`);
    expect(fs.readFileSync(path.join(dataDir, 'uploads', data.name))).toEqual(PDF);
    const row = await ctx.db
      .selectFrom('mail_attachments')
      .selectAll()
      .where('stored_name', '=', data.name)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ uploaded_by: opA.id, size: PDF.length });
    expect(row.sha256).toMatch(/^[a-f0-9]{64}$/);

    // The uploader can read it back; another operator cannot.
    const back = await ctx.request({
      method: 'GET',
      url: `/api/v2/mail/file/${data.name}`,
      token: opA.token,
    });
    expect(back.statusCode).toBe(200);
    expect(back.headers['content-type']).toBe('application/pdf');
    expect(back.headers['content-disposition']).toContain(
      "filename*=UTF-8''Informe_%20a%C3%B1o%202024.pdf",
    );
    expect(back.rawPayload).toEqual(PDF);
    expect(
      (
        await ctx.request({
          method: 'GET',
          url: `/api/v2/mail/file/${data.name}`,
          token: opB.token,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('stores and returns attachment names without bidirectional controls or other invisible characters', async () => {
    // Shown as "txt.exe.png" where the right-to-left override is obeyed.
    const res = await upload(opA.token, '\u202egnp.exe.txt', Buffer.from('Hola'));
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json()._data;
    expect(data.originalName).toBe('gnp.exe.txt');
    const row = await ctx.db
      .selectFrom('mail_attachments')
      .select('original_name')
      .where('stored_name', '=', data.name)
      .executeTakeFirstOrThrow();
    expect(row.original_name).toBe('gnp.exe.txt');
    const back = await ctx.request({
      method: 'GET',
      url: `/api/v2/mail/file/${data.name}`,
      token: opA.token,
    });
    expect(back.headers['content-disposition']).toBe(
      `attachment; filename="gnp.exe.txt"; filename*=UTF-8''gnp.exe.txt`,
    );
    // A name stored with one before is returned without it.
    await ctx.db
      .updateTable('mail_attachments')
      .set({ original_name: 'informe\u2067.pdf\u2069.txt' })
      .where('stored_name', '=', data.name)
      .execute();
    const old = await ctx.request({
      method: 'GET',
      url: `/api/v2/mail/file/${data.name}`,
      token: opA.token,
    });
    expect(old.headers['content-disposition']).toContain(`filename*=UTF-8''informe.pdf.txt`);
    // Every bidirectional control, zero-width and format character goes; joiners that spell words stay.
    const invisible =
      '\u061c\u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060\u2066\u2067\u2068\u2069\ufeff\u00ad';
    expect(safeFileName(`a${invisible}b.txt`)).toBe('ab.txt');
    expect(safeFileName(`${invisible}.txt`)).toBe('txt');
    expect(safeFileName('a\u0085b.txt')).toBe('a_b.txt');
    expect(safeFileName('می\u200cخواهم.txt')).toBe('می\u200cخواهم.txt');
  });

  it('refuses files over the size limit, of other types, or whose content is not their extension', async () => {
    const big = await upload(opA.token, 'grande.txt', Buffer.alloc(1024 * 1024 + 10, 'a'));
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe(MAIL_MSG.fileTooLarge(1));

    const exe = await upload(opA.token, 'programa.exe', Buffer.from('MZ\x90\x00'));
    expect(exe.statusCode).toBe(422);
    expect(exe.json()._data.errors.file).toEqual([MAIL_MSG.fileType]);

    const fake = await upload(opA.token, 'foto.pdf', PNG);
    expect(fake.statusCode).toBe(422);
    expect(fake.json()._data.errors.file).toEqual([MAIL_MSG.fileContent]);

    const binaryText = await upload(opA.token, 'notas.txt', Buffer.from([0x00, 0x01, 0x02]));
    expect(binaryText.json()._data.errors.file).toEqual([MAIL_MSG.fileContent]);

    const fakeDocx = await upload(
      opA.token,
      'carta.docx',
      Buffer.from('PK\x03\x04 not really a document'),
    );
    expect(fakeDocx.json()._data.errors.file).toEqual([MAIL_MSG.fileContent]);

    for (const [name, content] of [
      ['imagen.png', PNG],
      ['datos.csv', Buffer.from('rut;nombre\n1-9;Pía\n')],
      ['nota.txt', Buffer.from('Hola, ¿cómo estás?')],
    ] as const) {
      expect((await upload(opA.token, name, content)).statusCode).toBe(201);
    }

    const json = await api('POST', '/mail/upload/file', opA.token, {});
    expect(json.statusCode).toBe(415);
    const empty = multipart({ other: 'x' });
    const none = await ctx.request({
      method: 'POST',
      url: '/api/v2/mail/upload/file',
      token: opA.token,
      payload: empty.payload,
      headers: empty.headers,
    });
    expect(none.statusCode).toBe(422);
    expect(none.json()._data.errors.file).toEqual([MAIL_MSG.noFile]);
    // Nothing refused was kept.
    expect(
      fs
        .readdirSync(path.join(dataDir, 'uploads'))
        .filter(
          (f) =>
            !f.endsWith('.pdf') &&
            !f.endsWith('.png') &&
            !f.endsWith('.csv') &&
            !f.endsWith('.txt'),
        ),
    ).toEqual([]);
  });

  it('deletes an upload for its owner or an administrator only, never one a pending message uses', async () => {
    const mine = (await upload(opA.token, 'a.pdf', PDF)).json()._data;
    expect(
      (await api('POST', '/mail/delete/file', opB.token, { name: mine.name })).statusCode,
    ).toBe(404);
    const del = await api('POST', '/mail/delete/file', opA.token, { name: mine.name });
    expect(del.statusCode).toBe(200);
    expect(del.json().message).toBe(MAIL_MSG.fileDeleted);
    expect(fs.existsSync(path.join(dataDir, 'uploads', mine.name))).toBe(false);
    expect(
      (await api('POST', '/mail/delete/file', opA.token, { name: mine.name })).statusCode,
    ).toBe(404);
    expect(
      (await api('POST', '/mail/delete/file', opA.token, { name: '../../app-secret' })).statusCode,
    ).toBe(404);

    const other = (await upload(opB.token, 'b.pdf', PDF)).json()._data;
    expect(
      (await api('POST', '/mail/delete/file', admin.token, { name: other.name })).statusCode,
    ).toBe(200);

    const used = (await upload(opA.token, 'c.pdf', PDF)).json()._data;
    const sent = await api('POST', '/mail/single', opA.token, {
      ticketId: course.tickets[0]!,
      subject: 'Con adjunto',
      text: '<p>Hola</p>',
      files: [used.name],
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const refused = await api('POST', '/mail/delete/file', opA.token, { name: used.name });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(MAIL_MSG.fileInPendingMail);
    await deliverAll(ctx);
    expect(
      (await api('POST', '/mail/delete/file', opA.token, { name: used.name })).json().message,
    ).toBe(MAIL_MSG.fileInSentMail);
  });
});

describe('single and massive mail', () => {
  it('validates: subject and body required, CC addresses, the ticket, the files, the student e-mail', async () => {
    const empty = await api('POST', '/mail/single', opA.token, {
      ticketId: course.tickets[0]!,
      subject: '  ',
      text: '',
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()._data.errors).toMatchObject({
      subject: [MAIL_MSG.subjectRequired],
      text: [MAIL_MSG.bodyRequired],
    });

    const onlyScript = await api('POST', '/mail/single', opA.token, {
      ticketId: course.tickets[0]!,
      subject: 'x',
      text: '<script>alert(1)</script>',
    });
    expect(onlyScript.json()._data.errors).toEqual({ text: [MAIL_MSG.bodyRequired] });

    const cc = await api('POST', '/mail/single', opA.token, {
      ticketId: course.tickets[0]!,
      subject: 'x',
      text: 'y',
      CCRecipient: 'ok@correo.cl; no-es-correo',
    });
    expect(cc.json()._data.errors).toEqual({ CCRecipient: [MAIL_MSG.ccInvalid('no-es-correo')] });

    const noTicket = await api('POST', '/mail/single', opA.token, { subject: 'x', text: 'y' });
    expect(noTicket.json()._data.errors).toEqual({ ticketId: [MAIL_MSG.ticketRequired] });
    const missing = await api('POST', '/mail/single', opA.token, {
      ticketId: 2_000_000_000,
      subject: 'x',
      text: 'y',
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(MAIL_MSG.ticketNotFound);

    const file = await api('POST', '/mail/single', opA.token, {
      ticketId: course.tickets[0]!,
      subject: 'x',
      text: 'y',
      files: ['0123456789abcdef0123456789abcdef.pdf'],
    });
    expect(file.json()._data.errors).toEqual({
      files: [MAIL_MSG.fileUnknown('0123456789abcdef0123456789abcdef.pdf')],
    });
    const theirs = (await upload(opB.token, 'ajeno.pdf', PDF)).json()._data;
    const foreign = await api('POST', '/mail/single', opA.token, {
      ticketId: course.tickets[0]!,
      subject: 'x',
      text: 'y',
      files: [theirs.name],
    });
    expect(foreign.json()._data.errors).toEqual({ files: [MAIL_MSG.fileUnknown(theirs.name)] });

    const noEmail = await api('POST', '/mail/single', opA.token, {
      ticketId: course.tickets[3]!,
      subject: 'x',
      text: 'y',
    });
    expect(noEmail.statusCode).toBe(422);
    expect(noEmail.json()._data.errors).toEqual({ ticketId: [MAIL_MSG.noStudentEmail] });
    expect(
      await ctx.db.selectFrom('mail_messages').select('id').where('subject', '=', 'x').execute(),
    ).toEqual([]);
  });

  it('queues one message with placeholders filled, HTML sanitised and a text part; delivered as a .eml file', async () => {
    const res = await api('POST', '/mail/single', opA.token, {
      ticketId: course.tickets[1]!,
      subject: 'Hola {nombre} {apellido}: ticket {codigo_ticket}',
      text: '<p onclick="robar()">Estimado/a <b>{nombre}</b> ({rut}), del {curso} en {aula}:</p><script>alert("x")</script><ul><li>uno</li><li>dos</li></ul><a href="javascript:alert(1)">malo</a> <a href="https://sigaf.cl/ayuda">ayuda</a><img src=x onerror=alert(1)>',
      CCRecipient: 'jefa@correo.cl;  otro@correo.cl ;',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      success: true,
      statusCode: 201,
      message: MAIL_MSG.queued,
      _data: { queued: 1, skipped: [] },
    });
    const id = res.json()._data.messages[0];
    const row = await ctx.db
      .selectFrom('mail_messages')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const rut = `${course.tag}1-K`;
    expect(row).toMatchObject({
      status: 'queued',
      ticket_id: course.tickets[1]!,
      to_address: course.address(1),
      cc: ['jefa@correo.cl', 'otro@correo.cl'],
      from_address: 'SIGAF <no-reply@sigaf.local>',
      reply_to: 'curso@sigaf.test',
      subject: `Hola Nombre1 Apellido1: ticket MAIL-${course.tag}-1`,
      created_by: opA.id,
    });
    expect(row.message_id).toMatch(/^<[0-9a-f-]{36}@sigaf\.local>$/);
    expect(row.html).toBe(
      `<p>Estimado/a <b>Nombre1</b> (${rut}), del Curso ${course.tag} en Aula X${course.tag}:</p><ul><li>uno</li><li>dos</li></ul><a>malo</a> <a href="https://sigaf.cl/ayuda">ayuda</a>`,
    );
    expect(row.html).not.toMatch(/script|onclick|onerror|javascript|<img/);
    expect(row.text).toBe(
      `Estimado/a Nombre1 (${rut}), del Curso ${course.tag} en Aula X${course.tag}:\n\n- uno\n- dos\n\nmalo ayuda (https://sigaf.cl/ayuda)`,
    );
    const job = await ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('unique_key', '=', `mail.send:${id}`)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({
      type: 'mail.send',
      status: 'queued',
      max_attempts: 5,
      payload: { mailId: id },
    });

    const before = await ctx.db
      .selectFrom('ticket_details')
      .select(sql<number>`count(*)`.as('n'))
      .where('ticket_id', '=', course.tickets[1]!)
      .executeTakeFirstOrThrow();
    await deliverAll(ctx);
    const sent = await ctx.db
      .selectFrom('mail_messages')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(sent.sent_at).toBeTruthy();

    // The .eml file, named after the Message-ID.
    const file = path.join(dataDir, 'outbox', emlFileName(row.message_id));
    const mime = parseMime(fs.readFileSync(file, 'utf8'));
    expect(header(mime, 'subject')).toBe(row.subject);
    expect(header(mime, 'to')).toBe(course.address(1));
    expect(header(mime, 'cc')).toBe('jefa@correo.cl, otro@correo.cl');
    expect(header(mime, 'reply-to')).toBe('curso@sigaf.test');
    expect(header(mime, 'message-id')).toBe(row.message_id);
    const parts = leaves(mime);
    expect(
      parts.find((p) => p.headers.get('content-type')?.startsWith('text/plain'))!.body.toString(),
    ).toContain('- uno\n- dos');
    expect(
      parts.find((p) => p.headers.get('content-type')?.startsWith('text/html'))!.body.toString(),
    ).toContain('<b>Nombre1</b>');

    // The contact attempt on the ticket, by the sender, with its history entry.
    const details = await ctx.db
      .selectFrom('ticket_details as d')
      .innerJoin('status_detail_tickets as s', 's.id', 'd.status_detail_ticket_id')
      .select(['d.comment', 'd.user_created_id', 's.key', 'd.medium', 'd.direction'])
      .where('d.ticket_id', '=', course.tickets[1]!)
      .orderBy('d.id', 'desc')
      .execute();
    expect(details.length).toBe(Number(before.n) + 1);
    expect(details[0]).toEqual({
      comment: `Correo enviado: ${row.subject}`,
      user_created_id: opA.id,
      key: 'success',
      // Sent from SIGAF: e-mail, whatever the ticket's type.
      medium: 'email',
      direction: 'outgoing',
    });
    const history = await ctx.db
      .selectFrom('ticket_history')
      .selectAll()
      .where('ticket_id', '=', course.tickets[1]!)
      .where('action', '=', 'add_attempt')
      .execute();
    expect(history).toHaveLength(1);
    expect(history[0]!.user_id).toBe(opA.id);

    // A message already sent is never sent again, even when a job for it runs once more.
    await ctx.app.services.jobs.queue.enqueue(
      'mail.send',
      { mailId: id },
      { uniqueKey: `mail.send:${id}` },
    );
    const mtime = fs.statSync(file).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    const worker = testWorker(ctx);
    worker.start();
    await waitFor(
      async () =>
        !(await ctx.db
          .selectFrom('jobs')
          .select('id')
          .where('unique_key', '=', `mail.send:${id}`)
          .where('status', '=', 'queued')
          .executeTakeFirst()),
      10_000,
    );
    await worker.stop();
    expect(fs.statSync(file).mtimeMs).toBe(mtime);
    const last = await ctx.db
      .selectFrom('jobs')
      .select(['status', 'result'])
      .where('unique_key', '=', `mail.send:${id}`)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(last).toEqual({ status: 'done', result: { skipped: 'already sent' } });
    expect(
      await ctx.db
        .selectFrom('ticket_details')
        .select('id')
        .where('ticket_id', '=', course.tickets[1]!)
        .execute(),
    ).toHaveLength(details.length);
  });

  it('accepts the multipart form of /mail/single, with files attached in the same request', async () => {
    const body = multipart(
      {
        ticketId: String(course.tickets[2]!),
        subject: 'Adjuntos',
        text: '<p>Ver archivos</p>',
        CCRecipient: 'copia@correo.cl',
      },
      [
        { field: 'files[]', name: 'guía.pdf', content: PDF },
        { field: 'files[]', name: 'foto.png', content: PNG },
      ],
    );
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v2/mail/single',
      token: opA.token,
      payload: body.payload,
      headers: body.headers,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json()._data.messages[0];
    const files = await ctx.db
      .selectFrom('mail_message_attachments as ma')
      .innerJoin('mail_attachments as a', 'a.id', 'ma.attachment_id')
      .select(['a.original_name', 'a.mime'])
      .where('ma.mail_message_id', '=', id)
      .orderBy('ma.position')
      .execute();
    expect(files).toEqual([
      { original_name: 'guía.pdf', mime: 'application/pdf' },
      { original_name: 'foto.png', mime: 'image/png' },
    ]);
    // A refused multipart request keeps none of its files.
    const count = async () =>
      Number(
        (
          await ctx.db
            .selectFrom('mail_attachments')
            .select(sql<number>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const n = await count();
    const bad = multipart({ ticketId: String(course.tickets[2]!), subject: '', text: '' }, [
      { name: 'x.pdf', content: PDF },
    ]);
    const refused = await ctx.request({
      method: 'POST',
      url: '/api/v2/mail/single',
      token: opA.token,
      payload: bad.payload,
      headers: bad.headers,
    });
    expect(refused.statusCode).toBe(422);
    expect(await count()).toBe(n);
  });

  it('massive: one message per ticket (ticketsId as a JSON string), students without e-mail skipped', async () => {
    const ids = course.tickets;
    const res = await api('POST', '/mail/massive', opA.token, {
      ticketsId: JSON.stringify(ids),
      subject: 'Aviso para {nombre}',
      text: 'Hola {nombre} {apellido}',
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json()._data;
    expect(data.queued).toBe(3);
    expect(data.skipped).toEqual([{ ticketId: ids[3], reason: MAIL_MSG.noStudentEmail }]);
    expect(res.json().message).toBe(MAIL_MSG.queuedMany(3, 1));
    const rows = await ctx.db
      .selectFrom('mail_messages')
      .select(['to_address', 'subject', 'html', 'text'])
      .where('id', 'in', data.messages)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.subject)).toEqual([
      'Aviso para Nombre0',
      'Aviso para Nombre1',
      'Aviso para Nombre2',
    ]);
    expect(rows[2]).toMatchObject({
      to_address: course.address(2),
      html: 'Hola Nombre2 Apellido2',
      text: 'Hola Nombre2 Apellido2',
    });

    const bad = await api('POST', '/mail/massive', opA.token, {
      ticketsId: '[1,',
      subject: 'a',
      text: 'b',
    });
    expect(bad.json()._data.errors).toEqual({ ticketsId: [MAIL_MSG.ticketsRequired] });
    const unknown = await api('POST', '/mail/massive', opA.token, {
      ticketsId: [ids[0], 2_000_000_001],
      subject: 'a',
      text: 'b',
    });
    expect(unknown.json()._data.errors).toEqual({
      ticketsId: [MAIL_MSG.ticketsNotFound([2_000_000_001])],
    });
    const empty = await api('POST', '/mail/massive', opA.token, {
      ticketsId: ids,
      subject: '',
      text: '   ',
    });
    expect(empty.json()._data.errors).toMatchObject({
      subject: [MAIL_MSG.subjectRequired],
      text: [MAIL_MSG.bodyRequired],
    });
    await deliverAll(ctx);
  });
});

describe('outbox, retry and templates', () => {
  it('lists the outbox with filters and pages; operators see their own messages', async () => {
    // B writes from a ticket assigned to B.
    await ctx.db
      .updateTable('tickets')
      .set({ user_assigned_id: opB.id })
      .where('id', '=', course.tickets[0]!)
      .execute();
    const other = await api('POST', '/mail/single', opB.token, {
      ticketId: course.tickets[0]!,
      subject: 'De B',
      text: 'x',
    });
    expect(other.statusCode).toBe(201);
    const all = await api(
      'GET',
      `/mail/outbox?course_id=${course.course}&page=1&perPage=2`,
      admin.token,
    );
    expect(all.statusCode).toBe(200);
    const page = all.json()._data;
    expect(page.collections).toHaveLength(2);
    expect(page.meta).toMatchObject({ page: 1, perPage: 2 });
    expect(page.meta.total).toBeGreaterThanOrEqual(6);
    expect(page.collections[0].properties).toMatchObject({
      subject: 'De B',
      status: 'queued',
      course: `Curso ${course.tag}`,
      createdBy: { id: opB.id },
    });
    expect(page.collections[0].properties.html).toBeUndefined();

    const mine = (await api('GET', '/mail/outbox', opB.token)).json()._data.collections;
    expect(mine.map((c: Json) => c.properties.subject)).toEqual(['De B']);
    const sent = (
      await api('GET', `/mail/outbox?status=sent&ticket_id=${course.tickets[2]!}`, opA.token)
    ).json()._data.collections;
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(
      sent.every(
        (c: Json) => c.properties.status === 'sent' && c.properties.ticketId === course.tickets[2]!,
      ),
    ).toBe(true);
    const withFiles = sent.find((c: Json) => c.properties.subject === 'Adjuntos').properties;
    expect(withFiles.attachments.map((a: Json) => a.originalName)).toEqual([
      'guía.pdf',
      'foto.png',
    ]);

    const one = await api('GET', `/mail/outbox/${withFiles.id}`, opA.token);
    expect(one.json()._data.properties).toMatchObject({
      html: '<p>Ver archivos</p>',
      text: 'Ver archivos',
      cc: ['copia@correo.cl'],
    });
    expect((await api('GET', `/mail/outbox/${withFiles.id}`, opB.token)).statusCode).toBe(404);
    expect((await api('GET', '/mail/outbox?status=perdido', opA.token)).statusCode).toBe(422);
  });

  it('retries a failed message by hand (its sender or an administrator), nothing else', async () => {
    const res = await api('POST', '/mail/single', opA.token, {
      ticketId: course.tickets[0]!,
      subject: 'Fallará',
      text: 'x',
    });
    const id = res.json()._data.messages[0];
    expect((await api('POST', `/mail/outbox/${id}/retry`, opA.token)).statusCode).toBe(409);
    await ctx.db
      .updateTable('mail_messages')
      .set({ status: 'failed', last_error: 'SMTP caído', attempts: 5 })
      .where('id', '=', id)
      .execute();
    await ctx.db
      .updateTable('jobs')
      .set({ status: 'failed' })
      .where('unique_key', '=', `mail.send:${id}`)
      .execute();
    expect((await api('POST', `/mail/outbox/${id}/retry`, opB.token)).statusCode).toBe(404);
    const retried = await api('POST', `/mail/outbox/${id}/retry`, opA.token);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({
      message: MAIL_MSG.retried,
      _data: { properties: { status: 'queued' } },
    });
    const jobs = await ctx.db
      .selectFrom('jobs')
      .select('status')
      .where('unique_key', '=', `mail.send:${id}`)
      .orderBy('id')
      .execute();
    expect(jobs.map((j) => j.status)).toEqual(['failed', 'queued']);
    await deliverAll(ctx);
    expect(
      await ctx.db
        .selectFrom('mail_messages')
        .select(['status', 'attempts'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'sent', attempts: 6 });
    expect((await api('POST', '/mail/outbox/2000000000/retry', opA.token)).statusCode).toBe(404);
  });

  it('keeps templates per course: create, list, update, delete; names unique per course; HTML sanitised', async () => {
    const body = {
      course_id: course.course,
      name: 'Bienvenida',
      subject: 'Hola {nombre}',
      html: '<p>Bienvenido</p><script>x()</script>',
    };
    const created = await api('POST', '/mail/templates', opA.token, body);
    expect(created.statusCode, created.body).toBe(201);
    const t = created.json()._data.properties;
    expect(t).toMatchObject({
      courseId: course.course,
      name: 'Bienvenida',
      html: '<p>Bienvenido</p>',
    });
    const dup = await api('POST', '/mail/templates', opB.token, { ...body, name: 'bienvenida' });
    expect(dup.statusCode).toBe(422);
    expect(dup.json()._data.errors).toEqual({ name: [MAIL_MSG.templateExists] });
    const noCourse = await api('POST', '/mail/templates', opA.token, {
      ...body,
      course_id: 2_000_000_000,
      name: 'Otra',
    });
    expect(noCourse.json()._data.errors).toEqual({ course_id: [MAIL_MSG.courseRequired] });
    const empty = await api('POST', '/mail/templates', opA.token, { course_id: course.course });
    expect(empty.json()._data.errors).toMatchObject({
      name: [MAIL_MSG.templateName],
      subject: [MAIL_MSG.subjectRequired],
      html: [MAIL_MSG.bodyRequired],
    });

    const list = await api('GET', `/mail/templates?course_id=${course.course}`, opB.token);
    expect(list.json()._data.collections.map((c: Json) => c.properties.name)).toEqual([
      'Bienvenida',
    ]);
    const updated = await api('PUT', `/mail/templates/${t.id}`, opA.token, {
      subject: 'Nuevo asunto',
    });
    expect(updated.json()._data.properties).toMatchObject({
      subject: 'Nuevo asunto',
      html: '<p>Bienvenido</p>',
    });
    expect(
      (await api('GET', `/mail/templates/${t.id}`, opA.token)).json()._data.properties.subject,
    ).toBe('Nuevo asunto');
    // Another operator reads and uses it, but may not change or delete it; an administrator may.
    const foreignEdit = await api('PUT', `/mail/templates/${t.id}`, opB.token, {
      subject: 'Secuestrado',
    });
    expect([foreignEdit.statusCode, foreignEdit.json().message]).toEqual([
      403,
      MAIL_MSG.templateNotYours,
    ]);
    expect((await api('DELETE', `/mail/templates/${t.id}`, opB.token)).statusCode).toBe(403);
    expect(
      (await api('GET', `/mail/templates/${t.id}`, opB.token)).json()._data.properties.subject,
    ).toBe('Nuevo asunto');
    expect(
      (
        await api('PUT', `/mail/templates/${t.id}`, admin.token, {
          subject: 'Asunto del administrador',
        })
      ).statusCode,
    ).toBe(200);
    expect((await api('DELETE', `/mail/templates/${t.id}`, opA.token)).statusCode).toBe(200);
    expect((await api('DELETE', `/mail/templates/${t.id}`, opA.token)).statusCode).toBe(404);
  });

  it('is for ticket workers only', async () => {
    for (const [method, url] of [
      ['GET', '/mail/outbox'],
      ['POST', '/mail/single'],
      ['POST', '/mail/massive'],
      ['GET', '/mail/templates'],
      ['POST', '/mail/delete/file'],
    ] as const) {
      const res = await api(method, url, tutor.token, method === 'GET' ? undefined : {});
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe(MSG.forbidden);
      expect((await ctx.request({ method, url: `/api/v2${url}` })).statusCode).toBe(401);
    }
    const up = await upload(tutor.token, 'a.pdf', PDF);
    expect(up.statusCode).toBe(403);
  });
});

describe('the outbox by id: another operator\u2019s record answers as one that does not exist', () => {
  it('every outbox route by id or file name gives the same status and body for another operator\u2019s message or upload as for a missing one, and changes nothing', async () => {
    const theirsTicket = (await seedMailTickets(ctx.db, opB.id, 1)).tickets[0]!;
    const sent = await api('POST', '/mail/single', opB.token, {
      ticketId: theirsTicket,
      subject: 'Solo de B',
      text: 'x',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const message = sent.json()._data.messages[0] as number;
    // Failed: its sender could retry it.
    await ctx.db
      .updateTable('mail_messages')
      .set({ status: 'failed', last_error: 'SMTP caído', attempts: 5 })
      .where('id', '=', message)
      .execute();
    await ctx.db
      .updateTable('jobs')
      .set({ status: 'failed' })
      .where('unique_key', '=', `mail.send:${message}`)
      .execute();
    const file = (await upload(opB.token, 'de-b.pdf', PDF)).json()._data.name as string;
    const missingFile = '0123456789abcdef0123456789abcdef.pdf';
    const missingMessage = 2_000_000_000;
    const state = async () => ({
      message: await ctx.db
        .selectFrom('mail_messages')
        .select(['status', 'attempts'])
        .where('id', '=', message)
        .executeTakeFirstOrThrow(),
      file: await ctx.db
        .selectFrom('mail_attachments')
        .select(['id', 'purged_at'])
        .where('stored_name', '=', file)
        .executeTakeFirst(),
      onDisk: fs.existsSync(path.join(dataDir, 'uploads', file)),
      queued: (
        await ctx.db
          .selectFrom('mail_messages')
          .select('id')
          .where('subject', '=', 'Con archivo ajeno')
          .execute()
      ).length,
    });
    const before = await state();

    const own = course.tickets[1]!;
    const routes: Array<
      [string, (id: number, name: string) => Promise<{ statusCode: number; body: string }>]
    > = [
      ['GET /mail/outbox/{id}', (id) => api('GET', `/mail/outbox/${id}`, opA.token)],
      ['POST /mail/outbox/{id}/retry', (id) => api('POST', `/mail/outbox/${id}/retry`, opA.token)],
      [
        'GET /mail/file/{name}',
        (_, name) =>
          ctx.request({ method: 'GET', url: `/api/v2/mail/file/${name}`, token: opA.token }),
      ],
      [
        'POST /mail/delete/file',
        (_, name) => api('POST', '/mail/delete/file', opA.token, { name }),
      ],
      // The message names the file it could not use: the same answer but for the name.
      [
        'POST /mail/single (files)',
        (_, name) =>
          api('POST', '/mail/single', opA.token, {
            ticketId: own,
            subject: 'Con archivo ajeno',
            text: 'x',
            files: [name],
          }),
      ],
      [
        'POST /mail/massive (files)',
        (_, name) =>
          api('POST', '/mail/massive', opA.token, {
            ticketsId: [own],
            subject: 'Con archivo ajeno',
            text: 'x',
            files: [name],
          }),
      ],
    ];
    for (const [route, call] of routes) {
      const theirs = await call(message, file);
      const missing = await call(missingMessage, missingFile);
      expect(theirs.statusCode, `${route}: ${theirs.body}`).toBeGreaterThanOrEqual(400);
      expect([theirs.statusCode, theirs.body.replaceAll(file, '{name}')], route).toEqual([
        missing.statusCode,
        missing.body.replaceAll(missingFile, '{name}'),
      ]);
    }
    expect(JSON.parse((await routes[0]![1](message, file)).body)).toMatchObject({
      statusCode: 404,
      message: MAIL_MSG.messageNotFound,
    });
    expect(JSON.parse((await routes[2]![1](message, file)).body)).toMatchObject({
      statusCode: 404,
      message: MAIL_MSG.fileNotFound,
    });
    expect(await state()).toEqual(before);

    // Their sender, an administrator or a developer still reach them.
    expect((await api('GET', `/mail/outbox/${message}`, admin.token)).statusCode).toBe(200);
    expect(
      (await ctx.request({ method: 'GET', url: `/api/v2/mail/file/${file}`, token: admin.token }))
        .statusCode,
    ).toBe(200);
    expect((await api('POST', `/mail/outbox/${message}/retry`, opB.token)).statusCode).toBe(200);
  });
});

describe('placeholders meet the link check', () => {
  it('a student named javascript:… in <a href="{nombre}"> yields no javascript: link, in the preview and in the stored message', async () => {
    const fresh = await seedMailTickets(ctx.db, opA.id, 1);
    const enrolment = await ctx.db
      .selectFrom('tickets')
      .select('course_registered_user_id')
      .where('id', '=', fresh.tickets[0]!)
      .executeTakeFirstOrThrow();
    const student = await ctx.db
      .selectFrom('course_registered_users')
      .select('registered_user_id')
      .where('id', '=', enrolment.course_registered_user_id)
      .executeTakeFirstOrThrow();
    await ctx.db
      .updateTable('registered_users')
      .set({ name: 'javascript:alert(1)//' })
      .where('id', '=', student.registered_user_id)
      .execute();
    const body = {
      ticketsId: [fresh.tickets[0]!],
      subject: 'Hola {nombre}',
      text: '<p><a href="{nombre}">Abrir</a> y <a href="https://sigaf.cl/{rut}">ficha</a></p>',
    };
    const preview = await api('POST', '/mail/preview', opA.token, body);
    expect(preview.statusCode, preview.body).toBe(200);
    const shown = preview.json()._data.sample.html as string;
    expect(shown).not.toMatch(/javascript:/i);
    expect(shown).toContain('https://sigaf.cl/');
    const queued = await api('POST', '/mail/single', opA.token, {
      ticketId: fresh.tickets[0]!,
      subject: body.subject,
      text: body.text,
    });
    expect(queued.statusCode, queued.body).toBe(201);
    const stored = await ctx.db
      .selectFrom('mail_messages')
      .select('html')
      .where('ticket_id', '=', fresh.tickets[0]!)
      .executeTakeFirstOrThrow();
    expect(stored.html).not.toMatch(/href="javascript:/i);
    expect(stored.html).toContain('Abrir');
  });
});

describe('content helpers', () => {
  it('sanitises to basic formatting and derives the text part', () => {
    expect(
      sanitizeBody(
        '<h1 style="color:red">Título</h1><div>línea</div><iframe src="x"></iframe><u>u</u><a href="mailto:a@b.cl" target="_blank">a</a>',
      ),
    ).toBe('<h1>Título</h1><p>línea</p><u>u</u><a href="mailto:a@b.cl">a</a>');
    expect(htmlToText('<p>a &amp; b&nbsp;c</p><p>d<br>e</p><ol><li>x</li></ol>')).toBe(
      'a & b c\n\nd\ne\n\n- x',
    );
    expect(safeFileName('C:\\Users\\x\\..\\secreto.pdf')).toBe('secreto.pdf');
    expect(safeFileName('...')).toBe('archivo');
    expect(safeFileName('a\u0000b?.txt')).toBe('a_b_.txt');
  });
});
