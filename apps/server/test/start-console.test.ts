import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { logDestination } from '../src/lib/log-lines.js';
import { freePort, ROOT } from './server-process.js';

/**
 * A first start's console on a terminal: `npm start` builds the web app without its chatter
 * (its output is shown only when it fails), and the server logs readable lines, so the
 * one-time password box comes after a few plain lines.
 */

const BUILDING = 'Building the web app (first start or changed sources)...';

describe('the web build before the server starts', () => {
  // The real wrapper in a copy of the repository's layout whose web build is fast and loud.
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-build-web-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.mkdirSync(path.join(root, 'scripts'));
  fs.mkdirSync(path.join(root, 'apps/web/src'), { recursive: true });
  fs.copyFileSync(
    path.join(ROOT, 'scripts/build-web-if-needed.mjs'),
    path.join(root, 'scripts/build-web-if-needed.mjs'),
  );
  const json = (file: string, value: object) =>
    fs.writeFileSync(path.join(root, file), JSON.stringify(value));
  json('package.json', { name: 'sigaf', private: true, workspaces: ['apps/*'] });
  json('apps/web/package.json', {
    name: '@sigaf/web',
    version: '0.0.0',
    scripts: { build: 'node build.mjs' },
  });
  fs.writeFileSync(
    path.join(root, 'apps/web/build.mjs'),
    `import fs from 'node:fs';
for (let i = 0; i < 140; i++) console.log('dist/assets/chunk-' + i + '.js  1.00 kB');
console.error('(!) Some chunks are larger than 500 kB after minification.');
if (process.env.FAIL_BUILD) process.exit(1);
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/index.html', '<!doctype html>');
`,
  );
  const run = (env: Record<string, string> = {}) => {
    const r = spawnSync(process.execPath, ['scripts/build-web-if-needed.mjs'], {
      cwd: root,
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    return { status: r.status, out: r.stdout + r.stderr };
  };

  it('prints one line while it builds, nothing once built, and all the output when it fails', () => {
    expect(run()).toEqual({ status: 0, out: `${BUILDING}\n` });
    expect(run()).toEqual({ status: 0, out: '' });
    // A changed source builds again; this time the build fails and says why.
    const later = new Date(Date.now() + 60_000);
    fs.writeFileSync(path.join(root, 'apps/web/src/main.ts'), '');
    fs.utimesSync(path.join(root, 'apps/web/src/main.ts'), later, later);
    const failed = run({ FAIL_BUILD: '1' });
    expect(failed.status).not.toBe(0);
    expect(failed.out).toContain('dist/assets/chunk-139.js');
    expect(failed.out).toContain('larger than 500 kB');
    expect(failed.out).toContain('The web app build failed');
  });
});

describe('the log', () => {
  it('is readable lines on a terminal and JSON elsewhere or when asked for', () => {
    const written: string[] = [];
    const terminal = { isTTY: true, write: (s: string) => written.push(s) };
    expect(logDestination('auto', { ...terminal, isTTY: false })).toBeUndefined();
    expect(logDestination('json', terminal)).toBeUndefined();
    logDestination('auto', terminal)!.stream.write(
      `${JSON.stringify({ level: 50, time: 0, pid: 1, hostname: 'h', msg: 'job failed', job: 7, err: { message: 'boom', stack: 'Error: boom\n    at x' } })}\n`,
    );
    logDestination('lines', { ...terminal, isTTY: false })!.stream.write('\nSIGAF listening\n');
    logDestination('lines', terminal)!.stream.write(
      JSON.stringify({
        level: 30,
        time: 0,
        msg: 'request completed',
        reqId: 'r1',
        res: { statusCode: 200 },
        responseTime: 12,
      }),
    );
    expect(written[0]).toMatch(/^\[\d\d:\d\d:\d\d\] ERROR: job failed \{"job":7\}\n/);
    expect(written[0]).toContain('Error: boom');
    expect(written[1]).toMatch(/^\nSIGAF listening\n/);
    expect(written[2]).toMatch(
      /^\[\d\d:\d\d:\d\d\] INFO: request completed 200 12ms \{"reqId":"r1"\}\n$/,
    );
  });
});

// `script` gives the server a terminal, as a person starting it has.
const hasScript = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!hasScript)('a first start on a terminal', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-start-console-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('shows plain lines, then the one-time password box', async () => {
    const port = await freePort();
    const child = spawn(
      'script',
      ['-qec', `"${process.execPath}" --import tsx apps/server/src/main.ts`, '/dev/null'],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          DEMO: 'false',
          ADMIN_PASSWORD: '',
          LOG_LEVEL: 'info',
          LOG_FORMAT: '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const deadline = Date.now() + 150_000;
      while (!/First administrator:[^]*\n={20,}/.test(out) && child.exitCode === null) {
        if (Date.now() > deadline) throw new Error(`no password box:\n${out}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    const box = out.indexOf('================ First administrator');
    expect(box, out).toBeGreaterThan(0);
    const before = out.slice(0, box).replace(/\r/g, '').split('\n').filter(Boolean);
    expect(
      before.filter((l) => l.trimStart().startsWith('{')),
      out,
    ).toEqual([]);
    expect(before[0], out).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: Server listening at http:\/\//);
    expect(before.at(-1)).toMatch(/^SIGAF listening on http:\/\/localhost:\d+/);
    expect(before.length, out).toBeLessThanOrEqual(4);
  }, 180_000);
});
