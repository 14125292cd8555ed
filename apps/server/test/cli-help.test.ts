import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

type Result = { code?: number; stdout: string; stderr: string };

/** Runs a command line as its npm script does, with a DATA_DIR where no database can open. */
function run(args: string[]): Promise<Result> {
  const env = {
    ...process.env,
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent/sigaf-help',
    DATABASE_URL: '',
  };
  return promisify(execFile)(tsx, args, { cwd: root, env, timeout: 90_000 }).then(
    (r) => ({ code: 0, ...r }),
    (e: Result) => e,
  );
}

/**
 * Every command line in package.json answers --help and -h with its usage in Spanish and exit
 * code 0, touching no database; an unknown option is one Spanish line, the usage and exit code 2,
 * never a stack trace. (`npm run bench` reads its options the same way, through
 * apps/server/src/lib/command-line.ts; it is left out here because loading it takes half a minute.
 * The Moodle simulator's command line is tested in tools/moodle-sim.)
 */
describe('command lines: --help, -h and an unknown option', () => {
  const commands: Array<[script: string, args: string[]]> = [
    ['npm run import:legacy', ['apps/server/src/modules/legacy-import/cli.ts']],
    ['npm run backup', ['apps/server/src/backup/cli.ts', 'backup']],
    ['npm run restore', ['apps/server/src/backup/cli.ts', 'restore']],
    ['npm run seed:large', ['scripts/seed-large.ts']],
    ['npm run db:lock', ['scripts/db-record.ts', 'lock']],
    ['npm run db:triggers', ['scripts/db-record.ts', 'triggers']],
    ['npm run demo', ['apps/server/src/main.ts']],
    ['npm run docs:screenshots', ['scripts/screenshots.ts']],
  ];
  for (const [script, args] of commands) {
    it(`${script}: --help and -h print the usage and exit 0`, async () => {
      for (const flag of ['--help', '-h']) {
        const r = await run([...args, flag]);
        expect(r.code, `${flag}: ${r.stderr}`).toBe(0);
        expect(r.stdout).toMatch(/^Uso: npm /);
        expect(r.stdout).toContain(script);
        expect(r.stdout).toMatch(/-h, --help +esta ayuda/);
        expect(r.stderr).toBe('');
      }
    }, 180_000);

    it(`${script}: an unknown option is a Spanish line and the usage, exit code 2`, async () => {
      const r = await run([...args, '--no-existe']);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe('Opción desconocida: --no-existe');
      expect(r.stderr).toContain('\nUso: npm ');
      expect(r.stderr).not.toMatch(/^\s+at /m);
      expect(r.stdout).toBe('');
    }, 90_000);
  }
});
