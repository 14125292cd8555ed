import { sql, type Kysely } from 'kysely';

/**
 * The catalogues' ticket counts (each status, type, priority, source and motive lists how many
 * tickets use it; the original client reads them on every start) from ticket_counts (0008) across
 * the courses: one index range per value instead of counting every ticket of the organisation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index ticket_counts_dim_idx on ticket_counts (dim, value, status_ticket_id) include (n)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists ticket_counts_dim_idx`.execute(db);
}
