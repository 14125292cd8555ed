import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { RoleKey } from '@sigaf/contract';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, PGLITE_PARSERS, type Database } from '../src/db/database.js';
import { hashPassword } from '../src/lib/passwords.js';
import { TEST_ADMIN } from './fixtures.js';
import { withDatabase } from './global-setup.js';

export interface TestContext {
  app: FastifyInstance;
  db: Database;
  config: Config;
  close(): Promise<void>;
  /** Signs in and returns the bearer token. */
  login(email: string, password: string): Promise<string>;
  /** Creates a user of the given role (past first login) and returns it with a token. */
  userWithRole(
    role: RoleKey,
    opts?: { firstLogin?: boolean },
  ): Promise<{ id: number; email: string; password: string; token: string }>;
  request(opts: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
}

let counter = 0;

/** One test context for a test file and an administrator's token: opened before its tests, closed after them. */
export function fileContext(): { ctx: TestContext; admin: string } {
  const file = {} as { ctx: TestContext; admin: string };
  beforeAll(async () => {
    file.ctx = await createTestContext();
    file.admin = await file.ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => file.ctx?.close());
  return file;
}

/** A fresh database cloned from the run's template, and the real app on it. */
export async function createTestContext(overrides: Partial<Config> = {}): Promise<TestContext> {
  const config = loadConfig(
    {},
    {
      LOG_LEVEL: 'silent',
      SERVE_WEB: false,
      APP_SECRET: 'test-secret-test-secret-test-secret',
      NODE_ENV: 'test',
      // The tests change data directly between reads of the workload table: counted at every request
      // (agenda-mail.test.ts covers the kept count).
      WORKLOAD_AT_RISK_SECONDS: 0,
      ...overrides,
    },
  );
  const template = inject('pgTemplate');
  let handle: Awaited<ReturnType<typeof openDatabase>>;
  let dropDatabase: (() => Promise<void>) | null = null;
  if (template) {
    const url = process.env.DATABASE_URL!;
    const name = `sigaf_test_${process.pid}_${Date.now()}_${counter++}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    await admin.end();
    handle = await openDatabase({ url: withDatabase(url, name), dataDir: '' });
    // The server's other connections (the thread that builds whole-course answers) reach the same database.
    config.DATABASE_URL = withDatabase(url, name);
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  } else {
    const blob = new Blob([fs.readFileSync(inject('pglitePath'))]);
    const pgl = await PGlite.create({ loadDataDir: blob, parsers: PGLITE_PARSERS });
    handle = await openDatabase({ dataDir: '', pglite: pgl });
  }
  const db = handle.db;
  const app = await buildApp(config, db);
  await app.ready();
  // The seeded administrator is past first login in tests, unless a test says otherwise.
  await db
    .updateTable('users')
    .set({ is_first_login: 1 })
    .where('email', '=', TEST_ADMIN.email)
    .execute();

  const request: TestContext['request'] = ({ token, headers, ...rest }) =>
    app.inject({
      ...rest,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'x-requested-with': 'XMLHttpRequest',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
    });

  const login = async (email: string, password: string) => {
    const res = await request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
    });
    if (res.statusCode !== 200)
      throw new Error(`login failed for ${email}: ${res.statusCode} ${res.body}`);
    return res.json().access_token as string;
  };

  let userCounter = 0;
  const userWithRole: TestContext['userWithRole'] = async (role, opts = {}) => {
    const r = await db
      .selectFrom('roles')
      .select('id')
      .where('key', '=', role)
      .executeTakeFirstOrThrow();
    const email = `${role}${++userCounter}.${Date.now()}@sigaf.test`;
    const password = `Secret-${role}-${userCounter}`;
    const row = await db
      .insertInto('users')
      .values({
        name: `Usuario ${role} ${userCounter}`,
        email,
        password: await hashPassword(password),
        is_first_login: opts.firstLogin ? 0 : 1,
        role_id: r.id,
        rut: null,
        phone: null,
        mobile: '+56911111111',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, email, password, token: await login(email, password) };
  };

  return {
    app,
    db,
    config,
    request,
    login,
    userWithRole,
    close: async () => {
      await app.close();
      await handle.close();
      await dropDatabase?.();
    },
  };
}
