/**
 * The dated raw file of a benchmark run, `bench/results/<UTC date and time to the minute>-<kind>.json`:
 * when it ended, the commit it ran at, the machine, and its figures, so that every figure quoted in
 * the docs can be traced to its run.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: here, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/** Writes the raw file (`loadAverageAtStart`: the machine's 1-minute load when the run began); returns its path from the repository's root. */
export function writeRaw(
  kind: string,
  loadAverageAtStart: number,
  figures: Record<string, unknown>,
): string {
  const cpu =
    /model name\s*:\s*(.*)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ??
    os.cpus()[0]?.model ??
    'unknown';
  const at = new Date().toISOString();
  const raw = {
    at,
    commit: commit(),
    machine: {
      nproc: os.availableParallelism(),
      memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
      cpu,
      loadAverageAtStart,
      loadAverageAtEnd: os.loadavg()[0],
    },
    ...figures,
  };
  const dir = path.join(here, 'results');
  fs.mkdirSync(dir, { recursive: true });
  // Named by when the run ended: several runs of a day each keep their file.
  const file = path.join(dir, `${at.slice(0, 16).replace(':', '')}-${kind}.json`);
  fs.writeFileSync(file, JSON.stringify(raw, null, 2));
  return path.relative(path.join(here, '..'), file);
}
