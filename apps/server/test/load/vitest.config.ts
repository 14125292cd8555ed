import path from 'node:path';
import { defineConfig } from 'vitest/config';

/** `npm run test:load`: the load test alone (minutes long, so not part of `npm test`). */
export default defineConfig({
  test: {
    root: path.resolve(import.meta.dirname, '../../../..'),
    include: ['apps/server/test/load/**/*.load.ts'],
    environment: 'node',
    testTimeout: 30 * 60_000,
    hookTimeout: 10 * 60_000,
    pool: 'forks',
  },
});
