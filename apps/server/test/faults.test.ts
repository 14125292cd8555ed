import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { computeDv } from '@sigaf/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { adminSession, call, startServer } from './faults/process.js';
import { multipart } from './mail-data.js';

/**
 * Faults on the real server process: `kill -9` while a student import is being applied leaves
 * all of it or none of it, and the server starts again on the same database. Uses the embedded
 * database (DATA_DIR on disk), or the PostgreSQL of DATABASE_URL under `npm run test:pg`.
 */
const ROWS = 20_000;

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('faults', () => {
  it('kill -9 during a student import: after restart the import is all there or not at all, and it can be run again', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-faults-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env: Record<string, string> = { DATA_DIR: dataDir };
    /** On PostgreSQL: resolves once a transaction of the server's database has written something. */
    let writing: (() => Promise<void>) | null = null;
    if (process.env.DATABASE_URL) {
      // A database of its own on the PostgreSQL server.
      const pg = (await import('pg')).default;
      const { withDatabase } = await import('./global-setup.js');
      const name = `sigaf_faults_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      env.DATABASE_URL = withDatabase(process.env.DATABASE_URL, name);
      writing = async () => {
        const watcher = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await watcher.connect();
        try {
          for (let i = 0; i < 600; i++) {
            const r = await watcher.query(
              `select count(*)::int as n from pg_stat_activity where datname = $1 and backend_xid is not null and query ilike '%registered_users%'`,
              [name],
            );
            if (r.rows[0].n > 0) return;
            await new Promise((res) => setTimeout(res, 10));
          }
          throw new Error('the import never started writing');
        } finally {
          await watcher.end();
        }
      };
      cleanups.push(async () => {
        const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      });
    } else {
      env.DATABASE_URL = '';
    }

    let server = await startServer(env);
    cleanups.push(() => server.kill9());
    let token = await adminSession(server.url);
    const platform = (await call(server.url, 'GET', '/api/v2/platforms', token)).body._data
      .collections[0].properties.id;
    const cat = await call(server.url, 'POST', '/api/v2/categories', token, {
      description: 'Fallas',
      category_code: 'FALL',
      platform_id: platform,
    });
    const course = await call(server.url, 'POST', '/api/v2/courses', token, {
      description: 'Curso de fallas',
      category_id: cat.body._data.properties.id,
    });
    const courseId: number = course.body._data.properties.id;
    const csv = ['rut;dv;nombre;apellido;materno;email']
      .concat(
        Array.from({ length: ROWS }, (_, i) => {
          const body = 20_000_000 + i;
          return `${body};${computeDv(body)};Nombre${i};Apellido${i};Materno;alumno${i}@correo.cl`;
        }),
      )
      .join('\r\n');
    const form = multipart({ course_id: String(courseId), confirm: '1' }, [
      { name: 'matricula.csv', content: Buffer.from(csv) },
    ]);
    const count = async (base: string, t: string) => {
      const res = await call(
        base,
        'GET',
        `/api/v2/course-registered-users?course_id=${courseId}&page=1&perPage=1`,
        t,
      );
      return res.body._data.meta.total as number;
    };
    expect(await count(server.url, token)).toBe(0);

    // The import runs; the process is killed while it works (it takes seconds for 20,000 rows).
    const started = Date.now();
    const pending = fetch(`${server.url}/api/v2/registered-users/import`, {
      method: 'POST',
      headers: { ...form.headers, authorization: `Bearer ${token}` },
      body: form.payload,
    }).then(
      (r) => r.status,
      () => 'killed',
    );
    // On PostgreSQL the kill lands inside the import's transaction; on the embedded database after 1.5 s.
    if (writing) await writing();
    else await new Promise((r) => setTimeout(r, 1500));
    await server.kill9();
    const outcome = await pending;
    const elapsed = Date.now() - started;

    server = await startServer(env);
    token = await adminSession(server.url);
    const after = await count(server.url, token);
    console.log(
      `faults: import ${String(outcome)} after ${elapsed} ms; ${after} of ${ROWS} enrolments after the restart`,
    );
    // All of it or none of it: never part of the rows.
    expect(
      [0, ROWS],
      `import ${String(outcome)} after ${elapsed} ms, ${after} enrolments`,
    ).toContain(after);
    // Every student of the fresh server is one of the file's (a search would count no further than SEARCH_COUNT_CAP).
    const students = (
      await call(server.url, 'GET', '/api/v2/registered-users?page=1&perPage=1', token)
    ).body._data.meta.total;
    expect(students).toBe(after);

    // Run again: the whole file is there, once.
    const again = await fetch(`${server.url}/api/v2/registered-users/import`, {
      method: 'POST',
      headers: { ...form.headers, authorization: `Bearer ${token}` },
      body: form.payload,
    });
    expect(again.status, await again.clone().text()).toBeLessThan(300);
    expect(await count(server.url, token)).toBe(ROWS);
    await server.kill9();
  }, 600_000);
});
