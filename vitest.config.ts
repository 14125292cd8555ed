import { defineConfig } from 'vitest/config';

/** One runner for every part: contract, server (integration on a real database), web logic, end-to-end. */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contract',
          include: ['packages/contract/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: [
            'apps/server/test/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'tools/moodle-sim/test/**/*.test.ts',
          ],
          environment: 'node',
          globalSetup: ['apps/server/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
      { test: { name: 'web', include: ['apps/web/src/**/*.test.{ts,tsx}'], environment: 'node' } },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // A browser on a busy two-core machine: what the screen shows after a round trip can take
          // seconds, not the one second expect.poll waits by default.
          expect: { poll: { timeout: 10_000, interval: 100 } },
          fileParallelism: false,
          pool: 'forks',
        },
      },
    ],
  },
});
