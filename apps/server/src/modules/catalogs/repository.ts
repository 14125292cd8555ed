import type { ListQuery } from '@sigaf/contract';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { likePattern, paginate, sortColumn } from '../../db/pagination.js';
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

/** One repository for every id + description catalogue; the table is a parameter. */
export class CatalogueRepository {
  constructor(private readonly db: Database) {}

  // All catalogue tables share one shape; 'roles' stands for any of them in the types.
  private from(table: CatalogueTable) {
    return this.db.selectFrom(`${table as 'roles'} as c`);
  }

  /** The columns of a value, with the counts its relationship shows. */
  private select(table: CatalogueTable, opts: CountOptions) {
    let query = this.from(table).select(['c.id', 'c.key', 'c.description', 'c.created_at', 'c.updated_at']);
    if (opts.ticketColumn) {
      query = query.select(sql<number>`(select count(*) from tickets t where t.${sql.ref(opts.ticketColumn)} = c.id)`.as('tickets_count'));
    }
    if (opts.children) {
      const { table: child, column } = opts.children;
      query = query.select(sql<number>`(select count(*) from ${sql.table(child)} x where x.${sql.ref(column)} = c.id)`.as('children_count'));
    }
    return query;
  }

  async list(table: CatalogueTable, q: ListQuery, opts: CountOptions) {
    let query = this.select(table, opts);
    if (q.search) query = query.where('c.description', 'ilike', likePattern(q.search));
    const sortCol = sortColumn(SORTS, q.sort, 'id');
    query = query.orderBy(sql.ref(sortCol), q.order === 'desc' ? 'desc' : 'asc').orderBy('c.id');
    return paginate(query, q) as Promise<{ rows: CatalogueRow[]; meta?: import('@sigaf/contract').PageMeta }>;
  }

  findById(table: CatalogueTable, id: number, opts: CountOptions = {}): Promise<CatalogueRow | undefined> {
    return this.select(table, opts).where('c.id', '=', id).executeTakeFirst() as Promise<CatalogueRow | undefined>;
  }

  /** The activities of these sections that count for progress (not removed in Moodle, not left out). */
  sectionActivities(sectionIds: number[]): Promise<SectionActivity[]> {
    if (!sectionIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('activities as a')
      .select(['a.id', 'a.description', 'a.type', sql<number>`a.weighing::float8`.as('weighing'), 'a.id_activity_moodle', 'a.section_id', 'a.course_id'])
      .where('a.section_id', 'in', sectionIds)
      .where('a.removed_at', 'is', null)
      .where('a.excluded_from_progress', '=', false)
      .orderBy('a.id')
      .execute();
  }

  async descriptionTaken(table: CatalogueTable, description: string, exceptId?: number): Promise<boolean> {
    let q = this.from(table).select('c.id').where(sql`lower(c.description)`, '=', description.toLowerCase());
    if (exceptId !== undefined) q = q.where('c.id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async insert(table: CatalogueTable, description: string): Promise<number> {
    const row = await this.db.insertInto(table as 'roles').values({ description }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  async update(table: CatalogueTable, id: number, description: string) {
    await this.db.updateTable(table as 'roles').set({ description, updated_at: sql`now()` }).where('id', '=', id).execute();
  }

  async delete(table: CatalogueTable, id: number) {
    await this.db.deleteFrom(table as 'roles').where('id', '=', id).execute();
  }

  /** How many rows of each referring table point at this value. */
  async usage(usedBy: Usage[], id: number): Promise<Array<Usage & { count: number }>> {
    const out: Array<Usage & { count: number }> = [];
    for (const u of usedBy) {
      const row = await sql<{ n: number }>`select count(*) as n from ${sql.table(u.table)} where ${sql.ref(u.column)} = ${id}`.execute(this.db);
      out.push({ ...u, count: Number(row.rows[0]?.n ?? 0) });
    }
    return out;
  }

  /** Tickets per status and assigned operator (the status-ticket relationship of SPEC.md §3). */
  async ticketsByOperator(statusIds: number[]): Promise<Array<{ status_id: number; operator: string; count: number }>> {
    if (!statusIds.length) return [];
    const rows = await this.db
      .selectFrom('tickets as t')
      .leftJoin('users as u', 'u.id', 't.user_assigned_id')
      .select(['t.status_ticket_id as status_id', sql<string>`coalesce(u.name, 'Sin asignar')`.as('operator'), sql<number>`count(*)`.as('count')])
      .where('t.status_ticket_id', 'in', statusIds)
      .groupBy(['t.status_ticket_id', sql`coalesce(u.name, 'Sin asignar')`])
      .orderBy('operator')
      .execute();
    return rows.map((r) => ({ ...r, count: Number(r.count) }));
  }
}
