import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.js';
import { preparedName } from './compiled.js';
import { PGliteDialect } from './pglite-dialect.js';
import * as m0001 from './migrations/0001_core.js';
import * as m0002 from './migrations/0002_tickets.js';
import * as m0003 from './migrations/0003_mail.js';
import * as m0004 from './migrations/0004_moodle.js';
import * as m0005 from './migrations/0005_follow_up.js';
import * as m0006 from './migrations/0006_moodle_schedule.js';
import * as m0007 from './migrations/0007_mail_files.js';
import * as m0008 from './migrations/0008_performance.js';
import * as m0009 from './migrations/0009_tutors_per_course.js';
import * as m0010 from './migrations/0010_moodle_states.js';
import * as m0011 from './migrations/0011_legacy_import.js';
import * as m0012 from './migrations/0012_reminders.js';
import * as m0013 from './migrations/0013_moodle_section_map.js';
import * as m0014 from './migrations/0014_agenda_indexes.js';
import * as m0015 from './migrations/0015_follow_up_figures.js';
import * as m0016 from './migrations/0016_growth.js';
import * as m0017 from './migrations/0017_ticket_search.js';
import * as m0018 from './migrations/0018_last_attempts.js';
import * as m0019 from './migrations/0019_catalogue_counts.js';
import * as m0020 from './migrations/0020_follow_up_last_attempt.js';
import * as m0021 from './migrations/0021_activities_course.js';
import * as m0022 from './migrations/0022_follow_up_search_name.js';
import * as m0023 from './migrations/0023_agenda_name_order.js';
import * as m0024 from './migrations/0024_answer_versions.js';
import * as m0025 from './migrations/0025_student_totals.js';
import * as m0026 from './migrations/0026_result_references.js';
import * as m0027 from './migrations/0027_long_number_codes.js';
import * as m0028 from './migrations/0028_enrolment_search.js';
import * as m0029 from './migrations/0029_quiet_statement_triggers.js';
import * as m0030 from './migrations/0030_staff_rut_not_unique.js';
import * as m0031 from './migrations/0031_grade_precision.js';
import * as m0034 from './migrations/0034_mail_enrolment.js';
import * as m0033 from './migrations/0033_current_course.js';
import * as m0035 from './migrations/0035_progress_history.js';
import * as m0036 from './migrations/0036_ticket_enrolment_operator.js';
import * as m0037 from './migrations/0037_outcome_kept.js';
import * as m0038 from './migrations/0038_less_machinery.js';
import * as m0039 from './migrations/0039_workload_indexes.js';
import * as m0041 from './migrations/0041_idempotent_sends.js';
import * as m0043 from './migrations/0043_outcome_stale_days.js';
import * as m0044 from './migrations/0044_attempt_medium.js';
import * as m0045 from './migrations/0045_activity_unseen.js';
import * as m0046 from './migrations/0046_last_reassignment.js';
import * as m0047 from './migrations/0047_source_direction.js';
import * as m0048 from './migrations/0048_similar_by_medium.js';
import * as m0049 from './migrations/0049_outcome_kept_dim_index.js';

export type Database = Kysely<DB>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

// bigint counts and numerics as JS numbers (both drivers agree on this).
const INT8 = 20;
const NUMERIC = 1700;
pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(NUMERIC, (v) => Number(v));

export const PGLITE_PARSERS = {
  [INT8]: (v: string) => Number(v),
  [NUMERIC]: (v: string) => Number(v),
};

/** Opens PostgreSQL when a URL is given, otherwise an embedded PGlite in `dataDir/pgdata`. */
export async function openDatabase(opts: {
  url?: string;
  dataDir: string;
  pglite?: PGlite;
  poolSize?: number;
}): Promise<DatabaseHandle> {
  if (opts.url) {
    // Requests here are many short reads and writes at once, never analytical scans: Memoize only
    // adds work to our lookups of distinct keys (the per-student report 12 % slower with it), JIT
    // compiles for tens of milliseconds queries that run in a few, and parallel workers take the
    // cores the other requests wait for (docs/development/performance.md, "What each mechanism buys").
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 20,
      options: '-c enable_memoize=off -c jit=off -c max_parallel_workers_per_gather=0',
    });
    // An idle connection the server closes (restart, administrator command) is an 'error' event on
    // the pool; unhandled, it would end the process. The pool simply opens a new one when needed.
    pool.on('error', () => undefined);
    // A connection lost while checked out (between the queries of a transaction, or before it is
    // released) emits 'error' on the client, where the pool listens only while it is idle; without
    // a listener of its own that would also end the process. The failed query or release rejects,
    // the request answers 503 (http/errors.ts), and the pool discards the broken client.
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
      // The registered per-request queries (db/compiled.ts) go as named prepared statements.
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      client.query = ((text: unknown, values?: unknown, callback?: unknown) => {
        const name = typeof text === 'string' ? preparedName(text) : undefined;
        return name ? query({ name, text, values }, callback) : query(text, values, callback);
      }) as typeof client.query;
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  let instance = opts.pglite;
  if (!instance) {
    const dir = path.join(opts.dataDir, 'pgdata');
    fs.mkdirSync(dir, { recursive: true });
    instance = await PGlite.create(dir, { parsers: PGLITE_PARSERS });
  }
  const pgl = instance;
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pgl) });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await db.destroy();
      if (!pgl.closed) await pgl.close();
    },
  };
}

/** Migrations are listed explicitly: one TS file per step, applied in order at start. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_core': m0001,
  '0002_tickets': m0002,
  '0003_mail': m0003,
  '0004_moodle': m0004,
  '0005_follow_up': m0005,
  '0006_moodle_schedule': m0006,
  '0007_mail_files': m0007,
  '0008_performance': m0008,
  '0009_tutors_per_course': m0009,
  '0010_moodle_states': m0010,
  '0011_legacy_import': m0011,
  '0012_reminders': m0012,
  '0013_moodle_section_map': m0013,
  '0014_agenda_indexes': m0014,
  '0015_follow_up_figures': m0015,
  '0016_growth': m0016,
  '0017_ticket_search': m0017,
  '0018_last_attempts': m0018,
  '0019_catalogue_counts': m0019,
  '0020_follow_up_last_attempt': m0020,
  '0021_activities_course': m0021,
  '0022_follow_up_search_name': m0022,
  '0023_agenda_name_order': m0023,
  '0024_answer_versions': m0024,
  '0025_student_totals': m0025,
  '0026_result_references': m0026,
  '0027_long_number_codes': m0027,
  '0028_enrolment_search': m0028,
  '0029_quiet_statement_triggers': m0029,
  '0030_staff_rut_not_unique': m0030,
  '0031_grade_precision': m0031,
  '0034_mail_enrolment': m0034,
  '0033_current_course': m0033,
  '0035_progress_history': m0035,
  '0036_ticket_enrolment_operator': m0036,
  '0037_outcome_kept': m0037,
  '0038_less_machinery': m0038,
  '0039_workload_indexes': m0039,
  '0041_idempotent_sends': m0041,
  '0043_outcome_stale_days': m0043,
  '0044_attempt_medium': m0044,
  '0045_activity_unseen': m0045,
  '0046_last_reassignment': m0046,
  '0047_source_direction': m0047,
  '0048_similar_by_medium': m0048,
  '0049_outcome_kept_dim_index': m0049,
};

class StaticMigrationProvider implements MigrationProvider {
  async getMigrations() {
    return MIGRATIONS;
  }
}

/** Runs every migration not yet applied (or, with `upTo`, those up to that one: tests of a migration's data step). */
export async function migrate(db: Database, upTo?: keyof typeof MIGRATIONS): Promise<void> {
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider() });
  const { error, results } = upTo
    ? await migrator.migrateTo(upTo)
    : await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `Migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`,
    );
  }
}
