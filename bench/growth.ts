/**
 * Growth benchmark (`npm run bench -- --growth`; not part of the default run: it needs the 10 M
 * data set). The same-sized course is measured in the 1 M data set (50 courses, `sigaf_bench`) and
 * in the 10 M one (500 courses, 200,000 students, `sigaf_bench_10m`; generated like the other on
 * first use, which takes about half an hour): every course-level endpoint of the load benchmark at
 * 10 clients on both, reported as the ratio of their p95 latencies, and the organisation-wide
 * searches (staff list, student search, Administración ticket by code, dates and operator) at
 * 10 M against their own budget. Mi agenda's reads grow with an operator's courses, not with the
 * database: on the 10 M side they are asked for the operator whose courses hold as many students
 * as those of the 1 M side's operator.
 *
 * Ratios of small numbers are mostly noise, so each side's p95 counts as at least FLOOR_MS. The
 * two servers run side by side and each endpoint is measured 1 M, 10 M, 10 M, 1 M (the mean p95 of
 * each side): a change in the machine's load during the run weighs on both sides alike.
 */
import os from 'node:os';
import { sql } from 'kysely';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase, type Database } from '../apps/server/src/db/database.js';
import { createServices } from '../apps/server/src/services.js';
import { DIM } from '../apps/server/src/modules/dashboard/sql.js';
import { keepOutcomes } from '../apps/server/src/kept/outcomes-keeper.js';
import { BENCH_ADMIN } from '../scripts/seed-large.js';
import {
  api,
  context,
  dataset,
  drain,
  endpoints,
  ensureData,
  load,
  percentile,
  startServer,
  type Ctx,
  type Endpoint,
} from './load.js';
import { startPg } from './pg.js';
import { writeRaw } from './raw.js';

/** p95 values below this count as this much in a ratio (ms). */
export const FLOOR_MS = 2;
/**
 * The load endpoints the server keeps serialised per course (modules/answers): at 10 clients they
 * are served kept, so their warm ratio compares kept answers. Each is also measured cold: one
 * request after the course's answer version moved on (what any write in the course does), COLD_RUNS
 * times per side, the sides taken by turns.
 */
const KEPT = new Set([
  'tickets.course.all',
  'enrolments.all',
  'dashboard.students-on-activities.all',
  'reports.student-tickets',
  'tickets.enrolment-history',
]);
const COLD_RUNS = 5;
/** Load endpoints that are not about one course. */
const NOT_COURSE_LEVEL = new Set(['health', 'auth.login', 'tickets.create']);

export interface GrowthOptions {
  quick: boolean;
  /** Only endpoints whose name contains one of these (all when empty). */
  only?: string[];
  /** The two data sets (by default the full one and the 10 M one). */
  sets?: [ReturnType<typeof dataset>, ReturnType<typeof dataset>];
}

/** The 10 M data set: ten times the courses, students and tickets of the full one; courses of the same sizes. */
export function growthDataset(): ReturnType<typeof dataset> {
  return {
    ...dataset(false),
    database: 'sigaf_bench_10m',
    tickets: 10_000_000,
    students: 200_000,
    courses: 500,
  };
}

interface CourseSize {
  id: number;
  tickets: number;
  enrolments: number;
  activities: number;
}

async function courseSizes(db: Database): Promise<CourseSize[]> {
  const { rows } = await sql<CourseSize>`
    select c.id, coalesce(t.n, 0)::int as tickets,
      (select count(*) from course_registered_users e where e.course_id = c.id)::int as enrolments,
      (select count(*) from activities a where a.course_id = c.id)::int as activities
    from courses c left join (select course_id, count(*) as n from tickets group by course_id) t on t.course_id = c.id`.execute(
    db,
  );
  return rows;
}

/**
 * The course of `sizes` most like `target`: among those within 1 % of its tickets, the one with
 * the closest number of activities, then of enrolments, then of tickets.
 */
export function sameSized(target: CourseSize, sizes: CourseSize[]): CourseSize {
  const near = sizes.filter((s) => Math.abs(s.tickets - target.tickets) <= target.tickets * 0.01);
  const pool = near.length ? near : sizes;
  const key = (s: CourseSize) => [
    near.length ? Math.abs(s.activities - target.activities) : 0,
    near.length ? Math.abs(s.enrolments - target.enrolments) : 0,
    Math.abs(s.tickets - target.tickets),
    s.id,
  ];
  return [...pool].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! - kb[i]!;
    return 0;
  })[0]!;
}

/**
 * Students in the courses where each operator has tickets assigned (what Mi agenda reads for
 * them), from the kept counts (dimension 5 of ticket_counts: the assignee; dashboard/sql.ts DIM).
 */
async function operatorWorkloads(db: Database): Promise<Map<number, number>> {
  const { rows } = await sql<{ id: number; students: number }>`
    select x.id, count(*)::int as students
    from (select distinct value as id, course_id from ticket_counts where dim = ${DIM.operator} and value > 0 and n > 0) x
    join course_registered_users e on e.course_id = x.course_id
    group by 1`.execute(db);
  return new Map(rows.map((r) => [r.id, r.students]));
}

/** The operator whose workload is nearest the given one (then the lowest id). */
function sameWorkload(target: number, loads: Map<number, number>): number {
  return [...loads].sort(
    (a, b) => Math.abs(a[1] - target) - Math.abs(b[1] - target) || a[0] - b[0],
  )[0]![0];
}

/** The organisation-wide reads: a page of each, as the screens ask for them. */
async function orgEndpoints(c: Ctx, db: Database): Promise<Endpoint[]> {
  const [ticket] = (
    await sql<{
      code: string;
    }>`select ticket_code as code from tickets where id = ${c.ticketId}`.execute(db)
  ).rows;
  // A week of the Administración screen's date range, ending on the course's latest working day.
  const to = c.day;
  const from = new Date(Date.parse(`${to}T12:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10);
  const page = 'page=1&perPage=10';
  // Administración as this product's screen asks (GET /tickets with the filters, newest first,
  // compact); the original client's routes for the same searches are reported beside them.
  const admin = `status=all&${page}&sort=createdAt&order=desc&compact=true`;
  return [
    { name: 'org.users.list', path: '/api/v2/users' },
    { name: 'org.students.search', path: `/api/v2/registered-users?${page}&search=gonz` },
    {
      name: 'org.tickets.code',
      path: `/api/v2/tickets?${admin}&search=${encodeURIComponent(ticket!.code)}`,
    },
    { name: 'org.tickets.dates', path: `/api/v2/tickets?${admin}&from=${from}&to=${to}` },
    {
      name: 'org.tickets.operator',
      path: `/api/v2/tickets?${admin}&user_assigned_id=${c.operatorId}`,
    },
    {
      name: 'org.original.tickets.code',
      path: `/api/v2/tickets/code/${encodeURIComponent(ticket!.code)}?${page}`,
    },
    { name: 'org.original.tickets.dates', path: `/api/v2/tickets/dates/${from}/${to}?${page}` },
    {
      name: 'org.original.tickets.operator',
      path: `/api/v2/tickets/operator/${c.operatorId}?${page}`,
    },
  ];
}

interface Side {
  label: string;
  db: Database;
  url: string;
  token: string;
  ctx: Ctx;
  size: CourseSize;
  /** Students in the operator's courses. */
  workload: number;
  endpoints: Map<string, Endpoint>;
  close(): Promise<void>;
}

async function openSide(
  label: string,
  url: string,
  pick: (db: Database) => Promise<number | undefined>,
  workload?: number,
): Promise<Side> {
  const h = await openDatabase({ url, dataDir: '' });
  const courseId = await pick(h.db);
  // The operator-level reads (Mi agenda) grow with the operator's courses, not with the database:
  // the larger side takes the operator whose courses hold as many students as the smaller side's.
  const loads = await operatorWorkloads(h.db);
  const ctx = await context(
    h.db,
    courseId,
    workload === undefined ? undefined : sameWorkload(workload, loads),
  );
  const size = (await courseSizes(h.db)).find((s) => s.id === ctx.courseId)!;
  // A freshly generated set has every course's student figures marked for recomputation, which
  // the first read of each course pays (they are never served stale). Both sides are measured in
  // their steady state: the figures of the course and of the operator's courses are computed first.
  const services = createServices(
    h.db,
    loadConfig(
      { ...process.env, DATABASE_URL: '' },
      { APP_SECRET: 'bench-secret-not-used-for-anything-here' },
    ),
  );
  const { rows: courses } = await sql<{
    id: number;
  }>`select distinct course_id as id from tickets where user_assigned_id = ${ctx.operatorId}`.execute(
    h.db,
  );
  for (const id of new Set([ctx.courseId, ...courses.map((c) => c.id)]))
    await services.dashboard.freshFigures(id);
  // Likewise the effectiveness report's kept days (the server keeps at most two weeks of them a
  // minute: on a data set new to them that work would run beside the measurements for many minutes).
  const started = performance.now();
  const kept = await keepOutcomes(h.db);
  if (kept.length)
    console.log(
      `growth ${label}: kept the effectiveness figures of ${kept.length} days first (${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
  const app = await startServer(url);
  const token = (
    await api(app.url, 'POST', '/api/auth/login', undefined, {
      email: BENCH_ADMIN.email,
      password: BENCH_ADMIN.password,
    })
  ).access_token as string;
  const list = [
    ...endpoints(ctx, h.db).filter((e) => !NOT_COURSE_LEVEL.has(e.name)),
    ...(await orgEndpoints(ctx, h.db)),
  ];
  return {
    label,
    db: h.db,
    url: app.url,
    token,
    ctx,
    size,
    workload: loads.get(ctx.operatorId) ?? 0,
    endpoints: new Map(list.map((e) => [e.name, e])),
    close: async () => {
      await app.stop();
      await h.close();
    },
  };
}

export interface GrowthRow {
  name: string;
  p95: [number, number];
  errors: number;
  ratio: number;
}

/** One request after the course's answer version moved on (a build, not a kept answer), in ms; the body read, not parsed. */
async function coldRequest(s: Side, ep: Endpoint): Promise<number> {
  await sql`insert into answer_versions (scope, version) values (${s.ctx.courseId}, 1) on conflict (scope) do update set version = answer_versions.version + 1`.execute(
    s.db,
  );
  const started = performance.now();
  const res = await fetch(`${s.url}${ep.path}`, {
    headers: { authorization: `Bearer ${s.token}` },
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`growth: ${ep.path} answered ${res.status}`);
  return performance.now() - started;
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

export async function growthBench(opts: GrowthOptions): Promise<Record<string, number>> {
  const loadAtStart = os.loadavg()[0]!;
  const server = await startPg();
  const [small, large] = opts.sets ?? [dataset(false), growthDataset()];
  const sides: Side[] = [];
  try {
    await ensureData(server.url, small);
    await ensureData(server.url, large);
    const one = await openSide('1M', server.url(small.database), async () => undefined);
    sides.push(one);
    const ten = await openSide(
      '10M',
      server.url(large.database),
      async (db) => sameSized(one.size, await courseSizes(db)).id,
      one.workload,
    );
    sides.push(ten);
    for (const s of sides) {
      console.log(
        `growth ${s.label}: course ${s.ctx.courseId} (${s.size.tickets} tickets, ${s.size.enrolments} enrolments, ${s.size.activities} activities), operator ${s.ctx.operatorId} (${s.workload} students in their courses), day ${s.ctx.day}`,
      );
    }
    const seconds = opts.quick ? 2 : 3;
    const order = opts.quick ? [0, 1] : [0, 1, 1, 0];
    const rows: GrowthRow[] = [];
    for (const [name, first] of one.endpoints) {
      const second = ten.endpoints.get(name);
      if (!second || (opts.only?.length && !opts.only.some((o) => name.includes(o)))) continue;
      const eps = [first, second];
      for (const [i, s] of sides.entries()) await load(s.url, s.token, eps[i]!, 2, 1);
      const p95s: number[][] = [[], []];
      let errors = 0;
      for (const i of order) {
        const s = sides[i]!;
        const row = await load(s.url, s.token, eps[i]!, 10, seconds);
        await drain(s.url);
        p95s[i]!.push(row.p95);
        errors += row.errors;
      }
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const p95: [number, number] = [mean(p95s[0]!), mean(p95s[1]!)];
      const ratio = Math.max(p95[1], FLOOR_MS) / Math.max(p95[0], FLOOR_MS);
      rows.push({ name, p95, errors, ratio });
      console.log(
        `  ${name.padEnd(44)} p95 1M ${p95[0].toFixed(1).padStart(6)}  10M ${p95[1].toFixed(1).padStart(6)} ms  ratio ${ratio.toFixed(2)}${errors ? `  ${errors} errors` : ''}`,
      );
      if (!KEPT.has(name)) continue;
      const cold: number[][] = [[], []];
      for (let run = 0; run < COLD_RUNS; run++)
        for (const i of run % 2 ? [1, 0] : [0, 1])
          cold[i]!.push(await coldRequest(sides[i]!, eps[i]!));
      const coldMs: [number, number] = [median(cold[0]!), median(cold[1]!)];
      const coldRatio = coldMs[1] / coldMs[0];
      rows.push({ name: `${name}.cold`, p95: coldMs, errors: 0, ratio: coldRatio });
      console.log(
        `  ${`${name}.cold`.padEnd(44)} med 1M ${coldMs[0].toFixed(1).padStart(6)}  10M ${coldMs[1].toFixed(1).padStart(6)} ms  ratio ${coldRatio.toFixed(2)}`,
      );
    }
    console.log(
      '\n| endpoint | p95 at 1M (ms) | p95 at 10M (ms) | ratio (floor 2 ms) | errors |\n|---|---:|---:|---:|---:|',
    );
    // A `.cold` row: the median of COLD_RUNS single requests each after a version change, not a p95.
    for (const r of rows)
      console.log(
        `| ${r.name} | ${r.p95[0].toFixed(1)} | ${r.p95[1].toFixed(1)} | ${r.ratio.toFixed(2)} | ${r.errors} |`,
      );
    const results: Record<string, number> = {};
    for (const r of rows) {
      if (r.name.startsWith('org.')) results[`growth.${r.name}.c10.p95.ms`] = r.p95[1];
      else results[`growth.${r.name}.ratio`] = r.ratio;
    }
    results['growth.errors'] = rows.reduce((a, r) => a + r.errors, 0);
    const sidesInfo = sides.map((s) => ({
      label: s.label,
      course: s.ctx.courseId,
      ...s.size,
      operator: s.ctx.operatorId,
      operatorStudents: s.workload,
    }));
    console.log(
      `growth: raw figures in ${writeRaw(opts.quick ? 'growth-quick' : 'growth', loadAtStart, { quick: opts.quick, sets: [small, large], sides: sidesInfo, rows })}`,
    );
    return results;
  } finally {
    for (const s of sides) await s.close().catch(() => undefined);
    await server.stop();
  }
}
