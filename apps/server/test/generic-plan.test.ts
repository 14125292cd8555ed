import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeWithGenericPlan, OneValueQuery } from '../src/db/compiled.js';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';

/**
 * The few hot queries run with PostgreSQL's generic plan forced (db/compiled.ts) in a transaction
 * of their own (`set local`): the setting holds for that statement alone, and every pooled
 * connection is back to the default afterwards, the statement failing or not — no session state
 * is left for PgBouncer's transaction mode to carry to another client. On PGlite nothing is set.
 */
const URL_ = process.env.DATABASE_URL;
const setting = sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode`;

async function everyConnection(handle: DatabaseHandle): Promise<string[]> {
  // More concurrent reads than the pool has connections, each holding its connection a moment.
  const rows = await Promise.all(Array.from({ length: 30 }, () => sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode, pg_sleep(0.01)`.execute(handle.db)));
  return [...new Set(rows.map((r) => r.rows[0]!.mode))];
}

describe.skipIf(!URL_)('generic plans on PostgreSQL', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openDatabase({ url: URL_!, dataDir: '' });
  });
  afterAll(() => handle?.close());

  it('forces the generic plan for the statement, then every connection is back to the default', async () => {
    expect(await everyConnection(handle)).toEqual(['auto']);
    for (let i = 0; i < 25; i++) expect((await executeWithGenericPlan(handle.db, setting))[0]!.mode).toBe('force_generic_plan');
    const byValue = new OneValueQuery(() => sql<{ mode: string; n: number }>`select current_setting('plan_cache_mode') as mode, cardinality(${[0]}::int[]) as n`, { genericPlan: true });
    expect(await byValue.rows(handle.db, [1, 2, 3])).toEqual([{ mode: 'force_generic_plan', n: 3 }]);
    expect(await everyConnection(handle)).toEqual(['auto']);
  });

  it('leaves no setting behind when the statement fails', async () => {
    for (let i = 0; i < 25; i++) await expect(executeWithGenericPlan(handle.db, sql`select 1 / (random() * 0)::int`)).rejects.toThrow(/division by zero/);
    expect(await everyConnection(handle)).toEqual(['auto']);
  });
});

describe('generic plans on PGlite', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openDatabase({ dataDir: '', pglite: await PGlite.create() });
  });
  afterAll(() => handle?.close());

  it('runs the statement as it is', async () => {
    expect((await executeWithGenericPlan(handle.db, setting))[0]!.mode).toBe('auto');
  });
});

if (!URL_) console.warn('\n  generic-plan.test.ts: the PostgreSQL part is SKIPPED without DATABASE_URL (`npm run test:pg` runs it).\n');
