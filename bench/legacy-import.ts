/**
 * Import of a large SIGAF 1.x database (MariaDB) into PostgreSQL, as `npm run import:legacy`
 * runs it (a process of its own): time and peak memory of the importing process. Full size:
 * 20,000 students, 1,000,000 tickets, 2,400,000 attempts (`--quick`: a hundredth). The legacy rows are generated inside MariaDB (its sequence tables).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { computeDv } from '@sigaf/contract';
import { startMariaDb } from '../apps/server/test/mariadb.js';
import { createLegacyDatabase, fillLegacyDatabase } from '../apps/server/test/legacy/generate.js';
import { startPg } from './pg.js';

const BASE = 1000;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'apps/server/src/modules/legacy-import/cli.ts');

export async function legacyImportBench(
  quick: boolean,
  scale = quick ? 0.01 : 1,
): Promise<Record<string, number>> {
  const students = Math.max(2_000, Math.round(20_000 * scale));
  const tickets = Math.round(1_000_000 * scale);
  const attempts = Math.round(2_400_000 * scale);
  const maria = await startMariaDb();
  const pgServer = await startPg();
  const conn = await maria.connect();
  try {
    await createLegacyDatabase(conn, 'sigaf', { drift: true });
    await fillLegacyDatabase(conn, { students: 10, drift: true });
    const t0 = performance.now();
    const rows: unknown[][] = [];
    for (let i = 1; i <= students; i++) {
      const body = 20_000_000 + i * 13;
      rows.push([
        BASE + i,
        `${body}-${computeDv(body)}`,
        `Estudiante ${i}`,
        'Muñoz',
        `e${i}@correo.cl`,
        '2024-03-01 10:00:00',
        '2024-03-01 10:00:00',
      ]);
      if (rows.length === 2000 || i === students) {
        await conn.query(
          'INSERT INTO registered_users (id, rut, name, last_name, email, created_at, updated_at) VALUES ?',
          [rows.splice(0)],
        );
      }
    }
    await conn.query(`INSERT INTO course_registered_users (id, course_id, registered_user_id, classroom_id, last_access_registered_moodle, is_sincronized, created_at, updated_at)
      SELECT ${BASE} + seq, 1, ${BASE} + seq, 1 + seq % 2, '2024-05-01 12:00:00', 1, '2024-03-01 10:00:00', '2024-03-01 10:00:00' FROM seq_1_to_${students}`);
    await conn.query(`INSERT INTO tickets (id, course_registered_user_id, ticket_code, type_ticket_id, status_ticket_id, priority_ticket_id, source_ticket_id, motive_ticket_id, user_create_id, user_assigned_id, closing_date, created_at, updated_at)
      SELECT ${BASE} + seq, ${BASE} + 1 + seq % ${students}, CONCAT('BEN-CHM-', seq), 1 + seq % 2, 1 + seq % 2, 1 + seq % 3, 1 + seq % 2, 1 + seq % 2, 2, 2,
        IF(seq % 2 = 1, '2024-06-01 18:00:00', NULL), '2024-05-10 09:00:00' + INTERVAL seq MINUTE, '2024-05-10 09:00:00' + INTERVAL seq MINUTE FROM seq_1_to_${tickets}`);
    await conn.query(`INSERT INTO ticket_details (id, ticket_id, user_created_id, status_detail_ticket_id, comment, created_at, updated_at)
      SELECT ${BASE} + seq, ${BASE} + 1 + seq % ${tickets}, 2, 1 + seq % 2, 'Llamado: se deja mensaje con la información del curso', '2024-05-11 10:00:00', '2024-05-11 10:00:00' FROM seq_1_to_${attempts}`);
    console.log(
      `legacy import: generated ${students} students, ${tickets} tickets, ${attempts} attempts in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );

    const admin = new pg.Client({ connectionString: pgServer.url('postgres') });
    await admin.connect();
    await admin.query('drop database if exists sigaf_bench_legacy with (force)');
    await admin.query('create database sigaf_bench_legacy');
    await admin.end();
    // The importing process is the one `npm run import:legacy` starts: its own Node process,
    // whose peak RSS the kernel keeps (VmHWM) and this process reads while it runs.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-bench-legacy-'));
    const reportBase = path.join(dataDir, 'report');
    const start = performance.now();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CLI, '--from', `${maria.url}/sigaf`, '--report', reportBase],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          DATABASE_URL: pgServer.url('sigaf_bench_legacy'),
          DATA_DIR: dataDir,
          APP_SECRET: 'bench-secret-bench-secret-bench',
          ADMIN_EMAIL: 'bench@sigaf.cl',
          ADMIN_PASSWORD: 'bench-password',
          ADMIN_NAME: 'Bench',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let peakKb = 0;
    const sampler = setInterval(() => {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(
        fs.existsSync(`/proc/${child.pid}/status`)
          ? fs.readFileSync(`/proc/${child.pid}/status`, 'utf8')
          : '',
      );
      if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
    }, 100);
    let lastLine = 0;
    child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      if (Date.now() - lastLine < 10_000) return;
      lastLine = Date.now();
      process.stdout.write(
        text
          .split('\n')
          .filter((l) => l.includes('filas'))
          .slice(-1)
          .map((l) => `${l}\n`)
          .join(''),
      );
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearInterval(sampler);
    const seconds = (performance.now() - start) / 1000;
    try {
      if (code !== 0) throw new Error(`legacy import: the import process ended with code ${code}`);
      const report = JSON.parse(fs.readFileSync(`${reportBase}.json`, 'utf8')) as {
        tables: Record<string, { imported: number }>;
      };
      const imported = Object.values(report.tables).reduce((n, t) => n + t.imported, 0);
      const peak = peakKb / 1024;
      console.log(
        `legacy import: ${imported} rows in ${seconds.toFixed(1)} s, peak RSS of the import process ${peak.toFixed(0)} MB`,
      );
      const size = quick ? 'quick' : 'full';
      return { [`legacy.import.${size}.s`]: seconds, [`legacy.import.${size}.rss.mb`]: peak };
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  } finally {
    await conn.end();
    await maria.stop();
    await pgServer.stop();
  }
}
