import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupDatabase, readBackupHeader, restoreDatabase } from '../src/backup/backup.js';
import type { Database } from '../src/db/database.js';
import { TEST_ADMIN } from './fixtures.js';
import { RECOMPUTED_FIGURES, seedCourse } from './data.js';
import { withDatabase } from './global-setup.js';
import { createTestContext, type TestContext } from './helpers.js';

/**
 * Backup and restore (npm run backup / npm run restore) on the database the suite runs on: the
 * embedded PGlite, or PostgreSQL under `npm run test:pg`.
 */
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../..');

let ctx: TestContext;
let dir: string;

beforeAll(async () => {
  ctx = await createTestContext();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-backup-'));
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every application table's rows, as one checksum per table (order-independent); the answer versions are the server's state, not copied. */
/**
 * Whether each course's figures are marked for recomputation, and when they were last computed, is
 * the server's own bookkeeping: a restore marks every course (sigaf_rebuild_stats). A backup of a
 * restored database carries the same courses, marked.
 */
const FIGURES_STATE = 'course_stats_state';

/** Per-table checksums of the data (the recomputed figures left out: RECOMPUTED_FIGURES). */
async function snapshot(db: Database): Promise<Record<string, string>> {
  const tables = (
    await sql<{
      name: string;
    }>`select tablename as name from pg_tables where schemaname = 'public' and tablename not like 'kysely_%' and tablename <> 'answer_versions' and tablename <> all(${RECOMPUTED_FIGURES}::text[]) order by 1`.execute(
      db,
    )
  ).rows;
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const r = await sql<{
      sum: string;
      n: number;
    }>`select md5(coalesce(string_agg(j, ',' order by j), '')) as sum, count(*)::int as n from (select row_to_json(t)::text as j from ${sql.id(name)} t) x`.execute(
      db,
    );
    out[name] = `${r.rows[0]!.n}:${r.rows[0]!.sum}`;
  }
  return out;
}

describe('backup and restore', () => {
  it('backs up, and a restore brings every table back exactly after changes; ids continue after the restored ones', async () => {
    const token = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const platform = (await ctx.request({ method: 'GET', url: '/api/v2/platforms', token })).json()
      ._data.collections[0].properties.id;
    const cat = await ctx.request({
      method: 'POST',
      url: '/api/v2/categories',
      token,
      payload: { description: 'Respaldo ñandú', category_code: 'RESP', platform_id: platform },
    });
    expect(cat.statusCode, cat.body).toBe(201);
    // Students' results: their references to activities and enrolments are triggers, not foreign keys (0026), and order the restore too.
    const course = await seedCourse(ctx.db, {
      categoryCode: 'RESU',
      course: 'Resultados',
      students: 2,
      firstRut: 25_000_000,
    });
    const section = (await ctx.db.selectFrom('sections').select('id').executeTakeFirstOrThrow()).id;
    const activity = await ctx.db
      .insertInto('activities')
      .values({
        course_id: course.course,
        section_id: section,
        description: 'Prueba',
        id_activity_moodle: 77,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.db
      .insertInto('activity_course_users')
      .values(
        course.enrolments.map((e) => ({
          activity_id: activity.id,
          course_registered_user_id: e.id,
          completion_state: 1,
        })),
      )
      .execute();
    // The progress history (0035): no sync can rebuild the past, so the backup carries it.
    await ctx.db
      .insertInto('enrolment_progress_history')
      .values(
        course.enrolments.map((e) => ({
          enrolment_id: e.id,
          recorded_at: new Date('2026-03-02T12:00:00Z'),
          progress: 40,
          last_access: new Date('2026-03-01T09:00:00Z'),
          completed: 1,
          grade: 5.5,
        })),
      )
      .execute();
    const before = await snapshot(ctx.db);
    const file = path.join(dir, 'one.json.gz');
    const head = await backupDatabase(ctx.db, file);
    expect(head.tables.find((t) => t.name === 'categories')!.rows).toBeGreaterThan(0);
    expect(head.tables.find((t) => t.name === 'activity_course_users')!.rows).toBe(2);
    expect(head.tables.find((t) => t.name === 'enrolment_progress_history')!.rows).toBe(2);
    expect(await readBackupHeader(file)).toEqual(head);

    // Changes of every kind: an update, a delete, inserts.
    await ctx.db
      .updateTable('users')
      .set({ name: 'Otro nombre' })
      .where('email', '=', TEST_ADMIN.email)
      .execute();
    await ctx.request({
      method: 'DELETE',
      url: `/api/v2/categories/${cat.json()._data.properties.id}`,
      token,
    });
    const added = await ctx.request({
      method: 'POST',
      url: '/api/v2/categories',
      token,
      payload: {
        description: 'Después del respaldo',
        category_code: 'DESP',
        platform_id: platform,
      },
    });
    expect(added.statusCode).toBe(201);
    const changed = await snapshot(ctx.db);
    expect(changed).not.toEqual(before);
    const versions = async () =>
      (
        await ctx.db
          .selectFrom('answer_versions')
          .select('version')
          .where('scope', '=', 0)
          .executeTakeFirstOrThrow()
      ).version;
    const versionBefore = await versions();

    await restoreDatabase(ctx.db, file);
    expect(await snapshot(ctx.db)).toEqual(before);
    // No whole-course answer kept before the restore is served after it (modules/answers/cache.ts).
    expect(BigInt(await versions())).toBeGreaterThan(BigInt(versionBefore));
    const names = (await ctx.db.selectFrom('categories').select('description').execute()).map(
      (r) => r.description,
    );
    expect(names).toContain('Respaldo ñandú');
    expect(names).not.toContain('Después del respaldo');

    // The sequences were reset: a new row gets a fresh id; the tokens of the backup still sign in.
    const again = await ctx.request({
      method: 'POST',
      url: '/api/v2/categories',
      token,
      payload: { description: 'Nueva', category_code: 'NUEV', platform_id: platform },
    });
    expect(again.statusCode, again.body).toBe(201);
    const maxBefore = Math.max(
      ...(
        await ctx.db
          .selectFrom('categories')
          .select('id')
          .where('description', '<>', 'Nueva')
          .execute()
      ).map((r) => r.id),
    );
    expect(again.json()._data.properties.id).toBeGreaterThan(maxBefore);
  });

  it('refuses a file that is not a backup, or one of another schema version, and changes nothing', async () => {
    const before = await snapshot(ctx.db);
    const junk = path.join(dir, 'junk.json.gz');
    fs.writeFileSync(junk, zlib.gzipSync('{"hello":1}\n'));
    await expect(restoreDatabase(ctx.db, junk)).rejects.toThrow(
      'El archivo no es un respaldo de SIGAF.',
    );

    const good = path.join(dir, 'two.json.gz');
    await backupDatabase(ctx.db, good);
    const lines = zlib.gunzipSync(fs.readFileSync(good)).toString().split('\n');
    const head = JSON.parse(lines[0]!);
    head.migrations = head.migrations.slice(0, -1);
    const old = path.join(dir, 'old.json.gz');
    fs.writeFileSync(old, zlib.gzipSync([JSON.stringify(head), ...lines.slice(1)].join('\n')));
    await expect(restoreDatabase(ctx.db, old)).rejects.toThrow(/otra versión del esquema/);

    // A truncated backup fails as a whole: the transaction leaves the data as it was.
    head.migrations = JSON.parse(lines[0]!).migrations;
    const cut = path.join(dir, 'cut.json.gz');
    fs.writeFileSync(cut, zlib.gzipSync([JSON.stringify(head), ...lines.slice(1, 3)].join('\n')));
    await expect(restoreDatabase(ctx.db, cut)).rejects.toThrow(/incompleto/);
    expect(await snapshot(ctx.db)).toEqual(before);
  });

  it('npm run restore / npm run backup: a backup restored into a new database and backed up again holds the same rows', async () => {
    const source = path.join(dir, 'source.json.gz');
    await backupDatabase(ctx.db, source);
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' };
    let drop: (() => Promise<void>) | null = null;
    if (process.env.DATABASE_URL) {
      const name = `sigaf_backup_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      env.DATABASE_URL = withDatabase(process.env.DATABASE_URL, name);
      drop = async () => {
        const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      };
    } else {
      delete env.DATABASE_URL;
      env.DATA_DIR = path.join(dir, 'data');
    }
    try {
      const restored = await run('npm', ['run', '--silent', 'restore', '--', source], {
        cwd: ROOT,
        env,
        timeout: 120_000,
      });
      expect(restored.stdout).toMatch(/^Restaurado .*source\.json\.gz/m);
      const copy = path.join(dir, 'copy.json.gz');
      const backed = await run('npm', ['run', '--silent', 'backup', '--', copy], {
        cwd: ROOT,
        env,
        timeout: 120_000,
      });
      expect(backed.stdout).toContain(`escrito en ${copy}`);
      const body = (f: string) =>
        zlib
          .gunzipSync(fs.readFileSync(f))
          .toString()
          .split('\n')
          .slice(1)
          .map((line) => {
            const chunk =
              line && (JSON.parse(line) as { table: string; rows: Array<{ course_id: number }> });
            return chunk && chunk.table === FIGURES_STATE
              ? JSON.stringify({ ...chunk, rows: chunk.rows.map((r) => r.course_id) })
              : line;
          })
          .join('\n');
      expect(body(copy)).toBe(body(source));
      const a = await readBackupHeader(source);
      const b = await readBackupHeader(copy);
      expect(b.tables).toEqual(a.tables);
      expect(b.migrations).toEqual(a.migrations);
      // No argument for restore: a usage message, exit code 2.
      const bare = await run('npm', ['run', '--silent', 'restore'], { cwd: ROOT, env }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect((bare as { code: number }).code).toBe(2);
      expect((bare as { stderr: string }).stderr).toContain('Indique el archivo de respaldo');
    } finally {
      await drop?.();
    }
  }, 180_000);
});
