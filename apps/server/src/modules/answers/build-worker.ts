import { parentPort, workerData } from 'node:worker_threads';
import { BUILDS } from '../../answer-builds.js';
import type { Config } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import { createServices } from '../../services.js';
import { runBuild, type BuildFailure } from './builders.js';
import type { BuildJob } from './build.js';

/**
 * The thread that builds kept answers (builders.ts, ThreadBuilder): its own connections to the
 * server's PostgreSQL and its own services over them; each job's answer goes back as bytes handed
 * over, not copied. This thread is a composition root of its own, like the server's: it takes the
 * list of kept answers (answer-builds.ts) as app.ts does.
 */
const { config } = workerData as { config: Config };
const handle = await openDatabase({ url: config.DATABASE_URL, dataDir: '', poolSize: 4 });
const services = createServices(handle.db, config);

parentPort!.on('message', ({ id, job }: { id: number; job: BuildJob }) => {
  runBuild(BUILDS, services, job).then(
    (built) => parentPort!.postMessage({ id, built }, [built.body.buffer as ArrayBuffer]),
    (err: Error & BuildFailure) =>
      parentPort!.postMessage({ id, failed: { statusCode: err.statusCode, message: err.message } }),
  );
});
