import { APP_TIME_ZONE, type StudentTicketsRow, type StudentTicketsSummary } from '@sigaf/contract';
import { sql, type RawBuilder } from 'kysely';
import { executePrepared } from '../../db/compiled.js';
import type { Database } from '../../db/database.js';
import { foldedPersonSearch, personSearch } from '../../db/pagination.js';
import { createdIn, dayEnd, dayStart, resignStages } from '../dashboard/sql.js';

/** Calendar days `yyyy-mm-dd`, both included, `from` <= `to`. */
export interface DayRange {
  from: string;
  to: string;
}

/** Tickets `t` created within the range (every ticket without one). */
const createdWithin = (range?: DayRange) =>
  createdIn(range ? { from: dayStart(range.from), to: dayEnd(range.to) } : {});

/** `dd-mm-yyyy HH:mm` in Chilean time, in SQL (null stays null). */
const chileText = (column: RawBuilder<unknown>) =>
  sql<string | null>`to_char(${column} at time zone ${APP_TIME_ZONE}, 'DD-MM-YYYY HH24:MI')`;

export interface TicketHistoryRow {
  id: number;
  code: string;
  rut: string;
  name: string;
  lastNames: string;
  classroom: string | null;
  lastAccess: string;
  lastAccessAt: Date | null;
  source: string;
  type: string;
  motive: string;
  priority: string;
  creator: string | null;
  operator: string | null;
  status: string;
  createdAt: Date;
  closedAt: Date | null;
  ageDays: number;
  lastOutcome: string | null;
  lastComment: string | null;
  lastAt: Date | null;
  lastOperator: string | null;
  history: string | null;
}

export interface RosterRow {
  rut: string;
  name: string;
  lastName: string;
  motherLastName: string | null;
  email: string;
  classroom: string | null;
  profile: string | null;
  course: string;
  lastAccess: string;
  lastAccessAt: Date | null;
  /** Withdrawal stage: 0 active, 1 withdrawal in progress, 2 withdrawn (STUDENT_STATES order). */
  stage: number;
  /** Confirmed by a Moodle sync (otherwise in no state: studentStateText). */
  synced: boolean;
}

/**
 * The report exports (docs/development/domain.md#reports): one query per document, every join,
 * latest attempt and numbered history done in SQL.
 */
export class ReportRepository {
  constructor(private readonly db: Database) {}

  async course(id: number) {
    return this.db
      .selectFrom('courses as c')
      .innerJoin('categories as cat', 'cat.id', 'c.category_id')
      .select(['c.id', 'c.description', 'cat.description as category'])
      .where('c.id', '=', id)
      .executeTakeFirst();
  }

  async countTickets(courseId: number, range?: DayRange): Promise<number> {
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from tickets t where t.course_id = ${courseId} and ${createdWithin(range)}`.execute(
      this.db,
    );
    return rows[0]?.n ?? 0;
  }

  /** Every ticket of the course (or created within `range`), oldest first, with its student, latest attempt and earlier attempts as numbered text. */
  async ticketHistory(courseId: number, range?: DayRange): Promise<TicketHistoryRow[]> {
    const { rows } = await sql<TicketHistoryRow>`
      select t.id, t.ticket_code as code, r.rut, r.name, concat_ws(' ', r.last_name, r.mother_last_name) as "lastNames",
        cl.description as classroom,
        coalesce(${chileText(sql`e.last_access_registered_moodle`)}, nullif(e.last_access_text, ''), 'Nunca') as "lastAccess", e.last_access_registered_moodle as "lastAccessAt",
        so.description as source, ty.description as type, mo.description as motive, pr.description as priority,
        uc.name as creator, ua.name as operator, st.description as status,
        t.created_at as "createdAt", t.closing_date as "closedAt",
        greatest(0, floor(extract(epoch from (coalesce(t.closing_date, now()) - t.created_at)) / 86400))::int as "ageDays",
        la.outcome as "lastOutcome", la.comment as "lastComment", la.at as "lastAt", la.operator as "lastOperator",
        hist.text as history
      from tickets t
      join course_registered_users e on e.id = t.course_registered_user_id
      join registered_users r on r.id = e.registered_user_id
      left join classrooms cl on cl.id = e.classroom_id
      join source_tickets so on so.id = t.source_ticket_id
      join type_tickets ty on ty.id = t.type_ticket_id
      join motive_tickets mo on mo.id = t.motive_ticket_id
      join priority_tickets pr on pr.id = t.priority_ticket_id
      join status_tickets st on st.id = t.status_ticket_id
      left join users uc on uc.id = t.user_create_id
      left join users ua on ua.id = t.user_assigned_id
      left join lateral (
        select sd.description as outcome, d.comment, d.created_at as at, u.name as operator
        from ticket_details d
        join status_detail_tickets sd on sd.id = d.status_detail_ticket_id
        join users u on u.id = d.user_created_id
        where d.ticket_id = t.id
        order by d.created_at desc, d.id desc
        limit 1
      ) la on true
      left join lateral (
        select string_agg(h.n || '. ' || h.at || ' - ' || h.outcome || ' - ' || h.operator || coalesce(': ' || nullif(h.comment, ''), ''), E'\n' order by h.n) as text
        from (
          select row_number() over (order by d.created_at, d.id) as n, count(*) over () as total,
            ${chileText(sql`d.created_at`)} as at, sd.description as outcome, u.name as operator, d.comment
          from ticket_details d
          join status_detail_tickets sd on sd.id = d.status_detail_ticket_id
          join users u on u.id = d.user_created_id
          where d.ticket_id = t.id
        ) h
        where h.n < h.total
      ) hist on true
      where t.course_id = ${courseId} and ${createdWithin(range)}
      order by t.created_at, t.id`.execute(this.db);
    return rows;
  }

  /**
   * The course's enrolments, optionally of one classroom, by classroom and surname: every profile,
   * or with `studentsOnly` the matrícula (docs/development/domain.md#figures).
   */
  async roster(courseId: number, classroomId?: number, studentsOnly = false): Promise<RosterRow[]> {
    const { rows } = await sql<RosterRow>`
      select r.rut, r.name, r.last_name as "lastName", r.mother_last_name as "motherLastName", r.email,
        cl.description as classroom, p.description as profile, c.description as course,
        coalesce(${chileText(sql`e.last_access_registered_moodle`)}, nullif(e.last_access_text, ''), 'Nunca') as "lastAccess", e.last_access_registered_moodle as "lastAccessAt",
        coalesce(rs.stage, 0)::int as stage, e.is_sincronized as synced
      from course_registered_users e
      join registered_users r on r.id = e.registered_user_id
      join courses c on c.id = e.course_id
      left join classrooms cl on cl.id = e.classroom_id
      left join profiles p on p.id = e.profile_id
      left join (${resignStages(courseId)}) rs on rs.id = e.id
      where e.course_id = ${courseId} and ${classroomId === undefined ? sql`true` : sql`e.classroom_id = ${classroomId}`}
        and ${studentsOnly ? sql`p.key = 'student'` : sql`true`}
      order by cl.description nulls last, r.last_name, r.mother_last_name, r.name, r.rut`.execute(
      this.db,
    );
    return rows;
  }

  /** Students of the course with tickets, optionally matching a RUT or name. */
  private studentsWithTickets(courseId: number, search?: string) {
    const match = search
      ? personSearch(
          sql`concat_ws(' ', r.name, r.last_name, r.mother_last_name)`,
          sql`r.rut`,
          search,
        )
      : sql`true`;
    // Each of the course's students is looked up by key, and their first ticket probed by index
    // (OFFSET 0 keeps both so), never by hashing every student of the organisation or every
    // ticket of the course.
    return sql`
      select e.id, e.classroom_id, r.rut, r.name, r.last_name, r.mother_last_name
      from course_registered_users e
      cross join lateral (select u.rut, u.name, u.last_name, u.mother_last_name from registered_users u where u.id = e.registered_user_id offset 0) r
      where e.course_id = ${courseId} and ${match}
        and exists (select 1 from tickets t where t.course_registered_user_id = e.id offset 0)`;
  }

  /** Each ticket of the chosen enrolments (`chosen(id)`) with its attempts, as JSON per enrolment. */
  private ticketsOf(courseId: number) {
    return sql`(select json_agg(json_build_object(
          'id', t.id, 'ticketCode', t.ticket_code, 'status', st.description, 'closed', coalesce(st.key, '') <> 'open',
          'motive', mo.description, 'type', ty.description, 'priority', pr.description, 'priorityKey', pr.key, 'operator', ua.name,
          'createdAt', t.created_at, 'closingDate', t.closing_date,
          'attempts', coalesce((
            select json_agg(json_build_object('id', d.id, 'createdAt', d.created_at, 'outcome', sd.description, 'outcomeKey', sd.key, 'operator', u.name, 'comment', d.comment)
                            order by d.created_at, d.id)
            from ticket_details d
            join status_detail_tickets sd on sd.id = d.status_detail_ticket_id
            join users u on u.id = d.user_created_id
            where d.ticket_id = t.id), '[]'::json)
        ) order by t.created_at, t.id)
        from tickets t
        join status_tickets st on st.id = t.status_ticket_id
        join motive_tickets mo on mo.id = t.motive_ticket_id
        join type_tickets ty on ty.id = t.type_ticket_id
        join priority_tickets pr on pr.id = t.priority_ticket_id
        left join users ua on ua.id = t.user_assigned_id
        where t.course_registered_user_id = s.id and t.course_id = ${courseId})`;
  }

  /** Students of the course with tickets (optionally matching a RUT or name), in name order, each with all their tickets and attempts (the documents). */
  async studentTickets(
    courseId: number,
    search?: string,
    enrolmentId?: number,
  ): Promise<StudentTicketsRow[]> {
    const { rows } = await sql<StudentTicketsRow>`
      with chosen as (${this.studentsWithTickets(courseId, search)})
      select s.id as "enrolmentId", s.rut, s.name, s.last_name as "lastName", s.mother_last_name as "motherLastName", cl.description as classroom,
        ${this.ticketsOf(courseId)} as tickets
      from chosen s
      left join classrooms cl on cl.id = s.classroom_id
      where ${enrolmentId === undefined ? sql`true` : sql`s.id = ${enrolmentId}`}
      order by s.last_name, s.mother_last_name, s.name, s.rut, s.id`.execute(this.db);
    return rows;
  }

  /**
   * A page of the students with tickets, in name order, with their numbers of tickets and of open
   * ones; and how many students there are. The same students as studentTickets, read from the
   * course's cached follow-up rows (callers bring them up to date first) and its ticket counts
   * (enrolment_ticket_counts, kept by triggers): two index ranges of the course and no lookup per
   * student; enrolments of other profiles with tickets (not in the cached rows) by key.
   */
  async studentTicketsPage(
    courseId: number,
    search: string | undefined,
    page: { page: number; perPage: number },
  ) {
    const match = search ? foldedPersonSearch(sql`p.search_name`, sql`p.rut`, search) : sql`true`;
    const rows = await executePrepared(
      this.db,
      sql<StudentTicketsSummary & { total: number }>`
      with k as (select k.enrolment_id, k.total as tickets, k.open from enrolment_ticket_counts k where k.course_id = ${courseId} and k.total > 0),
      people as (
        select f.enrolment_id as id, f.classroom_id, f.rut, f.name, f.last_name, f.mother_last_name, f.search_name
        from course_follow_up_rows f where f.course_id = ${courseId}
        union all
        -- Each one looked up by key (OFFSET 0 keeps it so), never by hashing every enrolment.
        select k.enrolment_id, o.classroom_id, o.rut, o.name, o.last_name, o.mother_last_name, o.search_name
        from k cross join lateral (
          select e.classroom_id, u.rut, u.name, u.last_name, u.mother_last_name, u.search_name
          from course_registered_users e join registered_users u on u.id = e.registered_user_id where e.id = k.enrolment_id offset 0
        ) o
        where not exists (select 1 from course_follow_up_rows f where f.course_id = ${courseId} and f.enrolment_id = k.enrolment_id)
      ),
      chosen as (select p.*, k.tickets, k.open from people p join k on k.enrolment_id = p.id where ${match}),
      page as (
        select * from chosen c order by c.last_name, c.mother_last_name, c.name, c.rut, c.id
        limit ${page.perPage} offset ${(page.page - 1) * page.perPage}
      )
      select s.id as "enrolmentId", s.rut, s.name, s.last_name as "lastName", s.mother_last_name as "motherLastName", cl.description as classroom,
        s.tickets::int as tickets, s.open::int as "openTickets", (select count(*) from chosen)::int as total
      from page s
      left join classrooms cl on cl.id = s.classroom_id
      order by s.last_name, s.mother_last_name, s.name, s.rut, s.id`,
    );
    const total =
      rows[0]?.total ??
      (page.page > 1
        ? Number(
            (
              await sql<{
                n: number;
              }>`select count(*)::int as n from (${this.studentsWithTickets(courseId, search)}) c`.execute(
                this.db,
              )
            ).rows[0]?.n ?? 0,
          )
        : 0);
    return { rows: rows.map(({ total: _total, ...row }) => row), total };
  }
}
