/** CPU time read from /proc (Linux): a process's, the database's and the whole machine's, for the staffed-day benchmark. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Database } from '../apps/server/src/db/database.js';

/** A process's CPU time (user + system) in seconds, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tick = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return (Number(fields[11]) + Number(fields[12])) / tick;
}

/**
 * The database's CPU time (seconds): its postmaster's and every backend's, those still running and
 * those ended (counted into the postmaster's children time), read from /proc through the data
 * directory's postmaster.pid. Null when the server is not on this machine or not readable.
 */
export async function databaseCpuSeconds(db: Database): Promise<number | null> {
  try {
    const dir = (
      await sql<{ d: string }>`select current_setting('data_directory') as d`.execute(db)
    ).rows[0]!.d;
    const postmaster = Number(
      fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    const fields = (pid: number) => {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    };
    const tick = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const own = fields(postmaster);
    let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
    for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      try {
        const f = fields(Number(pid));
        if (Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
      } catch {
        // The process ended meanwhile: its time is in the postmaster's children time.
      }
    }
    return ticks / tick;
  } catch {
    return null;
  }
}

/** The machine's busy CPU time (seconds, all cores), from /proc/stat. */
export function machineCpuSeconds(): number {
  const [, ...v] = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .map(Number);
  const tick = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  return (v.reduce((a, b) => a + b, 0) - v[3]! - v[4]!) / tick;
}
