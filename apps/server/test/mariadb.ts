import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { freePort } from './server-process.js';

/** A private MariaDB server for a test file: its own data directory, socket and free port. */
export interface MariaDbServer {
  url: string;
  port: number;
  /** A connection with multiple statements allowed (for loading schema files). */
  connect(database?: string): Promise<mysql.Connection>;
  stop(): Promise<void>;
}

const CANDIDATES = ['/usr/sbin/mariadbd', '/usr/sbin/mysqld', '/usr/bin/mariadbd'];

export function mariadbBinary(): string | null {
  return CANDIDATES.find((p) => fs.existsSync(p)) ?? null;
}

/** CI (and anyone with REQUIRE_E2E=1) must have the server; elsewhere its tests are skipped, loudly. */
export function mariadbAvailable(): boolean {
  if (mariadbBinary()) return true;
  if (process.env.REQUIRE_E2E === '1' || process.env.CI) {
    throw new Error(
      'mariadbd is required (REQUIRE_E2E/CI) but was not found: apt-get install -y mariadb-server',
    );
  }
  console.warn(
    '\n*** mariadbd not found: the legacy import tests are SKIPPED (apt-get install -y mariadb-server) ***\n',
  );
  return false;
}

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => (err += String(d)));
    p.on('error', reject);
    p.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}: ${err}`)),
    );
  });
}

/**
 * `grants: true` checks users and passwords (root, over 127.0.0.1, has no password either way);
 * by default the server runs with --skip-grant-tables and accepts any password.
 */
export async function startMariaDb(opts: { grants?: boolean } = {}): Promise<MariaDbServer> {
  const bin = mariadbBinary();
  if (!bin) throw new Error('mariadbd not found');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-mariadb-'));
  const dataDir = path.join(dir, 'data');
  const socket = path.join(dir, 'mysqld.sock');
  const asRoot = process.getuid?.() === 0;
  const userArgs = asRoot ? ['--user=root'] : [];
  await run('mariadb-install-db', [
    `--datadir=${dataDir}`,
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
    ...userArgs,
  ]);
  const port = await freePort();
  const child: ChildProcess = spawn(
    bin,
    [
      '--no-defaults',
      `--datadir=${dataDir}`,
      `--socket=${socket}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      ...(opts.grants ? [] : ['--skip-grant-tables']),
      '--skip-log-bin',
      '--innodb-buffer-pool-size=64M',
      `--pid-file=${path.join(dir, 'mysqld.pid')}`,
      `--log-error=${path.join(dir, 'error.log')}`,
      ...userArgs,
    ],
    { stdio: 'ignore' },
  );
  let exited = false;
  child.on('exit', () => (exited = true));
  const connect = (database?: string) =>
    mysql.createConnection({
      host: '127.0.0.1',
      port,
      user: 'root',
      database,
      multipleStatements: true,
      charset: 'utf8mb4',
    });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const c = await connect();
      await c.end();
      break;
    } catch (e) {
      if (exited || Date.now() > deadline) {
        const log = fs.existsSync(path.join(dir, 'error.log'))
          ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8')
          : '';
        fs.rmSync(dir, { recursive: true, force: true });
        throw new Error(`MariaDB did not start: ${String(e)}\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    url: `mysql://root@127.0.0.1:${port}`,
    port,
    connect,
    stop: async () => {
      if (!exited) {
        const done = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([done, new Promise((r) => setTimeout(r, 15_000))]);
        if (!exited) child.kill('SIGKILL');
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
