import { z } from 'zod';
import { FORM_MSG, queryFlag } from './resources.js';
import { chileParts, parseDay } from './dates.js';

/**
 * Reminders on tickets (Recordatorios) and the operator's agenda (Mi agenda, `/my/agenda`).
 * A reminder is pending, done (by hand, or when a contact attempt is logged on its ticket after it
 * fell due) or dismissed; it belongs to one ticket and one operator. Same rules as tickets: an
 * operator only on the tickets they may touch; administrators on all; tutors none.
 */

export const REMINDER_STATES = ['pending', 'done', 'dismissed'] as const;
export type ReminderState = (typeof REMINDER_STATES)[number];

/** How often the web app asks for the count of due reminders (the app bar's badge). */
export const REMINDER_POLL_MS = 30_000;
/** Agenda defaults per course: N days without contact, D days without Moodle access, P % of the expected progress. */
export const AGENDA_DEFAULTS = { contactDays: 7, inactiveDays: 7, progressPercent: 50 } as const;
/** Open tickets without an attempt for more than K days (the agenda's third section). */
export const AGENDA_STALE_TICKET_DAYS = 3;

/** How long an administrator's last reassignment can be undone (Mi agenda, Carga por operador). */
export const AGENDA_REASSIGN_UNDO_HOURS = 24;

export const REMINDER_MSG = {
  created: 'Recordatorio creado.',
  updated: 'Recordatorio modificado.',
  completed: 'Recordatorio marcado como hecho.',
  dismissed: 'Recordatorio descartado.',
  // Also a reminder on another operator's ticket: the same answer whether it exists or not.
  notFound: 'El recordatorio no existe.',
  notYours: 'Solo el dueño del recordatorio o un administrador puede cambiarlo.',
  otherAgenda: 'Solo un administrador puede ver la agenda de otro usuario.',
  onlySelf: 'Solo un administrador puede crear recordatorios para otro operador.',
  ownerNotOperator: 'El recordatorio debe ser para un operador o administrador activo.',
  // Also another operator's ticket: the same answer whether it exists or not.
  ticketNotFound: 'El ticket no existe.',
  ownerCannotTouch:
    'Ese operador no tiene este ticket asignado ni lo creó: asígneselo antes de dejarle un recordatorio.',
  invalidDue: 'Ingrese una fecha y hora válidas.',
  notPending: 'El recordatorio ya no está pendiente.',
  commentMax: 'El comentario debe contener máximo 1000 caracteres.',
  invalidState: 'Estado no válido: use pending, done o dismissed.',
  invalidRange: 'Ingrese un rango de fechas válido (aaaa-mm-dd).',
  snoozed: 'Recordatorio pospuesto.',
  /** What moved and to whom: "17 tickets y 3 recordatorios reasignados a Ana Pérez." */
  reassigned: (tickets: number, reminders: number, to: string, refused = 0) => {
    const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
    const what = [
      tickets ? count(tickets, 'ticket', 'tickets') : '',
      reminders ? count(reminders, 'recordatorio', 'recordatorios') : '',
    ].filter(Boolean);
    const moved = what.length
      ? `${what.join(' y ')} ${tickets + reminders === 1 ? 'reasignado' : 'reasignados'} a ${to}.`
      : `Nada reasignado a ${to}.`;
    return refused
      ? `${moved} ${count(refused, 'ticket no se pudo reasignar', 'tickets no se pudieron reasignar')}.`
      : moved;
  },
  nothingToUndo: `No hay una reasignación que deshacer: se puede deshacer la última durante ${AGENDA_REASSIGN_UNDO_HOURS} horas.`,
  settingsSaved: 'Configuración del curso guardada.',
  digestSaved: 'Preferencia de resumen matinal guardada.',
  courseNotFound: 'El curso no existe.',
  operatorNotFound: 'El operador no existe.',
} as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** The moment a Chilean wall-clock day (`yyyy-mm-dd`) and time (`HH:mm`) name, as a Date. */
export function chileLocalToDate(day: string, time: string): Date | null {
  const d = parseDay(day);
  const t = /^(\d{1,2}):(\d{2})$/.exec(time.trim());
  if (!d || !t || Number(t[1]) > 23 || Number(t[2]) > 59) return null;
  const [y, m, dd] = d.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, dd, Number(t[1]), Number(t[2]));
  // Chile is UTC-3 or UTC-4: try both offsets and keep the one whose Chilean parts match.
  for (const hours of [3, 4, 5, 2]) {
    const guess = new Date(wall + hours * 3_600_000);
    const p = chileParts(guess);
    if (p.day === d && p.time === `${pad(Number(t[1]))}:${t[2]}`) return guess;
  }
  return new Date(wall + 4 * 3_600_000);
}

/** The default due time of a new reminder: tomorrow 10:00 in Chile. */
export function defaultReminderDue(now: Date = new Date()): { day: string; time: string } {
  const tomorrow = chileParts(new Date(now.getTime() + 86_400_000)).day;
  return { day: tomorrow, time: '10:00' };
}

const MAX_ID = 2_147_483_647;
const blank = (v: unknown) =>
  typeof v === 'string' && v.trim() === '' ? undefined : v === null ? undefined : v;
const id = z.coerce
  .number({ error: FORM_MSG.option })
  .int(FORM_MSG.option)
  .positive(FORM_MSG.option)
  .max(MAX_ID, FORM_MSG.option);
const optionalId = z.preprocess(blank, id.optional());
/** A moment: an ISO date-time with its offset (what the web app sends after reading Chilean time). */
const moment = z
  .string({ error: REMINDER_MSG.invalidDue })
  .trim()
  .max(40, REMINDER_MSG.invalidDue)
  .refine(
    (v) =>
      /^\d{4}-\d{2}-\d{2}T/.test(v) &&
      !Number.isNaN(Date.parse(v)) &&
      Math.abs(Date.parse(v) - Date.now()) < 20 * 365 * 86_400_000,
    REMINDER_MSG.invalidDue,
  )
  .transform((v) => new Date(v).toISOString());
const comment = z.string({ error: FORM_MSG.required }).trim().max(1000, REMINDER_MSG.commentMax);
const day = z.preprocess(
  blank,
  z
    .string({ error: REMINDER_MSG.invalidRange })
    .max(20, REMINDER_MSG.invalidRange)
    .refine((v) => parseDay(v) !== null, REMINDER_MSG.invalidRange)
    .transform((v) => parseDay(v)!)
    .optional(),
);
const page = z.preprocess(
  blank,
  z.coerce
    .number({ error: FORM_MSG.number })
    .int(FORM_MSG.number)
    .min(1, FORM_MSG.numberMin(1))
    .max(1_000_000, FORM_MSG.numberMax(1_000_000))
    .optional(),
);
const perPage = z.preprocess(
  blank,
  z.coerce
    .number({ error: FORM_MSG.number })
    .int(FORM_MSG.number)
    .min(1, FORM_MSG.numberMin(1))
    .max(200, FORM_MSG.numberMax(200))
    .optional(),
);
const order = z.preprocess(blank, z.enum(['asc', 'desc'], { error: FORM_MSG.option }).optional());

export const reminderCreateSchema = z.object({
  ticket_id: id,
  due_at: moment,
  comment: comment.default(''),
  /** For another operator (administrators only); the caller by default. */
  user_id: optionalId,
});
export type ReminderCreate = z.infer<typeof reminderCreateSchema>;

export const reminderUpdateSchema = z.object({
  due_at: moment.optional(),
  comment: comment.optional(),
  user_id: optionalId,
  /** Back to pending (reopen) is allowed; done and dismissed have their own routes. */
  state: z.preprocess(blank, z.literal('pending', { error: REMINDER_MSG.invalidState }).optional()),
});
export type ReminderUpdate = z.infer<typeof reminderUpdateSchema>;

export const REMINDER_SORTS = ['due_at', 'created_at', 'state', 'operator', 'ticket'] as const;

export const reminderListQuerySchema = z.object({
  page,
  perPage,
  /** Only the caller's own reminders. */
  mine: queryFlag,
  user_id: optionalId,
  ticket_id: optionalId,
  state: z.preprocess(
    blank,
    z.enum(REMINDER_STATES, { error: REMINDER_MSG.invalidState }).optional(),
  ),
  /** Only pending reminders already due (the badge's list). */
  due: queryFlag,
  due_from: day,
  due_to: day,
  sort: z.preprocess(blank, z.enum(REMINDER_SORTS, { error: FORM_MSG.option }).optional()),
  order,
});
export type ReminderListQuery = z.infer<typeof reminderListQuerySchema>;

export const reminderSnoozeSchema = z.object({ due_at: moment });

export interface Reminder {
  id: number;
  ticketId: number;
  ticketCode: string;
  enrolmentId: number;
  courseId: number;
  course: string;
  student: string;
  rut: string;
  userId: number;
  userName: string;
  createdBy: number | null;
  dueAt: string;
  comment: string;
  state: ReminderState;
  overdue: boolean;
  doneAt: string | null;
  ticketDetailId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** Whether a pending reminder is past its due time. */
export const isOverdue = (r: { state: ReminderState; dueAt: string }, now: number = Date.now()) =>
  r.state === 'pending' && Date.parse(r.dueAt) <= now;

// ---------------------------------------------------------------------------------------------
// The agenda

export const AGENDA_RULES = ['resigning', 'inactive', 'behind'] as const;
export type AgendaRule = (typeof AGENDA_RULES)[number];

export const agendaQuerySchema = z.object({
  page,
  perPage,
  /** Another operator's agenda (administrators). */
  user_id: optionalId,
  order,
  /** Open tickets without an attempt for more than K days (third section). */
  days: z.preprocess(
    blank,
    z.coerce
      .number({ error: FORM_MSG.number })
      .int(FORM_MSG.number)
      .min(0, FORM_MSG.numberMin(0))
      .max(365, FORM_MSG.numberMax(365))
      .optional(),
  ),
  sort: z.preprocess(blank, z.string().trim().max(40).optional()),
  /** At-risk students: only those with an open ticket assigned to the agenda's operator (what the workload table counts). */
  own_open_tickets: queryFlag,
});
export type AgendaQuery = z.infer<typeof agendaQuerySchema>;

export interface AgendaStudent {
  enrolmentId: number;
  courseId: number;
  course: string;
  classroom: string | null;
  rut: string;
  name: string;
  email: string | null;
  phone: string | null;
  status: number;
  lastAccess: string | null;
  daysWithoutAccess: number | null;
  progress: number | null;
  expectedProgress: number | null;
  rules: AgendaRule[];
  lastAttemptAt: string | null;
  openTicketId: number | null;
}

export interface AgendaTicket {
  id: number;
  ticketCode: string;
  enrolmentId: number;
  course: string;
  student: string;
  rut: string;
  createdAt: string;
  lastAttemptAt: string | null;
  daysWithoutAttempt: number;
}

export interface AgendaWorkload {
  userId: number;
  name: string;
  due: number;
  overdue: number;
  openTickets: number;
  atRisk: number;
}

/** An administrator's last reassignment, while it can be undone (GET /agenda/reassign/last). */
export interface AgendaLastReassign {
  from: { id: number; name: string };
  to: { id: number; name: string };
  /** Tickets that moved (their pending reminders went with them). */
  tickets: number;
  reminders: number;
  at: string;
  /** Until when "Deshacer" works. */
  until: string;
}

/** `_data` of POST /agenda/reassign and /agenda/reassign/undo. */
export interface AgendaReassignResult {
  tickets: number;
  reminders: number;
  refused: number;
  to: { id: number; name: string };
  /** The reassignment that can now be undone (null after an undo, or without `from_user_id`). */
  last: AgendaLastReassign | null;
}

export const agendaCourseSettingsSchema = z.object({
  contact_days: z.coerce
    .number({ error: FORM_MSG.number })
    .int(FORM_MSG.number)
    .min(1, FORM_MSG.numberMin(1))
    .max(365, FORM_MSG.numberMax(365)),
  inactive_days: z.coerce
    .number({ error: FORM_MSG.number })
    .int(FORM_MSG.number)
    .min(1, FORM_MSG.numberMin(1))
    .max(365, FORM_MSG.numberMax(365)),
  progress_percent: z.coerce
    .number({ error: FORM_MSG.number })
    .int(FORM_MSG.number)
    .min(0, FORM_MSG.numberMin(0))
    .max(100, FORM_MSG.numberMax(100)),
  starts_on: day.nullable().default(null),
  ends_on: day.nullable().default(null),
});
export type AgendaCourseSettings = z.infer<typeof agendaCourseSettingsSchema>;

export const agendaReassignSchema = z.object({
  to_user_id: id,
  /** Whose work this is (the workload table's row): given, the reassignment can be undone. */
  from_user_id: id.optional(),
  reminder_ids: z.array(id).max(500).default([]),
  ticket_ids: z.array(id).max(500).default([]),
});

export const agendaDigestSchema = z.object({
  morning_digest: z.boolean({ error: FORM_MSG.option }),
});
