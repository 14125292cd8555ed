import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { withDatabase } from '../global-setup.js';

/**
 * The real server as a child process (as `npm start` runs it), for the fault and load tests:
 * its own DATA_DIR (kept across restarts until `dispose`), its own database on the PostgreSQL of
 * DATABASE_URL when one is given.
 */
export const ROOT = path.resolve(import.meta.dirname, '../../../..');
export const ADMIN = { email: 'admin@sigaf.cl', password: 'Clave-Inicial-1', changed: 'Admin-Clave-9' };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown hook runs. */
  kill9(): Promise<void>;
  /** SIGTERM: the graceful shutdown. */
  stop(): Promise<void>;
}

export async function startServer(env: Record<string, string>, opts: { nodeArgs?: string[] } = {}): Promise<ServerProcess> {
  const port = await freePort();
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', ...(opts.nodeArgs ?? []), 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      SERVE_WEB: 'false',
      SYNC_SCHEDULE: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    if (Date.now() > deadline) throw new Error(`server did not start:\n${out}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const signal = (sig: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(sig);
    });
  return { url, child, output: () => out, kill9: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}

export interface Answer {
  status: number;
  body: any;
}

export async function call(base: string, method: string, url: string, token?: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: kept as text */
  }
  return { status: res.status, body: parsed };
}

/** Signs in as the first administrator, choosing the new password on first sign-in. */
export async function adminSession(base: string): Promise<string> {
  let first = await call(base, 'POST', '/api/auth/login', undefined, { email: ADMIN.email, password: ADMIN.changed });
  if (first.status !== 200) first = await call(base, 'POST', '/api/auth/login', undefined, { email: ADMIN.email, password: ADMIN.password });
  if (first.status !== 200) throw new Error(`login: ${JSON.stringify(first.body)}`);
  const me = await call(base, 'GET', '/api/auth/user', first.body.access_token);
  if (me.body.user.properties.isFirstLogin === 1) return first.body.access_token;
  await call(base, 'PUT', `/api/v2/users/${me.body.user.properties.id}`, first.body.access_token, { password: ADMIN.changed, isFirstLogin: 1 });
  return (await call(base, 'POST', '/api/auth/login', undefined, { email: ADMIN.email, password: ADMIN.changed })).body.access_token;
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
  if (!base) return { url: '', dataDir, dispose: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
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
