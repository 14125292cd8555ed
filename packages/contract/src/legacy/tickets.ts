import { z } from 'zod';
import {
  ddmmyyyy,
  ddmmyyyyHhmm,
  flatRelationship,
  hhmm,
  isoDateTime,
  legacyCollection,
  legacyEnvelope,
  legacyId,
  legacyRelationshipCollection,
  legacyResource,
} from './common.js';
import { legacyRawEnrolment } from './enrolments.js';
import { legacyRawStudent } from './registered-users.js';

/**
 * docs/development/original-api.md §2.10 Tickets: the ticket resource every ticket-returning endpoint gives, and
 * the ticket endpoints (also §1.5–§1.7, §3 row 2, §5 points 1, 3–6, 11).
 */

const option = z.looseObject({ id: legacyId, description: z.string() });
const person = z.looseObject({ id: legacyId, name: z.string() });

/**
 * §1.6 `ticket.properties.courseRegisteredUser`: the raw snake_case enrolment of §2.14 (the same
 * presenter builds both), read by the ticket list and the student card, with the course's
 * `category_id` the ticketsByCourse getter reads (§5.4).
 */
export const legacyTicketEnrolment = legacyRawEnrolment.extend({
  // The student's fields the ticket list and card read (STableTicket.vue:216-222; SigafCardDataStudent.vue:30-45).
  registered_user: legacyRawStudent.pick({
    id: true,
    rut: true,
    name: true,
    last_name: true,
    mother_last_name: true,
    email: true,
    mobile: true,
    phone: true,
  }),
  course: z.looseObject({ category_id: legacyId }),
});

/** §1.6 `relationships.array[]`: a raw contact attempt (STableTicketHistorical.vue:84-100; EditTicket.vue:119-140). */
export const legacyRawTicketDetail = z.looseObject({
  id: legacyId,
  comment: z.string(),
  status_detail_ticket_id: legacyId,
  created_at: isoDateTime,
  status_detail_ticket: z.looseObject({ description: z.string() }),
  user_created: z.looseObject({ name: z.string() }),
});

/** §2.10 The ticket's `properties` (STableTicket.vue:208-238; SigafShowSingleTicket.vue; ManageTicket.vue:231-256). */
export const legacyTicketProperties = z.looseObject({
  id: legacyId,
  ticketCode: z.string(),
  version: z.number().int(),
  statusTicket: option,
  priorityTicket: option,
  motiveTicket: option,
  typeTicket: option,
  sourceTicket: option,
  userCreated: person,
  // Never null (views/Ticket.vue:535-543; STableTicket.vue:65,230).
  userAssigned: person,
  createdAt: ddmmyyyy,
  timeCreatedAt: hhmm,
  // The creation date, shown as "Fecha de creación" (SigafShowSingleTicket.vue:294-297).
  updatedAt: ddmmyyyy,
  closingDate: ddmmyyyy.nullable(),
  timeClosingDate: hhmm.nullable(),
  ageTicket: z.number().int().min(0),
  courseRegisteredUser: legacyTicketEnrolment,
});

/** §1.5 A ticket's flat relationship: attempt count, the link to its attempts, the raw attempts (§5.1, §5.5). */
export const legacyTicketRelationship = flatRelationship({ array: z.array(legacyRawTicketDetail) });

/** §2.10 The ticket resource. */
export const legacyTicket = legacyResource(
  legacyTicketProperties,
  legacyTicketRelationship,
).superRefine((t, ctx) => {
  if (t.relationships.numberOfElements !== t.relationships.array.length) {
    ctx.addIssue({
      code: 'custom',
      path: ['relationships', 'numberOfElements'],
      message: 'el número de intentos no coincide con relationships.array',
    });
  }
});

const ticketList = legacyEnvelope(legacyCollection(legacyTicket));

/** §2.10 GET /api/v2/tickets/course-registered-users/course/{courseId} ("Buscar" on the Ticket screen). */
export const getTicketsOfCourse = ticketList;

/** §2.10 GET /api/v2/tickets. */
export const getTickets = ticketList;

/** §2.10 GET /api/v2/tickets/{id} (`_data.properties.version`, then the row replaced). */
export const getTicket = legacyEnvelope(legacyTicket).extend({ success: z.literal(true) });

/** §2.10 POST /api/v2/tickets: a full ticket resource. */
export const postTicket = legacyEnvelope(legacyTicket).extend({ success: z.literal(true) });

/** §2.10 PUT /api/v2/tickets/{id}: HTTP 200 and a ticket resource shaped like the list rows. */
export const putTicket = legacyEnvelope(legacyTicket).extend({ success: z.literal(true) });

/** §2.10 DELETE /api/v2/tickets/{id} (body `true`): HTTP 200, `success`, `message`. */
export const deleteTicket = legacyEnvelope(z.unknown()).extend({ success: z.literal(true) });

/** §2.10 POST /api/v2/tickets/multiple: `_data` is an array of full ticket resources (§1.4). */
export const postTicketsMultiple = legacyEnvelope(z.array(legacyTicket)).extend({
  success: z.literal(true),
});

/** §2.10 DELETE /api/v2/tickets/multiple/{idsJson} (body `true`): HTTP 200, `success`. */
export const deleteTicketsMultiple = legacyEnvelope(z.unknown()).extend({
  success: z.literal(true),
});

/**
 * §2.10 DELETE /api/v2/tickets/multiple/{idsJson} refused (a selected ticket has contact attempts,
 * is being edited by someone else, or is gone): `success: false`, which Administración ticket
 * reads as a failure ("Ha ocurrido un error.", every selected row kept), and nothing deleted.
 */
export const deleteTicketsMultipleRefused = legacyEnvelope(
  z.looseObject({
    deleted: z.array(legacyId).length(0),
    refused: z.array(z.looseObject({ id: legacyId, reason: z.string() })).min(1),
  }),
).extend({ success: z.literal(false) });

/** §2.10 GET /api/v2/tickets/code/{code}: `_data.collections` even when nothing matches. */
export const getTicketsByCode = ticketList;

/** §2.10 GET /api/v2/tickets/operator/{userId}. */
export const getTicketsByOperator = ticketList;

/** §2.10 GET /api/v2/tickets/dates/{YYYY-MM-DD}/{YYYY-MM-DD}. */
export const getTicketsByDates = ticketList;

/** §2.10 GET /api/v2/course-registered-user/{enrolmentId}/tickets (the student's ticket history, all statuses). */
export const getEnrolmentTickets = ticketList;

/** §2.10 A contact attempt as the followed ticket-details href gives it (STableStatusDetail.vue; SigafShowSingleTicket.vue:337-351). */
export const legacyTicketDetailItem = legacyResource(
  z.looseObject({
    id: legacyId,
    statusDetailTicket: z.looseObject({ description: z.string() }),
    comment: z.string(),
    createdAt: ddmmyyyyHhmm,
    userCreated: z.looseObject({ name: z.string() }),
  }),
);

/**
 * §2.10, §3 row 2 GET {ticket.relationships.links.href}: HTTP 200 and the attempts, oldest first,
 * in `_data.relationships.collection.data[]` (singular, §5.3).
 */
export const getTicketDetailsHref = legacyEnvelope(
  legacyRelationshipCollection(legacyTicketDetailItem),
).extend({ success: z.literal(true) });
