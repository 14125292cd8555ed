import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, spawnServer, type ServerProcess } from './server-process.js';

/** The repository root, where package.json and package-lock.json live. */
const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

describe('installation: `npm install` on a supported Node prints no engine or install-script warnings', () => {
  const pkg = read('package.json') as {
    engines: { node: string };
    allowScripts?: Record<string, boolean>;
  };
  const lock = read('package-lock.json') as {
    packages: Record<string, { engines?: unknown; hasInstallScript?: boolean; optional?: boolean }>;
  };
  const installed = Object.entries(lock.packages).filter(([key]) => key.includes('node_modules/'));
  const nameOf = (key: string) =>
    key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);

  it('the declared engine is a valid range that includes the current LTS and this machine’s Node', () => {
    expect(semver.validRange(pkg.engines.node)).not.toBeNull();
    expect(semver.satisfies('24.0.0', pkg.engines.node)).toBe(true);
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  });

  it('every installed dependency supports every Node the project declares (no EBADENGINE)', () => {
    const checked = installed.filter(
      ([, p]) => typeof (p.engines as { node?: unknown } | undefined)?.node === 'string',
    );
    expect(checked.length).toBeGreaterThan(10);
    const unsupported = checked
      .filter(([, p]) => !semver.subset(pkg.engines.node, (p.engines as { node: string }).node))
      .map(([key, p]) => `${nameOf(key)} requires ${(p.engines as { node: string }).node}`);
    expect(unsupported).toEqual([]);
  });

  it('every dependency with an install script is decided in allowScripts (no install-scripts notice)', () => {
    const withScripts = installed.filter(([, p]) => p.hasInstallScript).map(([key]) => nameOf(key));
    const undecided = withScripts.filter((name) => !(name in (pkg.allowScripts ?? {})));
    expect(undecided).toEqual([]);
  });
});

describe('installation: the first start tells the one-time password where it cannot be missed', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-first-start-'));
  const file = path.join(dataDir, 'primer-acceso.txt');
  let server: ServerProcess;

  beforeAll(async () => {
    server = await spawnServer(
      {
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        DEMO: 'false',
        ADMIN_EMAIL: 'primera@sigaf.cl',
        ADMIN_PASSWORD: '',
        LOG_LEVEL: 'info',
      },
      { removeDataDir: dataDir, name: 'first start' },
    );
  }, 180_000);
  afterAll(async () => server?.stop());

  /** The console once the server printed its banner (it may come just after /health first answers). */
  async function startupOutput(): Promise<string> {
    const deadline = Date.now() + 20_000;
    while (!/First administrator:[^]*\n={20,}\n/.test(server.output()) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    return server.output();
  }

  it('prints the password after the "listening" lines, as the last thing at startup, and keeps it in DATA_DIR/primer-acceso.txt (mode 0600)', async () => {
    const out = await startupOutput();
    const password = /First administrator: primera@sigaf\.cl {2}password (\S+)/.exec(out)?.[1];
    expect(password, out).toMatch(/^[A-Za-z0-9]{12}$/);
    const at = out.indexOf(`password ${password}`);
    expect(out.lastIndexOf('Server listening at'), out).toBeGreaterThan(-1);
    expect(out.lastIndexOf('Server listening at'), out).toBeLessThan(at);
    expect(out.indexOf('SIGAF listening on'), out).toBeLessThan(at);
    // Nothing logged at startup comes after the box: only the requests of this test may.
    const after = out
      .slice(at)
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(
      after.every((l) => /"(incoming request|request completed)"/.test(l)),
      after.join('\n'),
    ).toBe(true);
    expect(out.slice(at)).toContain(file);

    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('primera@sigaf.cl');
    expect(text).toContain(`Password: ${password}`);
  });

  it('deletes the file once that administrator has chosen a new password at first sign-in', async () => {
    const password = /password (\S+)/.exec(
      server.output().slice(server.output().indexOf('First administrator:')),
    )![1]!;
    const login = await callApi(server.url, 'POST', '/api/auth/login', undefined, {
      email: 'primera@sigaf.cl',
      password,
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const token = login.body.access_token as string;
    const me = (await callApi(server.url, 'GET', '/api/auth/user', token)).body.user.properties;
    // A refused change (too short) leaves the file in place.
    const refused = await callApi(server.url, 'PUT', `/api/v2/users/${me.id}`, token, {
      password: '123',
      isFirstLogin: 1,
    });
    expect(refused.status).toBe(422);
    expect(fs.existsSync(file)).toBe(true);
    const changed = await callApi(server.url, 'PUT', `/api/v2/users/${me.id}`, token, {
      id: me.id,
      rut: me.rut,
      name: me.name,
      phone: '',
      mobile: '',
      email: me.email,
      role: null,
      password: 'Primer-acceso-2026',
      isFirstLogin: 1,
      role_id: me.role.id,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(fs.existsSync(file)).toBe(false);
    expect(
      (
        await callApi(server.url, 'POST', '/api/auth/login', undefined, {
          email: 'primera@sigaf.cl',
          password: 'Primer-acceso-2026',
        })
      ).status,
    ).toBe(200);
  });
});
