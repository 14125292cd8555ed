import { Worker } from 'node:worker_threads';
import type { Config } from '../../config.js';
import { AppError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import type { Builder, BuildJob, BuiltText } from './build.js';
import { BUILDS, type Build, type BuildName } from './builds.js';

/** Runs a named build and writes its answer as JSON text: where it runs is the builder's choice. */
export async function runBuild(services: Services, job: BuildJob): Promise<BuiltText> {
  const build: Build | undefined = BUILDS[job.name as BuildName];
  if (!build) throw new Error(`Unknown kept answer: ${job.name}`);
  const { value, validUntil } = await build(services, job.request);
  return { body: new TextEncoder().encode(JSON.stringify(value) ?? 'null'), validUntil: validUntil ?? Infinity };
}

/** Builds on the server's own thread, where the embedded database (PGlite) runs its queries too. */
export class LocalBuilder implements Builder {
  constructor(private readonly services: Services) {}
  build(job: BuildJob) {
    return runBuild(this.services, job);
  }
  async warm() {}
  async close() {}
}

/** A build's failure as it crosses back from the building thread. */
export interface BuildFailure {
  statusCode?: number;
  message: string;
}

type Reply = { id: number; built: BuiltText } | { id: number; failed: BuildFailure } | { ready: true };

/**
 * Builds on a thread of its own with its own connections to PostgreSQL (build-worker.ts): a
 * whole-course answer is about a second of presenting and serialising, which on the server's
 * thread every other request would wait behind (docs/development/performance.md, "Staffed day").
 * The thread starts with the first build; if it fails, the builds in flight fail and the next
 * starts a new one.
 */
export class ThreadBuilder implements Builder {
  private worker: Worker | null = null;
  /** Settles when the thread has its connections and services (or has ended). */
  private ready: Promise<void> = Promise.resolve();
  private readonly pending = new Map<number, { resolve: (b: BuiltText) => void; reject: (e: Error) => void }>();
  private next = 1;

  constructor(private readonly config: Config) {}

  build(job: BuildJob): Promise<BuiltText> {
    const worker = this.worker ?? this.start();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, job });
    });
  }

  private start(): Worker {
    // The thread loads TypeScript through tsx, as the server does.
    const script = new URL('./build-worker.ts', import.meta.url).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(script)}); })`;
    const worker = new Worker(boot, { eval: true, workerData: { config: this.config } });
    this.ready = new Promise((resolve) => {
      worker.once('exit', () => resolve());
      worker.on('message', (reply: Reply) => 'ready' in reply && resolve());
    });
    worker.on('message', (reply: Reply) => {
      if ('ready' in reply) return;
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if ('built' in reply) waiting.resolve(reply.built);
      else waiting.reject(reply.failed.statusCode ? new AppError(reply.failed.statusCode, reply.failed.message) : new Error(reply.failed.message));
    });
    worker.on('error', (err) => this.ended(worker, err));
    worker.on('exit', (code) => this.ended(worker, new Error(`The thread that builds answers ended (${code}).`)));
    this.worker = worker;
    return worker;
  }

  /** Starts the thread and waits until it can build (about a second: it loads the server's modules and connects). */
  warm(): Promise<void> {
    if (!this.worker) this.start();
    return this.ready;
  }

  /** The thread ended: the builds in flight fail, the next build starts a new thread. */
  private ended(worker: Worker, err: Error) {
    if (this.worker !== worker) return;
    this.worker = null;
    for (const { reject } of this.pending.values()) reject(err);
    this.pending.clear();
  }

  async close() {
    const worker = this.worker;
    if (!worker) return;
    this.ended(worker, new Error('The server is closing.'));
    await worker.terminate();
  }
}
