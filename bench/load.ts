/**
 * Load benchmarks: the real server (a child process, as `npm start` runs it) on PostgreSQL
 * holding the large data set (scripts/seed-large.ts; generated into its own database when
 * absent and reused afterwards), measured with autocannon at 1, 10 and 50 concurrent clients.
 * Next to each endpoint: the time of the same service/repository call made directly on the
 * database (no HTTP: what the framework adds is the difference), and GET /health as the ceiling.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  FOLLOW_UP_SORTS,
  STUDENT_TICKETS_PER_PAGE,
  type FollowUpStudentsQuery,
} from '@sigaf/contract';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.js';
import { migrate, openDatabase, type Database } from '../apps/server/src/db/database.js';
import type { AuthUser } from '../apps/server/src/http/auth.js';
import { ReportRepository } from '../apps/server/src/modules/reports/repository.js';
import { ReportService } from '../apps/server/src/modules/reports/service.js';
import { createServices } from '../apps/server/src/services.js';
import { spawnServer } from '../apps/server/test/server-process.js';
import { BENCH_ADMIN, seedLarge, type LargeOptions } from '../scripts/seed-large.js';
import { startPg } from './pg.js';
import { dashboardRender } from './render.js';

export interface LoadOptions {
  quick: boolean;
  /** Only endpoints whose name contains one of these. */
  only: string[];
}

export interface LoadRow {
  name: string;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  /** Median of the direct (no HTTP) call, ms. */
  direct?: number;
}

export interface Endpoint {
  name: string;
  method?: 'GET' | 'POST';
  path: string;
  body?: () => unknown;
  /** A second request after the first (its response's `_data.id` as `ticket_id`). */
  then?: { path: string; body: (id: number) => unknown };
  direct?: () => Promise<unknown>;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

/** The data set of a run: full size, or small for `--quick`. */
export function dataset(quick: boolean): LargeOptions & { database: string } {
  const now = new Date().toISOString().slice(0, 10);
  return quick
    ? { database: 'sigaf_bench_quick', tickets: 50_000, students: 2_000, courses: 10, seed: 1, now }
    : { database: 'sigaf_bench', tickets: 1_000_000, students: 20_000, courses: 50, seed: 1, now };
}

/** Creates and fills the benchmark database unless it already holds this data set (a comment on the database says which). */
export async function ensureData(
  serverUrl: (db: string) => string,
  ds: ReturnType<typeof dataset>,
): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl('postgres') });
  await admin.connect();
  try {
    const want = JSON.stringify({
      tickets: ds.tickets,
      students: ds.students,
      courses: ds.courses,
      seed: ds.seed,
    });
    const r = await admin.query<{ comment: string | null }>(
      `select shobj_description(oid, 'pg_database') as comment from pg_database where datname = $1`,
      [ds.database],
    );
    let reuse = r.rows.length > 0 && (r.rows[0]!.comment ?? '').startsWith(want);
    if (reuse) {
      // The schema must still migrate (a data set from an older branch may not).
      const h = await openDatabase({ url: serverUrl(ds.database), dataDir: '' });
      try {
        await migrate(h.db);
      } catch (err) {
        console.log(
          `bench: ${ds.database} does not migrate (${String(err).slice(0, 120)}); generating it again`,
        );
        reuse = false;
      } finally {
        await h.close();
      }
    }
    if (reuse) {
      console.log(`bench: reusing database ${ds.database} (${r.rows[0]!.comment})`);
      return;
    }
    await admin.query(`drop database if exists ${ds.database} with (force)`);
    await admin.query(`create database ${ds.database}`);
    const h = await openDatabase({ url: serverUrl(ds.database), dataDir: '' });
    try {
      const summary = await seedLarge(h.db, ds);
      console.log(`bench: generated ${ds.database} in ${(summary.ms / 1000).toFixed(1)} s`);
    } finally {
      await h.close();
    }
    await admin.query(`comment on database ${ds.database} is '${want} generated ${ds.now}'`);
  } finally {
    await admin.end();
  }
}

export function startServer(databaseUrl: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-bench-'));
  return spawnServer(
    {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      SYNC_SCHEDULE: 'off',
    },
    { removeDataDir: dataDir },
  );
}

export async function api(
  base: string,
  method: string,
  url: string,
  token?: string,
  body?: unknown,
) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** What the endpoints are called with: the largest course and things in it. */
export async function context(db: Database, courseId?: number, operatorId?: number) {
  const q = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows;
  const [course] = await q(
    courseId === undefined
      ? sql<{
          id: number;
          n: number;
        }>`select course_id as id, count(*)::int as n from tickets group by course_id order by 2 desc, 1 limit 1`
      : sql<{
          id: number;
          n: number;
        }>`select ${courseId}::int as id, count(*)::int as n from tickets where course_id = ${courseId}`,
  );
  if (!course) throw new Error('bench: the database has no tickets');
  const [room] = await q(
    sql<{
      id: number;
    }>`select classroom_id as id from course_registered_users where course_id = ${course.id} and classroom_id is not null group by 1 order by count(*) desc, 1 limit 1`,
  );
  const [section] = await q(
    sql<{
      id: number;
    }>`select s.id from activities a join sections s on s.id = a.section_id where a.course_id = ${course.id} group by s.id order by count(*) desc, s.id limit 1`,
  );
  const acts = await q(
    sql<{
      id: number;
    }>`select id from activities where course_id = ${course.id} order by id limit 3`,
  );
  // The latest day with attempts in the course (a working day's report).
  const [day] = await q(
    sql<{
      day: string;
    }>`select to_char((max(d.created_at) at time zone 'America/Santiago')::date, 'YYYY-MM-DD') as day from ticket_details d join tickets t on t.id = d.ticket_id where t.course_id = ${course.id} and d.created_at < date_trunc('day', now())`,
  );
  const [ticket] = await q(
    sql<{
      id: number;
    }>`select t.id from tickets t where t.course_id = ${course.id} order by t.created_at desc limit 1 offset 100`,
  );
  const enrolments = (
    await q(
      sql<{
        id: number;
      }>`select e.id from course_registered_users e join profiles p on p.id = e.profile_id and p.key = 'student' where e.course_id = ${course.id} order by e.id limit 500`,
    )
  ).map((r) => r.id);
  const cat = async (table: string, key: string) =>
    (await q(sql<{ id: number }>`select id from ${sql.table(table)} where key = ${key}`))[0]!.id;
  const [operator] = await q(
    sql<{
      id: number;
    }>`select user_assigned_id as id from tickets where course_id = ${course.id} and user_assigned_id is not null group by 1 order by count(*) desc limit 1`,
  );
  // The student of the course with the most tickets: their history, and their RUT's digits as a search.
  const [student] = await q(
    sql<{
      id: number;
      rut: string;
    }>`select e.id, r.rut from course_registered_users e join registered_users r on r.id = e.registered_user_id where e.id = (select t.course_registered_user_id from tickets t where t.course_id = ${course.id} group by 1 order by count(*) desc, 1 limit 1)`,
  );
  return {
    courseId: course.id,
    courseTickets: course.n,
    classroomId: room!.id,
    sectionId: section!.id,
    activityIds: acts.map((a) => a.id),
    day: day!.day,
    ticketId: ticket!.id,
    enrolments,
    open: await cat('status_tickets', 'open'),
    high: await cat('priority_tickets', 'high'),
    medium: await cat('priority_tickets', 'medium'),
    type: await cat('type_tickets', 'phone'),
    source: await cat('source_tickets', 'incoming'),
    motive: await cat('motive_tickets', 'problem'),
    success: await cat('status_detail_tickets', 'success'),
    operatorId: operatorId ?? operator!.id,
    studentEnrolmentId: student!.id,
    studentRutDigits: student!.rut.replace(/[^0-9kK]/g, '').slice(0, -1),
  };
}

export type Ctx = Awaited<ReturnType<typeof context>>;

export function endpoints(c: Ctx, db: Database): Endpoint[] {
  const config = loadConfig(
    { ...process.env, DATABASE_URL: '' },
    { APP_SECRET: 'bench-secret-not-used-for-anything-here' },
  );
  const s = createServices(db, config);
  const studentReports = new ReportService(new ReportRepository(db), s.dashboard);
  const admin = { id: 1, roleId: 1, role: 'admin', tokenId: 0 } satisfies AuthUser;
  const course = c.courseId;
  const room = `${c.classroomId}`;
  const scope = () => s.dashboard.scope(course);
  const roomScope = () => s.dashboard.scope(course, room);
  const d = `/api/v2/tickets/${course}`;
  const e = `/api/v2/course-registered-users/${course}`;
  const r = `/api/v2/reports/courses/${course}`;
  // The ticket lists as this product's screens ask for them (compact: without the original client's
  // raw attempts and Moodle results, which its whole-list calls below still carry).
  const list = { course_id: course, page: 1, perPage: 10 };
  const compact = { compact: true };
  const filtered = {
    ...list,
    status: 'open' as const,
    priority_ticket_id: c.medium,
    type_ticket_id: c.type,
  };
  const qs = (o: Record<string, unknown>) =>
    new URLSearchParams(Object.entries(o).map(([k, v]) => [k, String(v)])).toString();
  let next = 0;
  const enrolment = () => c.enrolments[next++ % c.enrolments.length]!;
  const list_: Endpoint[] = [
    { name: 'health', path: '/health', direct: () => sql`select 1`.execute(db) },
    {
      name: 'auth.login',
      method: 'POST',
      path: '/api/auth/login',
      body: () => ({ email: BENCH_ADMIN.email, password: BENCH_ADMIN.password }),
    },
    {
      name: 'tickets.list',
      path: `/api/v2/tickets?${qs({ ...list, status: 'all', ...compact })}`,
      direct: () => s.tickets.list('queue', { ...list, status: 'all' }, admin),
    },
    {
      name: 'tickets.list.filtered',
      path: `/api/v2/tickets?${qs({ ...filtered, ...compact })}`,
      direct: () => s.tickets.list('queue', filtered, admin),
    },
    {
      name: 'tickets.list.search',
      path: `/api/v2/tickets?${qs({ ...list, status: 'all', search: 'gonz', ...compact })}`,
      direct: () => s.tickets.list('queue', { ...list, status: 'all', search: 'gonz' }, admin),
    },
    {
      name: 'tickets.one',
      path: `/api/v2/tickets/${c.ticketId}`,
      direct: async () => [
        await s.tickets.get(c.ticketId),
        await s.ticketDetails.ofTickets([c.ticketId]),
      ],
    },
    {
      name: 'tickets.create',
      method: 'POST',
      path: '/api/v2/tickets',
      body: () => ({
        course_registered_user_id: enrolment(),
        type_ticket_id: c.type,
        status_ticket_id: c.open,
        priority_ticket_id: c.medium,
        source_ticket_id: c.source,
        motive_ticket_id: c.motive,
        user_assigned_id: c.operatorId,
      }),
      then: {
        path: '/api/v2/ticket-details',
        body: (id) => ({
          ticket_id: id,
          status_detail_ticket_id: c.success,
          comment: 'Se contacta al estudiante (benchmark).',
        }),
      },
    },
    // Dashboard (dashboard/routes.ts).
    {
      name: 'dashboard.count.total',
      path: `${d}/total/count`,
      direct: () => s.dashboard.ticketCount(course, 'total'),
    },
    {
      name: 'dashboard.count.last-day',
      path: `${d}/last-day/count`,
      direct: () => s.dashboard.ticketCount(course, 'today'),
    },
    {
      name: 'dashboard.count.open',
      path: `${d}/open/count`,
      direct: () => s.dashboard.ticketCount(course, 'open'),
    },
    {
      name: 'dashboard.count.close',
      path: `${d}/close/count`,
      direct: () => s.dashboard.ticketCount(course, 'closed'),
    },
    {
      name: 'dashboard.source-chart',
      path: `${d}/source-chart`,
      direct: () => s.dashboard.catalogueChart(course, 'source'),
    },
    {
      name: 'dashboard.type-chart',
      path: `${d}/type-chart`,
      direct: () => s.dashboard.catalogueChart(course, 'type'),
    },
    {
      name: 'dashboard.priority-chart',
      path: `${d}/priority-chart`,
      direct: () => s.dashboard.catalogueChart(course, 'priority'),
    },
    {
      name: 'dashboard.status-chart',
      path: `${d}/status-chart`,
      direct: () => s.dashboard.catalogueChart(course, 'status'),
    },
    {
      name: 'dashboard.motive-chart',
      path: `${d}/motive-chart`,
      direct: () => s.dashboard.motiveChart(course),
    },
    {
      name: 'dashboard.age-chart',
      path: `${d}/age-chart`,
      direct: () => s.dashboard.ageChart(course),
    },
    {
      name: 'dashboard.status-operator-chart',
      path: `${d}/status-operator-chart`,
      direct: () => s.dashboard.statusOperatorChart(course),
    },
    {
      name: 'dashboard.status-motive-chart',
      path: `${d}/status-motive-chart`,
      direct: () => s.dashboard.statusMotiveChart(course),
    },
    {
      name: 'dashboard.students.status',
      path: `${e}/status/count`,
      direct: async () => s.dashboard.statusChart(await scope()),
    },
    {
      name: 'dashboard.students.logged-time',
      path: `${e}/logged-time/count`,
      direct: async () => s.dashboard.loggedTimeChart(await scope()),
    },
    {
      name: 'dashboard.students.card',
      path: `${e}/follow-student-card`,
      direct: async () => s.dashboard.card(await scope()),
    },
    {
      name: 'dashboard.students.progress',
      path: `${e}/progress-chart`,
      direct: async () => s.dashboard.progressChart(await scope(), 'graded'),
    },
    {
      name: 'dashboard.students.progress-avance',
      path: `${e}/progress-chart-avance`,
      direct: async () => s.dashboard.progressChart(await scope(), 'completed'),
    },
    {
      name: 'dashboard.classroom.card',
      path: `${e}/classrooms/${room}/follow-student-classroom`,
      direct: async () => s.dashboard.card(await roomScope()),
    },
    {
      name: 'dashboard.classroom.status',
      path: `${e}/classrooms/${room}/status-user-classroom`,
      direct: async () => s.dashboard.statusChart(await roomScope()),
    },
    {
      name: 'dashboard.classroom.progress',
      path: `${e}/classrooms/${room}/progress-classroom-chart`,
      direct: async () => s.dashboard.progressChart(await roomScope(), 'graded'),
    },
    {
      name: 'dashboard.classroom.section-progress',
      path: `${e}/classrooms/${room}/sections/${c.sectionId}/progress-activities`,
      direct: async () =>
        s.dashboard.activityProgressChart(await roomScope(), `${c.sectionId}`, 'graded'),
    },
    {
      name: 'dashboard.classroom.section-progress-avance',
      path: `${e}/classrooms/${room}/sections/${c.sectionId}/progress-activities-avance`,
      direct: async () =>
        s.dashboard.activityProgressChart(await roomScope(), `${c.sectionId}`, 'completed'),
    },
    {
      name: 'dashboard.students-on-activities',
      path: `/api/v2/activities/${JSON.stringify(c.activityIds)}/course-registered-users/${course}?page=1`,
      direct: () =>
        s.dashboard.studentsOnActivities(course, c.activityIds, undefined, {
          page: 1,
          perPage: 20,
        }),
    },
    // The original's unpaged answer (every student of the course), reported without a budget.
    {
      name: 'dashboard.students-on-activities.all',
      path: `/api/v2/activities/${JSON.stringify(c.activityIds)}/course-registered-users/${course}`,
      direct: () => s.dashboard.studentsOnActivities(course, c.activityIds),
    },
    // Reports (reports/routes.ts): the JSON ones; the file exports are not request-time reads.
    {
      name: 'reports.data-card',
      path: `${r}/data-card/${c.day}`,
      direct: () => s.dashboard.dayCard(course, c.day),
    },
    {
      name: 'reports.type-ticket',
      path: `${r}/type-ticket/${c.day}`,
      direct: () => s.dashboard.dayCharts(course, c.day),
    },
    {
      name: 'reports.table-operator',
      path: `${r}/table-operator/${c.day}`,
      direct: () => s.dashboard.operatorTable(course, c.day),
    },
    {
      name: 'reports.student-tickets',
      path: `${r}/student-tickets?page=1`,
      direct: () =>
        studentReports.studentTicketsPage(course, undefined, 1, STUDENT_TICKETS_PER_PAGE),
    },
    // The original client's whole-list calls (docs/development/original-api.md §2.10, §2.14): the Ticket screen's
    // "Buscar" (the course's open tickets, each with its attempts and its enrolment's Moodle results),
    // the course's raw enrolments (before "Masivo"), a student's ticket history, and a RUT search.
    {
      name: 'tickets.course.all',
      path: `/api/v2/tickets/course-registered-users/course/${course}`,
      direct: () => s.tickets.list('course', { course_id: course }, admin),
    },
    {
      name: 'enrolments.all',
      path: `/api/v2/course-registered-user/${course}/users/all`,
      direct: () => s.enrolments.list({ courseId: course }),
    },
    {
      name: 'tickets.enrolment-history',
      path: `/api/v2/course-registered-user/${c.studentEnrolmentId}/tickets`,
      direct: () =>
        s.tickets.list('search', { enrolmentId: c.studentEnrolmentId }, admin, { scoped: false }),
    },
    {
      name: 'tickets.list.search-rut',
      path: `/api/v2/tickets?${qs({ ...list, status: 'all', search: c.studentRutDigits, ...compact })}`,
      direct: () =>
        s.tickets.list('queue', { ...list, status: 'all', search: c.studentRutDigits }, admin),
    },
  ];
  // The follow-up student table (modules/follow-up): plain, by each filter and by each sort.
  const followUp = (
    name: string,
    q: FollowUpStudentsQuery,
    query: Record<string, unknown> = q,
  ): Endpoint => ({
    name: `follow-up.students${name}`,
    path: `/api/v2/follow-up/courses/${course}/students?${qs({ page: 1, perPage: 10, ...query })}`,
    direct: () => s.followUp.students(admin, course, { page: 1, perPage: 10, ...q }),
  });
  list_.push(
    followUp('', {}),
    followUp(
      '.filtered',
      { classroom_id: c.classroomId, inactive_days: 7, open_tickets: true },
      { classroom_id: c.classroomId, inactive_days: 7, open_tickets: 1 },
    ),
    followUp('.filter.status', { status: 'resigning' }),
    followUp('.filter.inactive', { inactive_days: 7 }),
    followUp('.filter.progress', { progress_below: 50 }),
    followUp('.filter.open-tickets', { open_tickets: true }, { open_tickets: 1 }),
    followUp('.filter.classroom', { classroom_id: c.classroomId }),
    followUp('.filter.search', { search: 'gonz' }),
    ...FOLLOW_UP_SORTS.map((sort) => followUp(`.sort.${sort}`, { sort, order: 'desc' })),
  );
  // Mi agenda's three sections (one of the course's operators, as an administrator looking at their
  // agenda) and the app bar's badge (asked by every signed-in user every 30 s).
  const agendaQ = { page: 1, perPage: 10, user_id: c.operatorId };
  const operator = { ...admin, id: c.operatorId, role: 'operator' } satisfies AuthUser;
  list_.push(
    {
      name: 'agenda.reminders',
      path: `/api/v2/agenda/reminders?${qs(agendaQ)}`,
      direct: () => s.agenda.dueReminders(admin, agendaQ),
    },
    {
      name: 'agenda.students',
      path: `/api/v2/agenda/students?${qs(agendaQ)}`,
      direct: () => s.agenda.students(admin, agendaQ),
    },
    {
      name: 'agenda.tickets',
      path: `/api/v2/agenda/tickets?${qs(agendaQ)}`,
      direct: () => s.agenda.staleTickets(admin, agendaQ),
    },
    {
      name: 'reminders.due-count',
      path: '/api/v2/reminders/due-count',
      direct: () => s.reminders.dueCount(operator),
    },
  );
  return list_;
}

/** Median of `runs` sequential direct calls (after one warm-up). */
async function timeDirect(fn: () => Promise<unknown>, runs: number): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return percentile(times, 50);
}

export async function load(
  base: string,
  token: string,
  ep: Endpoint,
  connections: number,
  seconds: number,
): Promise<LoadRow> {
  const latencies: number[] = [];
  let errors = 0;
  // As a browser asks (the original client's whole-course answers are sent gzipped to those who accept it).
  const headers = {
    'content-type': 'application/json',
    'accept-encoding': 'gzip, deflate, br',
    authorization: `Bearer ${token}`,
  };
  const requests: autocannon.Request[] = [
    {
      method: ep.method ?? 'GET',
      path: ep.path,
      headers,
      ...(ep.body
        ? {
            setupRequest: (req: autocannon.Request) => ({
              ...req,
              body: JSON.stringify(ep.body!()),
            }),
          }
        : {}),
      ...(ep.then
        ? {
            onResponse: (status: number, body: string, context: object) => {
              if (status < 300)
                (context as { id?: number }).id = JSON.parse(body)._data?.properties?.id;
            },
          }
        : {}),
    },
  ];
  if (ep.then) {
    const then = ep.then;
    requests.push({
      method: 'POST',
      path: then.path,
      headers,
      setupRequest: (req: autocannon.Request, context: object) => ({
        ...req,
        body: JSON.stringify(then.body(Number((context as { id?: number }).id))),
      }),
    });
  }
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url: base, connections, duration: seconds, requests, timeout: 30 },
      (err, r) => (err ? reject(err) : resolve(r)),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      latencies.push(ms);
      if (status >= 400) errors++;
    });
  });
  latencies.sort((a, b) => a - b);
  return {
    name: ep.name,
    connections,
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    // Requests still unanswered when the run ended count as errors (none answered: all of them).
    errors: errors + result.errors + result.timeouts + (latencies.length ? 0 : connections),
  };
}

/** Waits until the server answers GET /health quickly again (requests of a slow endpoint may still be queued). */
export async function drain(base: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  let quick = 0;
  while (Date.now() < deadline && quick < 3) {
    const t = performance.now();
    await fetch(`${base}/health`).then(
      (r) => r.text(),
      () => undefined,
    );
    quick = performance.now() - t < 20 ? quick + 1 : 0;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function loadBench(
  opts: LoadOptions,
): Promise<{ rows: LoadRow[]; results: Record<string, number>; info: Record<string, unknown> }> {
  const server = await startPg();
  const ds = dataset(opts.quick);
  try {
    await ensureData(server.url, ds);
    const dbUrl = server.url(ds.database);
    const h = await openDatabase({ url: dbUrl, dataDir: '' });
    const app = await startServer(dbUrl);
    const rows: LoadRow[] = [];
    const results: Record<string, number> = {};
    // The tickets the creation benchmark adds (attempts and history go with them, counts follow by
    // trigger) are removed once it is measured: every other endpoint and run reads the generated set.
    const {
      rows: [before],
    } = await sql<{ id: number }>`select coalesce(max(id), 0)::int as id from tickets`.execute(
      h.db,
    );
    const removeCreated = async () => {
      await sql`delete from tickets where id > ${before!.id}`.execute(h.db);
      await sql`vacuum analyze tickets`.execute(h.db).catch(() => undefined);
    };
    try {
      const c = await context(h.db);
      console.log(
        `bench: course ${c.courseId} (${c.courseTickets} tickets), classroom ${c.classroomId}, day ${c.day}, ticket ${c.ticketId}`,
      );
      const token = (
        await api(app.url, 'POST', '/api/auth/login', undefined, {
          email: BENCH_ADMIN.email,
          password: BENCH_ADMIN.password,
        })
      ).access_token as string;
      const all = endpoints(c, h.db);
      const chosen = opts.only.length
        ? all.filter((e) => e.name === 'health' || opts.only.some((o) => e.name.includes(o)))
        : all;
      const seconds = opts.quick ? 2 : 5;
      for (const ep of chosen) {
        // Warm-up (plans, caches, connections), then each concurrency level.
        await load(app.url, token, ep, 2, 1);
        const direct = ep.direct ? await timeDirect(ep.direct, opts.quick ? 10 : 30) : undefined;
        let errors = 0;
        for (const connections of [1, 10, 50]) {
          const row = { ...(await load(app.url, token, ep, connections, seconds)), direct };
          await drain(app.url);
          rows.push(row);
          errors += row.errors;
          console.log(
            `  ${ep.name.padEnd(44)} c${String(connections).padEnd(3)} p50 ${row.p50.toFixed(1).padStart(6)}  p95 ${row.p95.toFixed(1).padStart(6)}  p99 ${row.p99.toFixed(1).padStart(6)} ms  ${row.rps.toFixed(0).padStart(5)} req/s  ${row.errors ? `${row.errors} errors` : ''}`,
          );
          results[`load.${ep.name}.c${connections}.p95.ms`] = row.p95;
          results[`load.${ep.name}.c${connections}.rps`] = row.rps;
        }
        results[`load.${ep.name}.errors`] = errors;
        if (direct !== undefined) results[`load.${ep.name}.direct.ms`] = direct;
        if (ep.method === 'POST') await removeCreated();
      }
      if (!opts.only.length || opts.only.includes('render'))
        Object.assign(results, await dashboardRender(app.url, token, h.db, c.courseId));
    } finally {
      await app.stop();
      await removeCreated();
      await h.close();
    }
    return { rows, results, info: { dataset: ds } };
  } finally {
    await server.stop();
  }
}
