import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { computeDv } from '@sigaf/contract';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { lastColumnWorkbook, lineCsv, tallWorkbook } from '../apps/server/test/hostile-files.js';
import { callApi, spawnServer } from '../apps/server/test/server-process.js';
import { startPg } from './pg.js';

const ADMIN = {
  email: 'bench-uploads@sigaf.cl',
  password: 'Bench-Uploads-2026',
  next: 'Bench-Uploads-Listo-2026',
};

/** The resident memory of a process now (MB), from /proc. */
function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

async function validWorkbook(rows: number): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Alumnos');
  ws.addRow(['RUT', 'DV', 'Nombre', 'Paterno']);
  for (let i = 0; i < rows; i++)
    ws.addRow([12_000_000 + i, computeDv(12_000_000 + i), `Nombre${i}`, `Paterno${i}`]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function multipart(courseId: number, name: string, content: Buffer) {
  const boundary = `----bench${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="course_id"\r\n\r\n${courseId}\r\n`,
    ),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Uploads up to 10 MB, accepted and refused (one cell in column XFD, 400,000 rows, 10 MB of
 * lines, a valid 10,000-student file) against the real server process, while `/health` is asked
 * every 10 ms: the slowest `/health` answer during the uploads (budget 100 ms) and the memory the
 * uploads add to the server process, peak resident minus idle resident (budget 300 MB; the idle
 * server under tsx is about 230 MB of code and runtime, reported as `uploads.server.peak.rss.mb`).
 */
export async function uploadsBench(): Promise<Record<string, number>> {
  // On PostgreSQL, so that the server process's memory is the server's own (an embedded PGlite
  // would add its database to the same process).
  const pgServer = await startPg();
  const admin = new pg.Client({ connectionString: pgServer.url('postgres') });
  await admin.connect();
  await admin.query('drop database if exists sigaf_bench_uploads with (force)');
  await admin.query('create database sigaf_bench_uploads');
  await admin.end();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-bench-uploads-'));
  const server = await spawnServer(
    {
      DATA_DIR: dataDir,
      DATABASE_URL: pgServer.url('sigaf_bench_uploads'),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      SYNC_SCHEDULE: 'off',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    },
    { removeDataDir: dataDir, name: 'uploads' },
  );
  try {
    const first = (
      await callApi(server.url, 'POST', '/api/auth/login', undefined, {
        email: ADMIN.email,
        password: ADMIN.password,
      })
    ).body.access_token as string;
    const me = (await callApi(server.url, 'GET', '/api/auth/user', first)).body.user.properties;
    await callApi(server.url, 'PUT', `/api/v2/users/${me.id}`, first, {
      password: ADMIN.next,
      isFirstLogin: 1,
    });
    const token = (
      await callApi(server.url, 'POST', '/api/auth/login', undefined, {
        email: ADMIN.email,
        password: ADMIN.next,
      })
    ).body.access_token as string;
    const platform = (await callApi(server.url, 'GET', '/api/v2/platforms', token)).body._data
      .collections[0].properties.id;
    const category = (
      await callApi(server.url, 'POST', '/api/v2/categories', token, {
        description: 'Bench',
        category_code: 'BNCH',
        platform_id: platform,
      })
    ).body._data.properties.id;
    const course = (
      await callApi(server.url, 'POST', '/api/v2/courses', token, {
        description: 'Bench uploads',
        category_id: category,
      })
    ).body._data.properties.id as number;

    const files: Array<[string, string, Buffer]> = [
      ['xfd', 'formato.xlsx', await lastColumnWorkbook(2000)],
      ['rows400k', 'grande.xlsx', await tallWorkbook(400_000)],
      ['csv10mb', 'lineas.csv', lineCsv(10 * 1024 * 1024 - 4096)],
      ['valid10k', 'alumnos.xlsx', await validWorkbook(10_000)],
    ];
    const pid = server.child.pid!;
    const out: Record<string, number> = {};
    let worstHealth = 0;
    const idle = rssMb(pid);
    let peak = idle;
    console.log(`uploads: server resident memory before the uploads ${idle.toFixed(0)} MB`);
    for (const [name, file, content] of files) {
      let uploading = true;
      let slowest = 0;
      const probe = (async () => {
        while (uploading) {
          const t = performance.now();
          await fetch(`${server.url}/health`);
          slowest = Math.max(slowest, performance.now() - t);
          peak = Math.max(peak, rssMb(pid));
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      const { body, type } = multipart(course, file, content);
      const t = performance.now();
      const res = await fetch(`${server.url}/api/v2/registered-users/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': type },
        body,
      });
      await res.arrayBuffer();
      const ms = performance.now() - t;
      uploading = false;
      await probe;
      console.log(
        `uploads: ${name} (${(content.length / 1024).toFixed(0)} KB) -> ${res.status} in ${ms.toFixed(0)} ms; slowest /health ${slowest.toFixed(1)} ms; peak so far ${peak.toFixed(0)} MB`,
      );
      out[`uploads.${name}.ms`] = ms;
      out[`uploads.${name}.health.max.ms`] = slowest;
      worstHealth = Math.max(worstHealth, slowest);
    }
    out['uploads.health.max.ms'] = worstHealth;
    out['uploads.server.peak.rss.mb'] = peak;
    out['uploads.server.added.rss.mb'] = peak - idle;
    return out;
  } finally {
    await server.stop();
    await pgServer.stop();
  }
}
