import { z } from 'zod';
import { legacyEnvelope } from './common.js';

/** docs/development/original-api.md §2.11 Ticket details (contact attempts). The client reads `success` (and stores `message`). */

/** §2.11 POST /api/v2/ticket-details `{ comment, ticket_id, status_detail_ticket_id, user_created_id }`. */
export const postTicketDetail = legacyEnvelope(z.unknown()).extend({ success: z.literal(true) });

/** §2.11 POST /api/v2/ticket-details/multiple (`ticket_id` an array): `success` must be true for the mass e-mail. */
export const postTicketDetailsMultiple = legacyEnvelope(z.unknown()).extend({
  success: z.literal(true),
});

/** §2.11 DELETE /api/v2/ticket-details/{id} (body `true`; the id is a raw `relationships.array[].id`): HTTP 200, `success`. */
export const deleteTicketDetail = legacyEnvelope(z.unknown()).extend({ success: z.literal(true) });
