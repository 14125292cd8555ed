/**
 * Durable job queue: the `jobs` table (migration 0001), shared by every background task
 * (mail delivery, Moodle synchronisation ...). Jobs survive restarts and several server
 * processes can work the same table: a job is claimed with `FOR UPDATE SKIP LOCKED`, so each
 * one runs in exactly one worker at a time.
 *
 * Life of a job
 *   queued --claim--> running --handler resolves--> done (result saved)
 *                             --handler throws-----> queued again with run_at = now + backoff
 *                                                    (exponential), or failed (last_error) once
 *                                                    attempts = max_attempts or the error is a
 *                                                    PermanentJobError
 *   running for longer than the stale timeout without a heartbeat (the process died):
 *   re-queued (or failed when out of attempts) by any worker.
 *   queued --cancel--> cancelled.
 *
 * Use (services.jobs is { queue: JobQueue, handlers: JobHandlers }; main.ts runs a JobWorker
 * over both, see ./worker.ts):
 *
 *   // 1. Register a handler for a type once, at start (services.ts or your module's setup):
 *   services.jobs.handlers.register<{ courseId: number }>('moodle.sync-course', async (job) => {
 *     await job.progress({ done: 0, total: 10 });    // saved in jobs.progress; also a heartbeat
 *     if (job.signal.aborted) return;                 // timeout or shutdown asked to stop
 *     return { synced: 10 };                          // saved in jobs.result
 *   }, {
 *     timeoutMs: 10 * 60_000,                          // a longer run is aborted and counts as a failure
 *     onFailed: async (job, error) => { ... },         // once the job is failed for good
 *   });
 *
 *   // 2. Enqueue (optionally inside your transaction: pass `trx` as the last argument):
 *   const { id, created } = await services.jobs.queue.enqueue('moodle.sync-course', { courseId: 3 }, {
 *     uniqueKey: 'moodle.sync-course:3', // at most one queued/running job with this key; created=false if one exists
 *     maxAttempts: 3,                    // default 5
 *     runAt: new Date(...),              // or delayMs; default now
 *   });
 *   await services.jobs.queue.get(id);   // status, attempts, progress, result, last_error
 *   await services.jobs.queue.cancel(id); // only while queued
 *
 * Payloads and results are JSON. A handler must be idempotent: after a crash a job can run again.
 * Throw PermanentJobError (./worker.ts) for an error that a retry cannot fix.
 */
import { sql, type Selectable } from 'kysely';
import type { Database } from '../db/database.js';
import type { JobTable } from '../db/schema.js';

export type JobRow = Selectable<JobTable>;
export type JobStatus = JobRow['status'];

export interface EnqueueOptions {
  /** When the job may run first (default: now). */
  runAt?: Date;
  /** Alternative to runAt: milliseconds from now. */
  delayMs?: number;
  /** Attempts before the job is failed (default 5). */
  maxAttempts?: number;
  /** At most one queued or running job has this key (partial unique index jobs_unique_active_uq). */
  uniqueKey?: string;
}

export const DEFAULT_MAX_ATTEMPTS = 5;
/** Finished jobs are kept this long, then purged by the worker. */
export const FINISHED_RETENTION_DAYS = 30;

const ACTIVE = ['queued', 'running'] as const;

function runAtOf(opts: EnqueueOptions) {
  if (opts.runAt) return opts.runAt;
  return opts.delayMs ? new Date(Date.now() + opts.delayMs) : undefined;
}

/** SQL over the jobs table; the worker (./worker.ts) drives it. */
export class JobQueue {
  private readonly listeners = new Set<() => void>();

  constructor(private readonly db: Database) {}

  /**
   * Adds a job. With a uniqueKey that an active job already holds, nothing is added and that
   * job's id is returned with created=false. Inside a transaction pass it as `db`; local
   * workers are woken right away otherwise (call notify() after your commit).
   */
  async enqueue<P>(
    type: string,
    payload: P,
    opts: EnqueueOptions = {},
    db: Database = this.db,
  ): Promise<{ id: number; created: boolean }> {
    const [id] = await this.enqueueMany(type, [{ payload, uniqueKey: opts.uniqueKey }], opts, db);
    if (id !== undefined) return { id, created: true };
    const existing = await db
      .selectFrom('jobs')
      .select('id')
      .where('unique_key', '=', opts.uniqueKey!)
      .where('status', 'in', ACTIVE)
      .executeTakeFirst();
    if (existing) return { id: existing.id, created: false };
    // The active job finished in between: the key is free again.
    return this.enqueue(type, payload, opts, db);
  }

  /** Adds many jobs of one type in few statements; returns the ids created (keys already active are skipped). */
  async enqueueMany<P>(
    type: string,
    items: Array<{ payload: P; uniqueKey?: string }>,
    opts: Omit<EnqueueOptions, 'uniqueKey'> = {},
    db: Database = this.db,
  ): Promise<number[]> {
    const runAt = runAtOf(opts);
    const ids: number[] = [];
    for (let i = 0; i < items.length; i += 500) {
      const rows = await db
        .insertInto('jobs')
        .values(
          items.slice(i, i + 500).map((item) => ({
            type,
            payload: JSON.stringify(item.payload ?? {}),
            max_attempts: opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
            unique_key: item.uniqueKey ?? null,
            ...(runAt ? { run_at: runAt } : {}),
          })),
        )
        .onConflict((oc) =>
          oc
            .column('unique_key')
            .where('unique_key', 'is not', null)
            .where('status', 'in', ACTIVE)
            .doNothing(),
        )
        .returning('id')
        .execute();
      ids.push(...rows.map((r) => r.id));
    }
    if (db === this.db && ids.length) this.notify();
    return ids;
  }

  /** Wakes the workers of this process (after a commit that enqueued jobs). */
  notify(): void {
    for (const listener of this.listeners) listener();
  }

  /** A worker listens for local enqueues; returns the unsubscribe function. */
  onEnqueue(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(id: number) {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Cancels a job that has not started; false when it is running or finished. */
  async cancel(id: number): Promise<boolean> {
    const r = await this.db
      .updateTable('jobs')
      .set({ status: 'cancelled', updated_at: sql`now()` })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Claims up to `limit` ready jobs of the given types for `workerId`, oldest run_at first. */
  async claim(workerId: string, types: readonly string[], limit: number): Promise<JobRow[]> {
    if (!types.length || limit < 1) return [];
    const { rows } = await sql<JobRow>`
      update jobs set status = 'running', locked_at = now(), locked_by = ${workerId}, attempts = attempts + 1, updated_at = now()
      where id in (
        select id from jobs
        where status = 'queued' and run_at <= now() and type in (${sql.join(types)})
        order by run_at, id
        for update skip locked
        limit ${limit}
      )
      returning *`.execute(this.db);
    return rows.sort((a, b) => +new Date(a.run_at) - +new Date(b.run_at) || a.id - b.id);
  }

  /** Marks a claimed job done; false when this worker no longer holds it (it was re-queued as stale). */
  async complete(id: number, workerId: string, result: unknown): Promise<boolean> {
    const r = await this.db
      .updateTable('jobs')
      .set({
        status: 'done',
        result: JSON.stringify(result ?? null),
        locked_at: null,
        last_error: null,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('locked_by', '=', workerId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * Records a failed run: back to queued after `retryInMs`, or failed when the job is out of
   * attempts or `retryInMs` is null (a permanent error). Null when this worker no longer holds it.
   */
  async fail(
    id: number,
    workerId: string,
    error: string,
    retryInMs: number | null,
  ): Promise<'queued' | 'failed' | null> {
    const retry = retryInMs === null ? sql<boolean>`false` : sql<boolean>`attempts < max_attempts`;
    const delay = `${Math.max(0, Math.round(retryInMs ?? 0))} milliseconds`;
    const { rows } = await sql<{ status: 'queued' | 'failed' }>`
      update jobs set
        status = case when ${retry} then 'queued' else 'failed' end,
        run_at = case when ${retry} then now() + ${delay}::interval else run_at end,
        last_error = ${error.slice(0, 4000)},
        locked_at = null,
        updated_at = now()
      where id = ${id} and status = 'running' and locked_by = ${workerId}
      returning status`.execute(this.db);
    return rows[0]?.status ?? null;
  }

  /** Saves a running job's progress (any JSON); also renews its heartbeat. */
  async progress(id: number, workerId: string, progress: unknown): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        progress: JSON.stringify(progress ?? null),
        locked_at: sql`now()`,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('locked_by', '=', workerId)
      .execute();
  }

  /** Renews the lock of jobs a live worker is running, so they are not taken for stale. */
  async heartbeat(ids: number[], workerId: string): Promise<void> {
    if (!ids.length) return;
    await this.db
      .updateTable('jobs')
      .set({ locked_at: sql`now()` })
      .where('id', 'in', ids)
      .where('status', '=', 'running')
      .where('locked_by', '=', workerId)
      .execute();
  }

  /**
   * Jobs left running by a worker that stopped heart-beating for `staleMs` (a crash): back to
   * queued, or failed when out of attempts. Returns them with their new status.
   */
  async requeueStale(staleMs: number, error: string): Promise<JobRow[]> {
    const { rows } = await sql<JobRow>`
      update jobs set
        status = case when attempts < max_attempts then 'queued' else 'failed' end,
        run_at = now(),
        last_error = ${error},
        locked_at = null,
        updated_at = now()
      where id in (
        select id from jobs
        where status = 'running' and locked_at < now() - ${`${Math.round(staleMs)} milliseconds`}::interval
        for update skip locked
      )
      returning *`.execute(this.db);
    return rows;
  }

  /** Deletes finished jobs (done, cancelled; failed ones too) older than the retention. */
  async purgeFinished(days = FINISHED_RETENTION_DAYS): Promise<number> {
    const r = await this.db
      .deleteFrom('jobs')
      .where('status', 'in', ['done', 'cancelled', 'failed'])
      .where('updated_at', '<', sql<Date>`now() - ${`${days} days`}::interval`)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
