import { z } from 'zod';
import { listQuerySchema } from './envelope.js';
import { FORM_MSG, queryFlag } from './resources.js';
import { isAdminLike, type RoleKey } from './roles.js';
import type { StudentSummary } from './students.js';
import { parseDay } from './dates.js';
import { ATTEMPT_DIRECTIONS, ATTEMPT_MEDIA } from './outcomes.js';

/** Tickets, contact attempts, edit locks and saved filters (docs/development/domain.md#tickets; the screens: docs/development/screens.md#ticket, #manage-ticket, #unlock). */

export const TICKET_MSG = {
  created: 'El ticket se ha creado correctamente.',
  createdMany: (n: number) =>
    `Se ${n === 1 ? 'creó 1 ticket' : `crearon ${n} tickets`} correctamente.`,
  updated: 'El ticket se ha editado correctamente.',
  closed: 'El ticket se ha cerrado correctamente.',
  reopened: 'El ticket se ha reabierto correctamente.',
  attemptMedium:
    'Seleccione cómo se hizo el contacto: llamada, correo, WhatsApp, SMS, presencial u otro.',
  attemptDirection: 'Indique si el contacto fue saliente o entrante.',
  staleVersion: 'El ticket fue modificado por otro usuario. Recargue para ver los cambios.',
  locked: (name: string, since: string) =>
    `No se puede editar. Este ticket está bloqueado por ${name} desde las ${since}.`,
  lockTaken: 'Ticket bloqueado para edición.',
  lockRefreshed: 'Bloqueo de edición renovado.',
  notLocked: 'El ticket no está bloqueado.',
  notYours:
    'Este ticket está asignado a otro operador: solo puede consultarlo y trabajarlo quien lo tiene asignado o lo creó, o un administrador.',
  unlocked: 'Ticket desbloqueado exitosamente.',
  unlockedMany: (n: number) =>
    `Se ${n === 1 ? 'desbloqueó 1 ticket' : `desbloquearon ${n} tickets`}.`,
  unlockForbidden:
    'Solo quien bloqueó el ticket, un administrador o un developer puede desbloquearlo.',
  hasDetails: 'No se puede eliminar el ticket porque tiene intentos de contacto registrados.',
  deleteForbidden: 'Solo el creador del ticket, un administrador o un developer puede eliminarlo.',
  deleted: 'El ticket se ha eliminado correctamente.',
  deletedMany: (deleted: number, refused: number) =>
    `Se ${deleted === 1 ? 'eliminó 1 ticket' : `eliminaron ${deleted} tickets`}.` +
    (refused ? ` ${refused} no se ${refused === 1 ? 'pudo' : 'pudieron'} eliminar.` : ''),
  /** One ticket an all-or-none bulk delete refused because it has contact attempts. */
  hasDetailsOf: (code: string) =>
    `El ticket ${code} tiene intentos de contacto registrados y no se puede eliminar.`,
  /** An all-or-none bulk delete refused: nothing was deleted; `reasons` says why, one sentence per ticket (the first five). */
  deletedNone: (reasons: string[]) =>
    `No se eliminó ningún ticket. ${reasons.slice(0, 5).join(' ')}` +
    (reasons.length > 5 ? ` Y ${reasons.length - 5} más.` : ''),
  bulkDone: (updated: number, refused: number) =>
    `Se ${updated === 1 ? 'actualizó 1 ticket' : `actualizaron ${updated} tickets`}.` +
    (refused ? ` ${refused} no se ${refused === 1 ? 'pudo' : 'pudieron'} actualizar.` : ''),
  notFound: 'El ticket no existe.',
  notFoundOf: (id: number) => `El ticket ${id} no existe.`,
  /** The name of a ticket's operator when it has none (the original client needs a name). */
  unassigned: 'Sin asignar',
  detailCreated: 'Intento de contacto registrado.',
  detailCreatedMany: (n: number) =>
    `Se ${n === 1 ? 'registró 1 intento' : `registraron ${n} intentos`} de contacto.`,
  detailEditForbidden:
    'Solo quien registró el intento de contacto, un administrador o un developer puede modificarlo.',
  detailDeleted: 'Intento de contacto eliminado.',
  selectTickets: 'Debe seleccionar al menos un ticket.',
  selectStudents: 'Debe seleccionar al menos un alumno.',
  invalidDate: 'Fecha no válida. Use el formato dd-mm-aaaa o aaaa-mm-dd.',
  invalidList: 'Lista de identificadores no válida.',
  ticketMismatch: 'El ticket indicado no corresponde al de la dirección.',
  operatorInvalid: 'Seleccione un operador válido.',
  noClosedStatus: 'No existe un estado de cierre configurado.',
  commentRequired: 'Ingrese una observación.',
  required: FORM_MSG.required,
  presetNameRequired: 'Ingrese un nombre para el filtro.',
  presetSaved: 'Filtro guardado.',
  presetDeleted: 'Filtro eliminado.',
  presetTooLarge: 'El filtro es demasiado grande.',
} as const;

// ---------------------------------------------------------------------------------------------
// Request schemas

const MAX_ID = 2_147_483_647;
const blank = (v: unknown) =>
  typeof v === 'string' && v.trim() === '' ? undefined : v === null ? undefined : v;
const id = z.coerce
  .number({ error: FORM_MSG.option })
  .int(FORM_MSG.option)
  .positive(FORM_MSG.option)
  .max(MAX_ID, FORM_MSG.option);
const requiredId = z.preprocess(blank, id);
const optionalId = z.preprocess(blank, id.optional());

/** Parses `[1,2,3]`, `1,2,3` or an array into distinct ids; null when malformed. */
export function parseIdList(input: unknown): number[] | null {
  let value = input;
  if (typeof value === 'string') {
    const s = value.trim();
    try {
      value = s.startsWith('[') ? JSON.parse(s) : s.split(',').map((x) => x.trim());
    } catch {
      return null;
    }
  }
  if (!Array.isArray(value) || value.length === 0) return null;
  const out: number[] = [];
  for (const v of value) {
    const n =
      typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < 1 || n > MAX_ID) return null;
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

/** An array of ids (also a JSON string of one, as the original client sends `ticketsId`). */
const idArray = (emptyMessage: string, max = 5000) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (parseIdList(v) ?? v) : v),
    z
      .array(id, { error: emptyMessage })
      .min(1, emptyMessage)
      .max(max, `Puede seleccionar como máximo ${max}.`)
      .transform((ids) => [...new Set(ids)]),
  );

const ticketOptions = {
  type_ticket_id: requiredId,
  status_ticket_id: requiredId,
  priority_ticket_id: requiredId,
  source_ticket_id: requiredId,
  motive_ticket_id: requiredId,
  user_assigned_id: z.preprocess(blank, id.nullable().optional()),
};

/** POST /tickets. The creator is the signed-in user; other fields the client sends are ignored. */
export const ticketCreateSchema = z.object({
  course_registered_user_id: requiredId,
  ...ticketOptions,
});
export type TicketCreateInput = z.infer<typeof ticketCreateSchema>;

/** POST /tickets/multiple: one ticket per enrolment, consecutive codes. */
export const ticketCreateManySchema = z.object({
  course_registered_user_id: idArray(TICKET_MSG.selectStudents),
  ...ticketOptions,
});
export type TicketCreateManyInput = z.infer<typeof ticketCreateManySchema>;

/** PUT /tickets/{id}: fields left out are not changed; `version` is the one the client read. */
export const ticketUpdateSchema = z.object({
  ticket_id: optionalId,
  version: z.preprocess(
    blank,
    z.coerce
      .number({ error: FORM_MSG.number })
      .int(FORM_MSG.number)
      .min(0, FORM_MSG.number)
      .max(MAX_ID, FORM_MSG.number)
      .optional(),
  ),
  type_ticket_id: optionalId,
  status_ticket_id: optionalId,
  priority_ticket_id: optionalId,
  source_ticket_id: optionalId,
  motive_ticket_id: optionalId,
  user_assigned_id: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    id.nullable().optional(),
  ),
});
export type TicketUpdateInput = z.infer<typeof ticketUpdateSchema>;

const comment = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : v === null ? undefined : v),
  z
    .string({ error: TICKET_MSG.commentRequired })
    .min(1, TICKET_MSG.commentRequired)
    .max(5000, FORM_MSG.max(5000)),
);

/**
 * How the contact was made and who started it (optional: the original client sends neither; the
 * report then takes the ticket type's medium).
 */
const attemptHow = {
  medium: z.enum(ATTEMPT_MEDIA, { error: TICKET_MSG.attemptMedium }).optional(),
  direction: z.enum(ATTEMPT_DIRECTIONS, { error: TICKET_MSG.attemptDirection }).optional(),
};

/** POST /ticket-details: a contact attempt; the creator is the signed-in user. */
export const ticketDetailCreateSchema = z.object({
  ticket_id: requiredId,
  status_detail_ticket_id: requiredId,
  comment,
  ...attemptHow,
});
export type TicketDetailCreateInput = z.infer<typeof ticketDetailCreateSchema>;

/** POST /ticket-details/multiple: the same attempt on many tickets. */
export const ticketDetailCreateManySchema = z.object({
  ticket_id: idArray(TICKET_MSG.selectTickets),
  status_detail_ticket_id: requiredId,
  comment,
  ...attemptHow,
});

/** GET /ticket-details: optionally one ticket's attempts. */
export const ticketDetailListQuerySchema = listQuerySchema.extend({ ticket_id: optionalId });

export const ticketDetailUpdateSchema = z.object({
  status_detail_ticket_id: optionalId,
  comment: comment.optional(),
});
export type TicketDetailUpdateInput = z.infer<typeof ticketDetailUpdateSchema>;

/** POST /log-editing-tickets: the lock is always the caller's (a `user_id` sent is ignored). */
export const ticketLockSchema = z.object({ ticket_id: requiredId });

export const TICKET_BULK_ACTIONS = ['close', 'assign', 'status'] as const;
export type TicketBulkAction = (typeof TICKET_BULK_ACTIONS)[number];

/** POST /tickets/bulk. */
export const ticketBulkSchema = z
  .object({
    ids: idArray(TICKET_MSG.selectTickets, 1000),
    action: z.enum(TICKET_BULK_ACTIONS, { error: FORM_MSG.option }),
    status_ticket_id: optionalId,
    user_assigned_id: optionalId,
  })
  .superRefine((v, ctx) => {
    if (v.action === 'status' && !v.status_ticket_id)
      ctx.addIssue({ code: 'custom', path: ['status_ticket_id'], message: FORM_MSG.required });
    if (v.action === 'assign' && !v.user_assigned_id)
      ctx.addIssue({ code: 'custom', path: ['user_assigned_id'], message: FORM_MSG.required });
  });
export type TicketBulkInput = z.infer<typeof ticketBulkSchema>;

/** A text read by `parse`; when it gives null, `message` is the field's error. */
export const parsedText = <T>(parse: (text: string) => T | null, message: string) =>
  z.string({ error: message }).transform((v, ctx) => {
    const parsed = parse(v);
    if (parsed === null) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return parsed;
  });

const day = z.preprocess(blank, parsedText(parseDay, TICKET_MSG.invalidDate).optional());

export const TICKET_STATUS_FILTERS = ['open', 'closed', 'all'] as const;
export type TicketStatusFilter = (typeof TICKET_STATUS_FILTERS)[number];

/** `status`: 'open' | 'closed' | 'all', or a status id. */
function parseStatusFilter(text: string): TicketStatusFilter | number | null {
  const s = text.trim();
  if ((TICKET_STATUS_FILTERS as readonly string[]).includes(s)) return s as TicketStatusFilter;
  const n = Number(s);
  return /^\d+$/.test(s) && n >= 1 && n <= MAX_ID ? n : null;
}
const statusFilter = z.preprocess(
  (v) => (typeof v === 'number' ? String(v) : blank(v)),
  parsedText(parseStatusFilter, FORM_MSG.option).optional(),
);

/** The filters every ticket list, the export and the saved presets share. */
export const ticketFiltersSchema = z.object({
  course_id: optionalId,
  classroom_id: optionalId,
  status: statusFilter,
  status_ticket_id: optionalId,
  priority_ticket_id: optionalId,
  type_ticket_id: optionalId,
  motive_ticket_id: optionalId,
  source_ticket_id: optionalId,
  user_assigned_id: optionalId,
  from: day,
  to: day,
  search: z.preprocess(blank, z.string().trim().max(200, FORM_MSG.max(200)).optional()),
});
export type TicketFilters = z.infer<typeof ticketFiltersSchema>;

/**
 * Query of every ticket list: filters plus page, perPage, sort, order, and `compact` (each ticket
 * without the original client's raw attempts and Moodle results: what this product's own screens
 * ask for; the original client never sends it and gets them).
 */
export const ticketListQuerySchema = listQuerySchema.extend({
  ...ticketFiltersSchema.shape,
  compact: queryFlag,
});
export type TicketListQuery = z.infer<typeof ticketListQuerySchema>;

/**
 * Query of DELETE /tickets/multiple/{ids}: `partial` (what this product's own screens ask for)
 * deletes each ticket the rules allow and lists the others with the reason; without it (the
 * original client, which keeps every selected row unless told success) all are deleted or none.
 */
export const ticketDeleteManyQuerySchema = z.object({ partial: queryFlag });

/** Sort keys the ticket lists accept. */
export const TICKET_SORTS = [
  'id',
  'ticketCode',
  'createdAt',
  'closingDate',
  'age',
  'attempts',
  'priority',
  'status',
  'type',
  'motive',
  'source',
  'operator',
  'creator',
  'student',
  'rut',
  'classroom',
  'course',
] as const;

/** POST /ticket-filters: a named set of list filters, per user. */
export const ticketFilterPresetSchema = z.object({
  name: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: TICKET_MSG.presetNameRequired })
      .min(1, TICKET_MSG.presetNameRequired)
      .max(60, FORM_MSG.max(60)),
  ),
  filters: z
    .record(z.string(), z.unknown(), { error: FORM_MSG.option })
    .refine((f) => JSON.stringify(f).length <= 4000, TICKET_MSG.presetTooLarge),
});
export type TicketFilterPresetInput = z.infer<typeof ticketFilterPresetSchema>;

// ---------------------------------------------------------------------------------------------
// Response shapes

export interface TicketOption {
  id: number;
  description: string;
  key: string | null;
}

export interface TicketPerson {
  id: number;
  name: string;
}

export interface TicketLockProperties {
  id: number;
  /** `ticket_code` too: the original client's unlock screen reads it snake_case (docs/development/original-api.md#locks). */
  ticket: { id: number; ticketCode: string; ticket_code: string };
  user: TicketPerson;
  createdAt: string;
  createdTime: string;
  createdAtIso: string;
  /** HH:mm, Chilean time. */
  since: string;
  expiresAt: string;
  expired: boolean;
}

export interface TicketDetailProperties {
  id: number;
  ticketId: number;
  comment: string;
  statusDetailTicket: TicketOption;
  userCreated: TicketPerson;
  /** `dd-mm-yyyy HH:mm`, Chilean time (the original client splits it on the space, docs/development/original-api.md#tickets). */
  createdAt: string;
  /** `dd-mm-yyyy`. */
  createdDate: string;
  /** `HH:mm`. */
  createdTime: string;
  createdAtIso: string;
}

/**
 * A contact attempt as the original server dumped it (snake_case), in a ticket's
 * `relationships.array` (docs/development/original-api.md §1.6, §2.10). `created_at` is ISO 8601 with its zone.
 */
export interface RawTicketDetail {
  id: number;
  ticket_id: number;
  comment: string;
  status_detail_ticket_id: number;
  user_created_id: number;
  created_at: string;
  updated_at: string;
  status_detail_ticket: { id: number; description: string; key: string | null };
  user_created: { id: number; name: string };
}

/** A Moodle result of an enrolment with its activity and section, snake_case (the original's `activity_course_users`). */
export interface RawActivityCourseUser {
  id: number;
  activity_id: number;
  course_registered_user_id: number;
  status_moodle: string;
  qualification_moodle: string;
  activity: {
    id: number;
    description: string;
    /** The original's activity family ('Tareas', 'Foros', 'Cuestionarios', 'Encuestas', …). */
    type: string;
    weighing: number;
    id_activity_moodle: number | null;
    section_id: number | null;
    section: { id: number | null; description: string };
  };
}

export interface TicketProperties {
  id: number;
  ticketCode: string;
  version: number;
  statusTicket: TicketOption;
  typeTicket: TicketOption;
  priorityTicket: TicketOption;
  sourceTicket: TicketOption;
  motiveTicket: TicketOption;
  userCreated: TicketPerson;
  /** Never null (the original client reads `.id` and `.name`): an unassigned ticket has `{ id: 0, name: 'Sin asignar' }`. */
  userAssigned: TicketPerson;
  /**
   * The enrolment, in our camelCase and, beside it, the original server's raw snake_case fields
   * (`registered_user`, `classroom_id`, `is_sincronized`, `last_access_registered_moodle`,
   * `activity_course_users`, `course.category_id`) that the original client reads (docs/development/original-api.md#raw-objects).
   * `classroom` is never null on a ticket: a student without one has `{ id: null, description: 'Sin aula' }`.
   */
  courseRegisteredUser: {
    id: number;
    classroom: { id: number | null; description: string } | null;
    profile: TicketOption;
    finalStatus: { id: number; description: string } | null;
    lastAccess: string | null;
    lastAccessText: string | null;
    course: {
      id: number;
      description: string;
      category: { id: number; description: string; categoryCode: string };
      category_id: number;
      id_course_moodle: number | null;
    };
    registeredUser: StudentSummary & { mobile: string | null; phone: string | null };
    is_sincronized: 0 | 1;
    classroom_id: number | null;
    /** Chilean `dd-mm-yyyy HH:mm`, or Moodle's text ('Nunca'); null before any synchronisation. */
    last_access_registered_moodle: string | null;
    registered_user: {
      id: number;
      rut: string;
      name: string;
      last_name: string;
      mother_last_name: string;
      email: string | null;
      mobile: string | null;
      phone: string | null;
    };
    /** Present where the list or record loads them (every ticket route). */
    activity_course_users?: RawActivityCourseUser[];
  };
  closingDate: string | null;
  closingTime: string | null;
  /** = closingTime (the original's name). */
  timeClosingDate: string | null;
  closingDateIso: string | null;
  /** `dd-mm-yyyy`. */
  createdAt: string;
  createdTime: string;
  /** = createdTime (the original's name). */
  timeCreatedAt: string;
  /** The creation date `dd-mm-yyyy`: the original client shows `updatedAt` as "Fecha de creación" (docs/development/original-api.md#dates). */
  updatedAt: string;
  createdAtIso: string;
  ageTicket: number;
  ageText: string;
  close: boolean;
  showDeleteButton: boolean;
  attempts: number;
  lock: Omit<TicketLockProperties, 'ticket'> | null;
}

/**
 * Who may work a ticket (add attempts, edit it): administrators and developers every ticket; an
 * operator only those assigned to them or created by them (docs/development/permissions.md).
 */
export function mayTouchTicket(
  actor: { id: number; role: RoleKey | null | undefined },
  ticket: { assignedId: number | null; creatorId: number },
): boolean {
  return isAdminLike(actor.role) || ticket.assignedId === actor.id || ticket.creatorId === actor.id;
}

/**
 * Who may delete a ticket (docs/development/domain.md#deleting-a-ticket): only while it has no contact attempts, and only its
 * creator, an administrator or a developer. The server enforces it and sends it as showDeleteButton.
 */
export function canDeleteTicket(
  ticket: { attempts: number; creatorId: number },
  user: { id: number; role: RoleKey | null | undefined },
): boolean {
  return ticket.attempts === 0 && (ticket.creatorId === user.id || isAdminLike(user.role));
}
