import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { withDatabase } from '../global-setup.js';
import { callApi, spawnServer, type ServerProcess } from '../server-process.js';

export { ROOT } from '../server-process.js';

/**
 * The real server as a child process (as `npm start` runs it), for the fault and load tests:
 * its own DATA_DIR (kept across restarts until `dispose`), its own database on the PostgreSQL of
 * DATABASE_URL when one is given.
 */
export const ADMIN = {
  email: 'admin@sigaf.cl',
  password: 'Clave-Inicial-1',
  changed: 'Admin-Clave-9',
};

export { freePort, type Answer, type ServerProcess } from '../server-process.js';
export const call = callApi;

/** The server with the first administrator of these tests, no web app and no nightly sync. */
export function startServer(
  env: Record<string, string>,
  opts: { nodeArgs?: string[] } = {},
): Promise<ServerProcess> {
  return spawnServer(
    {
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      SERVE_WEB: 'false',
      SYNC_SCHEDULE: 'off',
      ...env,
    },
    opts,
  );
}

/** Signs in as the first administrator, choosing the new password on first sign-in. */
export async function adminSession(base: string): Promise<string> {
  let first = await call(base, 'POST', '/api/auth/login', undefined, {
    email: ADMIN.email,
    password: ADMIN.changed,
  });
  if (first.status !== 200)
    first = await call(base, 'POST', '/api/auth/login', undefined, {
      email: ADMIN.email,
      password: ADMIN.password,
    });
  if (first.status !== 200) throw new Error(`login: ${JSON.stringify(first.body)}`);
  const me = await call(base, 'GET', '/api/auth/user', first.body.access_token);
  if (me.body.user.properties.isFirstLogin === 1) return first.body.access_token;
  await call(base, 'PUT', `/api/v2/users/${me.body.user.properties.id}`, first.body.access_token, {
    password: ADMIN.changed,
    isFirstLogin: 1,
  });
  return (
    await call(base, 'POST', '/api/auth/login', undefined, {
      email: ADMIN.email,
      password: ADMIN.changed,
    })
  ).body.access_token;
}

export interface TestDatabase {
  /** DATABASE_URL for the server ('' = the embedded database in DATA_DIR). */
  url: string;
  dataDir: string;
  /** Drops the database and removes DATA_DIR. */
  dispose(): Promise<void>;
}

/** A DATA_DIR, and on PostgreSQL (DATABASE_URL set) a database of its own. */
export async function testDatabase(prefix: string): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sigaf-${prefix}-`));
  const base = process.env.DATABASE_URL;
  if (!base)
    return {
      url: '',
      dataDir,
      dispose: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  const name = `sigaf_${prefix}_${process.pid}_${Date.now()}`.replace(/[^a-z0-9_]/g, '_');
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return {
    url: withDatabase(base, name),
    dataDir,
    dispose: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resident memory of a process in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}
