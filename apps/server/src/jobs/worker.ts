/**
 * The worker: claims ready jobs of the types it has handlers for (JobHandlers), runs up to
 * `concurrency` at once, records each outcome, retries with exponential backoff, keeps its
 * running jobs' locks fresh (heartbeat) and re-queues jobs another process left running.
 * main.ts starts one (JOBS_* settings) and stops it on shutdown; tests start their own.
 *
 *   const worker = new JobWorker(services.jobs.queue, services.jobs.handlers, workerOptions(config));
 *   worker.start();
 *   await worker.stop(); // stops claiming, waits for the running jobs (aborting them after graceMs)
 *
 * See ./queue.ts for the job life cycle and how to register handlers and enqueue jobs.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import type { JobQueue, JobRow } from './queue.js';

/** What a handler receives. */
export interface JobContext<P = unknown> {
  id: number;
  type: string;
  payload: P;
  /** 1 on the first run. */
  attempt: number;
  /** When the job was queued (a handler may retry for a while since then). */
  queuedAt: Date;
  maxAttempts: number;
  /** A failure now marks the job failed instead of retrying it. */
  isLastAttempt: boolean;
  /** Aborted on timeout or when the worker is stopped past its grace period. */
  signal: AbortSignal;
  /** Saves progress (any JSON) on the job; also a heartbeat. */
  progress(value: unknown): Promise<void>;
}

export type JobHandler<P = unknown, R = unknown> = (job: JobContext<P>) => Promise<R>;

export interface JobHandlerOptions {
  /** A run taking longer is aborted and counted as a failed attempt. */
  timeoutMs?: number;
  /** Longest wait between two attempts of this type (else the worker's retryMaxMs, else an hour). */
  retryMaxMs?: number;
  /** Called (in the worker that noticed) once the job is failed for good. */
  onFailed?: (job: JobRow, error: string) => Promise<void>;
}

interface Registered extends JobHandlerOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each job type's own payload
  run: JobHandler<any, unknown>;
}

/** An error a retry cannot fix: the job is failed at once. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/** Handlers by job type; a worker claims only the types registered here. */
export class JobHandlers {
  private readonly map = new Map<string, Registered>();

  register<P = unknown, R = unknown>(
    type: string,
    run: JobHandler<P, R>,
    opts: JobHandlerOptions = {},
  ): void {
    if (this.map.has(type))
      throw new Error(`A handler for job type '${type}' is already registered`);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each job type's own payload
    this.map.set(type, { ...opts, run: run as JobHandler<any, unknown> });
  }

  get(type: string): Registered | undefined {
    return this.map.get(type);
  }

  types(): string[] {
    return [...this.map.keys()];
  }
}

interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const silent: Logger = { info() {}, warn() {}, error() {} };

export interface WorkerOptions {
  /** Identifies this worker in jobs.locked_by. */
  id?: string;
  /** Jobs run at the same time. */
  concurrency: number;
  /** How often to look for ready jobs when idle. */
  pollMs: number;
  /** First retry delay; doubles with each attempt (with up to 20% jitter), capped by retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs?: number;
  /** A running job whose lock is older than this (no heartbeat) is taken for abandoned. */
  staleMs: number;
  logger?: Logger;
  /** Called after each job that ended well (the server recomputes the figures its writes marked). */
  afterJob?: () => void;
}

/** The worker settings of the configuration (JOBS_*). */
export function workerOptions(config: Config, logger?: Logger): WorkerOptions {
  return {
    concurrency: config.JOBS_CONCURRENCY,
    pollMs: config.JOBS_POLL_MS,
    retryBaseMs: config.JOBS_RETRY_BASE_MS,
    staleMs: config.JOBS_STALE_MS,
    logger,
  };
}

export const STALE_ERROR = 'El proceso que ejecutaba el trabajo dejó de responder.';
export const timeoutError = (ms: number) =>
  `Tiempo de ejecución agotado (${Math.round(ms / 1000)} s).`;
const HOUR = 3_600_000;

/** Delay before retry number `attempt` (1 = after the first failure). */
export function backoffMs(
  attempt: number,
  baseMs: number,
  maxMs = HOUR,
  random = Math.random,
): number {
  const plain = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(plain * (1 + 0.2 * random()));
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return typeof err === 'string' ? err : JSON.stringify(err);
}

interface Running {
  job: JobRow;
  controller: AbortController;
  done: Promise<void>;
}

export class JobWorker {
  readonly id: string;
  private readonly logger: Logger;
  private readonly running = new Map<number, Running>();
  private active = false;
  private currentTick: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private lastHeartbeat = 0;
  private lastStaleCheck = 0;
  private lastPurge = 0;

  constructor(
    private readonly queue: JobQueue,
    private readonly handlers: JobHandlers,
    private readonly opts: WorkerOptions,
  ) {
    this.id = opts.id ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.logger = opts.logger ?? silent;
  }

  get isRunning(): boolean {
    return this.active;
  }

  /** Jobs this worker is running now. */
  get inFlight(): number {
    return this.running.size;
  }

  start(): void {
    if (this.active) return;
    this.active = true;
    this.unsubscribe = this.queue.onEnqueue(() => this.schedule(0));
    this.schedule(0);
  }

  /**
   * Stops claiming and waits for the running jobs. After `graceMs` their signals are aborted
   * and the worker returns; jobs still running are re-queued later as stale.
   */
  async stop({ graceMs = 10_000 }: { graceMs?: number } = {}): Promise<void> {
    this.active = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // A claim in progress may still start jobs: wait for it, then for every running job.
    await this.currentTick;
    const pending = [...this.running.values()].map((r) => r.done);
    if (!pending.length) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), graceMs)),
    );
    const outcome = await Promise.race([Promise.allSettled(pending), grace]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      for (const r of this.running.values()) r.controller.abort(new Error('worker stopping'));
      await Promise.race([
        Promise.allSettled(pending),
        new Promise((resolve) => setTimeout(resolve, 1000).unref()),
      ]);
    }
  }

  private schedule(delayMs: number): void {
    if (!this.active) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  private tick(): Promise<void> {
    this.timer = null;
    if (!this.active) return Promise.resolve();
    if (this.currentTick) {
      this.again = true;
      return this.currentTick;
    }
    this.currentTick = this.claimAndRun().finally(() => {
      this.currentTick = null;
      const again = this.again;
      this.again = false;
      this.schedule(again ? 0 : this.opts.pollMs);
    });
    return this.currentTick;
  }

  private async claimAndRun(): Promise<void> {
    try {
      await this.maintenance();
      const free = this.opts.concurrency - this.running.size;
      if (free > 0 && this.active) {
        const jobs = await this.queue.claim(this.id, this.handlers.types(), free);
        // Each finished job asks for the next claim at once (run() -> schedule(0)).
        for (const job of jobs) this.run(job);
      }
    } catch (err) {
      this.logger.error({ err, worker: this.id }, 'job worker tick failed');
    }
  }

  /** Heartbeat, stale recovery and purge, each at its own pace. */
  private async maintenance(): Promise<void> {
    const now = Date.now();
    const { staleMs } = this.opts;
    if (this.running.size && now - this.lastHeartbeat >= staleMs / 3) {
      this.lastHeartbeat = now;
      await this.queue.heartbeat([...this.running.keys()], this.id);
    }
    if (now - this.lastStaleCheck >= Math.min(staleMs / 2, 60_000)) {
      this.lastStaleCheck = now;
      const stale = await this.queue.requeueStale(staleMs, STALE_ERROR);
      if (stale.length)
        this.logger.warn({ worker: this.id, jobs: stale.map((j) => j.id) }, 'stale jobs recovered');
      for (const job of stale)
        if (job.status === 'failed') await this.failedForGood(job, STALE_ERROR);
    }
    if (now - this.lastPurge >= 6 * HOUR) {
      this.lastPurge = now;
      await this.queue.purgeFinished();
    }
  }

  private async failedForGood(job: JobRow, error: string): Promise<void> {
    try {
      await this.handlers.get(job.type)?.onFailed?.(job, error);
    } catch (err) {
      this.logger.error({ err, job: job.id }, 'onFailed hook failed');
    }
  }

  private run(job: JobRow): void {
    const registered = this.handlers.get(job.type);
    const controller = new AbortController();
    const entry = { job, controller } as Running;
    this.running.set(job.id, entry);
    entry.done = (async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        if (!registered) throw new PermanentJobError(`No handler for job type '${job.type}'`);
        const ctx: JobContext = {
          id: job.id,
          type: job.type,
          payload: job.payload,
          attempt: job.attempts,
          queuedAt: new Date(job.created_at),
          maxAttempts: job.max_attempts,
          isLastAttempt: job.attempts >= job.max_attempts,
          signal: controller.signal,
          progress: (value) => this.queue.progress(job.id, this.id, value),
        };
        const work = registered.run(ctx);
        const timeoutMs = registered.timeoutMs;
        const result = timeoutMs
          ? await Promise.race([
              work,
              new Promise<never>((_, reject) => {
                timer = setTimeout(() => {
                  const err = new Error(timeoutError(timeoutMs));
                  // Rejected first: a handler that returns as soon as it is aborted still counts as timed out.
                  reject(err);
                  controller.abort(err);
                }, timeoutMs);
              }),
            ])
          : await work;
        if (!(await this.queue.complete(job.id, this.id, result ?? null))) {
          this.logger.warn({ job: job.id, worker: this.id }, 'job finished after losing its lock');
        }
        this.opts.afterJob?.();
      } catch (err) {
        const message = errorText(err);
        const permanent = err instanceof PermanentJobError;
        const delay = permanent
          ? null
          : backoffMs(
              job.attempts,
              this.opts.retryBaseMs,
              registered?.retryMaxMs ?? this.opts.retryMaxMs,
            );
        try {
          const status = await this.queue.fail(job.id, this.id, message, delay);
          this.logger.info(
            { job: job.id, type: job.type, attempt: job.attempts, status, error: message },
            'job failed',
          );
          if (status === 'failed')
            await this.failedForGood({ ...job, status: 'failed', last_error: message }, message);
        } catch (dbErr) {
          this.logger.error({ err: dbErr, job: job.id }, 'could not record a job failure');
        }
      } finally {
        clearTimeout(timer);
        this.running.delete(job.id);
        this.schedule(0);
      }
    })();
  }
}
