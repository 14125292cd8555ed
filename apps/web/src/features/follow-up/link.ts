import { FOLLOW_UP_MAX_DAYS, FOLLOW_UP_STATUSES, type FollowUpStatus } from '@sigaf/contract';
import type { FollowUpFilterValues } from './api';

/**
 * Seguimiento's course, classroom and filters as they stand in the address
 * (`?course=3&classroom=5&inactive_days=7`), so Back and Forward return to the same list. The
 * names are those of the student list API; anything malformed is ignored.
 */
export interface FollowUpLink {
  courseId: number | null;
  classroomId: number | '';
  filters: Omit<FollowUpFilterValues, 'classroom_id'>;
}

const id = (v: string | null) => (v && /^\d{1,9}$/.test(v) && Number(v) > 0 ? Number(v) : null);
const whole = (v: string | null, max: number) =>
  v && /^\d{1,4}$/.test(v) && Number(v) <= max ? Number(v) : undefined;

export function readFollowUpLink(params: URLSearchParams): FollowUpLink {
  const filters: FollowUpLink['filters'] = {};
  const search = params.get('search')?.trim();
  if (search) filters.search = search.slice(0, 100);
  const status = params.get('status');
  if (FOLLOW_UP_STATUSES.includes(status as FollowUpStatus))
    filters.status = status as FollowUpStatus;
  const inactive = whole(params.get('inactive_days'), FOLLOW_UP_MAX_DAYS);
  if (inactive !== undefined) filters.inactive_days = inactive;
  const below = whole(params.get('progress_below'), 100);
  if (below !== undefined) filters.progress_below = below;
  if (params.get('open_tickets') === '1') filters.open_tickets = true;
  return {
    courseId: id(params.get('course')),
    classroomId: id(params.get('classroom')) ?? '',
    filters,
  };
}

export function writeFollowUpLink(link: FollowUpLink): URLSearchParams {
  const q = new URLSearchParams();
  if (link.courseId === null) return q;
  q.set('course', String(link.courseId));
  if (link.classroomId !== '') q.set('classroom', String(link.classroomId));
  const f = link.filters;
  if (f.search) q.set('search', f.search);
  if (f.status) q.set('status', f.status);
  if (f.inactive_days !== undefined) q.set('inactive_days', String(f.inactive_days));
  if (f.progress_below !== undefined) q.set('progress_below', String(f.progress_below));
  if (f.open_tickets) q.set('open_tickets', '1');
  return q;
}
