import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSite } from '../../../tools/moodle-sim/src/generator.js';
import {
  startMoodleSim,
  type FaultKind,
  type SimServer,
} from '../../../tools/moodle-sim/src/server.js';
import { callApi, firstAdminSession, spawnServer, type ServerProcess } from './server-process.js';

/**
 * The real server (its own process, the job worker running four jobs at once) synchronises four
 * courses at once while a local fake Moodle answers each with hundreds of megabytes of small
 * objects in a small gzip: the process stays alive, its peak memory under the ceiling
 * docs/operations/moodle.md states for MOODLE_READ_MEMORY_MB, and `/health` answers within a
 * second throughout.
 */

const READ_MEMORY_MB = 128;
/** The ceiling the docs state: the server's resident memory before the syncs, plus twice the budget. */
const CEILING_OVER_BASELINE_MB = 2 * READ_MEMORY_MB;

/** Resident memory now and at its peak (VmRSS, VmHWM) of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** Resets the peak resident memory the kernel keeps for a process (VmHWM). */
const resetPeak = (pid: number) => fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');

let sim: SimServer;
let server: ServerProcess;
let token: string;
const courses: number[] = [];

const call = (method: string, url: string, body?: unknown) =>
  callApi(server.url, method, url, token, body);

beforeAll(async () => {
  const generated = generateSite({
    seed: 11,
    courses: 4,
    studentsPerCourse: 5,
    units: 2,
    activitiesPerUnit: 2,
    invalidRutRate: 0,
  });
  sim = await startMoodleSim({ site: generated.site });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-moodle-memory-'));
  const admin = { email: 'admin@sigaf.cl', password: 'Clave-Inicial-1' };
  server = await spawnServer(
    {
      DATA_DIR: dataDir,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      JOBS_CONCURRENCY: '4',
      MOODLE_READ_MEMORY_MB: String(READ_MEMORY_MB),
      MOODLE_RETRIES: '0',
    },
    { removeDataDir: dataDir, name: 'moodle memory' },
  );
  token = await firstAdminSession(server.url, admin);
  const platformId = (await call('GET', '/api/v2/platforms')).body._data.collections[0].properties
    .id as number;
  expect(
    (
      await call('PUT', `/api/v2/platforms/${platformId}/moodle`, {
        url: sim.url,
        token: generated.tokens.admin,
      })
    ).status,
  ).toBe(200);
  for (const moodleCourseId of generated.courseIds) {
    const imported = await call('POST', `/api/v2/platforms/${platformId}/moodle/import`, {
      moodleCourseId,
    });
    expect(imported.status, JSON.stringify(imported.body)).toBeLessThan(300);
    courses.push(imported.body._data.course.id as number);
  }
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await sim?.close();
});

/** Four syncs at once, each answered with `kind` for its participants; `/health` and memory watched meanwhile. */
async function fourSyncsAgainst(kind: FaultKind) {
  sim.faults.splice(0, sim.faults.length, { kind, wsfunction: 'core_enrol_get_enrolled_users' });
  const pid = server.child.pid!;
  const baseline = memoryOf(pid).rss;
  resetPeak(pid);
  let slowestHealth = 0;
  let failedHealth = 0;
  let watching = true;
  const watch = (async () => {
    while (watching) {
      const started = performance.now();
      const ok = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(5000) }).then(
        (r) => r.ok,
        () => false,
      );
      slowestHealth = Math.max(slowestHealth, performance.now() - started);
      if (!ok) failedHealth++;
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    for (const id of courses)
      expect((await call('POST', `/api/v2/sync/courses/${id}`)).status).toBe(202);
    const deadline = Date.now() + 150_000;
    let states: Array<{ state: string; error: string | null }> = [];
    while (Date.now() < deadline) {
      states = await Promise.all(
        courses.map(
          async (id) => (await call('GET', `/api/v2/sync/courses/${id}/status`)).body._data,
        ),
      );
      if (states.every((s) => s.state === 'failed' || s.state === 'done')) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    return { states, baseline, peak: memoryOf(pid).peak, slowestHealth, failedHealth };
  } finally {
    watching = false;
    await watch;
    sim.faults.splice(0, sim.faults.length);
  }
}

describe('memory bounded whatever Moodle sends, four syncs at once, on the real server', () => {
  it("the probe's answer (6.6 million small objects of no function's shape in 240 MB): refused at its first element", async () => {
    const r = await fourSyncsAgainst('dense');
    expect(r.states.map((s) => s.state)).toEqual(['failed', 'failed', 'failed', 'failed']);
    for (const s of r.states)
      expect(s.error).toMatch(
        /^Respuesta inesperada de Moodle: core_enrol_get_enrolled_users: \[0\]\.fullname/,
      );
    expect(server.child.exitCode).toBeNull();
    expect(r.failedHealth).toBe(0);
    expect(r.slowestHealth).toBeLessThan(1000);
    expect(
      r.peak - r.baseline,
      `peak ${r.peak} MB over a baseline of ${r.baseline} MB`,
    ).toBeLessThan(CEILING_OVER_BASELINE_MB);
  }, 200_000);

  it('valid participants as dense as the reader admits (7.6 million in 240 MB each): read until the shared budget is spent, then refused', async () => {
    const r = await fourSyncsAgainst('denseusers');
    expect(r.states.map((s) => s.state)).toEqual(['failed', 'failed', 'failed', 'failed']);
    for (const s of r.states)
      expect(s.error).toBe(
        `La respuesta de Moodle supera el tamaño admitido y no se leyó: las respuestas de Moodle que el servidor lee a la vez ocuparían más de ${READ_MEMORY_MB} MB de memoria`,
      );
    expect(server.child.exitCode).toBeNull();
    expect(r.failedHealth).toBe(0);
    expect(r.slowestHealth).toBeLessThan(1000);
    expect(
      r.peak - r.baseline,
      `peak ${r.peak} MB over a baseline of ${r.baseline} MB`,
    ).toBeLessThan(CEILING_OVER_BASELINE_MB);
    // Whatever the failed reads held went back: a normal sync runs afterwards.
    const after = await call('POST', `/api/v2/sync/courses/${courses[0]}`, { wait: true });
    expect(after.status, JSON.stringify(after.body)).toBe(200);
  }, 200_000);
});
