/**
 * Two records of the migrations, each checked by apps/server/test/migration-record.test.ts:
 * - `migrations.lock.json`: the sha256 of every file in `migrations/`. A shipped migration is never
 *   edited (databases already ran it); a change is a new migration. `npm run db:lock` adds new files.
 * - `triggers.sql`: the current definition of every trigger and every function of the schema, read
 *   from a database migrated from scratch, so that what triggers do today is readable in one place
 *   rather than as the sum of forty migrations. `npm run db:triggers` writes it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { migrate, openDatabase, PGLITE_PARSERS, type Database } from './database.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const MIGRATIONS_DIR = path.join(here, 'migrations');
export const LOCK_FILE = path.join(here, 'migrations.lock.json');
export const TRIGGERS_FILE = path.join(here, 'triggers.sql');

/** sha256 of a file's text with its line ends as LF (a checkout with CRLF hashes the same). */
export function fileHash(file: string): string {
  return createHash('sha256')
    .update(fs.readFileSync(file, 'utf8').replace(/\r\n/g, '\n'))
    .digest('hex');
}

/** Every file of `migrations/` (helpers included: shipped migrations run them) and its hash, by name. */
export function migrationHashes(): Record<string, string> {
  const names = fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((n) => n.endsWith('.ts'))
    .sort();
  return Object.fromEntries(names.map((n) => [n, fileHash(path.join(MIGRATIONS_DIR, n))]));
}

export function readLock(): Record<string, string> {
  return fs.existsSync(LOCK_FILE)
    ? (JSON.parse(fs.readFileSync(LOCK_FILE, 'utf8')) as Record<string, string>)
    : {};
}

export function lockText(lock: Record<string, string>): string {
  const sorted = Object.fromEntries(
    Object.entries(lock).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return `${JSON.stringify(sorted, null, 2)}\n`;
}

const HEADER = `-- The current definition of every trigger and function of SIGAF's schema, read from a database
-- migrated from scratch by \`npm run db:triggers\`. Do not edit: the migrations are the source
-- (apps/server/src/db/migrations), and apps/server/test/migration-record.test.ts checks this file.
`;

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The text of triggers.sql for a migrated database: triggers by table and name, then functions by name. */
export async function triggerDefinitions(db: Database): Promise<string> {
  const triggers = await sql<{ tbl: string; name: string; def: string; enabled: string }>`
    select c.relname as tbl, t.tgname as name, pg_get_triggerdef(t.oid) as def, t.tgenabled::text as enabled
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where not t.tgisinternal and n.nspname = 'public'`.execute(db);
  const functions = await sql<{ name: string; args: string; def: string; trigger: boolean }>`
    select p.proname as name, pg_get_function_identity_arguments(p.oid) as args, pg_get_functiondef(p.oid) as def,
      p.prorettype = 'trigger'::regtype as trigger
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public' and p.prokind in ('f', 'p')
      and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')`.execute(
    db,
  );
  const out = [HEADER];
  out.push(
    '\n-- Triggers, by table and name (statement triggers of one event fire in name order)\n',
  );
  let table = '';
  for (const t of [...triggers.rows].sort(
    (a, b) => byText(a.tbl, b.tbl) || byText(a.name, b.name),
  )) {
    if (t.tbl !== table) out.push(`\n-- ${(table = t.tbl)}\n`);
    out.push(`${t.def};${t.enabled === 'D' ? ' -- disabled' : ''}\n`);
  }
  const fns = [...functions.rows].sort(
    (a, b) =>
      Number(b.trigger) - Number(a.trigger) || byText(a.name, b.name) || byText(a.args, b.args),
  );
  out.push('\n-- Trigger functions, by name\n');
  fns.forEach((f, i) => {
    if (!f.trigger && (i === 0 || fns[i - 1]!.trigger))
      out.push('\n-- Other functions (rebuilds, helpers the triggers call), by name\n');
    out.push(`\n${f.def.trimEnd()};\n`);
  });
  return out.join('');
}

/** Migrates a new in-memory embedded database and returns its triggers.sql text. */
export async function freshTriggerDefinitions(): Promise<string> {
  const handle = await openDatabase({
    dataDir: '',
    pglite: await PGlite.create({ parsers: PGLITE_PARSERS }),
  });
  try {
    await migrate(handle.db);
    return await triggerDefinitions(handle.db);
  } finally {
    await handle.close();
  }
}
