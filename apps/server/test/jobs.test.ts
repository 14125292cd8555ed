import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobQueue } from '../src/jobs/queue.js';
import {
  backoffMs,
  JobHandlers,
  JobWorker,
  PermanentJobError,
  STALE_ERROR,
  timeoutError,
} from '../src/jobs/worker.js';
import { createTestContext, type TestContext } from './helpers.js';
import { waitFor } from './mail-data.js';

/** The durable job queue and its worker, on the real database. */
let ctx: TestContext;
let queue: JobQueue;
beforeAll(async () => {
  ctx = await createTestContext();
  queue = new JobQueue(ctx.db);
});
afterAll(() => ctx.close());

let n = 0;
/** Each test uses its own job types, so workers of one test never see another's jobs. */
const type = (name: string) => `test.${name}.${++n}`;

function worker(
  handlers: JobHandlers,
  opts: Partial<ConstructorParameters<typeof JobWorker>[2]> = {},
) {
  return new JobWorker(queue, handlers, {
    concurrency: 4,
    pollMs: 20,
    retryBaseMs: 30,
    retryMaxMs: 200,
    staleMs: 60_000,
    ...opts,
  });
}

const job = async (id: number) => (await queue.get(id))!;

describe('job queue', () => {
  it('enqueues, claims in run_at order with the attempt counted, completes with a result', async () => {
    const t = type('basic');
    const later = await queue.enqueue(t, { n: 2 }, { delayMs: 60_000 });
    const a = await queue.enqueue(t, { n: 1 });
    expect(a.created).toBe(true);
    const claimed = await queue.claim('w1', [t], 10);
    expect(claimed.map((j) => j.id)).toEqual([a.id]);
    expect(claimed[0]).toMatchObject({
      status: 'running',
      attempts: 1,
      locked_by: 'w1',
      payload: { n: 1 },
    });
    // Claimed jobs are not claimed again; a job whose run_at is in the future is not ready.
    expect(await queue.claim('w2', [t], 10)).toEqual([]);
    expect(await queue.complete(a.id, 'w2', { no: true })).toBe(false);
    expect(await queue.complete(a.id, 'w1', { ok: true })).toBe(true);
    expect(await job(a.id)).toMatchObject({
      status: 'done',
      result: { ok: true },
      locked_at: null,
    });
    expect((await job(later.id)).status).toBe('queued');
    expect(await queue.cancel(later.id)).toBe(true);
    expect((await job(later.id)).status).toBe('cancelled');
    expect(await queue.cancel(a.id)).toBe(false);
  });

  it('keeps one active job per unique key; the key is free again once the job is finished', async () => {
    const t = type('unique');
    const first = await queue.enqueue(t, { v: 1 }, { uniqueKey: `${t}:x` });
    const again = await queue.enqueue(t, { v: 2 }, { uniqueKey: `${t}:x` });
    expect(again).toEqual({ id: first.id, created: false });
    const [claimed] = await queue.claim('w', [t], 1);
    expect(claimed!.id).toBe(first.id);
    expect((await queue.enqueue(t, {}, { uniqueKey: `${t}:x` })).created).toBe(false);
    await queue.complete(first.id, 'w', null);
    const third = await queue.enqueue(t, {}, { uniqueKey: `${t}:x` });
    expect(third.created).toBe(true);
    expect(third.id).not.toBe(first.id);
    const many = await queue.enqueueMany(t, [
      { payload: {}, uniqueKey: `${t}:x` },
      { payload: {}, uniqueKey: `${t}:y` },
      { payload: {} },
    ]);
    expect(many).toHaveLength(2);
  });

  it('a failure goes back to the queue with exponential backoff, then fails with the last error', async () => {
    const t = type('backoff');
    const { id } = await queue.enqueue(t, {}, { maxAttempts: 2 });
    await queue.claim('w', [t], 1);
    expect(await queue.fail(id, 'w', 'primer error', 60_000)).toBe('queued');
    const row = await job(id);
    expect(row).toMatchObject({
      status: 'queued',
      attempts: 1,
      last_error: 'primer error',
      locked_at: null,
    });
    expect(+new Date(row.run_at) - Date.now()).toBeGreaterThan(50_000);
    await ctx.db
      .updateTable('jobs')
      .set({ run_at: sql`now()` })
      .where('id', '=', id)
      .execute();
    await queue.claim('w', [t], 1);
    expect(await queue.fail(id, 'w', 'segundo error', 60_000)).toBe('failed');
    expect(await job(id)).toMatchObject({
      status: 'failed',
      attempts: 2,
      last_error: 'segundo error',
    });

    expect(backoffMs(1, 1000, 60_000, () => 0)).toBe(1000);
    expect(backoffMs(2, 1000, 60_000, () => 0)).toBe(2000);
    expect(backoffMs(4, 1000, 60_000, () => 0)).toBe(8000);
    expect(backoffMs(20, 1000, 60_000, () => 0)).toBe(60_000);
    expect(backoffMs(1, 1000, 60_000, () => 1)).toBe(1200);
  });

  it('re-queues jobs a dead worker left running, and fails them when out of attempts', async () => {
    const t = type('stale');
    const a = await queue.enqueue(t, {});
    const b = await queue.enqueue(t, {}, { maxAttempts: 1 });
    await queue.claim('dead', [t], 2);
    expect(await queue.requeueStale(60_000, STALE_ERROR)).toEqual([]);
    await ctx.db
      .updateTable('jobs')
      .set({ locked_at: sql`now() - interval '2 minutes'` })
      .where('id', 'in', [a.id, b.id])
      .execute();
    const recovered = await queue.requeueStale(60_000, STALE_ERROR);
    expect(Object.fromEntries(recovered.map((j) => [j.id, j.status]))).toEqual({
      [a.id]: 'queued',
      [b.id]: 'failed',
    });
    expect(await job(a.id)).toMatchObject({
      status: 'queued',
      last_error: STALE_ERROR,
      locked_by: 'dead',
    });
    // The dead worker's late answer is not recorded.
    expect(await queue.complete(a.id, 'dead', null)).toBe(false);
  });
});

describe('job worker', () => {
  it("a type's own longest wait between attempts caps the worker's backoff", async () => {
    const capped = type('capped');
    const handlers = new JobHandlers();
    handlers.register(
      capped,
      async () => {
        throw new Error('aún no');
      },
      { retryMaxMs: 1000 },
    );
    const a = await queue.enqueue(capped, {}, { maxAttempts: 5 });
    // The worker alone would wait at least 100 s after the first failure.
    const w = worker(handlers, { retryBaseMs: 100_000, retryMaxMs: 3_600_000 });
    w.start();
    try {
      await waitFor(
        async () => (await job(a.id)).attempts === 1 && (await job(a.id)).status === 'queued',
        10_000,
        'the first failure',
      );
    } finally {
      await w.stop();
    }
    const wait = +new Date((await job(a.id)).run_at) - Date.now();
    expect(wait).toBeLessThanOrEqual(1200);
  });

  it('runs handlers by type with progress, retries failures, fails permanent errors at once', async () => {
    const ok = type('ok');
    const flaky = type('flaky');
    const broken = type('broken');
    const handlers = new JobHandlers();
    const failedHook: number[] = [];
    let flakyRuns = 0;
    handlers.register<{ n: number }>(ok, async (j) => {
      await j.progress({ done: 1, total: 2 });
      return { double: j.payload.n * 2, attempt: j.attempt };
    });
    handlers.register(flaky, async (j) => {
      flakyRuns++;
      if (j.attempt < 3) throw new Error(`intento ${j.attempt} falló`);
      return 'ok';
    });
    handlers.register(
      broken,
      async () => {
        throw new PermanentJobError('no se puede');
      },
      { onFailed: async (row) => void failedHook.push(row.id) },
    );
    expect(() => handlers.register(ok, async () => null)).toThrow();

    const a = await queue.enqueue(ok, { n: 21 });
    const b = await queue.enqueue(flaky, {}, { maxAttempts: 5 });
    const c = await queue.enqueue(broken, {}, { maxAttempts: 5 });
    // After each job that ended well the server recomputes what it marked (main.ts): called for a and b, not for c's failure.
    let after = 0;
    const w = worker(handlers, { afterJob: () => void after++ });
    w.start();
    try {
      await waitFor(
        async () =>
          (await job(b.id)).status === 'done' &&
          (await job(c.id)).status === 'failed' &&
          (await job(a.id)).status === 'done',
        10_000,
        'jobs',
      );
    } finally {
      await w.stop();
    }
    expect(await job(a.id)).toMatchObject({
      result: { double: 42, attempt: 1 },
      progress: { done: 1, total: 2 },
    });
    expect(await job(b.id)).toMatchObject({ attempts: 3, result: 'ok' });
    expect(flakyRuns).toBe(3);
    expect(await job(c.id)).toMatchObject({ attempts: 1, last_error: 'no se puede' });
    expect(failedHook).toEqual([c.id]);
    expect(after).toBe(2);
  });

  it('aborts a run past its timeout and counts it as a failed attempt', async () => {
    const t = type('slow');
    const handlers = new JobHandlers();
    let aborted = false;
    handlers.register(
      t,
      (j) =>
        new Promise((resolve) => {
          j.signal.addEventListener('abort', () => {
            aborted = true;
            resolve(null);
          });
        }),
      { timeoutMs: 100 },
    );
    const { id } = await queue.enqueue(t, {}, { maxAttempts: 1 });
    const w = worker(handlers);
    w.start();
    try {
      await waitFor(async () => (await job(id)).status === 'failed', 10_000, 'timeout');
    } finally {
      await w.stop();
    }
    expect(aborted).toBe(true);
    expect((await job(id)).last_error).toBe(timeoutError(100));
  });

  it('a worker leaves other types alone and stop() waits for the running jobs', async () => {
    const mine = type('mine');
    const other = type('other');
    const handlers = new JobHandlers();
    let finished = 0;
    handlers.register(mine, async () => {
      await new Promise((r) => setTimeout(r, 150));
      finished++;
    });
    const foreign = await queue.enqueue(other, {});
    const ids = await queue.enqueueMany(mine, [{ payload: {} }, { payload: {} }]);
    const w = worker(handlers);
    w.start();
    await waitFor(async () => w.inFlight === 2, 5000, 'two running');
    await w.stop();
    expect(finished).toBe(2);
    for (const id of ids) expect((await job(id)).status).toBe('done');
    expect((await job(foreign.id)).status).toBe('queued');
  });

  it('several workers on one table run each job exactly once', async () => {
    const t = type('race');
    const handlers = new JobHandlers();
    const runs = new Map<number, number>();
    handlers.register<{ i: number }>(t, async (j) => {
      runs.set(j.payload.i, (runs.get(j.payload.i) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, Math.random() * 5));
    });
    const total = 200;
    await queue.enqueueMany(
      t,
      Array.from({ length: total }, (_, i) => ({ payload: { i } })),
    );
    const workers = [
      worker(handlers, { concurrency: 8, id: 'a' }),
      worker(handlers, { concurrency: 8, id: 'b' }),
      worker(handlers, { concurrency: 3, id: 'c' }),
    ];
    for (const w of workers) w.start();
    try {
      await waitFor(
        async () => runs.size === total && workers.every((w) => w.inFlight === 0),
        30_000,
        'all jobs',
      );
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    expect([...runs.values()].every((c) => c === 1)).toBe(true);
    const left = await ctx.db
      .selectFrom('jobs')
      .select(sql<number>`count(*)`.as('n'))
      .where('type', '=', t)
      .where('status', '<>', 'done')
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
    const by = await ctx.db
      .selectFrom('jobs')
      .select(['locked_by', sql<number>`count(*)`.as('n')])
      .where('type', '=', t)
      .groupBy('locked_by')
      .execute();
    expect(by.length).toBeGreaterThan(1);
  });

  it('recovers a job from a crashed worker and keeps the lock fresh while a long job runs', async () => {
    const t = type('recover');
    const handlers = new JobHandlers();
    handlers.register(t, async (j) => {
      await new Promise((r) => setTimeout(r, 600));
      return { attempt: j.attempt };
    });
    const crashed = await queue.enqueue(t, {});
    await queue.claim('crashed-worker', [t], 1);
    await ctx.db
      .updateTable('jobs')
      .set({ locked_at: sql`now() - interval '10 minutes'` })
      .where('id', '=', crashed.id)
      .execute();
    const w = worker(handlers, { staleMs: 300 });
    w.start();
    try {
      await waitFor(async () => (await job(crashed.id)).status === 'done', 10_000, 'recovered job');
    } finally {
      await w.stop();
    }
    // Run twice (the crashed attempt counts); the 600 ms run outlived staleMs without being taken for stale.
    expect(await job(crashed.id)).toMatchObject({
      status: 'done',
      attempts: 2,
      result: { attempt: 2 },
    });
  });
});
