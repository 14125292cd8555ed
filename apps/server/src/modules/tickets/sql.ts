import { APP_TIME_ZONE, type ListQuery, type TicketFilters } from '@sigaf/contract';
import { sql, type RawBuilder } from 'kysely';
import { likePattern } from '../../db/pagination.js';

/** What a ticket list asks for: the shared filters plus the fixed part of each route. */
export interface TicketQuery extends ListQuery, Omit<TicketFilters, 'search'> {
  /** Operator scoping: only tickets assigned to this user. */
  assignedTo?: number;
  enrolmentId?: number;
  /** Part of a ticket code (GET /tickets/code/{code}). */
  code?: string;
}

export type SortDirection = 'asc' | 'desc';

export const attempts = sql<number>`(select count(*) from ticket_details d where d.ticket_id = t.id)`;

/**
 * One value of the row a foreign key points to. Catalogues, courses and users are read this way
 * rather than joined: a ticket row needs a dozen of them, and a dozen joins cost the planner more
 * than the query itself (the foreign keys guarantee the same result as the inner joins).
 */
export const pick = <T>(table: string, column: string, ref: string) =>
  sql<T>`(select x.${sql.ref(column)} from ${sql.table(table)} x where x.id = ${sql.ref(ref)})`;
/** The id of the status keyed 'open' (the key is unique). */
export const OPEN_STATUS = sql`(select s.id from status_tickets s where s.key = 'open')`;

/** Sort keys of the lists (TICKET_SORTS) and their SQL. */
export const SORTS: Record<string, RawBuilder<unknown>> = {
  id: sql`t.id`,
  ticketCode: sql`t.ticket_code`,
  createdAt: sql`t.created_at`,
  closingDate: sql`t.closing_date`,
  age: sql`coalesce(t.closing_date, now()) - t.created_at`,
  attempts,
  priority: sql`case ${pick('priority_tickets', 'key', 't.priority_ticket_id')} when 'high' then 1 when 'medium' then 2 when 'low' then 3 else 4 end`,
  status: pick('status_tickets', 'description', 't.status_ticket_id'),
  type: pick('type_tickets', 'description', 't.type_ticket_id'),
  motive: pick('motive_tickets', 'description', 't.motive_ticket_id'),
  source: pick('source_tickets', 'description', 't.source_ticket_id'),
  operator: pick('users', 'name', 't.user_assigned_id'),
  creator: pick('users', 'name', 't.user_create_id'),
  student: sql`r.last_name || ' ' || r.name`,
  rut: sql`r.rut`,
  classroom: pick('classrooms', 'description', 'e.classroom_id'),
  course: pick('courses', 'description', 't.course_id'),
};

/** The run of digits of migration 0027's index (its predicate, written the same here so the planner uses it). */
const LONG_NUMBER = 7;

/**
 * A ticket's code (`t.ticket_code`) contains the text, case-insensitively. Every code of a course
 * begins with the same prefix (category and course: `CA-MAR-297208`), so the trigrams of a prefix
 * are in every ticket of it, and the codes' trigram index (migration 0016) reads those long posting
 * lists for a whole code: 205 ms at 10 M tickets. When the text looks like a code (letters and a
 * number of three or more digits), the index is asked for the number alone (few codes share it;
 * 3 ms) and the whole text is checked on those rows (`|| ''` keeps that check off the index).
 * A text with seven digits or more in a row (a RUT) is looked for only in the codes that have such
 * a run, which an index of their own holds (migration 0027; usually none). Every way gives the
 * same answer: every code containing the text contains its number.
 */
export function codeContains(search: string): RawBuilder<boolean> {
  const text = search.trim();
  const number = (text.match(/\d+/g) ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');
  // Seven digits in a row or more (a RUT): only codes with such a run can contain it (migration 0027).
  if (number.length >= LONG_NUMBER)
    return sql<boolean>`(t.ticket_code ~ ${sql.lit(`[0-9]{${LONG_NUMBER}}`)} and t.ticket_code ilike ${likePattern(text)})`;
  if (number.length < 3 || !/\p{L}{2}/u.test(text))
    return sql<boolean>`t.ticket_code ilike ${likePattern(text)}`;
  return sql<boolean>`(t.ticket_code ilike ${likePattern(number)} and (t.ticket_code || '') ilike ${likePattern(text)})`;
}

/** The number after a code's prefix, as a regular expression. */
export const CODE_NUMBER = '-(\\d{1,9})$';

/** Start of a Chilean calendar day (yyyy-mm-dd) as a timestamp. */
export const dayStart = (day: string, plusDays = 0) =>
  sql<Date>`((${day}::date + ${plusDays}::int)::timestamp at time zone ${APP_TIME_ZONE})`;

/** A lookup of one referenced row, as JSON (null when missing or not asked for). */
export const option = (table: string, id: number | null | undefined) =>
  id
    ? sql`(select json_build_object('id', x.id, 'description', x.description, 'key', x.key) from ${sql.table(table)} x where x.id = ${id})`
    : sql`null`;

export interface OptionRef {
  id: number;
  description: string;
  key: string | null;
}
export interface UserRef {
  id: number;
  name: string;
  role: string | null;
}
export interface EnrolmentRef {
  id: number;
  course_id: number;
  course_description: string;
  category_code: string;
}
export interface Lookups {
  status: OptionRef | null;
  type: OptionRef | null;
  priority: OptionRef | null;
  source: OptionRef | null;
  motive: OptionRef | null;
  detailStatus: OptionRef | null;
  assigned: UserRef | null;
}

/**
 * The number of tickets created from the start of `from` to the end of `to` (Chilean days), in
 * one course or all, from ticket_counts (migration 0008: hours and UTC days of creation, kept in
 * the writer's transaction): whole UTC days, then the hours at either end — each an index-only
 * range (migration 0016) instead of one row per ticket (a week is 200,000 at ten million). Null
 * when a bound is not a whole hour (a time zone's old local mean time): count the tickets then.
 */
export function createdInRangeTotal(
  from: string,
  to: string,
  courseId?: number,
): RawBuilder<number | null> {
  const start = sql`extract(epoch from ${dayStart(from)})`;
  const end = sql`extract(epoch from ${dayStart(to, 1)})`;
  const [h0, h1] = [sql`(${start} / 3600)::int`, sql`(${end} / 3600)::int`];
  const [d0, d1] = [sql`ceil(${start} / 86400)::int`, sql`floor(${end} / 86400)::int`];
  // Whole days [d0, d1); the hours before the first and from the last (all of [h0, h1) when no whole day fits).
  const cut = sql`least(${h1}, ${d0} * 24)`;
  const sum = (dim: number, lo: RawBuilder<unknown>, hi: RawBuilder<unknown>) =>
    sql`coalesce((select sum(k.n) from ticket_counts k where k.dim = ${sql.lit(dim)} and k.value >= ${lo} and k.value < ${hi}${courseId ? sql` and k.course_id = ${courseId}` : sql``}), 0)`;
  return sql<number | null>`(select case when mod(${start}, 3600) = 0 and mod(${end}, 3600) = 0
    then (${sum(9, d0, d1)} + ${sum(7, h0, cut)} + ${sum(7, sql`greatest(${d1} * 24, ${cut})`, h1)})::int end)`;
}
