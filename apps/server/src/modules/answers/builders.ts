import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import zlib from 'node:zlib';
import type { Config } from '../../config.js';
import { AppError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import type { Builder, BuildJob, BuildRequest, Built, BuiltText } from './build.js';

const gzip = promisify(zlib.gzip);

/** Builds one kept answer from a request. */
export type Build = (services: Services, request: BuildRequest) => Promise<Built>;
/** The kept answers by name (answer-builds.ts), handed to the builders. */
export type Builds = Readonly<Record<string, Build>>;

/**
 * Runs a named build and writes its answer as gzipped JSON text, where it is built: every browser
 * takes it so (a course's every ticket, 27 MB of text, is 1.5 MB), and it is kept so.
 */
export async function runBuild(
  builds: Builds,
  services: Services,
  job: BuildJob,
): Promise<BuiltText> {
  const build: Build | undefined = builds[job.name];
  if (!build) throw new Error(`Unknown kept answer: ${job.name}`);
  const { value, validUntil } = await build(services, job.request);
  const body = new Uint8Array(await gzip(JSON.stringify(value) ?? 'null', { level: 6 }));
  return { body, validUntil: validUntil ?? Infinity };
}

/** Builds on the server's own thread, where the embedded database (PGlite) runs its queries too. */
export const localBuilder = (services: Services, builds: Builds): Builder => ({
  build: (job) => runBuild(builds, services, job),
  warm() {},
  close: async () => {},
});

/** A build's failure as it crosses back from the building thread. */
export type BuildFailure = { statusCode?: number; message: string };

type Reply = { id: number; built: BuiltText } | { id: number; failed: BuildFailure };

/**
 * Builds on a thread of its own with its own connections to PostgreSQL (build-worker.ts): a
 * whole-course answer is about half a second of presenting and serialising, which on the server's
 * thread every other request would wait behind (docs/development/performance.md, "Staffed day").
 * The thread starts with the first build; if it ends, the builds in flight fail and the next
 * starts a new one.
 */
export class ThreadBuilder implements Builder {
  private worker: Worker | null = null;
  private readonly pending = new Map<
    number,
    { resolve: (b: BuiltText) => void; reject: (e: Error) => void }
  >();
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

  warm(): void {
    if (!this.worker) this.start();
  }

  private start(): Worker {
    // The thread loads TypeScript through tsx, as the server does.
    const script = new URL('./build-worker.ts', import.meta.url).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(script)}); })`;
    const worker = new Worker(boot, { eval: true, workerData: { config: this.config } });
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if ('built' in reply) waiting?.resolve(reply.built);
      else
        waiting?.reject(
          reply.failed.statusCode
            ? new AppError(reply.failed.statusCode, reply.failed.message)
            : new Error(reply.failed.message),
        );
    });
    worker.on('error', (err) => this.ended(worker, err));
    worker.on('exit', (code) =>
      this.ended(worker, new Error(`The thread that builds answers ended (${code}).`)),
    );
    return (this.worker = worker);
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
    if (worker) this.ended(worker, new Error('The server is closing.'));
    await worker?.terminate();
  }
}
