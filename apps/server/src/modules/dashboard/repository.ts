import { sql } from 'kysely';
import { executePrepared } from '../../db/compiled.js';
import type { Database } from '../../db/database.js';
import {
  type TicketDimension,
  DIMENSIONS,
  type TimeWindow,
  dayStart,
  dayEnd,
  DIM,
  hourOf,
  createdIn,
} from './sql.js';

/** Ticket figures of a course (Estadística) and of one day (the daily report), and the lookups of courses, classrooms and sections. Nothing loops over tickets: every figure is one grouped query. */
export class DashboardRepository {
  constructor(private readonly db: Database) {}

  // -------------------------------------------------------------------------------------------
  // Lookups

  async courseExists(id: number) {
    return (
      (await this.db.selectFrom('courses').select('id').where('id', '=', id).executeTakeFirst()) !==
      undefined
    );
  }

  /** A classroom by id, or by description (case-insensitive) as the original client sends it. */
  async findClassroom(ref: string) {
    const text = ref.trim();
    const byId = /^\d{1,9}$/.test(text)
      ? await this.db
          .selectFrom('classrooms')
          .select(['id', 'description'])
          .where('id', '=', Number(text))
          .executeTakeFirst()
      : undefined;
    return (
      byId ??
      this.db
        .selectFrom('classrooms')
        .select(['id', 'description'])
        .where(sql`lower(description)`, '=', text.toLowerCase())
        .executeTakeFirst()
    );
  }

  /** A section by id, key or description. */
  async findSection(ref: string) {
    const text = ref.trim();
    const byId = /^\d{1,9}$/.test(text)
      ? await this.db
          .selectFrom('sections')
          .select(['id', 'description', 'key'])
          .where('id', '=', Number(text))
          .executeTakeFirst()
      : undefined;
    return (
      byId ??
      this.db
        .selectFrom('sections')
        .select(['id', 'description', 'key'])
        .where((eb) =>
          eb.or([eb('key', '=', text), eb(sql`lower(description)`, '=', text.toLowerCase())]),
        )
        .executeTakeFirst()
    );
  }

  // -------------------------------------------------------------------------------------------
  // Tickets

  async countTickets(
    courseId: number,
    filter: 'total' | 'today' | 'open' | 'closed',
  ): Promise<number> {
    const where =
      filter === 'today'
        ? sql`k.dim = ${DIM.createdHour} and k.value >= ${hourOf(dayStart())} and k.value < ${hourOf(dayEnd())}`
        : filter === 'total'
          ? sql`k.dim = ${DIM.type}`
          : sql`k.dim = ${DIM.type} and k.status_ticket_id in (select id from status_tickets where key = ${filter})`;
    const { rows } = await sql<{
      n: number;
    }>`select coalesce(sum(k.n), 0)::int as n from ticket_counts k where k.course_id = ${courseId} and ${where}`.execute(
      this.db,
    );
    return rows[0]?.n ?? 0;
  }

  /** Tickets per catalogue value of the whole course (every value, zero included), in catalogue order, from the counts. */
  async ticketsPerCatalogue(courseId: number, dimension: TicketDimension) {
    const d = DIMENSIONS[dimension];
    // Status: any dimension's rows, by their status.
    const value = dimension === 'status' ? sql`k.status_ticket_id` : sql`k.value`;
    const dim = dimension === 'status' ? DIM.type : DIM[dimension];
    const { rows } = await sql<{ id: number; key: string | null; label: string; n: number }>`
      select c.id, c.key, c.description as label, coalesce(k.n, 0)::int as n
      from ${sql.table(d.table)} c
      left join (select ${value} as id, sum(k.n) as n from ticket_counts k where k.course_id = ${courseId} and k.dim = ${dim} group by 1) k on k.id = c.id
      order by c.id`.execute(this.db);
    return rows;
  }

  /**
   * Tickets created in a window per value of every catalogue (every value, zero included, in
   * catalogue order): the window's tickets are read once for all five.
   */
  async ticketsPerCatalogues(
    courseId: number,
    window: TimeWindow,
  ): Promise<
    Record<TicketDimension, Array<{ id: number; key: string | null; label: string; n: number }>>
  > {
    const names = Object.keys(DIMENSIONS) as TicketDimension[];
    const parts = names.map((name) => {
      const d = DIMENSIONS[name];
      return sql`select ${name}::text as dim, c.id, c.key, c.description as label, count(w.id)::int as n
        from ${sql.table(d.table)} c left join win w on w.${sql.ref(d.column)} = c.id
        group by c.id, c.key, c.description`;
    });
    const rows = await executePrepared(
      this.db,
      sql<{ dim: TicketDimension; id: number; key: string | null; label: string; n: number }>`
      with win as materialized (
        select t.id, ${sql.join(names.map((name) => sql`t.${sql.ref(DIMENSIONS[name].column)}`))}
        from tickets t where t.course_id = ${courseId} and ${createdIn(window)}
      )
      ${sql.join(parts, sql` union all `)}
      order by dim, id`,
    );
    const out = Object.fromEntries(
      names.map((name) => [
        name,
        [] as Array<{ id: number; key: string | null; label: string; n: number }>,
      ]),
    ) as Record<
      TicketDimension,
      Array<{ id: number; key: string | null; label: string; n: number }>
    >;
    for (const { dim, ...row } of rows) out[dim].push(row);
    return out;
  }

  /** Tickets per whole day of age (created to closing date, or to now while open). */
  async ticketsPerAge(courseId: number) {
    // Closed tickets from the counts; those without closing date age with now().
    const { rows } = await sql<{ days: number; n: number }>`
      select days, sum(n)::int as n from (
        select k.value as days, k.n from ticket_counts k where k.course_id = ${courseId} and k.dim = ${DIM.closedAge}
        union all
        select greatest(0, floor(extract(epoch from (now() - t.created_at)) / 86400))::int, 1
        from tickets t where t.course_id = ${courseId} and t.closing_date is null
      ) x
      group by days
      having sum(n) > 0
      order by days`.execute(this.db);
    return rows;
  }

  /** Share of the course's tickets per motive (every motive), as a percentage with one decimal. */
  async motiveShares(courseId: number) {
    const { rows } = await sql<{ id: number; label: string; pct: number }>`
      select c.id, c.description as label,
        coalesce(round(100.0 * coalesce(k.n, 0) / nullif(sum(coalesce(k.n, 0)) over (), 0), 1), 0)::float8 as pct
      from motive_tickets c
      left join (select k.value as id, sum(k.n) as n from ticket_counts k where k.course_id = ${courseId} and k.dim = ${DIM.motive} group by 1) k on k.id = c.id
      order by c.id`.execute(this.db);
    return rows;
  }

  /** Open and closed tickets per assigned operator (null id: unassigned). */
  async statusPerOperator(courseId: number) {
    const { rows } = await sql<{
      id: number | null;
      label: string | null;
      open: number;
      closed: number;
    }>`
      select nullif(k.value, 0) as id, u.name as label,
        coalesce(sum(k.n) filter (where s.key = 'open'), 0)::int as open,
        coalesce(sum(k.n) filter (where s.key = 'closed'), 0)::int as closed
      from ticket_counts k
      join status_tickets s on s.id = k.status_ticket_id
      left join users u on u.id = nullif(k.value, 0)
      where k.course_id = ${courseId} and k.dim = ${DIM.operator}
      group by k.value, u.name
      having sum(k.n) > 0
      order by u.name nulls last, nullif(k.value, 0)`.execute(this.db);
    return rows;
  }

  /** Open and closed tickets per motive (motives with tickets). */
  async statusPerMotive(courseId: number) {
    const { rows } = await sql<{ id: number; label: string; open: number; closed: number }>`
      select m.id, m.description as label,
        coalesce(sum(k.n) filter (where s.key = 'open'), 0)::int as open,
        coalesce(sum(k.n) filter (where s.key = 'closed'), 0)::int as closed
      from ticket_counts k
      join status_tickets s on s.id = k.status_ticket_id
      join motive_tickets m on m.id = k.value
      where k.course_id = ${courseId} and k.dim = ${DIM.motive}
      group by m.id, m.description
      having sum(k.n) > 0
      order by m.id`.execute(this.db);
    return rows;
  }

  // -------------------------------------------------------------------------------------------
  // Reports per day

  /** Created from `day` to `to` (both included); and created up to the end of `to`, of which closed by then. */
  async dayCard(courseId: number, day: string, to = day) {
    // Created before the range's end, and both created and closed by then: whole UTC days before
    // the one the range ends in, then that day's hours up to the end (hours since the epoch).
    const end = hourOf(dayEnd(to));
    const rows = await executePrepared(
      this.db,
      sql<{ created: number; total: number; closed: number }>`
      with bound as (select ${end} as h)
      select
        coalesce(sum(k.n) filter (where k.dim = ${DIM.createdHour} and k.value >= ${hourOf(dayStart(day))}), 0)::int as created,
        coalesce(sum(k.n) filter (where k.dim = ${DIM.createdDay} or (k.dim = ${DIM.createdHour} and k.value >= bound.h / 24 * 24)), 0)::int as total,
        coalesce(sum(k.n) filter (where k.dim = ${DIM.closedDay} or (k.dim = ${DIM.closedHour} and k.value >= bound.h / 24 * 24)), 0)::int as closed
      from bound, ticket_counts k
      where k.course_id = ${courseId} and (
        (k.dim in (${DIM.createdDay}, ${DIM.closedDay}) and k.value < bound.h / 24)
        or (k.dim in (${DIM.createdHour}, ${DIM.closedHour}) and k.value >= bound.h / 24 * 24 and k.value < bound.h)
        or (k.dim = ${DIM.createdHour} and k.value >= ${hourOf(dayStart(day))} and k.value < bound.h))`,
    );
    const r = rows[0] ?? { created: 0, total: 0, closed: 0 };
    return { created: r.created, total: r.total, open: r.total - r.closed, closed: r.closed };
  }

  /** Per operator: distinct tickets with attempts logged from `day` to `to`, how many of those are closed, attempts. */
  async operatorDay(courseId: number, day: string, to = day) {
    const rows = await executePrepared(
      this.db,
      sql<{
        operatorId: number;
        operator: string;
        tickets: number;
        closed: number;
        attempts: number;
      }>`
      select d.user_created_id as "operatorId", u.name as operator,
        count(distinct d.ticket_id)::int as tickets,
        count(distinct d.ticket_id) filter (where s.key = 'closed')::int as closed,
        count(*)::int as attempts
      from ticket_details d
      join tickets t on t.id = d.ticket_id
      join status_tickets s on s.id = t.status_ticket_id
      join users u on u.id = d.user_created_id
      where d.course_id = ${courseId} and d.created_at >= ${dayStart(day)} and d.created_at < ${dayEnd(to)}
      group by d.user_created_id, u.name
      order by u.name, d.user_created_id`,
    );
    return rows;
  }

  /** Attempts logged from `day` to `to` per outcome (every outcome, zero included). */
  async attemptsPerOutcome(courseId: number, day: string, to = day) {
    const rows = await executePrepared(
      this.db,
      sql<{ id: number; key: string | null; label: string; n: number }>`
      select c.id, c.key, c.description as label, count(d.id)::int as n
      from status_detail_tickets c
      left join ticket_details d
        on d.status_detail_ticket_id = c.id and d.course_id = ${courseId} and d.created_at >= ${dayStart(day)} and d.created_at < ${dayEnd(to)}
      group by c.id, c.key, c.description
      order by c.id`,
    );
    return rows;
  }
}
