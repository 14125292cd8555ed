import {
  canDeleteTicket,
  chileDateTime,
  chileParts,
  TICKET_HISTORY_ACTIONS,
  ticketAgeDays,
  ticketAgeText,
  type TicketDetailProperties,
  type TicketHistoryAction,
  type TicketLockProperties,
  type TicketProperties,
} from '@sigaf/contract';
import type { FastifyRequest } from 'fastify';
import { relationship, resource } from '../../http/envelope.js';
import type { TicketDetailRow, TicketFilterRow, TicketHistoryRow, TicketLockRow, TicketRow } from './repository.js';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** createdAt (dd-mm-yyyy), createdTime (HH:mm) in Chilean time, and the ISO moment. */
function stamp(value: Date | string) {
  const p = chileParts(value);
  return { createdAt: p.date, createdTime: p.time, createdAtIso: new Date(value).toISOString() };
}

export function presentDetail(request: FastifyRequest, d: TicketDetailRow) {
  const properties: TicketDetailProperties = {
    id: d.id,
    ticketId: d.ticket_id,
    comment: d.comment,
    statusDetailTicket: { id: d.status_detail_ticket_id, description: d.status_description, key: d.status_key },
    userCreated: { id: d.user_created_id, name: d.user_name },
    ...stamp(d.created_at),
  };
  return resource(request, `/api/v2/ticket-details/${d.id}`, properties);
}

type LockFields = Pick<TicketLockRow, 'id' | 'user_id' | 'user_name' | 'created_at' | 'expires_at'>;

function lockProperties(l: LockFields): Omit<TicketLockProperties, 'ticket'> {
  const s = stamp(l.created_at);
  return { id: l.id, user: { id: l.user_id, name: l.user_name }, ...s, since: s.createdTime, expiresAt: iso(l.expires_at)!, expired: new Date(l.expires_at).getTime() <= Date.now() };
}

export function presentLock(request: FastifyRequest, l: TicketLockRow) {
  const properties: TicketLockProperties = { ...lockProperties(l), ticket: { id: l.ticket_id, ticketCode: l.ticket_code } };
  return resource(request, `/api/v2/log-editing-tickets/${l.id}`, properties);
}

/**
 * A ticket as BEHAVIOUR.md §4 describes it. `details` is the attempts array of a single ticket;
 * lists leave it out and keep the count. showDeleteButton depends on who asks.
 */
export function presentTicket(request: FastifyRequest, t: TicketRow, details?: TicketDetailRow[]) {
  const attempts = Number(t.details_count);
  const close = t.status_key !== 'open';
  const created = chileParts(t.created_at);
  const closing = t.closing_date ? chileParts(t.closing_date) : null;
  const age = ticketAgeDays(t.created_at, t.closing_date);
  const actor = request.auth;
  const properties: TicketProperties = {
    id: t.id,
    ticketCode: t.ticket_code,
    version: t.version,
    statusTicket: { id: t.status_ticket_id, description: t.status_description, key: t.status_key },
    typeTicket: { id: t.type_ticket_id, description: t.type_description, key: t.type_key },
    priorityTicket: { id: t.priority_ticket_id, description: t.priority_description, key: t.priority_key },
    sourceTicket: { id: t.source_ticket_id, description: t.source_description, key: t.source_key },
    motiveTicket: { id: t.motive_ticket_id, description: t.motive_description, key: t.motive_key },
    userCreated: { id: t.user_create_id, name: t.creator_name },
    userAssigned: t.user_assigned_id ? { id: t.user_assigned_id, name: t.assigned_name ?? '' } : null,
    courseRegisteredUser: {
      id: t.course_registered_user_id,
      classroom: t.classroom_id ? { id: t.classroom_id, description: t.classroom_description ?? '' } : null,
      profile: { id: t.profile_id, description: t.profile_description, key: t.profile_key },
      finalStatus: t.final_status_id ? { id: t.final_status_id, description: t.final_status_description ?? '' } : null,
      lastAccess: iso(t.last_access_registered_moodle),
      lastAccessText: t.last_access_text,
      course: {
        id: t.course_id,
        description: t.course_description,
        category: { id: t.category_id, description: t.category_description, categoryCode: t.category_code },
      },
      registeredUser: {
        id: t.registered_user_id,
        rut: t.rut,
        name: t.student_name,
        lastName: t.last_name,
        motherLastName: t.mother_last_name,
        email: t.email,
        mobile: t.mobile,
        phone: t.phone,
      },
    },
    closingDate: closing?.date ?? null,
    closingTime: closing?.time ?? null,
    closingDateIso: iso(t.closing_date),
    createdAt: created.date,
    createdTime: created.time,
    createdAtIso: iso(t.created_at)!,
    ageTicket: age,
    ageText: ticketAgeText(age),
    close,
    showDeleteButton: actor ? canDeleteTicket({ attempts, creatorId: t.user_create_id }, actor) : false,
    attempts,
    lock:
      t.lock_id && t.lock_user_id && t.lock_created_at && t.lock_expires_at
        ? lockProperties({ id: t.lock_id, user_id: t.lock_user_id, user_name: t.lock_user_name ?? '', created_at: t.lock_created_at, expires_at: t.lock_expires_at })
        : null,
  };
  return resource(request, `/api/v2/tickets/${t.id}`, properties, relationship(request, `/api/v2/tickets/${t.id}/ticket-details`, attempts, details?.map((d) => presentDetail(request, d))));
}

export function presentHistory(request: FastifyRequest, h: TicketHistoryRow) {
  return resource(request, `/api/v2/tickets/${h.ticket_id}/history`, {
    id: Number(h.id),
    ticketId: h.ticket_id,
    action: h.action,
    actionText: TICKET_HISTORY_ACTIONS[h.action as TicketHistoryAction] ?? h.action,
    user: h.user_id ? { id: h.user_id, name: h.user_name ?? '' } : null,
    changes: h.changes,
    ...stamp(h.created_at),
  });
}

export function presentPreset(request: FastifyRequest, f: TicketFilterRow) {
  return resource(request, `/api/v2/ticket-filters/${f.id}`, {
    id: f.id,
    name: f.name,
    filters: f.filters,
    createdAtIso: iso(f.created_at),
    updatedAtIso: iso(f.updated_at),
  });
}

/** The columns of the ticket export (SCREENS.md §7.1). */
export const TICKET_EXPORT_HEADER = [
  'N°', 'CÓDIGO TICKET', 'RUT', 'NOMBRE', 'APELLIDOS', 'AULA', 'ÚLTIMO ACCESO', 'ORIGEN', 'TIPO', 'MOTIVO', 'PRIORIDAD', 'CREADOR',
  'OPERADOR', 'ESTADO', 'FECHA DE CREACIÓN', 'FECHA DE CIERRE', 'ANTIGÜEDAD', 'ESTADO DE ÚLTIMO INTENTO', 'COMENTARIO',
  'FECHA DE REGISTRO', 'OPERADOR', 'HISTÓRICO DE CONTACTOS',
];

/** One row per ticket: the student, every ticket field, its age, the latest attempt, and the earlier ones as numbered text. */
export function ticketExportRows(tickets: TicketRow[], details: TicketDetailRow[]): Array<Array<string | number | null>> {
  const byTicket = new Map<number, TicketDetailRow[]>();
  for (const d of details) byTicket.set(d.ticket_id, [...(byTicket.get(d.ticket_id) ?? []), d]);
  return tickets.map((t, i) => {
    const attempts = byTicket.get(t.id) ?? [];
    const last = attempts.at(-1);
    const earlier = attempts
      .slice(0, -1)
      .map((d, n) => `${n + 1}. ${chileDateTime(d.created_at)} - ${d.status_description} - ${d.user_name}: ${d.comment}`)
      .join('\n');
    return [
      i + 1,
      t.ticket_code,
      t.rut,
      t.student_name,
      [t.last_name, t.mother_last_name].filter(Boolean).join(' '),
      t.classroom_description ?? 'Sin aula',
      t.last_access_registered_moodle ? chileDateTime(t.last_access_registered_moodle) : (t.last_access_text ?? 'Nunca'),
      t.source_description,
      t.type_description,
      t.motive_description,
      t.priority_description,
      t.creator_name,
      t.assigned_name ?? '',
      t.status_description,
      chileDateTime(t.created_at),
      chileDateTime(t.closing_date),
      ticketAgeText(ticketAgeDays(t.created_at, t.closing_date)),
      last?.status_description ?? '',
      last?.comment ?? '',
      last ? chileDateTime(last.created_at) : '',
      last?.user_name ?? '',
      earlier,
    ];
  });
}
