import { sql, type RawBuilder, type Updateable } from 'kysely';
import type { ActivityResultRow } from '../students/repository.js';
import type { Database } from '../../db/database.js';
import type { TicketTable } from '../../db/schema.js';
import {
  DEFAULT_PER_PAGE,
  pageMeta,
  foldedPersonSearch,
  UNPAGED_LIMIT,
  type Page,
  isSortKey,
} from '../../db/pagination.js';
import { executePrepared, OneValueQuery } from '../../db/compiled.js';
import { TicketDetailRepository, type TicketDetailRow } from './detail-repository.js';
import { allocateCodes, createWithCodes, ensureCodeSequences } from './codes.js';
import { coursePeople, orgPeople } from './search-repository.js';
import {
  type TicketQuery,
  type SortDirection,
  attempts,
  pick,
  OPEN_STATUS,
  SORTS,
  dayStart,
  option,
  type EnrolmentRef,
  type Lookups,
  createdInRangeTotal,
  codeContains,
} from './sql.js';

/** The sort keys that read the ticket's enrolment or student (SORTS). */
const ENROLMENT_SORTS = new Set(['student', 'rut', 'classroom']);
/** Up to this many matching enrolments across the organisation, a search reads their tickets by index. */
const ORG_PEOPLE = 2000;

/** Tickets, their code sequences and history (SQL only; the rules live in the service). */
export class TicketRepository {
  private details?: TicketDetailRepository;
  constructor(private readonly db: Database) {}

  private base(db: Database = this.db) {
    return db
      .selectFrom('tickets as t')
      .innerJoin('course_registered_users as e', 'e.id', 't.course_registered_user_id')
      .innerJoin('registered_users as r', 'r.id', 'e.registered_user_id')
      .leftJoin('log_editing_tickets as l', (j) =>
        j.onRef('l.ticket_id', '=', 't.id').on('l.expires_at', '>', sql<Date>`now()`),
      )
      .select([
        't.id',
        't.ticket_code',
        't.version',
        't.course_id',
        't.course_registered_user_id',
        't.closing_date',
        't.created_at',
        't.updated_at',
        't.status_ticket_id',
        pick<string>('status_tickets', 'description', 't.status_ticket_id').as(
          'status_description',
        ),
        pick<string | null>('status_tickets', 'key', 't.status_ticket_id').as('status_key'),
        't.type_ticket_id',
        pick<string>('type_tickets', 'description', 't.type_ticket_id').as('type_description'),
        pick<string | null>('type_tickets', 'key', 't.type_ticket_id').as('type_key'),
        't.priority_ticket_id',
        pick<string>('priority_tickets', 'description', 't.priority_ticket_id').as(
          'priority_description',
        ),
        pick<string | null>('priority_tickets', 'key', 't.priority_ticket_id').as('priority_key'),
        't.source_ticket_id',
        pick<string>('source_tickets', 'description', 't.source_ticket_id').as(
          'source_description',
        ),
        pick<string | null>('source_tickets', 'key', 't.source_ticket_id').as('source_key'),
        't.motive_ticket_id',
        pick<string>('motive_tickets', 'description', 't.motive_ticket_id').as(
          'motive_description',
        ),
        pick<string | null>('motive_tickets', 'key', 't.motive_ticket_id').as('motive_key'),
        't.user_create_id',
        pick<string>('users', 'name', 't.user_create_id').as('creator_name'),
        't.user_assigned_id',
        pick<string | null>('users', 'name', 't.user_assigned_id').as('assigned_name'),
        'e.classroom_id',
        pick<string | null>('classrooms', 'description', 'e.classroom_id').as(
          'classroom_description',
        ),
        'e.profile_id',
        pick<string>('profiles', 'description', 'e.profile_id').as('profile_description'),
        pick<string | null>('profiles', 'key', 'e.profile_id').as('profile_key'),
        'e.final_status_id',
        pick<string | null>('final_statuses', 'description', 'e.final_status_id').as(
          'final_status_description',
        ),
        'e.last_access_registered_moodle',
        'e.last_access_text',
        pick<string>('courses', 'description', 't.course_id').as('course_description'),
        pick<number | null>('courses', 'id_course_moodle', 't.course_id').as('id_course_moodle'),
        'e.is_sincronized',
        sql<number>`(select c.category_id from courses c where c.id = t.course_id)`.as(
          'category_id',
        ),
        sql<string>`(select cat.description from courses c join categories cat on cat.id = c.category_id where c.id = t.course_id)`.as(
          'category_description',
        ),
        sql<string>`(select cat.category_code from courses c join categories cat on cat.id = c.category_id where c.id = t.course_id)`.as(
          'category_code',
        ),
        'e.registered_user_id',
        'r.rut',
        'r.name as student_name',
        'r.last_name',
        'r.mother_last_name',
        'r.email',
        'r.mobile',
        'r.phone',
        'l.id as lock_id',
        'l.user_id as lock_user_id',
        pick<string | null>('users', 'name', 'l.user_id').as('lock_user_name'),
        'l.created_at as lock_created_at',
        'l.expires_at as lock_expires_at',
        attempts.as('details_count'),
      ]);
  }

  /**
   * The filters as SQL conditions on `t` (tickets), `e` (its enrolment) and `r` (the student).
   * `people`: the enrolments whose student matches the search, when already read (search-repository.ts).
   */
  private conditions(
    q: TicketQuery & { search?: string },
    people?: number[],
  ): RawBuilder<unknown>[] {
    const w: RawBuilder<unknown>[] = [];
    // With a search's students read (`people`), the course is checked on each matching ticket (`+ 0`)
    // rather than ANDed with the index of the course's tickets: the matches come from their own indexes.
    if (q.course_id)
      w.push(people ? sql`t.course_id + 0 = ${q.course_id}` : sql`t.course_id = ${q.course_id}`);
    if (q.classroom_id) w.push(sql`e.classroom_id = ${q.classroom_id}`);
    if (q.status === 'open') w.push(sql`t.status_ticket_id = ${OPEN_STATUS}`);
    else if (q.status === 'closed') w.push(sql`t.status_ticket_id is distinct from ${OPEN_STATUS}`);
    else if (typeof q.status === 'number') w.push(sql`t.status_ticket_id = ${q.status}`);
    if (q.status_ticket_id) w.push(sql`t.status_ticket_id = ${q.status_ticket_id}`);
    if (q.priority_ticket_id) w.push(sql`t.priority_ticket_id = ${q.priority_ticket_id}`);
    if (q.type_ticket_id) w.push(sql`t.type_ticket_id = ${q.type_ticket_id}`);
    if (q.motive_ticket_id) w.push(sql`t.motive_ticket_id = ${q.motive_ticket_id}`);
    if (q.source_ticket_id) w.push(sql`t.source_ticket_id = ${q.source_ticket_id}`);
    if (q.user_assigned_id) w.push(sql`t.user_assigned_id = ${q.user_assigned_id}`);
    if (q.assignedTo) w.push(sql`t.user_assigned_id = ${q.assignedTo}`);
    if (q.enrolmentId) w.push(sql`t.course_registered_user_id = ${q.enrolmentId}`);
    if (q.code) w.push(codeContains(q.code));
    if (q.from) w.push(sql`t.created_at >= ${dayStart(q.from)}`);
    if (q.to) w.push(sql`t.created_at < ${dayStart(q.to, 1)}`);
    if (q.search && people) {
      w.push(
        sql`(${codeContains(q.search)} or t.course_registered_user_id = any(${people}::int[]))`,
      );
    } else if (q.search) {
      // Many matching students (orgPeople): found once from the trigram indexes of migration 0016.
      const people = sql`select se.id from course_registered_users se join registered_users sr on sr.id = se.registered_user_id
        where ${foldedPersonSearch(sql`sr.search_name`, sql`sr.rut`, q.search)}`;
      w.push(sql`(${codeContains(q.search)} or t.course_registered_user_id in (${people}))`);
    }
    return w;
  }

  private filtered(
    q: TicketQuery & { search?: string },
    db: Database = this.db,
    people?: number[],
  ) {
    let query = this.base(db);
    for (const c of this.conditions(q, people)) query = query.where(c as RawBuilder<boolean>);
    return query;
  }

  /**
   * How many tickets the filters select. The enrolment is joined only when a filter reads it (the
   * classroom); otherwise the count comes from the tickets alone.
   */
  async count(q: TicketQuery & { search?: string }, people?: number[]): Promise<number> {
    // A date range alone (Administración's search by dates): from the creation hours and days.
    const datesOnly =
      q.from &&
      q.to &&
      (!q.status || q.status === 'all') &&
      this.conditions(q).length === (q.course_id ? 3 : 2);
    const ofRange = datesOnly
      ? (
          await sql<{
            n: number | null;
          }>`select ${createdInRangeTotal(q.from!, q.to!, q.course_id)} as n`.execute(this.db)
        ).rows[0]?.n
      : null;
    if (typeof ofRange === 'number') return ofRange;
    const fromCounts = this.countFromSummary(q);
    if (fromCounts) {
      const { rows } = await sql<{
        n: number;
      }>`select coalesce(sum(k.n), 0)::int as n from ticket_counts k where ${fromCounts}`.execute(
        this.db,
      );
      return rows[0]?.n ?? 0;
    }
    const where = this.conditions(q, people);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from tickets t
      ${q.classroom_id ? sql`join course_registered_users e on e.id = t.course_registered_user_id` : sql``}
      where ${where.length ? sql.join(where, sql` and `) : sql`true`}`.execute(this.db);
    return rows[0]?.n ?? 0;
  }

  /**
   * The condition on ticket_counts (migration 0008, kept by triggers in the same transaction)
   * that gives the total of a course's (or every course's) list filtered by status and at most one of type,
   * priority, source, motive or assignee; undefined when the filters need the tickets themselves.
   */
  private countFromSummary(q: TicketQuery & { search?: string }): RawBuilder<unknown> | undefined {
    if (q.classroom_id || q.enrolmentId || q.code || q.from || q.to || q.search) return undefined;
    if (q.assignedTo && q.user_assigned_id && q.assignedTo !== q.user_assigned_id) return undefined;
    const assignee = q.assignedTo || q.user_assigned_id;
    const dims: Array<[number, number | undefined]> = [
      [1, q.type_ticket_id],
      [2, q.priority_ticket_id],
      [3, q.source_ticket_id],
      [4, q.motive_ticket_id],
      [5, assignee],
    ];
    const chosen = dims.filter(([, v]) => v);
    if (chosen.length > 1) return undefined;
    const [dim, value] = chosen[0] ?? [1, undefined];
    // Without a course (Administración by operator), every course's rows of the dimension.
    const w: RawBuilder<unknown>[] = [
      ...(q.course_id ? [sql`k.course_id = ${q.course_id}`] : []),
      sql`k.dim = ${dim}`,
    ];
    if (value) w.push(sql`k.value = ${value}`);
    if (q.status === 'open') w.push(sql`k.status_ticket_id = ${OPEN_STATUS}`);
    else if (q.status === 'closed') w.push(sql`k.status_ticket_id is distinct from ${OPEN_STATUS}`);
    else if (typeof q.status === 'number') w.push(sql`k.status_ticket_id = ${q.status}`);
    if (q.status_ticket_id) w.push(sql`k.status_ticket_id = ${q.status_ticket_id}`);
    return sql.join(w, sql` and `);
  }

  /** A page of tickets and the total: two queries at once, the page read in index order and the total counted apart. */
  async list(
    q: TicketQuery & { search?: string },
    defaults: { sort: string; order: SortDirection },
  ): Promise<Page<TicketRow>> {
    const known = isSortKey(SORTS, q.sort);
    const key = known ? q.sort! : defaults.sort;
    const dir = known ? (q.order ?? 'asc') : (q.order ?? defaults.order);
    // A search: its matching students are read first (in a course, or few in the organisation).
    const people = q.search
      ? await (q.course_id
          ? coursePeople(this.db, q.course_id, q.search)
          : orgPeople(this.db, q.search, ORG_PEOPLE))
      : undefined;
    const sort = SORTS[key]!;
    // A student's whole history in the list's own order (the original client's call): one query compiled once.
    if (
      !q.page &&
      q.enrolmentId &&
      this.conditions(q).length === 1 &&
      key === defaults.sort &&
      dir === defaults.order
    ) {
      return { rows: await this.historyQuery(key, dir).rows(this.db, q.enrolmentId) };
    }
    const query = this.ordered(this.filtered(q, this.db, people), key, dir);
    if (!q.page) return { rows: await query.limit(UNPAGED_LIMIT).execute() };
    const perPage = q.perPage ?? DEFAULT_PER_PAGE;
    const offset = (q.page - 1) * perPage;
    // A search's matches (thousands in a large course) are sorted on the tickets alone, and counted
    // in the same pass, when neither the filters nor the order read anything else; only the page's
    // tickets then read their enrolment and student. Across the organisation (a code, or a few
    // students) the matches come from their own indexes and are sorted apart (OFFSET 0 keeps them
    // so): walking every ticket in the list's order until ten matched took seconds at 10 M.
    const fenced = !q.course_id && Boolean(q.code || people);
    if ((people || fenced) && !q.classroom_id && !ENROLMENT_SORTS.has(key)) {
      const where = sql.join(this.conditions(q, people), sql` and `);
      const { rows: chosen } = await sql<{ id: number; total: number }>`
        select t.id, count(*) over ()::int as total
        from ${fenced ? sql`(select t.* from tickets t where ${where} offset 0) t` : sql`tickets t where ${where}`}
        order by ${sort} ${dir === 'desc' ? sql`desc` : sql`asc`} nulls last, t.id ${dir === 'desc' ? sql`desc` : sql`asc`}
        limit ${perPage} offset ${offset}`.execute(this.db);
      const [rows, total] = await Promise.all([
        this.inOrder(chosen.map((c) => c.id)),
        chosen.length ? chosen[0]!.total : offset ? this.count(q, people) : 0,
      ]);
      return { rows, meta: pageMeta(q.page, perPage, total) };
    }
    // Otherwise the page's ids are chosen first, then its rows read by one prepared query (inOrder).
    const chosen = query.clearSelect().select('t.id').limit(perPage).offset(offset).execute();
    const [rows, total] = await Promise.all([
      chosen.then((c) => this.inOrder(c.map((x) => x.id))),
      this.count(q, people),
    ]);
    return { rows, meta: pageMeta(q.page, perPage, total) };
  }

  private ordered<Q extends ReturnType<TicketRepository['filtered']>>(
    query: Q,
    key: string,
    dir: SortDirection,
  ) {
    return query
      .orderBy(SORTS[key]!, (ob) => (dir === 'desc' ? ob.desc().nullsLast() : ob.asc().nullsLast()))
      .orderBy('t.id', dir);
  }

  /** Every ticket of one enrolment (its value), in one order, bounded as an unpaged list is. */
  private readonly histories = new Map<string, OneValueQuery<TicketRow>>();
  private historyQuery(key: string, dir: SortDirection) {
    const name = `${key} ${dir}`;
    let query = this.histories.get(name);
    if (!query) {
      query = new OneValueQuery(() =>
        this.ordered(this.filtered({ enrolmentId: 1 }), key, dir).limit(sql.lit(UNPAGED_LIMIT)),
      );
      this.histories.set(name, query);
    }
    return query;
  }

  private readonly byIds = new OneValueQuery(() =>
    this.base().where(sql<boolean>`t.id = any(${[0]}::int[])`),
  );

  /** These tickets' rows in the order of `ids`, the missing left out (a row reads many lookups: planning them each time cost more than running them). */
  async inOrder(ids: number[]): Promise<TicketRow[]> {
    if (!ids.length) return [];
    const byId = new Map((await this.byIds.rows(this.db, ids)).map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Every ticket the filters select (the export), oldest first, bounded. */
  all(q: TicketQuery & { search?: string }, limit: number) {
    return this.filtered(q).orderBy('t.created_at').orderBy('t.id').limit(limit).execute();
  }

  private readonly byId = new OneValueQuery(() => this.base().where('t.id', '=', 0));

  /** One ticket row. Its query (a ticket row reads many lookups) is built and compiled once; only the id changes. */
  async findById(id: number, db: Database = this.db): Promise<TicketRow | undefined> {
    return (await this.byId.rows(db, id))[0];
  }

  findMany(ids: number[]) {
    if (!ids.length) return Promise.resolve([]);
    return this.base().where('t.id', 'in', ids).orderBy('t.id').execute();
  }

  /** The referenced catalogue values and assignee, in one round trip. */
  async lookups(ids: {
    status?: number | null;
    type?: number | null;
    priority?: number | null;
    source?: number | null;
    motive?: number | null;
    detailStatus?: number | null;
    assigned?: number | null;
  }): Promise<Lookups> {
    const assigned = ids.assigned
      ? sql`(select json_build_object('id', u.id, 'name', u.name, 'role', ro.key) from users u join roles ro on ro.id = u.role_id where u.id = ${ids.assigned} and u.deleted_at is null)`
      : sql`null`;
    const r = await sql<Lookups>`select
        ${option('status_tickets', ids.status)} as status,
        ${option('type_tickets', ids.type)} as type,
        ${option('priority_tickets', ids.priority)} as priority,
        ${option('source_tickets', ids.source)} as source,
        ${option('motive_tickets', ids.motive)} as motive,
        ${option('status_detail_tickets', ids.detailStatus)} as "detailStatus",
        ${assigned} as assigned`;
    // A few forms of one text (which values are given): prepared, parsed once per connection.
    return (await executePrepared(this.db, r))[0]!;
  }

  private readonly enrolmentRefs = new OneValueQuery(() =>
    this.db
      .selectFrom('course_registered_users as e')
      .innerJoin('courses as c', 'c.id', 'e.course_id')
      .innerJoin('categories as cat', 'cat.id', 'c.category_id')
      .select(['e.id', 'e.course_id', 'c.description as course_description', 'cat.category_code'])
      .where(sql<boolean>`e.id = any(${[0]}::int[])`),
  );

  /** The enrolments tickets are about, with what their codes are made of. */
  async enrolments(ids: number[]): Promise<EnrolmentRef[]> {
    if (!ids.length) return [];
    return this.enrolmentRefs.rows(this.db, ids);
  }

  async enrolmentExists(id: number) {
    return (
      (await this.db
        .selectFrom('course_registered_users')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst()) !== undefined
    );
  }

  async statusIdByKey(key: string) {
    return (
      await this.db
        .selectFrom('status_tickets')
        .select('id')
        .where('key', '=', key)
        .executeTakeFirst()
    )?.id;
  }

  /** Ticket codes (codes.ts). */
  allocateCodes(prefix: string, n: number, db: Database) {
    return allocateCodes(prefix, n, db);
  }

  createWithCodes(input: Parameters<typeof createWithCodes>[1]) {
    return createWithCodes(this.db, input);
  }

  ensureCodeSequences(prefixes: string[]) {
    return ensureCodeSequences(this.db, prefixes);
  }

  /**
   * Updates a ticket only if it still has the version read and no one else holds an active lock
   * on it; bumps the version and stamps, clears or keeps the closing date. Returns the new
   * closing date, or undefined when nothing matched.
   */
  /**
   * Updates these tickets at once, each only while it still has the version it was read at and no
   * one else holds an edit lock on it: the ones saved, with their closing date after the update.
   */
  async updateGuarded(
    rows: Array<{ id: number; version: number }>,
    actorId: number,
    values: Updateable<TicketTable>,
    closing: 'stamp' | 'clear' | 'keep',
    db: Database,
  ) {
    if (!rows.length) return [];
    const closingDate =
      closing === 'stamp'
        ? { closing_date: sql<Date>`now()` }
        : closing === 'clear'
          ? { closing_date: null }
          : {};
    const read = sql`select * from unnest(${rows.map((r) => r.id)}::int[], ${rows.map((r) => r.version)}::int[]) as x (id, version)`;
    return db
      .updateTable('tickets as t')
      .set({ ...values, ...closingDate, version: sql`t.version + 1`, updated_at: sql`now()` })
      .where(sql<boolean>`(t.id, t.version) in (${read})`)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('log_editing_tickets as l')
              .select('l.id')
              .whereRef('l.ticket_id', '=', 't.id')
              .where('l.user_id', '!=', actorId)
              .where('l.expires_at', '>', sql<Date>`now()`),
          ),
        ),
      )
      .returning(['t.id', 't.closing_date', 't.version'])
      .execute();
  }

  /** Deletes a ticket (its attempts, locks and history go with it) only if it has no attempts and no one else holds a lock. */
  async deleteGuarded(id: number, actorId: number, db: Database) {
    const row = await db
      .deleteFrom('tickets as t')
      .where('t.id', '=', id)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('ticket_details as d').select('d.id').whereRef('d.ticket_id', '=', 't.id'),
          ),
        ),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('log_editing_tickets as l')
              .select('l.id')
              .whereRef('l.ticket_id', '=', 't.id')
              .where('l.user_id', '!=', actorId)
              .where('l.expires_at', '>', sql<Date>`now()`),
          ),
        ),
      )
      .returning('t.id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async touch(ticketIds: number[], db: Database) {
    if (ticketIds.length)
      await db
        .updateTable('tickets')
        .set({ updated_at: sql`now()` })
        .where('id', 'in', ticketIds)
        .execute();
  }

  async addHistory(
    entries: Array<{ ticketId: number; userId: number | null; action: string; changes: unknown }>,
    db: Database = this.db,
  ) {
    for (let i = 0; i < entries.length; i += 500) {
      const chunk = entries.slice(i, i + 500);
      if (!chunk.length) continue;
      await db
        .insertInto('ticket_history')
        .values(
          chunk.map((e) => ({
            ticket_id: e.ticketId,
            user_id: e.userId,
            action: e.action,
            changes: JSON.stringify(e.changes ?? null),
          })),
        )
        .execute();
    }
  }

  history(ticketId: number) {
    return this.db
      .selectFrom('ticket_history as h')
      .leftJoin('users as u', 'u.id', 'h.user_id')
      .select([
        'h.id',
        'h.ticket_id',
        'h.user_id',
        'u.name as user_name',
        'h.action',
        'h.changes',
        'h.created_at',
      ])
      .where('h.ticket_id', '=', ticketId)
      .orderBy('h.created_at')
      .orderBy('h.id')
      .execute();
  }

  /** The contact attempts of any number of tickets in one query, oldest first, by ticket id. */
  /** The attempts of these tickets, oldest first, by ticket. */
  attemptsOf(ticketIds: number[]): Promise<Map<number, TicketDetailRow[]>> {
    return (this.details ??= new TicketDetailRepository(this.db)).byTicket(ticketIds);
  }

  private readonly ownersQuery = new OneValueQuery(() =>
    this.db
      .selectFrom('tickets as t')
      .leftJoin('log_editing_tickets as l', (j) =>
        j.onRef('l.ticket_id', '=', 't.id').on('l.expires_at', '>', sql<Date>`now()`),
      )
      .select([
        't.id',
        't.user_assigned_id',
        't.user_create_id',
        'l.user_id as lock_user_id',
        'l.created_at as lock_created_at',
        pick<string | null>('users', 'name', 'l.user_id').as('lock_user_name'),
      ])
      .where(sql<boolean>`t.id = any(${[0]}::int[])`),
  );

  /** Who each of these tickets belongs to (the access rule's input) and who holds its edit lock now; a missing ticket has no row. */
  async owners(ids: number[]) {
    if (!ids.length) return [];
    return this.ownersQuery.rows(this.db, ids);
  }
}

export type TicketRow = Awaited<ReturnType<TicketRepository['findMany']>>[number];

/**
 * What a ticket resource carries beside its row: the attempts of the tickets (by ticket id) and
 * the Moodle results of their enrolments (by enrolment id).
 */
export interface TicketParts {
  details: Map<number, TicketDetailRow[]>;
  results: Map<number, readonly ActivityResultRow[]>;
}
export type TicketHistoryRow = Awaited<ReturnType<TicketRepository['history']>>[number];
