/**
 * Import of a large SIGAF 1.x database (MariaDB) into PostgreSQL: time and peak memory of the
 * importing process. Full size: 20,000 students, 1,000,000 tickets, 2,400,000 attempts
 * (`--quick`: a hundredth). The legacy rows are generated inside MariaDB (its sequence tables).
 */
import pg from 'pg';
import { computeDv } from '@sigaf/contract';
import { migrate, openDatabase } from '../apps/server/src/db/database.js';
import { seed } from '../apps/server/src/db/seed.js';
import { importLegacy } from '../apps/server/src/modules/legacy-import/service.js';
import { startMariaDb } from '../apps/server/test/mariadb.js';
import { createLegacyDatabase, fillLegacyDatabase } from '../apps/server/test/legacy/generate.js';
import { startPg } from './pg.js';

const BASE = 1000;

export async function legacyImportBench(quick: boolean, scale = quick ? 0.01 : 1): Promise<Record<string, number>> {
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
      rows.push([BASE + i, `${body}-${computeDv(body)}`, `Estudiante ${i}`, 'Muñoz', `e${i}@correo.cl`, '2024-03-01 10:00:00', '2024-03-01 10:00:00']);
      if (rows.length === 2000 || i === students) {
        await conn.query('INSERT INTO registered_users (id, rut, name, last_name, email, created_at, updated_at) VALUES ?', [rows.splice(0)]);
      }
    }
    await conn.query(`INSERT INTO course_registered_users (id, course_id, registered_user_id, classroom_id, last_access_registered_moodle, is_sincronized, created_at, updated_at)
      SELECT ${BASE} + seq, 1, ${BASE} + seq, 1 + seq % 2, '2024-05-01 12:00:00', 1, '2024-03-01 10:00:00', '2024-03-01 10:00:00' FROM seq_1_to_${students}`);
    await conn.query(`INSERT INTO tickets (id, course_registered_user_id, ticket_code, type_ticket_id, status_ticket_id, priority_ticket_id, source_ticket_id, motive_ticket_id, user_create_id, user_assigned_id, closing_date, created_at, updated_at)
      SELECT ${BASE} + seq, ${BASE} + 1 + seq % ${students}, CONCAT('BEN-CHM-', seq), 1 + seq % 2, 1 + seq % 2, 1 + seq % 3, 1 + seq % 2, 1 + seq % 2, 2, 2,
        IF(seq % 2 = 1, '2024-06-01 18:00:00', NULL), '2024-05-10 09:00:00' + INTERVAL seq MINUTE, '2024-05-10 09:00:00' + INTERVAL seq MINUTE FROM seq_1_to_${tickets}`);
    await conn.query(`INSERT INTO ticket_details (id, ticket_id, user_created_id, status_detail_ticket_id, comment, created_at, updated_at)
      SELECT ${BASE} + seq, ${BASE} + 1 + seq % ${tickets}, 2, 1 + seq % 2, 'Llamado: se deja mensaje con la información del curso', '2024-05-11 10:00:00', '2024-05-11 10:00:00' FROM seq_1_to_${attempts}`);
    console.log(`legacy import: generated ${students} students, ${tickets} tickets, ${attempts} attempts in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

    const admin = new pg.Client({ connectionString: pgServer.url('postgres') });
    await admin.connect();
    await admin.query('drop database if exists sigaf_bench_legacy with (force)');
    await admin.query('create database sigaf_bench_legacy');
    await admin.end();
    const handle = await openDatabase({ url: pgServer.url('sigaf_bench_legacy'), dataDir: '' });
    try {
      await migrate(handle.db);
      await seed(handle.db, { adminEmail: 'bench@sigaf.cl', adminPassword: 'bench-password', adminName: 'Bench' });
      const baseline = process.memoryUsage().rss;
      console.log(`legacy import: RSS before the import ${(baseline / 1048576).toFixed(0)} MB`);
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
      const start = performance.now();
      let lastLine = 0;
      const report = await importLegacy(handle.db, {
        from: `${maria.url}/sigaf`,
        appSecret: 'bench-secret-bench-secret-bench',
        onProgress: (p) => {
          if (Date.now() - lastLine > 10_000 || p.done === p.total) {
            lastLine = Date.now();
            if (p.total > 10_000) console.log(`  ${p.table}: ${p.done}/${p.total} (${p.rowsPerSecond}/s)`);
          }
        },
      });
      const seconds = (performance.now() - start) / 1000;
      clearInterval(sampler);
      const imported = Object.values(report.tables).reduce((n, t) => n + t.imported, 0);
      console.log(`legacy import: ${imported} rows in ${seconds.toFixed(1)} s, peak RSS ${(peak / 1048576).toFixed(0)} MB`);
      const size = quick ? 'quick' : 'full';
      return { [`legacy.import.${size}.s`]: seconds, [`legacy.import.${size}.rss.mb`]: peak / 1048576 };
    } finally {
      await handle.close();
    }
  } finally {
    await conn.end();
    await maria.stop();
    await pgServer.stop();
  }
}
