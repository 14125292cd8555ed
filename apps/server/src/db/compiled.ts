import { sql, type CompiledQuery, type Compilable, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from './schema.js';

// Kysely<DB> rather than database.ts's alias: database.ts imports this module, and the two must not import each other.
type Database = Kysely<DB>;

/** SQL texts run as named prepared statements on PostgreSQL, and their names. */
const prepared = new Map<string, string>();

/** The prepared statement name of a query's text, when it is one of the few registered (see database.ts). */
export function preparedName(text: string): string | undefined {
  return prepared.get(text);
}

/** At most this many texts are registered: each becomes a statement on every connection that runs it. */
const MAX_PREPARED = 100;

function register(text: string) {
  if (!prepared.has(text) && prepared.size < MAX_PREPARED) prepared.set(text, `sigaf_${prepared.size + 1}`);
}

/**
 * Runs a query as a prepared statement on PostgreSQL: for the few hot queries whose text takes
 * only a handful of forms (the values change, never the SQL), so the server parses each form once
 * per connection and can keep its plan.
 */
export async function executePrepared<R>(db: Database, query: RawBuilder<R>): Promise<R[]> {
  const compiled = query.compile(db);
  register(compiled.sql);
  return (await db.executeQuery<R>(compiled)).rows;
}

/** The PostgreSQL servers' databases (prepared statements are per connection there; PGlite plans each query). */
const servers = new WeakSet<object>();

/** Marks a database as a PostgreSQL server's (database.ts). */
export function markServerDatabase(db: Database): void {
  servers.add(db);
}

/**
 * Runs `run` in a transaction of its own with PostgreSQL's generic plan forced for its prepared
 * statements (`set local`: it ends with the transaction, failing or not, and holds no session
 * state, so PgBouncer's transaction mode stays safe). PostgreSQL keeps planning a prepared
 * statement for each run's values when its estimate for unknown values is higher (an array of
 * unknown length, many lookups), and that planning cost more than the run (about 1–1.5 ms for Mi
 * agenda's page, one enrolment, a student's whole history). Only for queries whose plan does not
 * depend on the values. Elsewhere (PGlite) `run` runs as it is.
 */
async function withGenericPlan<R>(db: Database, run: (db: Database) => Promise<R>): Promise<R> {
  if (!servers.has(db)) return run(db);
  return db.transaction().execute(async (trx) => {
    await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
    return run(trx);
  });
}

/** executePrepared with the statement's generic plan (see withGenericPlan). */
export function executeWithGenericPlan<R>(db: Database, query: RawBuilder<R>): Promise<R[]> {
  return withGenericPlan(db, (conn) => executePrepared(conn, query));
}

/**
 * A query that runs on every request with one value changing: built and compiled on its first
 * use, then run with the new value (building a query with many columns costs more than running
 * it). On PostgreSQL it is also a prepared statement on each connection, so the server parses it
 * once and, its plan being the same for every value, plans it once too. The query must take
 * exactly one parameter; that is checked when it is compiled.
 */
export class OneValueQuery<R> {
  private compiled?: CompiledQuery<R>;

  /** `genericPlan`: for a value whose plan is the same whatever it holds (an array of ids), see withGenericPlan. */
  constructor(
    private readonly build: () => Compilable<R> | RawBuilder<R>,
    private readonly options: { genericPlan?: boolean } = {},
  ) {}

  async rows(db: Database, value: unknown): Promise<R[]> {
    if (!this.compiled) {
      // A query builder compiles alone; a raw query with the database it runs on.
      const compiled = (this.build() as { compile(db: Database): CompiledQuery<R> }).compile(db);
      if (compiled.parameters.length !== 1) throw new Error(`expected one parameter, the query has ${compiled.parameters.length}`);
      this.compiled = compiled;
      register(compiled.sql);
    }
    const compiled = { ...this.compiled, parameters: [value] };
    if (this.options.genericPlan) return withGenericPlan(db, async (conn) => (await conn.executeQuery<R>(compiled)).rows);
    return (await db.executeQuery<R>(compiled)).rows;
  }
}

/** PostgreSQL's estimate of the length of an array parameter whose value it does not know. */
const PLANNED_ARRAY_LENGTH = 10;

/**
 * Ids for a prepared statement's `= any($1)`, padded to ten with 0 (no row's id: ids start at 1).
 * PostgreSQL keeps a prepared statement's one plan only while the plans made for each run's
 * values are not cheaper on average, and it plans that one for an array of ten: runs with one or
 * two ids (one ticket, a page of a search) kept it planning every run again (0.25–0.9 ms).
 */
export function plannedIds(ids: readonly number[]): number[] {
  return ids.length >= PLANNED_ARRAY_LENGTH ? [...ids] : ids.concat(new Array<number>(PLANNED_ARRAY_LENGTH - ids.length).fill(0));
}
