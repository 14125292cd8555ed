/**
 * The PostgreSQL the load benchmarks run against: BENCH_DATABASE_URL or DATABASE_URL (a server
 * URL; the benchmark uses its own database on it), or else a cluster of our own started with
 * initdb/pg_ctl in the system's temporary directory (kept between runs, stopped at the end).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../apps/server/test/server-process.js';

export interface PgServer {
  /** URL of a given database on the server. */
  url(database: string): string;
  stop(): Promise<void>;
}

function pgBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base)
    ? fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin/postgres')))
    : [];
  versions.sort((a, b) => Number(a) - Number(b));
  if (!versions.length)
    throw new Error(
      'No PostgreSQL server found: set BENCH_DATABASE_URL or DATABASE_URL, or install PostgreSQL (apt-get install postgresql).',
    );
  return path.join(base, versions[versions.length - 1]!, 'bin');
}

export async function startPg(): Promise<PgServer> {
  const given = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
  if (given) {
    return {
      url: (database) => {
        const u = new URL(given);
        u.pathname = `/${database}`;
        return u.toString();
      },
      stop: async () => undefined,
    };
  }
  const bin = pgBin();
  const dir = path.join(os.tmpdir(), 'sigaf-bench-cluster');
  const data = path.join(dir, 'data');
  // PostgreSQL refuses to run as root: run its tools as the postgres user then.
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    const r = asRoot
      ? spawnSync(
          'su',
          [
            'postgres',
            '-s',
            '/bin/sh',
            '-c',
            [path.join(bin, cmd), ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' '),
          ],
          { encoding: 'utf8' },
        )
      : spawnSync(path.join(bin, cmd), args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
  };
  fs.mkdirSync(dir, { recursive: true });
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  if (!fs.existsSync(path.join(data, 'PG_VERSION')))
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres']);
  // A run killed midway leaves its cluster running (on a port of its own): stop it first.
  if (fs.existsSync(path.join(data, 'postmaster.pid'))) {
    console.log(`bench: stopping the PostgreSQL a previous run left running in ${data}`);
    try {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    } catch {
      // Not running after all (a stale pid file): starting removes it.
    }
  }
  const port = await freePort();
  console.log(`bench: starting PostgreSQL in ${data} on port ${port}`);
  run('pg_ctl', [
    '-D',
    data,
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c shared_buffers=512MB`,
    '-l',
    path.join(dir, 'log'),
    '-w',
    'start',
  ]);
  return {
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop: async () => run('pg_ctl', ['-D', data, '-m', 'fast', 'stop']),
  };
}
