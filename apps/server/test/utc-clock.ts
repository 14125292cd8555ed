import { afterAll, beforeAll } from 'vitest';

/** Runs the enclosing suite with the process clock in UTC (a server in UTC), then puts TZ back. */
export function processInUtc() {
  let saved: string | undefined;
  beforeAll(() => {
    saved = process.env.TZ;
    process.env.TZ = 'UTC';
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });
}
