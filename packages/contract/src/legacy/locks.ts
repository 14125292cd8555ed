import { z } from 'zod';
import { legacyCollection, legacyEnvelope, legacyId, legacyResource } from './common.js';

/** docs/development/original-api.md §2.12 Edit locks (`/api/v2/log-editing-tickets`), and §5.7. */

/** §2.12 A lock: `properties.id`, `.ticket.ticket_code` (snake_case), `.user.name`, `.createdAt` (BlockingTicket.vue:73-85; logEditingTicket.js:39-45). */
export const legacyTicketLock = legacyResource(
  z.looseObject({
    id: legacyId,
    ticket: z.looseObject({ ticket_code: z.string() }),
    user: z.looseObject({ name: z.string() }),
    createdAt: z.string(),
  }),
);

/**
 * §2.12 GET /api/v2/log-editing-tickets/ticket/{ticketId} on a free ticket: HTTP 200 with body
 * `statusCode` 204, the only value on which the client goes on to edit (STableTicket.vue:304-305).
 */
export const getTicketLockFree = legacyEnvelope(z.unknown()).extend({ statusCode: z.literal(204) });

/** §2.12 GET /api/v2/log-editing-tickets/ticket/{ticketId} on a locked ticket: any other body statusCode, the lock. */
export const getTicketLockHeld = legacyEnvelope(legacyTicketLock).extend({
  statusCode: z
    .number()
    .int()
    .refine((n) => n !== 204, 'distinto de 204'),
});

/** §2.12 POST /api/v2/log-editing-tickets `{ ticket_id, user_id }`: `_data.properties.id` is what the dialog later deletes. */
export const postTicketLock = legacyEnvelope(legacyTicketLock).extend({ success: z.literal(true) });

/** §2.12 DELETE /api/v2/log-editing-tickets/{lockId} (body `true`): HTTP 200, `success`, `message`. */
export const deleteTicketLock = legacyEnvelope(z.unknown()).extend({ success: z.literal(true) });

/** §2.12 GET /api/v2/log-editing-tickets (Desbloqueo ticket). */
export const getTicketLocks = legacyEnvelope(legacyCollection(legacyTicketLock));
