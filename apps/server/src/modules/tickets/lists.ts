import { ticketAgeChangesAt, type TicketListQuery } from '@sigaf/contract';
import { requireAuth } from '../../http/auth.js';
import { collection, ok, type Asker } from '../../http/envelope.js';
import type { Built } from '../answers/build.js';
import type { EnrolmentService } from '../students/service.js';
import { mayTouchTicket } from './access.js';
import { presentTicket } from './presenter.js';
import type { TicketParts, TicketRow } from './repository.js';
import type { TicketListKind, TicketService } from './service.js';
import type { TicketQuery } from './sql.js';

type Needs = { tickets: TicketService; enrolments: EnrolmentService };

const path = (request: Asker) => request.url.split('?')[0]!;

/**
 * Every ticket resource carries its attempts and its enrolment's Moodle results (docs/development/original-api.md
 * §2.10): read for the whole list at once (two queries whatever its size). The Moodle results come
 * from the enrolments' own query (the same the enrolment answers use).
 */
export const ticketResults = ({ enrolments }: Needs, rows: TicketRow[]) =>
  enrolments.activityResults([...new Set(rows.map((t) => t.course_registered_user_id))]);

/** `contents` says which tickets carry their attempts (all but, in a student's history, those the caller may not work). */
export async function presentTickets(
  services: Needs,
  request: Asker,
  rows: TicketRow[],
  contents: (t: TicketRow) => boolean = () => true,
) {
  const [details, results] = await Promise.all([
    services.tickets.attemptsOf(rows.filter(contents).map((t) => t.id)),
    ticketResults(services, rows),
  ]);
  const loaded: TicketParts = { details, results };
  return rows.map((t) => presentTicket(request, t, loaded, false, contents(t)));
}

/**
 * A list of tickets as answered. `compact` (this product's own screens) leaves the raw attempts and
 * Moodle results out: no query for them. Unscoped (a student's history): the tickets the caller
 * may not work (TicketAccess) show their summary only.
 */
export async function listTickets(
  services: Needs,
  request: Asker,
  kind: TicketListKind,
  q: TicketListQuery,
  fixed: Partial<TicketQuery> = {},
  scoped = true,
) {
  const actor = requireAuth(request);
  const { rows, meta } = await services.tickets.list(kind, { ...q, ...fixed }, actor, { scoped });
  const contents = (t: TicketRow) => scoped || mayTouchTicket(actor, t);
  const presented = q.compact
    ? rows.map((t) => presentTicket(request, t))
    : await presentTickets(services, request, rows, contents);
  return { rows, value: ok(collection(request, path(request), 'tickets', presented, meta)) };
}

/**
 * A whole list to keep (answers/cache.ts): true until a row it shows changes, an edit lock it shows
 * expires, or the age of an open ticket in it changes (read from the clock before the rows, so that
 * an age that changes while they are presented ends the kept answer at once).
 */
export async function keptTickets(...args: Parameters<typeof listTickets>): Promise<Built> {
  const now = new Date();
  const { rows, value } = await listTickets(...args);
  let validUntil = Infinity;
  for (const t of rows) {
    if (t.lock_expires_at) validUntil = Math.min(validUntil, new Date(t.lock_expires_at).getTime());
    if (!t.closing_date) validUntil = Math.min(validUntil, ticketAgeChangesAt(t.created_at, now));
  }
  return { value, validUntil };
}
