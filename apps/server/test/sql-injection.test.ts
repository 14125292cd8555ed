import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { StudentFiguresRepository } from '../src/modules/dashboard/student-figures.js';
import { RECOMPUTED_FIGURES } from './data.js';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';
import { seedMailTickets } from './mail-data.js';

/**
 * SQL injection probes on every text filter of the API (every GET with a string query
 * parameter in the OpenAPI document): no 5xx, nothing matched that a literal search would not
 * match, no statement executed (no delay from pg_sleep), and the database unchanged.
 */
type Json = Record<string, any>;

const PROBES = [
  "' OR '1'='1",
  "') OR ('1'='1",
  "%' OR 1=1 --",
  '%',
  '\\',
  "'; drop table users; --",
  "1; update users set name = 'pwned'",
  "' union select email, password from users --",
  "'||(select password from users limit 1)||'",
  '"; select 1; --',
  '$1',
  "E'\\x27",
];
const SLEEPS = [
  "'; select pg_sleep(3); --",
  "' || pg_sleep(3) || '",
  '1 and (select 1 from pg_sleep(3)) is not null',
];

let ctx: TestContext;
let token: string;
let data: Awaited<ReturnType<typeof seedMailTickets>>;
let adminId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  // The probes are timed: the thread that builds whole-course answers starts first, as the server does at its start.
  await ctx.app.services.answers.builder!.warm();
  token = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  adminId = (
    await ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', TEST_ADMIN.email)
      .executeTakeFirstOrThrow()
  ).id;
  data = await seedMailTickets(ctx.db, adminId, 3);
}, 60_000);
afterAll(async () => ctx?.close());

async function snapshot(db: Database): Promise<string> {
  const tables = (
    await sql<{
      name: string;
    }>`select tablename as name from pg_tables where schemaname = 'public' and tablename not like 'kysely_%' and tablename <> all(${RECOMPUTED_FIGURES}::text[]) order by 1`.execute(
      db,
    )
  ).rows;
  const parts = tables.map(
    ({ name }) =>
      sql`select ${name} as t, md5(coalesce(string_agg(j, ',' order by j), '')) as s from (select (to_jsonb(x) - 'last_used_at')::text as j from ${sql.id(name)} x) y`,
  );
  const rows = (
    await sql<{ t: string; s: string }>`${sql.join(parts, sql` union all `)}`.execute(db)
  ).rows;
  return JSON.stringify(rows);
}

/** A real value for each path parameter, so that the filters run on real rows. */
function fill(path: string): string {
  const ticketCode = `MAIL-${data.tag}-0`;
  return path
    .replace('/course-registered-user/{id}', `/course-registered-user/${data.enrolment}`)
    .replace('/tickets/operator/{id}', `/tickets/operator/${adminId}`)
    .replace('/tickets/code/{code}', `/tickets/code/${ticketCode}`)
    .replace('/tickets/dates/{from}/{to}', '/tickets/dates/2000-01-01/2100-01-01')
    .replace(
      '/tickets/course-registered-users/course/{id}',
      `/tickets/course-registered-users/course/${data.course}`,
    )
    .replace('/tickets/{id}', `/tickets/${data.tickets[0]}`)
    .replace(/\/courses\/\{id\}/, `/courses/${data.course}`)
    .replace(/\{[^}]+\}/g, '1');
}

describe('SQL injection probes', () => {
  it('every text filter treats the probes as text', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/api/docs/json', token })).json();
    const targets: Array<{ path: string; param: string }> = [];
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const p of item.get?.parameters ?? []) {
        if (p.in === 'query' && (p.schema?.type === 'string' || !p.schema?.type) && !p.schema?.enum)
          targets.push({ path, param: p.name });
      }
    }
    expect(targets.length).toBeGreaterThan(50);
    expect(targets.some((t) => t.path === '/api/v2/tickets' && t.param === 'search')).toBe(true);
    // A read brings a course's cached figures up to date after a change (by design): start from
    // up-to-date ones, so that any change below is a probe's doing.
    const courses = (await ctx.db.selectFrom('courses').select('id').execute()).map((c) => c.id);
    await new StudentFiguresRepository(ctx.db).freshAll(courses);
    const before = await snapshot(ctx.db);
    const problems: string[] = [];
    let searched = 0;
    for (const { path, param } of targets) {
      const base = fill(path);
      const withCourse = /\/tickets(\/export)?$|ticket-details$|course-registered-users$/.test(base)
        ? `&course_id=${data.course}`
        : '';
      for (const probe of [...PROBES, ...SLEEPS]) {
        const url = `${base}?page=1&perPage=50${withCourse}&${param}=${encodeURIComponent(probe)}`;
        const started = Date.now();
        const res = await ctx.request({ method: 'GET', url, token });
        const ms = Date.now() - started;
        const where = `GET ${url} -> ${res.statusCode}`;
        if (res.statusCode >= 500) problems.push(`${where}: ${res.body.slice(0, 200)}`);
        if (ms > 2000) problems.push(`${where}: took ${ms} ms (a statement ran?)`);
        const type = String(res.headers['content-type'] ?? '');
        if (res.statusCode !== 200 || !type.includes('json')) continue;
        const body = res.json();
        if (body.success !== true) problems.push(`${where}: not an envelope`);
        // A search for the probe matches only rows holding that very text: none here.
        const meta = body._data?.meta;
        if (param === 'search' && meta && typeof meta.total === 'number') {
          searched++;
          if (meta.total !== 0)
            problems.push(
              `${where}: the search for ${JSON.stringify(probe)} matched ${meta.total} rows`,
            );
        }
      }
    }
    expect(problems).toEqual([]);
    expect(searched).toBeGreaterThan(100);
    // Nothing was changed, dropped or updated.
    expect(await snapshot(ctx.db)).toBe(before);
    expect(
      (await ctx.db.selectFrom('users').select('name').where('name', '=', 'pwned').execute())
        .length,
    ).toBe(0);
  }, 300_000);

  it('a literal search still finds what it should (the probes are not simply ignored)', async () => {
    const res = await ctx.request({
      method: 'GET',
      url: `/api/v2/tickets?course_id=${data.course}&page=1&perPage=50&search=${encodeURIComponent(`MAIL-${data.tag}-1`)}`,
      token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()._data.meta.total).toBe(1);
    // A student whose name holds a quote and a percent sign is found by exactly that text.
    await ctx.db
      .updateTable('registered_users')
      .set({ name: "O'Higgins 100%" })
      .where('rut', '=', `${data.tag}2-K`)
      .execute();
    const quoted = await ctx.request({
      method: 'GET',
      url: `/api/v2/registered-users?page=1&perPage=50&search=${encodeURIComponent("O'Higgins 100%")}`,
      token,
    });
    expect(quoted.json()._data.meta.total).toBe(1);
  });
});
