import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { BENCH_ADMIN, BENCH_OPERATOR_PASSWORD, seedLarge } from '../../../../scripts/seed-large.js';
import { call, rssMiB, startServer, testDatabase, type ServerProcess } from '../faults/process.js';

/**
 * Load: the real server process under 50 concurrent staff members for LOAD_SECONDS (60 by
 * default), twice. Each client is a signed-in operator (four in five) or administrator doing
 * what staff do all day, without pauses: ticket lists with filters, opening a ticket (its
 * attempts and history), creating a ticket with its first contact attempt, dashboard figures
 * and charts, the follow-up table, and now and then signing in again.
 *
 * Passes only with zero errors (every answer 2xx, no connection failure), and memory stable:
 * the server's live heap (heap used after a full garbage collection, read through
 * memory-probe.ts) after the second run may exceed the one after the first by at most
 * MEMORY_TOLERANCE (the first run warms caches, pools and compiled code). Resident memory
 * (/proc/<pid>/status) is reported alongside.
 * Runs on the PostgreSQL of DATABASE_URL (its own database), else on the embedded one, with a
 * moderate data set (scripts/seed-large.ts at small sizes; independent of the benchmark set).
 */
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 50);
/** Allowed growth of the live heap from the end of run 1 to the end of run 2. */
const MEMORY_TOLERANCE = { ratio: 0.2, minMiB: 16 };
const MiB = 1024 * 1024;

interface Staff {
  email: string;
  password: string;
  id: number;
  admin: boolean;
}

interface Context {
  courses: number[];
  /** Student enrolments per course. */
  enrolments: Map<number, number[]>;
  /** A sample of ticket ids per course (for administrators, who see all). */
  tickets: Map<number, number[]>;
  ids: Record<'open' | 'medium' | 'high' | 'phone' | 'incoming' | 'problem' | 'success', number>;
  staff: Staff[];
}

interface RunResult {
  requests: number;
  errors: Array<{ what: string; status: number; body: string }>;
  byKind: Record<string, number>;
  p95: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

/** What the clients work on, read from the seeded database (before the server opens it). */
async function loadContext(db: Database): Promise<Context> {
  const rows = async (text: string, ...params: unknown[]) => {
    const parts = text.split('?');
    const query = sql.join(
      parts.map((p, i) => (i < params.length ? sql`${sql.raw(p)}${params[i]}` : sql.raw(p))),
      sql``,
    );
    return (await sql<Record<string, unknown>>`${query}`.execute(db)).rows;
  };
  const num = (v: unknown) => Number(v);
  const courses = (
    await rows(`select course_id as id from tickets group by 1 order by count(*) desc limit 3`)
  ).map((r) => num(r.id));
  const enrolments = new Map<number, number[]>();
  const tickets = new Map<number, number[]>();
  for (const course of courses) {
    enrolments.set(
      course,
      (
        await rows(
          `select e.id from course_registered_users e join profiles p on p.id = e.profile_id and p.key = 'student' where e.course_id = ? order by e.id`,
          course,
        )
      ).map((r) => num(r.id)),
    );
    tickets.set(
      course,
      (
        await rows(`select id from tickets where course_id = ? order by id desc limit 200`, course)
      ).map((r) => num(r.id)),
    );
  }
  const key = async (table: string, k: string) =>
    num((await rows(`select id from ${table} where key = ?`, k))[0]!.id);
  const ids = {
    open: await key('status_tickets', 'open'),
    medium: await key('priority_tickets', 'medium'),
    high: await key('priority_tickets', 'high'),
    phone: await key('type_tickets', 'phone'),
    incoming: await key('source_tickets', 'incoming'),
    problem: await key('motive_tickets', 'problem'),
    success: await key('status_detail_tickets', 'success'),
  };
  const operators = (
    await rows(
      `select u.id, u.email from users u join roles r on r.id = u.role_id and r.key = 'operator' order by u.id`,
    )
  ).map((r) => ({
    id: num(r.id),
    email: String(r.email),
    password: BENCH_OPERATOR_PASSWORD,
    admin: false,
  }));
  const admin = num(
    (await rows(`select id from users where lower(email) = ?`, BENCH_ADMIN.email))[0]!.id,
  );
  return {
    courses,
    enrolments,
    tickets,
    ids,
    staff: [
      { id: admin, email: BENCH_ADMIN.email, password: BENCH_ADMIN.password, admin: true },
      ...operators,
    ],
  };
}

/** Client n's staff member: one in five is an administrator, the others spread over the operators. */
function staffOf(ctx: Context, n: number): Staff {
  const operators = ctx.staff.filter((s) => !s.admin);
  return n % 5 === 0 ? ctx.staff.find((s) => s.admin)! : operators[n % operators.length]!;
}

/** Client n's own address, as the trusted reverse proxy in front passes it on (TRUST_PROXY=1). */
function clientAddress(n: number): Record<string, string> {
  return { 'x-forwarded-for': `10.20.${Math.floor(n / 250)}.${(n % 250) + 1}` };
}

/**
 * Every client signs in once, one after another, before the load: staff work from machines they
 * have signed in from before, so their sign-ins are held by the per-IP limit only (an account
 * shared by several clients is not refused for checks in flight from its other machines).
 */
async function signInOnce(server: ServerProcess, ctx: Context) {
  for (let n = 0; n < CLIENTS; n++) {
    const me = staffOf(ctx, n);
    const r = await call(
      server.url,
      'POST',
      '/api/auth/login',
      undefined,
      { email: me.email, password: me.password },
      clientAddress(n),
    );
    if (r.status !== 200)
      throw new Error(`sign-in of client ${n}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/** One run: CLIENTS staff members working for `seconds`. */
async function run(server: ServerProcess, ctx: Context, seconds: number): Promise<RunResult> {
  const latencies: number[] = [];
  const errors: RunResult['errors'] = [];
  const byKind: Record<string, number> = {};
  const end = Date.now() + seconds * 1000;
  let serial = 0;

  const client = async (n: number) => {
    const me = staffOf(ctx, n);
    const course = ctx.courses[n % ctx.courses.length]!;
    const enrolments = ctx.enrolments.get(course)!;
    let token = '';
    const mine: number[] = [];
    // Staff work from their own machines: each client has its own address, passed on by the
    // trusted reverse proxy in front (TRUST_PROXY=1), as in a real deployment. The per-IP
    // sign-in limit then applies per staff member, not to all 50 at once.
    const from = clientAddress(n);
    const request = async (what: string, method: string, url: string, body?: unknown) => {
      const t = performance.now();
      let answer;
      try {
        answer = await call(server.url, method, url, token || undefined, body, from);
      } catch (err) {
        errors.push({ what, status: 0, body: String(err) });
        return null;
      }
      latencies.push(performance.now() - t);
      byKind[what] = (byKind[what] ?? 0) + 1;
      if (answer.status >= 300) {
        errors.push({
          what,
          status: answer.status,
          body: JSON.stringify(answer.body).slice(0, 300),
        });
        return null;
      }
      return answer.body;
    };
    const login = async () => {
      const r = await request('login', 'POST', '/api/auth/login', {
        email: me.email,
        password: me.password,
      });
      if (r) token = r.access_token;
    };
    await login();
    const qs = (o: Record<string, string | number | undefined>) =>
      new URLSearchParams(
        Object.entries(o).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
      ).toString();
    while (Date.now() < end) {
      const roll = Math.random();
      if (roll < 0.3) {
        const filters = [
          { status: 'all' },
          { status: 'open' },
          { status: 'open', priority_ticket_id: ctx.ids.high },
          { status: 'all', type_ticket_id: ctx.ids.phone, source_ticket_id: ctx.ids.incoming },
          { status: 'all', search: 'gon' },
        ];
        const f = filters[Math.floor(Math.random() * filters.length)]!;
        const list = await request(
          'tickets.list',
          'GET',
          `/api/v2/tickets?${qs({ course_id: course, page: 1 + Math.floor(Math.random() * 3), perPage: 10, ...f })}`,
        );
        if (!me.admin && list)
          for (const t of (list._data.collections ?? []).slice(0, 3))
            if (!mine.includes(t.properties.id)) mine.push(t.properties.id);
      } else if (roll < 0.5) {
        const pool = me.admin ? ctx.tickets.get(course)! : mine;
        if (!pool.length) continue;
        const id = pool[Math.floor(Math.random() * pool.length)]!;
        await request('tickets.open', 'GET', `/api/v2/tickets/${id}`);
        await request('tickets.attempts', 'GET', `/api/v2/tickets/${id}/ticket-details`);
        await request('tickets.history', 'GET', `/api/v2/tickets/${id}/history`);
      } else if (roll < 0.6) {
        const made = await request('tickets.create', 'POST', '/api/v2/tickets', {
          course_registered_user_id: enrolments[(n * 7919 + serial++) % enrolments.length],
          type_ticket_id: ctx.ids.phone,
          status_ticket_id: ctx.ids.open,
          priority_ticket_id: ctx.ids.medium,
          source_ticket_id: ctx.ids.incoming,
          motive_ticket_id: ctx.ids.problem,
          user_assigned_id: me.id,
        });
        if (!made) continue;
        const id = made._data.properties.id as number;
        mine.push(id);
        await request('tickets.first-attempt', 'POST', '/api/v2/ticket-details', {
          ticket_id: id,
          status_detail_ticket_id: ctx.ids.success,
          comment: 'Se contacta al estudiante por teléfono.',
        });
      } else if (roll < 0.8) {
        await request('dashboard.open', 'GET', `/api/v2/tickets/${course}/open/count`);
        await request('dashboard.today', 'GET', `/api/v2/tickets/${course}/last-day/count`);
        await request('dashboard.status-chart', 'GET', `/api/v2/tickets/${course}/status-chart`);
        await request(
          'dashboard.card',
          'GET',
          `/api/v2/course-registered-users/${course}/follow-student-card`,
        );
        await request(
          'dashboard.students',
          'GET',
          `/api/v2/course-registered-users/${course}/status/count`,
        );
      } else if (roll < 0.97) {
        const filters = [
          {},
          { status: 'active' },
          { inactive_days: 7 },
          { progress_below: 50, open_tickets: 1 },
          { search: 'mar' },
        ];
        const f = filters[Math.floor(Math.random() * filters.length)]!;
        await request(
          'follow-up.students',
          'GET',
          `/api/v2/follow-up/courses/${course}/students?${qs({ page: 1, perPage: 10, ...f })}`,
        );
      } else {
        await request('logout', 'GET', '/api/auth/logout');
        token = '';
        await login();
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, byKind, p95: percentile(latencies, 95) };
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

describe('load', () => {
  it(`${CLIENTS} staff members for ${SECONDS} s, twice: no errors, memory stable`, async () => {
    const database = await testDatabase('load');
    cleanups.push(() => database.dispose());
    const seeding = await openDatabase({
      url: database.url || undefined,
      dataDir: database.dataDir,
    });
    const summary = await seedLarge(seeding.db, {
      tickets: 20_000,
      students: 2_000,
      courses: 5,
      seed: 7,
      now: new Date().toISOString().slice(0, 10),
      quiet: true,
    });
    const ctx = await loadContext(seeding.db);
    await seeding.close();
    console.log(
      `load: data set of ${summary.tickets} tickets, ${summary.students} students, ${summary.enrolments} enrolments in ${(summary.ms / 1000).toFixed(1)} s (${database.url ? 'PostgreSQL' : 'embedded database'})`,
    );

    const probeFile = path.join(database.dataDir, 'memory.json');
    const server = await startServer(
      {
        DATA_DIR: database.dataDir,
        DATABASE_URL: database.url,
        NODE_ENV: 'production',
        MEMORY_PROBE_FILE: probeFile,
        TRUST_PROXY: '1',
      },
      {
        nodeArgs: [
          '--expose-gc',
          '--import',
          pathToFileURL(path.join(import.meta.dirname, 'memory-probe.ts')).href,
        ],
      },
    );
    cleanups.push(() => server.stop());
    const pid = server.child.pid!;
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rssMiB(pid)), 1000);
    cleanups.push(async () => clearInterval(sampler));
    const settle = () => new Promise((r) => setTimeout(r, 2000));
    /** Live heap and resident memory after a full collection, in MiB. */
    const probe = async () => {
      const before = fs.existsSync(probeFile)
        ? JSON.parse(fs.readFileSync(probeFile, 'utf8')).at
        : 0;
      process.kill(pid, 'SIGUSR2');
      for (let i = 0; i < 100; i++) {
        await new Promise((r) => setTimeout(r, 100));
        if (fs.existsSync(probeFile)) {
          const m = JSON.parse(fs.readFileSync(probeFile, 'utf8'));
          if (m.at !== before) return { heap: m.heapUsed / MiB, rss: m.rss / MiB };
        }
      }
      throw new Error('the memory probe did not answer');
    };

    await signInOnce(server, ctx);
    const start = await probe();
    const first = await run(server, ctx, SECONDS);
    await settle();
    const afterFirst = await probe();
    const second = await run(server, ctx, SECONDS);
    await settle();
    const afterSecond = await probe();
    clearInterval(sampler);

    const report = (name: string, r: RunResult) =>
      `load: ${name}: ${r.requests} requests (${(r.requests / SECONDS).toFixed(0)}/s), p95 ${r.p95.toFixed(0)} ms, ${r.errors.length} errors; ${JSON.stringify(r.byKind)}`;
    console.log(report('run 1', first));
    console.log(report('run 2', second));
    const allowed = Math.max(MEMORY_TOLERANCE.minMiB, afterFirst.heap * MEMORY_TOLERANCE.ratio);
    const f = (n: number) => n.toFixed(1);
    console.log(
      `load: server live heap ${f(start.heap)} MiB at start, ${f(afterFirst.heap)} after run 1, ${f(afterSecond.heap)} after run 2 (growth allowed ${f(allowed)}); ` +
        `RSS ${f(start.rss)}, ${f(afterFirst.rss)}, ${f(afterSecond.rss)} MiB (peak ${f(Math.max(...samples))})`,
    );

    expect(first.errors.slice(0, 5)).toEqual([]);
    expect(second.errors.slice(0, 5)).toEqual([]);
    expect(first.errors.length + second.errors.length).toBe(0);
    // Every kind of work was done, many times.
    for (const r of [first, second]) {
      for (const kind of [
        'login',
        'tickets.list',
        'tickets.open',
        'tickets.create',
        'tickets.first-attempt',
        'dashboard.card',
        'follow-up.students',
      ]) {
        expect(r.byKind[kind] ?? 0, kind).toBeGreaterThan(0);
      }
    }
    expect(server.child.exitCode).toBeNull();
    expect(afterSecond.heap - afterFirst.heap).toBeLessThanOrEqual(allowed);
  });
});
