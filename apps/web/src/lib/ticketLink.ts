/**
 * A link to the ticket list (`/my/ticket`) opened on one course with some filters, e.g. from a
 * dashboard chart: `/my/ticket?course=3&status=open&source_ticket_id=2`. The parameter names are
 * those of the ticket list API.
 */
export const TICKET_LINK_PARAMS = [
  'status',
  'priority_ticket_id',
  'type_ticket_id',
  'motive_ticket_id',
  'source_ticket_id',
  'user_assigned_id',
  'classroom_id',
  'from',
  'to',
  'search',
] as const;
export type TicketLinkParam = (typeof TICKET_LINK_PARAMS)[number];
export type TicketLinkFilters = Partial<Record<TicketLinkParam, string | number>>;

const ID_PARAMS = new Set<TicketLinkParam>([
  'priority_ticket_id',
  'type_ticket_id',
  'motive_ticket_id',
  'source_ticket_id',
  'user_assigned_id',
  'classroom_id',
]);
const STATUSES = new Set(['open', 'closed', 'all']);
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function ticketListHref(courseId: number, filters: TicketLinkFilters = {}): string {
  const q = new URLSearchParams({ course: String(courseId) });
  for (const key of TICKET_LINK_PARAMS) {
    const v = filters[key];
    if (v !== undefined && v !== '') q.set(key, String(v));
  }
  return `/my/ticket?${q.toString()}`;
}

/** The course and the valid filters of such a link (anything malformed is ignored). */
export function readTicketLink(params: URLSearchParams): {
  courseId: number | null;
  filters: TicketLinkFilters;
  key: string;
} {
  const rawCourse = params.get('course');
  const courseId =
    rawCourse && /^\d{1,9}$/.test(rawCourse) && Number(rawCourse) > 0 ? Number(rawCourse) : null;
  const filters: TicketLinkFilters = {};
  for (const key of TICKET_LINK_PARAMS) {
    const v = params.get(key)?.trim();
    if (!v) continue;
    if (ID_PARAMS.has(key)) {
      if (/^\d{1,9}$/.test(v) && Number(v) > 0) filters[key] = Number(v);
    } else if (key === 'status') {
      if (STATUSES.has(v)) filters.status = v;
    } else if (key === 'from' || key === 'to') {
      if (DAY.test(v)) filters[key] = v;
    } else {
      filters[key] = v.slice(0, 100);
    }
  }
  const key = JSON.stringify([courseId, TICKET_LINK_PARAMS.map((k) => filters[k] ?? null)]);
  return { courseId, filters, key };
}
