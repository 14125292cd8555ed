import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../src/demo/seed.js';
import { PDF } from './mail-data.js';
import { callApi, spawnServer, type ServerProcess } from './server-process.js';

/**
 * DATA_DIR is the server's user's only: created 0700 and everything the server writes in it
 * (the embedded database, the outbox's .eml files, uploads) unreadable by any other local user,
 * even when the server is started with umask 000; an existing DATA_DIR open to others is narrowed
 * to 0700 at start. The real server, as `npm start` starts it (the demo, for students to write to).
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-data-dir-'));
const dataDir = path.join(root, 'data');
let server: ServerProcess;

/** Starts the server with umask 000 (the most permissive environment): the server must set its own. */
async function start(env: Record<string, string>, name: string) {
  const previous = process.umask(0);
  try {
    return await spawnServer(
      { DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '', LOG_LEVEL: 'warn', ...env },
      { name },
    );
  } finally {
    process.umask(previous);
  }
}

/** Every folder under `dir`, and every file outside `except`, whose mode lets group or others in, with its mode. */
function openToOthers(dir: string, except: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const mode = fs.lstatSync(file).mode & 0o777;
    if (entry.isFile() && file.startsWith(except + path.sep)) continue;
    if (!entry.isSymbolicLink() && mode & 0o077)
      out.push(`${path.relative(dir, file)} ${mode.toString(8)}`);
  }
  return out;
}

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

async function waitFor<T>(read: () => T | undefined, what: string, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`${what}: not there after ${ms} ms\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  server = await start({ DEMO: 'true' }, 'private data dir');
}, 180_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('DATA_DIR is the server user’s only', () => {
  it('a fresh DATA_DIR is 0700 and nothing in it (database, outbox, uploads) is open to other users', async () => {
    const login = await callApi(server.url, 'POST', '/api/auth/login', undefined, {
      email: 'demo.admin@sigaf.cl',
      password: DEMO_PASSWORD,
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const token = login.body.access_token as string;
    // An upload.
    const form = new FormData();
    form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'programa.pdf');
    const upload = await fetch(`${server.url}/api/v2/mail/upload/file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' },
      body: form,
    });
    expect(upload.status, await upload.clone().text()).toBeLessThan(300);
    // A mail to a student of the demo, delivered into DATA_DIR/outbox as an .eml file.
    const course = (await callApi(server.url, 'GET', '/api/v2/follow-up/courses', token)).body._data
      .collections[0].properties.id as number;
    const students = (
      await callApi(
        server.url,
        'GET',
        `/api/v2/follow-up/courses/${course}/students?perPage=20`,
        token,
      )
    ).body._data.collections.map(
      (c: { properties: { id: number; email: string | null } }) => c.properties,
    );
    const to = students.find((s: { email: string | null }) => s.email)!;
    const sent = await callApi(server.url, 'POST', '/api/v2/follow-up/mail', token, {
      enrolmentIds: [to.id],
      subject: 'Hola',
      text: '<p>Hola</p>',
      CCRecipient: [],
      files: [],
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const outbox = path.join(dataDir, 'outbox');
    const eml = await waitFor(
      () =>
        fs.existsSync(outbox) ? fs.readdirSync(outbox).find((f) => f.endsWith('.eml')) : undefined,
      'the .eml file',
    );

    expect(modeOf(dataDir)).toBe(0o700);
    // The embedded database gives most of its files mode 0666 whatever the umask (PGlite sets it):
    // they are out of other users' reach because DATA_DIR and every folder down to them are 0700.
    const pgdata = path.join(dataDir, 'pgdata');
    expect(fs.existsSync(path.join(pgdata, 'global', 'pg_control'))).toBe(true);
    expect(modeOf(pgdata)).toBe(0o700);
    expect(modeOf(path.join(pgdata, 'global'))).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'app-secret'))).toBe(0o600);
    expect(modeOf(path.join(outbox, eml))).toBe(0o600);
    const uploads = fs.readdirSync(path.join(dataDir, 'uploads'));
    expect(uploads).toHaveLength(1);
    expect(modeOf(path.join(dataDir, 'uploads', uploads[0]!))).toBe(0o600);
    expect(openToOthers(dataDir, pgdata)).toEqual([]);
  });

  it('an existing DATA_DIR open to others is narrowed to 0700 at start', async () => {
    await server.stop();
    fs.chmodSync(dataDir, 0o777);
    server = await start({ DEMO: 'false' }, 'existing data dir');
    expect(modeOf(dataDir)).toBe(0o700);
  });
});
