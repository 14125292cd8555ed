import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { FIRST_LOGIN_DONE } from '@sigaf/contract';
import { migrate, openDatabase, PGLITE_PARSERS, type Database } from '../src/db/database.js';
import { seed } from '../src/db/seed.js';
import { TEST_ADMIN } from './fixtures.js';

/** The tests' administrator has already replaced the temporary password (first-login tests use users of their own). */
async function adminReady(db: Database) {
  await db
    .updateTable('users')
    .set({ is_first_login: FIRST_LOGIN_DONE })
    .where('email', '=', TEST_ADMIN.email.toLowerCase())
    .execute();
}

/**
 * Migrates and seeds one database per test run; every test file then gets its own copy:
 * a clone of a PGlite data directory, or a PostgreSQL database created from a template.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = `sigaf_test_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const templateUrl = withDatabase(url, template);
    const handle = await openDatabase({ url: templateUrl, dataDir: '' });
    await migrate(handle.db);
    await seed(handle.db, {
      adminEmail: TEST_ADMIN.email,
      adminPassword: TEST_ADMIN.password,
      adminName: TEST_ADMIN.name,
    });
    await adminReady(handle.db);
    await adminReady(handle.db);
    await handle.close();
    project.provide('pgTemplate', template);
    project.provide('pglitePath', '');
    return async () => {
      const dbs = await admin.query(
        `select datname from pg_database where datname like 'sigaf_test_%'`,
      );
      for (const row of dbs.rows)
        await admin.query(`drop database if exists ${row.datname} with (force)`);
      await admin.end();
    };
  }
  const pgl = await PGlite.create({ parsers: PGLITE_PARSERS });
  const handle = await openDatabase({ dataDir: '', pglite: pgl });
  await migrate(handle.db);
  await seed(handle.db, {
    adminEmail: TEST_ADMIN.email,
    adminPassword: TEST_ADMIN.password,
    adminName: TEST_ADMIN.name,
  });
  await adminReady(handle.db);
  const dump = await pgl.dumpDataDir('none');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-test-')), 'template.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('pgTemplate', '');
  project.provide('pglitePath', file);
  return () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: string;
    pglitePath: string;
  }
}
