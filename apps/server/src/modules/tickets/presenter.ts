import {
  canDeleteTicket,
  chileDateTime,
  chileParts,
  TICKET_HISTORY_ACTIONS,
  TICKET_MSG,
  type RawTicketDetail,
  ticketAgeDays,
  ticketAgeText,
  type TicketDetailProperties,
  type TicketHistoryAction,
  type TicketLockProperties,
  type TicketProperties,
} from '@sigaf/contract';
import { relationship, resource, type Asker } from '../../http/envelope.js';
import { lastAccessText, rawCardResults, rawClassroom } from '../students/raw.js';
import type { TicketDetailRow } from './detail-repository.js';
import type { TicketFilterRow } from './filter-repository.js';
import type { TicketHistoryRow, TicketParts, TicketRow } from './repository.js';
import type { TicketLockRow } from './lock-repository.js';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** createdAt (dd-mm-yyyy), createdTime (HH:mm) in Chilean time, and the ISO moment. */
function stamp(value: Date | string) {
  const p = chileParts(value);
  return { createdAt: p.date, createdTime: p.time, createdAtIso: new Date(value).toISOString() };
}

/**
 * A contact attempt. `createdAt` is `dd-mm-yyyy HH:mm` (the original client splits it on the
 * space, docs/development/original-api.md#tickets); `createdDate` and `createdTime` are its two halves.
 */
export function presentDetail(request: Asker, d: TicketDetailRow) {
  const s = stamp(d.created_at);
  const properties: TicketDetailProperties = {
    id: d.id,
    ticketId: d.ticket_id,
    comment: d.comment,
    statusDetailTicket: {
      id: d.status_detail_ticket_id,
      description: d.status_description,
      key: d.status_key,
    },
    userCreated: { id: d.user_created_id, name: d.user_name },
    createdAt: `${s.createdAt} ${s.createdTime}`,
    createdDate: s.createdAt,
    createdTime: s.createdTime,
    createdAtIso: s.createdAtIso,
  };
  return resource(request, `/api/v2/ticket-details/${d.id}`, properties);
}

/** A contact attempt as the original server dumped it, snake_case (a ticket's `relationships.array`, docs/development/original-api.md#raw-objects). */
export function rawDetail(d: TicketDetailRow): RawTicketDetail {
  return {
    id: d.id,
    ticket_id: d.ticket_id,
    comment: d.comment,
    status_detail_ticket_id: d.status_detail_ticket_id,
    user_created_id: d.user_created_id,
    created_at: iso(d.created_at)!,
    updated_at: iso(d.updated_at)!,
    status_detail_ticket: {
      id: d.status_detail_ticket_id,
      description: d.status_description,
      key: d.status_key,
    },
    user_created: { id: d.user_created_id, name: d.user_name },
  };
}

type LockFields = Pick<TicketLockRow, 'id' | 'user_id' | 'user_name' | 'created_at' | 'expires_at'>;

function lockProperties(l: LockFields): Omit<TicketLockProperties, 'ticket'> {
  const s = stamp(l.created_at);
  return {
    id: l.id,
    user: { id: l.user_id, name: l.user_name },
    ...s,
    since: s.createdTime,
    expiresAt: iso(l.expires_at)!,
    expired: new Date(l.expires_at).getTime() <= Date.now(),
  };
}

export function presentLock(request: Asker, l: TicketLockRow) {
  const properties: TicketLockProperties = {
    ...lockProperties(l),
    ticket: { id: l.ticket_id, ticketCode: l.ticket_code, ticket_code: l.ticket_code },
  };
  return resource(request, `/api/v2/log-editing-tickets/${l.id}`, properties);
}

/**
 * A ticket as docs/development/domain.md#tickets describes it, with what the original client reads (docs/development/original-api.md
 * §2.10): its flat `relationships` (attempt count, the link to its attempts, the raw attempts in
 * `array`, and with `withDetails` the presented ones in `collection.data`), and its enrolment with
 * the original's raw snake_case fields. `parts` (TicketService.parts) gives the attempts and the
 * enrolment's Moodle results; without it (our own lists that do not need them) both are left out.
 * showDeleteButton depends on who asks.
 *
 * `contents: false` is a ticket of a student's history the caller may not work (the exception of
 * docs/development/permissions.md): its own fields and its number of attempts, but none of its
 * attempts (`relationships.array` empty and counted 0, as the original client counts that array).
 */
export function presentTicket(
  request: Asker,
  t: TicketRow,
  parts?: TicketParts,
  withDetails = false,
  contents = true,
) {
  const details = parts ? (contents ? (parts.details.get(t.id) ?? []) : []) : undefined;
  const results = parts ? (parts.results.get(t.course_registered_user_id) ?? []) : undefined;
  const attempts = details && contents ? details.length : Number(t.details_count);
  const close = t.status_key !== 'open';
  const created = chileParts(t.created_at);
  const closing = t.closing_date ? chileParts(t.closing_date) : null;
  // An open ticket's age grows with the clock: a kept list holds only until the first of them changes (lists.ts).
  const age = ticketAgeDays(t.created_at, t.closing_date);
  const actor = request.auth;
  const properties: TicketProperties = {
    id: t.id,
    ticketCode: t.ticket_code,
    version: t.version,
    statusTicket: { id: t.status_ticket_id, description: t.status_description, key: t.status_key },
    typeTicket: { id: t.type_ticket_id, description: t.type_description, key: t.type_key },
    priorityTicket: {
      id: t.priority_ticket_id,
      description: t.priority_description,
      key: t.priority_key,
    },
    sourceTicket: { id: t.source_ticket_id, description: t.source_description, key: t.source_key },
    motiveTicket: { id: t.motive_ticket_id, description: t.motive_description, key: t.motive_key },
    userCreated: { id: t.user_create_id, name: t.creator_name },
    // The original client reads the operator's id and name of every ticket (never null).
    userAssigned: t.user_assigned_id
      ? { id: t.user_assigned_id, name: t.assigned_name ?? '' }
      : { id: 0, name: TICKET_MSG.unassigned },
    courseRegisteredUser: {
      id: t.course_registered_user_id,
      // Never null: the original client reads `classroom.description` of every ticket.
      classroom: rawClassroom(t),
      profile: { id: t.profile_id, description: t.profile_description, key: t.profile_key },
      finalStatus: t.final_status_id
        ? { id: t.final_status_id, description: t.final_status_description ?? '' }
        : null,
      lastAccess: iso(t.last_access_registered_moodle),
      lastAccessText: t.last_access_text,
      course: {
        id: t.course_id,
        description: t.course_description,
        category: {
          id: t.category_id,
          description: t.category_description,
          categoryCode: t.category_code,
        },
        category_id: t.category_id,
        id_course_moodle: t.id_course_moodle,
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
      // The original server's raw enrolment (docs/development/original-api.md §1.6, read by the original client's mapUser).
      is_sincronized: t.is_sincronized ? 1 : 0,
      classroom_id: t.classroom_id,
      last_access_registered_moodle: lastAccessText(t),
      registered_user: {
        id: t.registered_user_id,
        rut: t.rut,
        name: t.student_name,
        last_name: t.last_name,
        // The original client joins the three names into one text: a missing one is empty, not "null".
        mother_last_name: t.mother_last_name ?? '',
        email: t.email,
        mobile: t.mobile,
        phone: t.phone,
      },
      ...(results ? { activity_course_users: rawCardResults(results) } : {}),
    },
    closingDate: closing?.date ?? null,
    closingTime: closing?.time ?? null,
    timeClosingDate: closing?.time ?? null,
    closingDateIso: iso(t.closing_date),
    createdAt: created.date,
    createdTime: created.time,
    timeCreatedAt: created.time,
    // The original server sent the creation date here, and the original client shows it as such.
    updatedAt: created.date,
    createdAtIso: iso(t.created_at)!,
    ageTicket: age,
    ageText: ticketAgeText(age),
    close,
    showDeleteButton: actor
      ? canDeleteTicket({ attempts, creatorId: t.user_create_id }, actor)
      : false,
    attempts,
    lock:
      t.lock_id && t.lock_user_id && t.lock_created_at && t.lock_expires_at
        ? lockProperties({
            id: t.lock_id,
            user_id: t.lock_user_id,
            user_name: t.lock_user_name ?? '',
            created_at: t.lock_created_at,
            expires_at: t.lock_expires_at,
          })
        : null,
  };
  const rel = relationship(
    request,
    `/api/v2/tickets/${t.id}/ticket-details`,
    details ? details.length : attempts,
    withDetails && details ? details.map((d) => presentDetail(request, d)) : undefined,
  );
  return resource(
    request,
    `/api/v2/tickets/${t.id}`,
    properties,
    details ? { ...rel, array: details.map(rawDetail) } : rel,
  );
}

export function presentHistory(request: Asker, h: TicketHistoryRow) {
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

export function presentPreset(request: Asker, f: TicketFilterRow) {
  return resource(request, `/api/v2/ticket-filters/${f.id}`, {
    id: f.id,
    name: f.name,
    filters: f.filters,
    createdAtIso: iso(f.created_at),
    updatedAtIso: iso(f.updated_at),
  });
}

/** The columns of the ticket export (docs/development/domain.md#reports). */
export const TICKET_EXPORT_HEADER = [
  'N°',
  'CÓDIGO TICKET',
  'RUT',
  'NOMBRE',
  'APELLIDOS',
  'AULA',
  'ÚLTIMO ACCESO',
  'ORIGEN',
  'TIPO',
  'MOTIVO',
  'PRIORIDAD',
  'CREADOR',
  'OPERADOR',
  'ESTADO',
  'FECHA DE CREACIÓN',
  'FECHA DE CIERRE',
  'ANTIGÜEDAD',
  'ESTADO DE ÚLTIMO INTENTO',
  'COMENTARIO',
  'FECHA DE REGISTRO',
  'OPERADOR',
  'HISTÓRICO DE CONTACTOS',
];

/** One row per ticket: the student, every ticket field, its age, the latest attempt, and the earlier ones as numbered text. */
export function ticketExportRows(
  tickets: TicketRow[],
  details: TicketDetailRow[],
): Array<Array<string | number | Date | null>> {
  const byTicket = new Map<number, TicketDetailRow[]>();
  for (const d of details) byTicket.set(d.ticket_id, [...(byTicket.get(d.ticket_id) ?? []), d]);
  return tickets.map((t, i) => {
    const attempts = byTicket.get(t.id) ?? [];
    const last = attempts.at(-1);
    const earlier = attempts
      .slice(0, -1)
      .map(
        (d, n) =>
          `${n + 1}. ${chileDateTime(d.created_at)} - ${d.status_description} - ${d.user_name}: ${d.comment}`,
      )
      .join('\n');
    return [
      i + 1,
      t.ticket_code,
      t.rut,
      t.student_name,
      [t.last_name, t.mother_last_name].filter(Boolean).join(' '),
      t.classroom_description ?? 'Sin aula',
      t.last_access_registered_moodle
        ? new Date(t.last_access_registered_moodle)
        : (t.last_access_text ?? 'Nunca'),
      t.source_description,
      t.type_description,
      t.motive_description,
      t.priority_description,
      t.creator_name,
      t.assigned_name ?? '',
      t.status_description,
      new Date(t.created_at),
      t.closing_date ? new Date(t.closing_date) : null,
      ticketAgeText(ticketAgeDays(t.created_at, t.closing_date)),
      last?.status_description ?? '',
      last?.comment ?? '',
      last ? new Date(last.created_at) : null,
      last?.user_name ?? '',
      earlier,
    ];
  });
}
