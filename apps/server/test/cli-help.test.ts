import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

/**
 * The command lines answer --help and -h with their usage and exit code 0, touching no database
 * (`npm run bench -- --help` too; it is left out here because loading it takes half a minute).
 */
describe('command lines: --help', () => {
  const commands: Array<[name: string, args: string[]]> = [
    ['import:legacy', ['apps/server/src/modules/legacy-import/cli.ts']],
    ['backup', ['apps/server/src/backup/cli.ts', 'backup']],
    ['restore', ['apps/server/src/backup/cli.ts', 'restore']],
    ['seed:large', ['scripts/seed-large.ts']],
  ];
  for (const [name, args] of commands) {
    for (const flag of name === 'import:legacy' ? ['--help', '-h'] : ['--help']) {
      it(`${name} ${flag} prints its usage and exits 0`, async () => {
        // DATA_DIR points nowhere usable: a command that opened a database would fail.
        const env = {
          ...process.env,
          LOG_LEVEL: 'silent',
          DATA_DIR: '/nonexistent/sigaf-help',
          DATABASE_URL: '',
        };
        const r = await promisify(execFile)(tsx, [...args, flag], {
          cwd: root,
          env,
          timeout: 60_000,
        });
        expect(r.stdout).toMatch(/^Uso: npm run /);
        expect(r.stdout).toContain(name === 'restore' ? 'npm run restore' : `npm run ${name}`);
      }, 60_000);
    }
  }
});
