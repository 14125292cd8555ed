import type { ReminderListQuery, ReminderState } from '@sigaf/contract';
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import { pageMeta, UNPAGED_LIMIT } from '../../db/pagination.js';

/** A reminder as read, with its ticket, student, course and owner. */
export interface ReminderRow {
  id: number;
  ticket_id: number;
  ticket_code: string;
  enrolment_id: number;
  course_id: number;
  course: string;
  student: string;
  rut: string;
  user_id: number;
  user_name: string;
  created_by: number | null;
  due_at: Date;
  comment: string;
  state: ReminderState;
  done_at: Date | null;
  ticket_detail_id: number | null;
  created_at: Date;
  updated_at: Date;
  /** Who the reminder's ticket belongs to (TicketAccess). */
  user_assigned_id: number | null;
  user_create_id: number;
}

/** What a list asks: the contract's filters, and the operator the caller is narrowed to (their tickets). */
export interface ReminderQuery extends ReminderListQuery {
  /** Only reminders on tickets this operator may touch (assigned to or created by them). */
  scopeUserId?: number;
}

const SORTS: Record<string, RawBuilder<unknown>> = {
  due_at: sql`rm.due_at`,
  created_at: sql`rm.created_at`,
  state: sql`rm.state`,
  operator: sql`lower(u.name)`,
  ticket: sql`t.ticket_code`,
};

/** Reminders (SQL only). The trigger of migration 0012 marks them done when an attempt is logged after they fall due. */
export class ReminderRepository {
  constructor(private readonly db: Database) {}

  private select(extra: RawBuilder<unknown> = sql``, only: RawBuilder<unknown> = sql``) {
    return sql`
      select rm.id, rm.ticket_id, t.ticket_code, t.course_registered_user_id as enrolment_id, t.course_id, c.description as course,
        trim(r.name || ' ' || r.last_name || ' ' || coalesce(r.mother_last_name, '')) as student, r.rut,
        rm.user_id, u.name as user_name, rm.created_by, rm.due_at, rm.comment, rm.state, rm.done_at, rm.ticket_detail_id, rm.created_at, rm.updated_at,
        t.user_assigned_id, t.user_create_id ${extra}
      from reminders rm ${only}
      join tickets t on t.id = rm.ticket_id
      join course_registered_users e on e.id = t.course_registered_user_id
      join registered_users r on r.id = e.registered_user_id
      join courses c on c.id = t.course_id
      join users u on u.id = rm.user_id`;
  }

  private where(q: ReminderQuery, ownerId: number): RawBuilder<unknown> {
    const w: RawBuilder<unknown>[] = [sql`true`];
    if (q.scopeUserId !== undefined)
      w.push(sql`(t.user_assigned_id = ${q.scopeUserId} or t.user_create_id = ${q.scopeUserId})`);
    if (q.mine) w.push(sql`rm.user_id = ${ownerId}`);
    if (q.user_id) w.push(sql`rm.user_id = ${q.user_id}`);
    if (q.ticket_id) w.push(sql`rm.ticket_id = ${q.ticket_id}`);
    if (q.state) w.push(sql`rm.state = ${q.state}`);
    if (q.due) w.push(sql`rm.state = 'pending' and rm.due_at <= now()`);
    // Days are Chilean calendar days.
    if (q.due_from)
      w.push(sql`rm.due_at >= (${q.due_from}::date)::timestamp at time zone 'America/Santiago'`);
    if (q.due_to)
      w.push(sql`rm.due_at < (${q.due_to}::date + 1)::timestamp at time zone 'America/Santiago'`);
    return sql.join(w, sql` and `);
  }

  /** One page (or, without `page`, up to the unpaged limit) of the reminders the filters select. */
  async list(q: ReminderQuery, callerId: number) {
    const dir = q.order === 'desc' ? sql`desc` : sql`asc`;
    const key = q.sort && Object.hasOwn(SORTS, q.sort) ? q.sort : 'due_at';
    const sort = SORTS[key]!;
    const perPage = q.perPage ?? 10;
    const paging = q.page
      ? sql`limit ${perPage} offset ${(q.page - 1) * perPage}`
      : sql`limit ${UNPAGED_LIMIT}`;
    // The page is chosen from the reminders (with their tickets or owners only when the filters or
    // the order read them: an operator's agenda reads its pending reminders from the index of
    // (user, state, due date) alone); its rows' students and courses are read afterwards.
    const ticket =
      q.scopeUserId !== undefined || key === 'ticket'
        ? sql`join tickets t on t.id = rm.ticket_id`
        : sql``;
    const owner = key === 'operator' ? sql`join users u on u.id = rm.user_id` : sql``;
    const { rows } = await sql<ReminderRow & { __total: number }>`
      with page as (
        select rm.id, row_number() over (order by ${sort} ${dir}, rm.id ${dir}) as n, count(*) over ()::int as __total
        from reminders rm ${ticket} ${owner}
        where ${this.where(q, callerId)}
        order by ${sort} ${dir}, rm.id ${dir}
        ${paging}
      )
      ${this.select(sql`, page.__total`, sql`join page on page.id = rm.id`)}
      order by page.n`.execute(this.db);
    let total = rows[0]?.__total ?? 0;
    if (q.page && !rows.length && q.page > 1) total = await this.count(q, callerId);
    const out = rows.map(({ __total: _, ...r }) => r as ReminderRow);
    return { rows: out, ...(q.page ? { meta: pageMeta(q.page, perPage, total) } : {}) };
  }

  async count(q: ReminderQuery, callerId: number): Promise<number> {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from reminders rm join tickets t on t.id = rm.ticket_id where ${this.where(q, callerId)}`.execute(
      this.db,
    );
    return rows[0]?.n ?? 0;
  }

  /** The badge: the caller's pending reminders already due (on tickets they may touch, for an operator). */
  async dueCount(userId: number, scoped: boolean): Promise<number> {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from reminders rm
      ${scoped ? sql`join tickets t on t.id = rm.ticket_id and (t.user_assigned_id = ${userId} or t.user_create_id = ${userId})` : sql``}
      where rm.user_id = ${userId} and rm.state = 'pending' and rm.due_at <= now()`.execute(
      this.db,
    );
    return rows[0]?.n ?? 0;
  }

  async find(id: number): Promise<ReminderRow | undefined> {
    const { rows } = await sql<ReminderRow>`${this.select()} where rm.id = ${id}`.execute(this.db);
    return rows[0];
  }

  /** The pending reminders among these ids, with who their tickets belong to (TicketAccess). */
  pendingOwners(ids: number[]) {
    if (!ids.length) return Promise.resolve([]);
    return this.db
      .selectFrom('reminders as rm')
      .innerJoin('tickets as t', 't.id', 'rm.ticket_id')
      .select(['rm.id', 'rm.ticket_id', 't.user_assigned_id', 't.user_create_id'])
      .where('rm.id', 'in', ids)
      .where('rm.state', '=', 'pending')
      .execute();
  }

  async insert(values: {
    ticket_id: number;
    user_id: number;
    created_by: number;
    due_at: string;
    comment: string;
  }): Promise<number> {
    const row = await this.db
      .insertInto('reminders')
      .values(values)
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(
    id: number,
    values: {
      due_at?: string;
      comment?: string;
      user_id?: number;
      state?: ReminderState;
      done_at?: Date | null;
      done_by?: number | null;
      ticket_detail_id?: null;
    },
  ) {
    await this.db
      .updateTable('reminders')
      .set({ ...values, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  }

  /** Closes a reminder only while it is still pending, in one statement: false when another request closed it first. */
  async closePending(id: number, state: 'done' | 'dismissed', userId: number): Promise<boolean> {
    const r = await this.db
      .updateTable('reminders')
      .set({ state, done_at: new Date(), done_by: userId, updated_at: new Date() })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
