import type { ListQuery } from '@sigaf/contract';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { likePattern, paginate, sortColumn } from '../../db/pagination.js';
import { DIM } from '../dashboard/sql.js';
import type { CatalogueTable, Children, Usage } from './declarations.js';

export interface CatalogueRow {
  id: number;
  key: string | null;
  description: string;
  created_at: Date;
  updated_at: Date;
  tickets_count?: number;
  /** Rows of the value's children table (a section's activities, a platform's categories). */
  children_count?: number;
  operators?: Array<{ operator: string; count: number }>;
  /** A section's activities that count for progress (raw, snake_case, as the original listed them). */
  activities?: SectionActivity[];
}

export interface SectionActivity {
  id: number;
  description: string;
  type: string | null;
  weighing: number;
  id_activity_moodle: number | null;
  section_id: number | null;
  course_id: number;
}

export interface CountOptions {
  ticketColumn?: string;
  children?: Children;
}

const SORTS = { id: 'c.id', description: 'c.description', createdAt: 'c.created_at' } as const;

/** ticket_counts dimensions of the ticket columns a catalogue counts by (the status: any of them, split by status). */
const COUNT_DIMS: Record<string, number> = {
  type_ticket_id: DIM.type,
  priority_ticket_id: DIM.priority,
  source_ticket_id: DIM.source,
  motive_ticket_id: DIM.motive,
};

/** How many tickets have a catalogue value `c.id` in a column, from the counts kept by triggers (0008), over every course. */
function ticketCount(column: string) {
  const dim = COUNT_DIMS[column];
  if (column === 'status_ticket_id')
    return sql<number>`(select coalesce(sum(k.n), 0)::int from ticket_counts k where k.dim = ${DIM.type} and k.status_ticket_id = c.id)`;
  if (dim !== undefined)
    return sql<number>`(select coalesce(sum(k.n), 0)::int from ticket_counts k where k.dim = ${dim} and k.value = c.id)`;
  return sql<number>`(select count(*)::int from tickets t where t.${sql.ref(column)} = c.id)`;
}

/** One repository for every id + description catalogue; the table is a parameter. */
export class CatalogueRepository {
  constructor(private readonly db: Database) {}

  // All catalogue tables share one shape; 'roles' stands for any of them in the types.
  private from(table: CatalogueTable) {
    return this.db.selectFrom(`${table as 'roles'} as c`);
  }

  /** The columns of a value, with the counts its relationship shows. */
  private select(table: CatalogueTable, opts: CountOptions) {
    let query = this.from(table).select([
      'c.id',
      'c.key',
      'c.description',
      'c.created_at',
      'c.updated_at',
    ]);
    if (opts.ticketColumn) query = query.select(ticketCount(opts.ticketColumn).as('tickets_count'));
    if (opts.children) {
      const { table: child, column } = opts.children;
      query = query.select(
        sql<number>`(select count(*) from ${sql.table(child)} x where x.${sql.ref(column)} = c.id)`.as(
          'children_count',
        ),
      );
    }
    return query;
  }

  async list(table: CatalogueTable, q: ListQuery, opts: CountOptions) {
    let query = this.select(table, opts);
    if (q.search) query = query.where('c.description', 'ilike', likePattern(q.search));
    const sortCol = sortColumn(SORTS, q.sort, 'id');
    query = query.orderBy(sql.ref(sortCol), q.order === 'desc' ? 'desc' : 'asc').orderBy('c.id');
    return paginate(query, q) as Promise<{
      rows: CatalogueRow[];
      meta?: import('@sigaf/contract').PageMeta;
    }>;
  }

  findById(
    table: CatalogueTable,
    id: number,
    opts: CountOptions = {},
  ): Promise<CatalogueRow | undefined> {
    return this.select(table, opts).where('c.id', '=', id).executeTakeFirst() as Promise<
      CatalogueRow | undefined
    >;
  }

  /** The activities of these sections that count for progress (not removed in Moodle, not left out). */
  sectionActivities(sectionIds: number[]): Promise<SectionActivity[]> {
    if (!sectionIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('activities as a')
      .select([
        'a.id',
        'a.description',
        'a.type',
        sql<number>`a.weighing::float8`.as('weighing'),
        'a.id_activity_moodle',
        'a.section_id',
        'a.course_id',
      ])
      .where('a.section_id', 'in', sectionIds)
      .where('a.removed_at', 'is', null)
      .where('a.excluded_from_progress', '=', false)
      .orderBy('a.id')
      .execute();
  }

  /** Every activity not removed in Moodle, wherever it is filed (the original client's progress divisor, service.ts). */
  liveActivities(): Promise<SectionActivity[]> {
    return this.db
      .selectFrom('activities as a')
      .select([
        'a.id',
        'a.description',
        'a.type',
        sql<number>`a.weighing::float8`.as('weighing'),
        'a.id_activity_moodle',
        'a.section_id',
        'a.course_id',
      ])
      .where('a.removed_at', 'is', null)
      .orderBy('a.id')
      .execute();
  }

  async descriptionTaken(
    table: CatalogueTable,
    description: string,
    exceptId?: number,
  ): Promise<boolean> {
    let q = this.from(table)
      .select('c.id')
      .where(sql`lower(c.description)`, '=', description.toLowerCase());
    if (exceptId !== undefined) q = q.where('c.id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async insert(table: CatalogueTable, description: string): Promise<number> {
    const row = await this.db
      .insertInto(table as 'roles')
      .values({ description })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(table: CatalogueTable, id: number, description: string) {
    await this.db
      .updateTable(table as 'roles')
      .set({ description, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  async delete(table: CatalogueTable, id: number) {
    await this.db
      .deleteFrom(table as 'roles')
      .where('id', '=', id)
      .execute();
  }

  /** How many rows of each referring table point at this value. */
  async usage(usedBy: Usage[], id: number): Promise<Array<Usage & { count: number }>> {
    const out: Array<Usage & { count: number }> = [];
    for (const u of usedBy) {
      const row = await sql<{
        n: number;
      }>`select count(*) as n from ${sql.table(u.table)} where ${sql.ref(u.column)} = ${id}`.execute(
        this.db,
      );
      out.push({ ...u, count: Number(row.rows[0]?.n ?? 0) });
    }
    return out;
  }

  /** Tickets per status and assigned operator (the status-ticket relationship of docs/development/original-api.md#counted-catalogues). */
  async ticketsByOperator(
    statusIds: number[],
  ): Promise<Array<{ status_id: number; operator: string; count: number }>> {
    if (!statusIds.length) return [];
    // From the counts per assigned operator (0 = none) and status kept by triggers (0008).
    const { rows } = await sql<{ status_id: number; operator: string; count: number }>`
      select k.status_ticket_id as status_id, coalesce(u.name, 'Sin asignar') as operator, sum(k.n)::int as count
      from ticket_counts k
      left join users u on u.id = k.value
      where k.dim = ${DIM.operator} and k.status_ticket_id in (${sql.join(statusIds)})
      group by 1, 2
      having sum(k.n) > 0
      order by 2`.execute(this.db);
    return rows;
  }
}
