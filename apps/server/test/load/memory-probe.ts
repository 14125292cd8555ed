import fs from 'node:fs';

/**
 * Preloaded into the server process by the load test (`--expose-gc --import` this file): on
 * SIGUSR2 it runs a full garbage collection and writes `process.memoryUsage()` to
 * MEMORY_PROBE_FILE, so the test compares the live heap between runs instead of whatever
 * garbage happens to be uncollected.
 */
const file = process.env.MEMORY_PROBE_FILE;
if (file) {
  process.on('SIGUSR2', () => {
    (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage();
    fs.writeFileSync(
      `${file}.tmp`,
      JSON.stringify({ at: Date.now(), rss: m.rss, heapUsed: m.heapUsed, external: m.external }),
    );
    fs.renameSync(`${file}.tmp`, file);
  });
}
