import { z } from 'zod';
import { listQuerySchema } from './envelope.js';
import { FORM_MSG } from './resources.js';
import { parseIdList } from './tickets.js';

/**
 * E-mail to students (docs/development/domain.md#mail, docs/development/screens.md#mail-composer): uploads, single and massive mail,
 * the outbox (every message with its delivery state) and per-course templates.
 */

export const MAIL_MSG = {
  subjectRequired: 'Ingrese un asunto.',
  bodyRequired: 'Ingrese el mensaje.',
  ticketRequired: 'Seleccione un ticket.',
  ticketsRequired: 'Debe seleccionar al menos un ticket.',
  ticketNotFound: 'El ticket no existe.',
  ticketsNotFound: (ids: number[]) => `No existen los tickets: ${ids.join(', ')}.`,
  noStudentEmail: 'El alumno no tiene un correo electrónico registrado.',
  ccInvalid: (address: string) => `Correo en copia no válido: ${address}`,
  ccTooMany: (max: number) => `Puede indicar como máximo ${max} correos en copia.`,
  queued: 'El correo se ha puesto en cola de envío.',
  queuedMany: (n: number, skipped: number) =>
    `Se ${n === 1 ? 'puso 1 correo' : `pusieron ${n} correos`} en cola de envío.` +
    (skipped
      ? ` ${skipped === 1 ? '1 alumno no tiene' : `${skipped} alumnos no tienen`} correo electrónico registrado.`
      : ''),
  noFile: 'Debe adjuntar un archivo.',
  multipartRequired: 'Envíe el archivo como multipart/form-data.',
  fileTooLarge: (mb: number) => `El archivo supera el tamaño máximo de ${mb} MB.`,
  fileType:
    'Tipo de archivo no permitido. Formatos aceptados: PDF, PNG, JPG, GIF, DOCX, XLSX, PPTX, TXT, CSV, ZIP.',
  fileContent: 'El contenido del archivo no corresponde a su extensión.',
  fileUploaded: 'Archivo subido correctamente.',
  fileDeleted: 'Archivo eliminado correctamente.',
  // Also another operator's upload: the same answer whether it exists or not.
  fileNotFound: 'El archivo no existe.',
  fileRemoved:
    'El archivo ya no está disponible: se eliminó al cumplirse el plazo de conservación.',
  fileUnknown: (name: string) => `El archivo adjunto no existe: ${name}`,
  fileInPendingMail: 'El archivo está adjunto a un correo pendiente de envío.',
  fileInSentMail: 'El archivo forma parte de correos ya enviados y se conserva en el historial.',
  tooManyFiles: (max: number) => `Puede adjuntar como máximo ${max} archivos.`,
  // Also another operator's message: the same answer whether it exists or not.
  messageNotFound: 'El correo no existe.',
  retried: 'El correo se ha vuelto a poner en cola de envío.',
  retryOnlyFailed: 'Solo se puede reintentar un correo cuyo envío falló.',
  templateName: 'Ingrese un nombre para la plantilla.',
  templateExists: 'Ya existe una plantilla con ese nombre en el curso.',
  templateNotYours:
    'Solo quien creó la plantilla, un administrador o un developer puede modificarla o eliminarla.',
  courseRequired: 'Seleccione un curso.',
  contactComment: (subject: string) => `Correo enviado: ${subject}`,
  mailboxPasswordUnreadable:
    'No se pudo leer la contraseña del correo del curso. Vuelva a ingresarla en la pantalla Curso.',
} as const;

/** Delivery states of an outbox message. */
export const MAIL_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** Attempts per message before it is marked failed (docs/development/domain.md#mail: 5 tries). */
export const MAIL_MAX_ATTEMPTS = 5;
export const MAIL_MAX_CC = 20;
export const MAIL_MAX_FILES = 10;
export const MAIL_MAX_TICKETS = 5000;
export const MAIL_SUBJECT_MAX = 255;
export const MAIL_BODY_MAX = 200_000;

/** File types an attachment may have, by extension (the server also checks the content). */
export const MAIL_ATTACHMENT_TYPES = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  txt: 'text/plain',
  csv: 'text/csv',
  zip: 'application/zip',
} as const;
export type MailAttachmentExt = keyof typeof MAIL_ATTACHMENT_TYPES;
/** The `accept` attribute of a file picker. */
export const MAIL_ATTACHMENT_ACCEPT = Object.keys(MAIL_ATTACHMENT_TYPES)
  .map((e) => `.${e}`)
  .join(',');

/** Placeholders filled per student, in subject and body. */
export const MAIL_PLACEHOLDERS = [
  'nombre',
  'apellido',
  'curso',
  'aula',
  'codigo_ticket',
  'rut',
] as const;
export type MailPlaceholder = (typeof MAIL_PLACEHOLDERS)[number];

/** Replaces `{placeholder}` with its value (`escape` applies to values, e.g. HTML escaping); unknown ones stay. */
export function fillPlaceholders(
  text: string,
  values: Record<MailPlaceholder, string>,
  escape: (v: string) => string = (v) => v,
): string {
  return text.replace(/\{([a-z_]+)\}/g, (whole, key: string) =>
    (MAIL_PLACEHOLDERS as readonly string[]).includes(key)
      ? escape(values[key as MailPlaceholder] ?? '')
      : whole,
  );
}

// ---------------------------------------------------------------------------------------------
// Request schemas

const EMAIL = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;

/** A plain e-mail address (no display name), at most 254 characters. */
export const isEmailAddress = (s: string) => s.length <= 254 && EMAIL.test(s);

/** Splits a CC list (`a@x.cl; b@y.cl`, also commas, or an array) into addresses; null names the bad one. */
export function parseCcList(input: unknown): { addresses: string[]; invalid: string | null } {
  const raw: unknown[] = Array.isArray(input)
    ? input
    : typeof input === 'string'
      ? input.split(/[;,]/)
      : [];
  const addresses: string[] = [];
  for (const item of raw) {
    const s = typeof item === 'string' ? item.trim() : '';
    if (!s) continue;
    if (!isEmailAddress(s)) return { addresses, invalid: s };
    if (!addresses.some((a) => a.toLowerCase() === s.toLowerCase())) addresses.push(s);
  }
  return { addresses, invalid: null };
}

const ccField = z
  .unknown()
  .transform((v, ctx) => {
    if (v === undefined || v === null || v === '') return [] as string[];
    if (typeof v === 'string' && v.trim().startsWith('[')) {
      try {
        v = JSON.parse(v);
      } catch {
        /* a plain string */
      }
    }
    const { addresses, invalid } = parseCcList(v);
    if (invalid !== null) ctx.addIssue({ code: 'custom', message: MAIL_MSG.ccInvalid(invalid) });
    else if (addresses.length > MAIL_MAX_CC)
      ctx.addIssue({ code: 'custom', message: MAIL_MSG.ccTooMany(MAIL_MAX_CC) });
    return addresses;
  })
  .default([]);

/** Stored names of uploaded files: an array, a JSON array string, or a comma-separated string. */
const filesField = z
  .unknown()
  .transform((v, ctx) => {
    let value = v;
    if (value === undefined || value === null || value === '') return [] as string[];
    if (typeof value === 'string') {
      const s = value.trim();
      try {
        value = s.startsWith('[') ? JSON.parse(s) : s.split(',');
      } catch {
        value = null;
      }
    }
    // The original client sends the upload answers themselves ({url, name, size, mime}).
    const names = Array.isArray(value)
      ? value.map((f) =>
          typeof f === 'string'
            ? f.trim()
            : f && typeof f === 'object' && typeof (f as { name?: unknown }).name === 'string'
              ? (f as { name: string }).name
              : null,
        )
      : null;
    if (!names || names.some((n) => !n || n.length > 100)) {
      ctx.addIssue({ code: 'custom', message: FORM_MSG.option });
      return z.NEVER;
    }
    const unique = [...new Set(names as string[])].filter(Boolean);
    if (unique.length > MAIL_MAX_FILES)
      ctx.addIssue({ code: 'custom', message: MAIL_MSG.tooManyFiles(MAIL_MAX_FILES) });
    return unique;
  })
  .default([]);

const subject = z.preprocess(
  (v) => (typeof v === 'string' ? v.replace(/[\r\n]+/g, ' ').trim() : v === null ? undefined : v),
  z
    .string({ error: MAIL_MSG.subjectRequired })
    .min(1, MAIL_MSG.subjectRequired)
    .max(MAIL_SUBJECT_MAX, FORM_MSG.max(MAIL_SUBJECT_MAX)),
);
const body = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : v === null ? undefined : v),
  z
    .string({ error: MAIL_MSG.bodyRequired })
    .min(1, MAIL_MSG.bodyRequired)
    .max(MAIL_BODY_MAX, FORM_MSG.max(MAIL_BODY_MAX)),
);

const MAX_ID = 2_147_483_647;
const ticketId = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v === null ? undefined : v),
  z.coerce
    .number({ error: MAIL_MSG.ticketRequired })
    .int(MAIL_MSG.ticketRequired)
    .positive(MAIL_MSG.ticketRequired)
    .max(MAX_ID, MAIL_MSG.ticketRequired),
);

/** POST /mail/single (JSON or multipart): one message to the student of a ticket. `text` is HTML. */
export const mailSingleSchema = z.object({
  ticketId,
  subject,
  text: body,
  CCRecipient: ccField,
  files: filesField,
});
export type MailSingleInput = z.infer<typeof mailSingleSchema>;

/** POST /mail/massive: one message per ticket; `ticketsId` may be a JSON string ("[1,2]"), as the original client sends it. */
export const mailMassiveSchema = z.object({
  ticketsId: z.unknown().transform((v, ctx) => {
    const ids = parseIdList(v);
    if (!ids) {
      ctx.addIssue({ code: 'custom', message: MAIL_MSG.ticketsRequired });
      return z.NEVER;
    }
    if (ids.length > MAIL_MAX_TICKETS)
      ctx.addIssue({
        code: 'custom',
        message: `Puede seleccionar como máximo ${MAIL_MAX_TICKETS}.`,
      });
    return ids;
  }),
  subject,
  text: body,
  CCRecipient: ccField,
  files: filesField,
});
export type MailMassiveInput = z.infer<typeof mailMassiveSchema>;

/** POST /mail/preview: the message one student would receive, and how many would receive one. */
export const mailPreviewSchema = mailMassiveSchema.pick({
  ticketsId: true,
  subject: true,
  text: true,
});
export type MailPreviewInput = z.infer<typeof mailPreviewSchema>;

/** POST /mail/delete/file. */
export const mailDeleteFileSchema = z.object({
  name: z
    .string({ error: MAIL_MSG.fileNotFound })
    .trim()
    .min(1, MAIL_MSG.fileNotFound)
    .max(100, MAIL_MSG.fileNotFound),
});

const optionalId = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v === null ? undefined : v),
  z.coerce
    .number({ error: FORM_MSG.option })
    .int(FORM_MSG.option)
    .positive(FORM_MSG.option)
    .max(MAX_ID, FORM_MSG.option)
    .optional(),
);

/** GET /mail/outbox. */
export const mailOutboxQuerySchema = listQuerySchema.extend({
  status: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(MAIL_STATUSES, { error: FORM_MSG.option }).optional(),
  ),
  ticket_id: optionalId,
  course_id: optionalId,
});
export type MailOutboxQuery = z.infer<typeof mailOutboxQuerySchema>;

/** GET /mail/templates. */
export const mailTemplateQuerySchema = z.object({ course_id: optionalId });

/** POST /mail/templates (PUT takes the same fields, all optional but course_id). */
export const mailTemplateSchema = z.object({
  course_id: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v === null ? undefined : v),
    z.coerce
      .number({ error: MAIL_MSG.courseRequired })
      .int(MAIL_MSG.courseRequired)
      .positive(MAIL_MSG.courseRequired)
      .max(MAX_ID, MAIL_MSG.courseRequired),
  ),
  name: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v === null ? undefined : v),
    z
      .string({ error: MAIL_MSG.templateName })
      .min(1, MAIL_MSG.templateName)
      .max(100, FORM_MSG.max(100)),
  ),
  subject,
  html: body,
});
export type MailTemplateInput = z.infer<typeof mailTemplateSchema>;
export const mailTemplateUpdateSchema = mailTemplateSchema.omit({ course_id: true }).partial();
export type MailTemplateUpdateInput = z.infer<typeof mailTemplateUpdateSchema>;

// ---------------------------------------------------------------------------------------------
// Answers

/** POST /mail/upload/file -> `_data` (the original's {url, name, size, mime}, plus the original name). */
export interface MailUploadResult {
  url: string;
  /** The stored id: what `files` and /mail/delete/file take. */
  name: string;
  size: number;
  mime: string;
  originalName: string;
}

export interface MailAttachmentProps {
  name: string;
  originalName: string;
  size: number;
  mime: string;
  url: string;
}

/** One outbox message (`properties`); `html` and `text` only when reading one message. */
export interface MailMessageProps {
  id: number;
  ticketId: number | null;
  ticketCode: string | null;
  /** The student the message was written to (every message since it names one). */
  enrolmentId: number | null;
  student: string | null;
  courseId: number | null;
  course: string | null;
  toAddress: string;
  cc: string[];
  fromAddress: string;
  replyTo: string | null;
  subject: string;
  status: MailStatus;
  attempts: number;
  lastError: string | null;
  messageId: string;
  sentAt: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy: { id: number; name: string } | null;
  attachments: MailAttachmentProps[];
  html?: string;
  text?: string;
}

/** POST /mail/single and /mail/massive -> `_data`. */
export interface MailQueuedResult {
  queued: number;
  messages: number[];
  skipped: Array<{ ticketId: number; reason: string }>;
}

export interface MailTemplateProps {
  id: number;
  courseId: number;
  name: string;
  subject: string;
  html: string;
  createdAt: string;
  updatedAt: string;
}

/** POST /mail/preview -> `_data`: the count and one message as it will be sent. */
export interface MailPreviewResult {
  /** Tickets asked about. */
  total: number;
  /** Messages that would be queued (students with an e-mail address). */
  recipients: number;
  skipped: Array<{ ticketId: number; reason: string }>;
  /** The first recipient's message, placeholders filled, sanitised and laid out as delivered; null when nobody has an address. */
  sample: {
    ticketId: number;
    ticketCode: string;
    student: string;
    to: string;
    from: string;
    replyTo: string | null;
    subject: string;
    html: string;
    text: string;
  } | null;
}
