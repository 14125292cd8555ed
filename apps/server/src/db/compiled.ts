import { type CompiledQuery, type Compilable, type Kysely, type RawBuilder } from 'kysely';
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
  if (!prepared.has(text) && prepared.size < MAX_PREPARED)
    prepared.set(text, `sigaf_${prepared.size + 1}`);
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

/**
 * A query that runs on every request with one value changing: built and compiled on its first
 * use, then run with the new value (building a query with many columns costs more than running
 * it). On PostgreSQL it is also a prepared statement on each connection, so the server parses it
 * once and may keep its plan. The query must take exactly one parameter (checked when compiled).
 */
export class OneValueQuery<R> {
  private compiled?: CompiledQuery<R>;

  constructor(private readonly build: () => Compilable<R> | RawBuilder<R>) {}

  async rows(db: Database, value: unknown): Promise<R[]> {
    if (!this.compiled) {
      // A query builder compiles alone; a raw query with the database it runs on.
      const compiled = (this.build() as { compile(db: Database): CompiledQuery<R> }).compile(db);
      if (compiled.parameters.length !== 1)
        throw new Error(`expected one parameter, the query has ${compiled.parameters.length}`);
      this.compiled = compiled;
      register(compiled.sql);
    }
    return (await db.executeQuery<R>({ ...this.compiled, parameters: [value] })).rows;
  }
}
