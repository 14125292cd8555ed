import type { ListQuery } from '@sigaf/contract';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { OneValueQuery } from '../../db/compiled.js';
import { likePattern, paginate } from '../../db/pagination.js';

/** A contact attempt with its outcome and author (every attempt read goes through here). */
export function detailSelect(db: Database) {
  return db
    .selectFrom('ticket_details as d')
    .innerJoin('status_detail_tickets as sd', 'sd.id', 'd.status_detail_ticket_id')
    .innerJoin('users as u', 'u.id', 'd.user_created_id')
    .select([
      'd.id',
      'd.ticket_id',
      'd.comment',
      'd.created_at',
      'd.updated_at',
      'd.user_created_id',
      'u.name as user_name',
      'd.status_detail_ticket_id',
      'sd.description as status_description',
      'sd.key as status_key',
    ]);
}
/** Contact attempts (ticket_details). */
export class TicketDetailRepository {
  constructor(private readonly db: Database) {}

  private base(db: Database = this.db) {
    return detailSelect(db);
  }

  list(q: ListQuery & { ticketId?: number; ownerId?: number }) {
    let query = this.base();
    if (q.ticketId) query = query.where('d.ticket_id', '=', q.ticketId);
    if (q.ownerId !== undefined) {
      const owner = q.ownerId;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('tickets as ot')
            .select('ot.id')
            .whereRef('ot.id', '=', 'd.ticket_id')
            .where((w) =>
              w.or([w('ot.user_assigned_id', '=', owner), w('ot.user_create_id', '=', owner)]),
            ),
        ),
      );
    }
    if (q.search) query = query.where('d.comment', 'ilike', likePattern(q.search));
    const dir = q.order === 'desc' ? 'desc' : 'asc';
    return paginate(query.orderBy('d.created_at', dir).orderBy('d.id', dir), q);
  }

  private readonly byId = new OneValueQuery(() => this.base().where('d.id', '=', 0));

  async findById(id: number, db: Database = this.db): Promise<TicketDetailRow | undefined> {
    return (await this.byId.rows(db, id))[0];
  }

  private readonly byTicketQuery = new OneValueQuery(() =>
    detailSelect(this.db)
      .where('d.ticket_id', '=', sql<number>`any(${[0]}::int[])`)
      .orderBy('d.ticket_id')
      .orderBy('d.created_at')
      .orderBy('d.id'),
  );

  /** The attempts of these tickets, oldest first, by ticket (one prepared query). */
  async byTicket(ticketIds: number[]): Promise<Map<number, TicketDetailRow[]>> {
    const out = new Map<number, TicketDetailRow[]>();
    if (!ticketIds.length) return out;
    for (const d of await this.byTicketQuery.rows(this.db, ticketIds)) {
      const list = out.get(d.ticket_id);
      if (list) list.push(d);
      else out.set(d.ticket_id, [d]);
    }
    return out;
  }

  /** The attempts of many tickets in one query, oldest first. */
  /** The attempts of one ticket (each ticket read reads them: compiled once). */
  private readonly ofOne = new OneValueQuery(() =>
    this.base().where('d.ticket_id', '=', 0).orderBy('d.created_at').orderBy('d.id'),
  );

  async ofTickets(ticketIds: number[]) {
    if (ticketIds.length === 1) return this.ofOne.rows(this.db, ticketIds[0]);
    const out: Array<Awaited<ReturnType<TicketDetailRepository['findById']>> & object> = [];
    for (let i = 0; i < ticketIds.length; i += 1000) {
      const chunk = ticketIds.slice(i, i + 1000);
      if (chunk.length)
        out.push(
          ...(await this.base()
            .where('d.ticket_id', 'in', chunk)
            .orderBy('d.created_at')
            .orderBy('d.id')
            .execute()),
        );
    }
    return out;
  }

  /**
   * The same attempt on each ticket, with its 'add_attempt' history and the tickets' update time,
   * in one statement (atomic by itself). Returns the new attempts' ids in ticket order.
   */
  /** Adds one attempt to each ticket (one statement, with their history); returns the new attempts, as read elsewhere, in id order. */
  async addAttempts(input: {
    ticketIds: number[];
    userId: number;
    statusDetailId: number;
    comment: string;
    /** How the contact was made (null: not said; the report infers it from the ticket's type). */
    medium?: string | null;
    direction?: string | null;
    changes: Record<string, unknown>;
  }): Promise<TicketDetailRow[]> {
    if (!input.ticketIds.length) return [];
    const { rows } = await sql<TicketDetailRow>`
      with given as (select g.ticket_id, g.ord from unnest(${input.ticketIds}::int[]) with ordinality as g(ticket_id, ord)),
      added as (
        insert into ticket_details (ticket_id, user_created_id, status_detail_ticket_id, comment, medium, direction)
        select g.ticket_id, ${input.userId}::int, ${input.statusDetailId}::int, ${input.comment}::text,
          ${input.medium ?? null}::text, ${input.direction ?? null}::text from given g order by g.ord
        returning id, ticket_id, comment, created_at, updated_at, user_created_id, status_detail_ticket_id
      ),
      history as (
        insert into ticket_history (ticket_id, user_id, action, changes)
        select g.ticket_id, ${input.userId}::int, 'add_attempt', ${JSON.stringify(input.changes)}::jsonb from given g order by g.ord
      ),
      -- The ticket's last attempt is set here too, so the trigger of 0018 finds nothing left to update.
      touched as (update tickets t set updated_at = now(), last_attempt_at = greatest(t.last_attempt_at, now()) where t.id = any(${input.ticketIds}::int[]))
      -- The columns of detailSelect.
      select a.id, a.ticket_id, a.comment, a.created_at, a.updated_at, a.user_created_id, u.name as user_name,
        a.status_detail_ticket_id, sd.description as status_description, sd.key as status_key
      from added a join status_detail_tickets sd on sd.id = a.status_detail_ticket_id join users u on u.id = a.user_created_id
      order by a.id`.execute(this.db);
    return rows;
  }

  async insertMany(
    rows: Array<{
      ticket_id: number;
      user_created_id: number;
      status_detail_ticket_id: number;
      comment: string;
      medium?: string | null;
      direction?: string | null;
    }>,
    db: Database,
  ) {
    const out: number[] = [];
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      if (chunk.length)
        out.push(
          ...(await db.insertInto('ticket_details').values(chunk).returning('id').execute()).map(
            (r) => r.id,
          ),
        );
    }
    return out;
  }

  async update(
    id: number,
    values: { status_detail_ticket_id?: number; comment?: string },
    db: Database,
  ) {
    await db
      .updateTable('ticket_details')
      .set({ ...values, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number, db: Database) {
    await db.deleteFrom('ticket_details').where('id', '=', id).execute();
  }
}

export type TicketDetailRow = Awaited<
  ReturnType<ReturnType<typeof detailSelect>['executeTakeFirstOrThrow']>
>;
