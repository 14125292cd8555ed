import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import type { Database } from '../db/database.js';

/**
 * Backup and restore of the whole database as a portable logical dump written by our own code,
 * the same for the embedded PGlite and for a PostgreSQL server (no pg_dump needed, and a dump of
 * one restores into the other).
 *
 * The file is gzip'd JSON lines: a header (format, version, the migrations applied, the tables
 * with their row counts), then batches `{"table": name, "rows": [...]}` where each row is
 * PostgreSQL's own `row_to_json` of the row, so every type (timestamps with their zone, dates,
 * jsonb, numerics) comes back exactly through `json_populate_recordset`. The backup reads one
 * snapshot (a REPEATABLE READ transaction); a restore replaces every table's contents in one
 * transaction (all or nothing) and resets the id sequences.
 */

export const BACKUP_FORMAT = 'sigaf-backup';
export const BACKUP_VERSION = 1;
const BATCH = 2000;
/**
 * Not copied: Kysely's own bookkeeping (compared instead), and the answer versions (0024), which
 * are the server's own state — a restore gives every course new ones (its inserts fire the
 * triggers, and sigaf_rebuild_stats() gives scope 0 a new value), so no answer kept before it is served.
 */
const NOT_COPIED = new Set(['kysely_migration', 'kysely_migration_lock', 'answer_versions']);

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  migrations: string[];
  tables: Array<{ name: string; rows: number }>;
}

export class BackupError extends Error {}

const ident = (name: string) => sql.id(name);

/** The application's tables, parents before children (foreign keys), then by name. */
async function tablesInOrder(db: Database): Promise<string[]> {
  const tables = (
    await sql<{
      name: string;
    }>`select tablename as name from pg_tables where schemaname = 'public' order by tablename`.execute(
      db,
    )
  ).rows
    .map((r) => r.name)
    .filter((n) => !NOT_COPIED.has(n));
  const edges = (
    await sql<{ child: string; parent: string }>`
      select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where c.contype = 'f' and n.nspname = 'public'`.execute(db)
  ).rows.map((e) => ({
    child: e.child.replace(/^"|"$/g, ''),
    parent: e.parent.replace(/^"|"$/g, ''),
  }));
  const ordered: string[] = [];
  const done = new Set<string>();
  const visiting = new Set<string>();
  const visit = (t: string) => {
    if (done.has(t) || visiting.has(t)) return;
    visiting.add(t);
    for (const e of edges) if (e.child === t && e.parent !== t) visit(e.parent);
    visiting.delete(t);
    done.add(t);
    ordered.push(t);
  };
  for (const t of tables) visit(t);
  return ordered;
}

/** The primary key columns of a table (its rows are dumped in that order), else none. */
async function primaryKey(db: Database, table: string): Promise<string[]> {
  const rows = (
    await sql<{ column: string }>`
      select a.attname as column
      from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = ${`public.${table}`}::regclass and i.indisprimary
      order by array_position(i.indkey, a.attnum)`.execute(db)
  ).rows;
  return rows.map((r) => r.column);
}

async function appliedMigrations(db: Database): Promise<string[]> {
  const rows = (
    await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)
  ).rows;
  return rows.map((r) => r.name);
}

/** Writes a backup of the whole database to `file` (gzip'd JSON lines); returns its header. */
export async function backupDatabase(db: Database, file: string): Promise<BackupHeader> {
  await fs.promises.mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const tmp = `${file}.part`;
  const header = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const tables = await tablesInOrder(trx);
      const counts: BackupHeader['tables'] = [];
      for (const name of tables) {
        const r = await sql<{ n: number }>`select count(*)::int as n from ${ident(name)}`.execute(
          trx,
        );
        counts.push({ name, rows: Number(r.rows[0]!.n) });
      }
      const head: BackupHeader = {
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        createdAt: new Date().toISOString(),
        migrations: await appliedMigrations(trx),
        tables: counts,
      };
      const lines = async function* () {
        yield `${JSON.stringify(head)}\n`;
        for (const { name, rows } of counts) {
          if (!rows) continue;
          const pk = await primaryKey(trx, name);
          const order = pk.length ? sql.join(pk.map((c) => sql.ref(`t.${c}`))) : sql`ctid`;
          for (let offset = 0; offset < rows; offset += BATCH) {
            const batch = await sql<{
              j: string;
            }>`select row_to_json(t)::text as j from ${ident(name)} t order by ${order} limit ${BATCH} offset ${offset}`.execute(
              trx,
            );
            if (!batch.rows.length) break;
            yield `{"table":${JSON.stringify(name)},"rows":[${batch.rows.map((r) => r.j).join(',')}]}\n`;
          }
        }
      };
      await pipeline(
        Readable.from(lines()),
        zlib.createGzip(),
        fs.createWriteStream(tmp, { mode: 0o600 }),
      );
      return head;
    });
  await fs.promises.rename(tmp, file);
  return header;
}

/** Reads the header of a backup file (and checks it is one). */
export async function readBackupHeader(file: string): Promise<BackupHeader> {
  for await (const line of backupLines(file)) return parseHeader(line);
  throw new BackupError('El archivo de respaldo está vacío.');
}

function parseHeader(line: string): BackupHeader {
  let head: Partial<BackupHeader>;
  try {
    head = JSON.parse(line) as Partial<BackupHeader>;
  } catch {
    throw new BackupError('El archivo no es un respaldo de SIGAF.');
  }
  if (
    head.format !== BACKUP_FORMAT ||
    !Array.isArray(head.tables) ||
    !Array.isArray(head.migrations)
  )
    throw new BackupError('El archivo no es un respaldo de SIGAF.');
  if (head.version !== BACKUP_VERSION)
    throw new BackupError(`Versión de respaldo no soportada: ${String(head.version)}.`);
  return head as BackupHeader;
}

function backupLines(file: string): AsyncIterable<string> {
  const input = fs.createReadStream(file).pipe(zlib.createGunzip());
  return readline.createInterface({ input, crlfDelay: Infinity });
}

/**
 * Replaces the database's contents with a backup's, in one transaction. The database must be at
 * the same migration as the backup (start the same version of SIGAF on it first).
 */
export async function restoreDatabase(db: Database, file: string): Promise<BackupHeader> {
  const lines = backupLines(file)[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done) throw new BackupError('El archivo de respaldo está vacío.');
  const head = parseHeader(first.value);
  return db.transaction().execute(async (trx) => {
    const migrations = await appliedMigrations(trx);
    if (migrations.join(',') !== head.migrations.join(',')) {
      throw new BackupError(
        `El respaldo corresponde a otra versión del esquema (migraciones ${head.migrations.at(-1) ?? 'ninguna'}; la base de datos está en ${migrations.at(-1) ?? 'ninguna'}).`,
      );
    }
    const tables = await tablesInOrder(trx);
    const known = new Set(tables);
    for (const t of head.tables)
      if (!known.has(t.name))
        throw new BackupError(`El respaldo contiene una tabla desconocida: ${t.name}.`);
    await sql`truncate table ${sql.join(tables.map(ident))} restart identity cascade`.execute(trx);
    const inserted = new Map<string, number>();
    for (;;) {
      const next = await lines.next();
      if (next.done) break;
      if (!next.value.trim()) continue;
      const chunk = JSON.parse(next.value) as { table: string; rows: unknown[] };
      if (!known.has(chunk.table))
        throw new BackupError(`El respaldo contiene una tabla desconocida: ${chunk.table}.`);
      const t = ident(chunk.table);
      // Triggers of the tables restored before may have written rows here (a course's summary
      // state when its enrolments were restored): the backup's rows replace them.
      if (!inserted.has(chunk.table)) await sql`delete from ${t}`.execute(trx);
      await sql`insert into ${t} select * from json_populate_recordset(null::${t}, ${JSON.stringify(chunk.rows)}::json)`.execute(
        trx,
      );
      inserted.set(chunk.table, (inserted.get(chunk.table) ?? 0) + chunk.rows.length);
    }
    for (const t of head.tables) {
      if ((inserted.get(t.name) ?? 0) !== t.rows)
        throw new BackupError(
          `El respaldo está incompleto: la tabla ${t.name} debía tener ${t.rows} filas.`,
        );
    }
    // Summary tables kept by triggers (0008) were restored and then added to by those triggers: rebuild them.
    await sql`select sigaf_rebuild_stats()`.execute(trx);
    // Sequences continue after the restored ids.
    const serials = (
      await sql<{ table: string; column: string }>`
        select table_name as table, column_name as column from information_schema.columns
        where table_schema = 'public' and (column_default like 'nextval(%' or is_identity = 'YES')`.execute(
        trx,
      )
    ).rows.filter((s) => known.has(s.table));
    for (const s of serials) {
      await sql`select setval(pg_get_serial_sequence(${`public.${s.table}`}, ${s.column}), coalesce((select max(${sql.ref(s.column)}) from ${ident(s.table)}), 0) + 1, false)`.execute(
        trx,
      );
    }
    return head;
  });
}
