import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_TOKENS, fixtureSite } from '../../../../tools/moodle-sim/src/fixture-site.js';
import { startMoodleSim, type SimServer } from '../../../../tools/moodle-sim/src/server.js';
import { adminSession, call, startServer, testDatabase } from './process.js';

/**
 * Moodle down: a course sync queued on the real server process while Moodle (the simulator, a
 * real HTTP server) is stopped fails its attempt, keeps the reason and waits; once Moodle is
 * started again on the same address the job resumes by itself and the sync completes. On the
 * embedded database, or on PostgreSQL under `npm run test:pg`.
 */
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

describe('faults: Moodle down', () => {
  it('a queued sync waits while Moodle is down and completes once it is back, without a restart', async () => {
    const database = await testDatabase('faults_moodle');
    cleanups.push(() => database.dispose());
    let sim: SimServer = await startMoodleSim({ site: fixtureSite() });
    const port = sim.port;
    cleanups.push(() => sim.close());
    const server = await startServer({
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.url,
      JOBS_RETRY_BASE_MS: '2000',
      MOODLE_TIMEOUT_MS: '1000',
      MOODLE_RETRIES: '0',
    });
    cleanups.push(() => server.kill9());
    const token = await adminSession(server.url);
    const api = (method: string, url: string, body?: unknown) =>
      call(server.url, method, `/api/v2${url}`, token, body);

    const platforms = (await api('GET', '/platforms')).body._data.collections as Array<{
      properties: { id: number; description: string };
    }>;
    const platform = platforms.find((p) => p.properties.description === 'Moodle')!.properties.id;
    expect(
      (
        await api('PUT', `/platforms/${platform}/moodle`, {
          url: `${sim.url}/`,
          token: FIXTURE_TOKENS.admin,
        })
      ).status,
    ).toBe(200);
    const category = await api('POST', '/categories', {
      description: 'Caídas',
      category_code: 'CAID',
      platform_id: platform,
    });
    const course = await api('POST', '/courses', {
      description: 'Grúa horquilla',
      category_id: category.body._data.properties.id,
      id_course_moodle: 4,
    });
    expect(course.status, JSON.stringify(course.body)).toBeLessThan(300);
    const courseId: number = course.body._data.properties.id;
    const status = async () => (await api('GET', `/sync/courses/${courseId}/status`)).body._data;

    // Moodle goes down; a sync is queued.
    await sim.close();
    const queued = await api('POST', `/sync/courses/${courseId}`);
    expect(queued.status).toBe(202);
    let waiting: Record<string, unknown> = {};
    for (
      const deadline = Date.now() + 30_000;
      Date.now() < deadline;
      await new Promise((r) => setTimeout(r, 100))
    ) {
      waiting = await status();
      // Its failed attempt recorded and the job back in the queue (the error is written a moment before).
      if (waiting.error && (waiting.attempts as number) >= 1 && waiting.state !== 'running') break;
    }
    // It failed its attempt, says why, and waits for the next one (not failed for good).
    expect(waiting).toMatchObject({ state: 'queued', attempts: 1 });
    expect(String(waiting.error)).toMatch(/Moodle/);
    expect(server.child.exitCode).toBeNull();

    // Moodle is back on the same address: the job resumes and the sync completes.
    sim = await startMoodleSim({ site: fixtureSite(), port });
    let final: Record<string, unknown> = {};
    for (
      const deadline = Date.now() + 60_000;
      Date.now() < deadline;
      await new Promise((r) => setTimeout(r, 200))
    ) {
      final = await status();
      if (final.state === 'done' || final.state === 'failed') break;
    }
    console.log(
      `faults/moodle-down: while down ${JSON.stringify({ state: waiting.state, attempts: waiting.attempts, error: waiting.error })}; then ${JSON.stringify({ state: final.state, attempts: final.attempts })}`,
    );
    expect(final.state, JSON.stringify(final)).toBe('done');
    expect(final.attempts).toBeGreaterThanOrEqual(2);
    expect(final.result).toMatchObject({ activitiesAdded: expect.any(Number) });
    expect((final.result as { activitiesAdded: number }).activitiesAdded).toBeGreaterThan(0);
    expect(sim.count()).toBeGreaterThan(0);
    expect(server.child.exitCode).toBeNull();
  }, 180_000);
});
