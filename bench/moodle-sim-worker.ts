import { parentPort, workerData } from 'node:worker_threads';
import { generateSite, type GeneratorOptions } from '../tools/moodle-sim/src/generator.js';
import { startMoodleSim } from '../tools/moodle-sim/src/server.js';

/**
 * The Moodle simulator of the sync benchmark, in a thread of its own: Moodle is another machine,
 * so its work must not hold up the event loop of the server being measured. It generates the
 * same site as the benchmark (same options, same seed), answers `{ url }` once listening, the
 * number of calls served when sent 'count', and closes when sent 'close'.
 */
const { options, latencyMs } = workerData as { options: GeneratorOptions; latencyMs: number };
const sim = await startMoodleSim({ site: generateSite(options).site, latencyMs });
parentPort!.on('message', async (m: string) => {
  if (m === 'count') parentPort!.postMessage({ calls: sim.calls.length });
  if (m === 'close') {
    await sim.close();
    parentPort!.postMessage({ closed: true });
  }
});
parentPort!.postMessage({ url: sim.url });
