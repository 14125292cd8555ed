import fs from 'node:fs';
import {
  MAIL_MAX_FILES,
  MAIL_MSG,
  mailDeleteFileSchema,
  mailMassiveSchema,
  mailOutboxQuerySchema,
  mailPreviewSchema,
  mailSingleSchema,
  mailTemplateQuerySchema,
  mailTemplateSchema,
  mailTemplateUpdateSchema,
  MSG,
  PERMISSIONS,
  type MailAttachmentProps,
  type MailMessageProps,
  type MailTemplateProps,
  type MailUploadResult,
} from '@sigaf/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth, type AuthUser } from '../../http/auth.js';
import { collection, created, href, ok, resource } from '../../http/envelope.js';
import { AppError, invalid } from '../../http/errors.js';
import { sendOnce } from '../idempotency/send-once.js';
import { idParams } from '../../http/params.js';
import type { Services } from '../../services.js';
import { safeFileName } from './content.js';
import type { AttachmentRow, MailListRow, MailMessageRow, TemplateRow } from './repository.js';
import type { MailFileService } from './files.js';
import type { MailService } from './service.js';

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

function presentAttachment(
  request: FastifyRequest,
  a: Pick<AttachmentRow, 'stored_name' | 'original_name' | 'size' | 'mime'>,
): MailAttachmentProps {
  // Names stored before invisible characters were removed are shown without them too.
  return {
    name: a.stored_name,
    originalName: safeFileName(a.original_name),
    size: a.size,
    mime: a.mime,
    url: href(request, `/api/v2/mail/file/${a.stored_name}`),
  };
}

function presentMessage(
  request: FastifyRequest,
  m: MailListRow | MailMessageRow,
  attachments: MailAttachmentProps[],
) {
  const props: MailMessageProps = {
    id: m.id,
    ticketId: m.ticket_id,
    ticketCode: m.ticket_code,
    enrolmentId: m.enrolment_id,
    student: m.student_name,
    courseId: m.course_id,
    course: m.course_description,
    toAddress: m.to_address,
    cc: m.cc ?? [],
    fromAddress: m.from_address,
    replyTo: m.reply_to,
    subject: m.subject,
    status: m.status,
    attempts: m.attempts,
    lastError: m.last_error,
    messageId: m.message_id,
    sentAt: iso(m.sent_at),
    createdAt: iso(m.created_at)!,
    updatedAt: iso(m.updated_at)!,
    createdBy: m.created_by ? { id: m.created_by, name: m.created_by_name ?? '' } : null,
    attachments,
    ...('html' in m ? { html: m.html, text: m.text } : {}),
  };
  return resource(request, `/api/v2/mail/outbox/${m.id}`, props);
}

function presentTemplate(request: FastifyRequest, t: TemplateRow) {
  const props: MailTemplateProps = {
    id: t.id,
    courseId: t.course_id,
    name: t.name,
    subject: t.subject,
    html: t.html,
    createdAt: iso(t.created_at)!,
    updatedAt: iso(t.updated_at)!,
  };
  return resource(request, `/api/v2/mail/templates/${t.id}`, props);
}

/** The messages with their attachments, in one query for the attachments. */
async function presentMessages(
  request: FastifyRequest,
  mail: MailService,
  rows: Array<MailListRow | MailMessageRow>,
) {
  const files = await mail.attachmentsOf(rows.map((r) => r.id));
  return rows.map((m) =>
    presentMessage(
      request,
      m,
      files.filter((f) => f.mail_message_id === m.id).map((f) => presentAttachment(request, f)),
    ),
  );
}

/**
 * Reads a multipart request: its text fields and its files, each stored as an upload (checked
 * like POST /mail/upload/file). A file over the limit is a 413.
 */
async function readMultipart(
  request: FastifyRequest,
  files: MailFileService,
  actor: AuthUser,
  maxFiles: number,
) {
  const fields: Record<string, string | string[]> = {};
  const stored: AttachmentRow[] = [];
  const limitMb = Math.round((files.maxAttachmentBytes / 1024 / 1024) * 10) / 10;
  for await (const part of request.parts({
    limits: { fileSize: files.maxAttachmentBytes, files: maxFiles, fields: 50 },
  })) {
    if (part.type === 'file') {
      const chunks: Buffer[] = [];
      for await (const c of part.file) chunks.push(c as Buffer);
      if (part.file.truncated) throw new AppError(413, MAIL_MSG.fileTooLarge(limitMb));
      const buffer = Buffer.concat(chunks);
      if (!buffer.length) continue;
      stored.push(await files.upload({ buffer, filename: part.filename || 'archivo' }, actor));
    } else {
      const key = part.fieldname.replace(/\[\]$/, '');
      const value = String(part.value);
      const prev = fields[key];
      fields[key] =
        prev === undefined
          ? part.fieldname.endsWith('[]')
            ? [value]
            : value
          : [...(Array.isArray(prev) ? prev : [prev]), value];
    }
  }
  return { fields, files: stored };
}

/** The body of /mail/single and /mail/massive: JSON, or multipart whose files are attached too. */
async function mailBody(request: FastifyRequest, mailFiles: MailFileService, actor: AuthUser) {
  if (!request.isMultipart())
    return {
      body: (request.body && typeof request.body === 'object' ? request.body : {}) as Record<
        string,
        unknown
      >,
      uploaded: [],
    };
  const { fields, files } = await readMultipart(request, mailFiles, actor, MAIL_MAX_FILES);
  const named = mailSingleSchema.shape.files.safeParse(fields.files);
  const names = named.success ? named.data : [];
  return {
    body: {
      ...fields,
      files: named.success ? [...names, ...files.map((f) => f.stored_name)] : fields.files,
    },
    uploaded: files,
  };
}

/**
 * Parses and queues a mail, once (sendOnce: a repeat gets the first answer, 201); the files a
 * refused multipart request brought are removed again (a repeat's, by the clean-up: no message
 * uses them). Files sent in the request count in the send's content by their bytes.
 */
async function queueMail(
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
  run: (body: Record<string, unknown>, actor: AuthUser) => Promise<unknown>,
) {
  const actor = requireAuth(request);
  const { mailFiles } = services;
  const { body, uploaded } = await mailBody(request, mailFiles, actor);
  const bytes = new Map(uploaded.map((f) => [f.stored_name, `sha256:${f.sha256}`]));
  const files = Array.isArray(body.files)
    ? body.files.map((f) => bytes.get(String(f)) ?? f)
    : body.files;
  try {
    const result = await sendOnce(services.sends, request, reply, { ...body, files }, 201, () =>
      run(body, actor),
    );
    if (uploaded.length) await mailFiles.scheduleCleanup(0);
    return result;
  } catch (err) {
    for (const file of uploaded)
      await mailFiles.deleteUpload(file.stored_name, actor).catch(() => undefined);
    throw err;
  }
}

const nameParams = z.object({ name: z.string().max(100) });

/** E-mail to students (docs/development/domain.md#mail, docs/development/screens.md#mail-composer): everyone who works tickets. */
export const mailRoutes: FastifyPluginAsync<{ services: Services }> = async (
  instance,
  { services },
) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { mail, mailFiles, mailTemplates } = services;
  const work = { access: PERMISSIONS.ticketWork };
  const tags = ['mail'];

  app.post('/mail/upload/file', { config: work, schema: { tags } }, async (request, reply) => {
    const actor = requireAuth(request);
    if (!request.isMultipart()) throw new AppError(415, MAIL_MSG.multipartRequired);
    const { files } = await readMultipart(request, mailFiles, actor, 1);
    const file = files[0];
    if (!file) throw invalid({ file: [MAIL_MSG.noFile] }, MAIL_MSG.noFile);
    // The clean-up removes it later if no message uses it.
    await mailFiles.scheduleCleanup(0);
    const { url, name, size, mime, originalName } = presentAttachment(request, file);
    reply.status(201);
    return created<MailUploadResult>(
      { url, name, size, mime, originalName },
      MAIL_MSG.fileUploaded,
    );
  });

  app.get(
    '/mail/file/:name',
    { config: work, schema: { tags, params: nameParams } },
    async (request, reply) => {
      const { row, path } = await mailFiles.attachmentFile(
        request.params.name,
        requireAuth(request),
      );
      const filename = safeFileName(row.original_name);
      const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
      return reply
        .header('content-type', row.mime)
        .header(
          'content-disposition',
          `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
        )
        .header('cache-control', 'private, no-store')
        .send(fs.createReadStream(path));
    },
  );

  app.post(
    '/mail/delete/file',
    { config: work, schema: { tags, body: mailDeleteFileSchema } },
    async (request) => {
      await mailFiles.deleteUpload(request.body.name, requireAuth(request));
      // The original client removes the chip only when `_data` is truthy (docs/development/original-api.md#mail).
      return ok(true, MAIL_MSG.fileDeleted);
    },
  );

  app.post('/mail/single', { config: work, schema: { tags } }, async (request, reply) =>
    queueMail(request, reply, services, async (body, actor) =>
      created(await mail.queueSingle(mailSingleSchema.parse(body), actor), MAIL_MSG.queued),
    ),
  );

  app.post('/mail/massive', { config: work, schema: { tags } }, async (request, reply) =>
    queueMail(request, reply, services, async (body, actor) => {
      const result = await mail.queueMassive(mailMassiveSchema.parse(body), actor);
      return created(result, MAIL_MSG.queuedMany(result.queued, result.skipped.length));
    }),
  );

  // The message one student would receive and the number of recipients; nothing is queued.
  app.post(
    '/mail/preview',
    { config: work, schema: { tags, body: mailPreviewSchema } },
    async (request) => {
      return ok(await mail.preview(request.body, requireAuth(request)));
    },
  );

  app.get(
    '/mail/outbox',
    { config: work, schema: { tags, querystring: mailOutboxQuerySchema } },
    async (request) => {
      const { rows, meta } = await mail.outbox(request.query, requireAuth(request));
      return ok(
        collection(
          request,
          '/api/v2/mail/outbox',
          'mail',
          await presentMessages(request, mail, rows),
          meta,
        ),
      );
    },
  );

  app.get(
    '/mail/outbox/:id',
    { config: work, schema: { tags, params: idParams } },
    async (request) => {
      const row = await mail.message(request.params.id, requireAuth(request));
      return ok((await presentMessages(request, mail, [row]))[0]);
    },
  );

  app.post(
    '/mail/outbox/:id/retry',
    { config: work, schema: { tags, params: idParams } },
    async (request) => {
      const row = await mail.retry(request.params.id, requireAuth(request));
      return ok((await presentMessages(request, mail, [row]))[0], MAIL_MSG.retried);
    },
  );

  app.get(
    '/mail/templates',
    { config: work, schema: { tags, querystring: mailTemplateQuerySchema } },
    async (request) => {
      const rows = await mailTemplates.templates(request.query.course_id);
      return ok(
        collection(
          request,
          '/api/v2/mail/templates',
          'mailTemplates',
          rows.map((t) => presentTemplate(request, t)),
        ),
      );
    },
  );

  app.get(
    '/mail/templates/:id',
    { config: work, schema: { tags, params: idParams } },
    async (request) =>
      ok(presentTemplate(request, await mailTemplates.template(request.params.id))),
  );

  app.post(
    '/mail/templates',
    { config: work, schema: { tags, body: mailTemplateSchema } },
    async (request, reply) => {
      const row = await mailTemplates.createTemplate(request.body, requireAuth(request));
      reply.status(201);
      return created(presentTemplate(request, row));
    },
  );

  app.put(
    '/mail/templates/:id',
    { config: work, schema: { tags, params: idParams, body: mailTemplateUpdateSchema } },
    async (request) =>
      ok(
        presentTemplate(
          request,
          await mailTemplates.updateTemplate(request.params.id, request.body, requireAuth(request)),
        ),
        MSG.updated,
      ),
  );

  app.delete(
    '/mail/templates/:id',
    { config: work, schema: { tags, params: idParams } },
    async (request) => {
      await mailTemplates.deleteTemplate(request.params.id, requireAuth(request));
      return ok(null, MSG.deleted);
    },
  );
};
