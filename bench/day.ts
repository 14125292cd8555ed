/**
 * A staffed day (`npm run bench -- --only day`): the real server process on the load benchmark's
 * data set and PostgreSQL, used for a fixed time (10 minutes, so that a call read twice a minute
 * has a 95th percentile other than its slowest read; `--quick`: 60 s on the quick set) by
 * 8 operators, 2 administrators and 3 tutors, each following a script of what the screens call, in
 * order, with think times (0.5–3 s: a working day compressed about tenfold) and writes at their
 * rate relative to reads: an attempt logged on every pass of an operator's queue (every 1–2
 * simulated minutes), tickets created with their first attempt, reminders set, mails queued, now and
 * then a catalogue value or a student's name edited, and halfway through an administrator
 * synchronises one course with Moodle by hand (the simulator, in a thread of its own, answering
 * each call after 20 ms). One operator and one administrator use the original client: its
 * whole-course calls (every ticket, every enrolment, students on activities).
 *
 * Reported per route pattern: p50/p95/p99 and count, separately for the first read of a URL
 * after a write the clients made in its course (or its first read of the run: both must build the
 * answer) and for the other reads; the server's CPU time per request (/proc/<pid>/stat); the
 * kept-answer hit rate of the whole-course answers, derived from timing (the server does not expose
 * its counts). Budgets `day.<name>.p95.ms` (and `.p50.ms` for the whole-course answers cold).
 * The staff, their assignments and everything the clients write are removed or put back at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIRST_LOGIN_DONE } from '@sigaf/contract';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../apps/server/src/db/database.js';
import { hashPassword } from '../apps/server/src/lib/passwords.js';
import { StudentFiguresRepository } from '../apps/server/src/modules/dashboard/student-figures.js';
import { keepOutcomes } from '../apps/server/src/kept/outcomes-keeper.js';
import { spawnServer } from '../apps/server/test/server-process.js';

import { encryptSecret } from '../apps/server/src/lib/crypto.js';
import { generateSite, type GeneratorOptions } from '../tools/moodle-sim/src/generator.js';
import { dataset, ensureData, percentile } from './load.js';
import { linkSimCourse, startSimWorker } from './moodle-sim.js';
import { startPg } from './pg.js';
import { cpuSeconds, databaseCpuSeconds, machineCpuSeconds } from './cpu.js';
import { writeRaw } from './raw.js';
import { agesChanged, moveCreation, workingHoursShift } from './day-hours.js';
import { note, openJournal, putBack } from './day-journal.js';
import {
  adminDay,
  download,
  isWholeCourse,
  operatorDay,
  Recorder,
  sleep,
  tutorDay,
  type Call,
  type Staff,
  type World,
} from './day-staff.js';

const PASSWORD = 'Day-Bench-Password-1';
/** Ctrl-C ends the day early; the data set is put back as at the end of a full run. */
let interrupted = false;
process.once('SIGINT', () => {
  interrupted = true;
  console.log(
    'bench: interrupted, ending the day and putting the data set back (Ctrl-C again quits now)',
  );
});
/** The day's staff at `--staff 1x`; `--staff Nx` multiplies each role. */
const OPERATORS = 8;
const ADMINS = 2;
const TUTORS = 3;
/** Courses the operators work in at 1×; more staff work in proportionally more courses. */
const COURSES = 6;
const APP_SECRET = 'day-bench-secret-day-bench-secret';
/** The course an administrator synchronises by hand mid-run: 2,000 students × 50 activities (`--quick`: 300), Moodle answering each call after 20 ms. */
const moodleSite = (quick: boolean): GeneratorOptions => ({
  seed: 11,
  courses: 1,
  studentsPerCourse: quick ? 300 : 2_000,
  units: 11,
  activitiesPerUnit: 4,
  invalidRutRate: 0,
  groupsPerCourse: 4,
});

export interface DayOptions {
  quick: boolean;
  /** Multiplies the staff of each role (1 = 8 operators, 2 administrators, 3 tutors). */
  staff?: number;
}

interface Counts {
  operators: number;
  admins: number;
  tutors: number;
}

export interface DayRow {
  name: string;
  count: number;
  p50: number;
  p95: number;
  p99: number;
  firstCount: number;
  firstP50: number;
  firstP95: number;
  firstP99: number;
  errors: number;
}

/** The route pattern of a URL: numbers and id lists as parameters, no query. */
export function routeOf(method: string, url: string): string {
  const p = url
    .split('?')[0]!
    .split('/')
    .map((s) =>
      /^\d+$/.test(s)
        ? ':id'
        : /^\d{4}-\d\d-\d\d$/.test(s)
          ? ':day'
          : /^(\[|%5B)/i.test(s)
            ? ':ids'
            : s,
    );
  return `${method} ${p.join('/')}`;
}

async function prepare(db: Database, quick: boolean, n: Counts): Promise<World> {
  const q = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows;
  const courseCount = Math.max(COURSES, Math.ceil((COURSES * n.operators) / OPERATORS));
  const courses = (
    await q(
      sql<{
        id: number;
      }>`select course_id as id from tickets group by 1 order by count(*) desc limit ${courseCount}`,
    )
  ).map((r) => r.id);
  const largest = courses[0]!;
  const role = async (key: string) =>
    (await q(sql<{ id: number }>`select id from roles where key = ${key}`))[0]!.id;
  const roles = {
    operator: await role('operator'),
    admin: await role('admin'),
    tutor: await role('tutor'),
  };
  const hash = await hashPassword(PASSWORD);
  const staff: Staff[] = [];
  const make = async (role: Staff['role'], i: number, original: boolean) => {
    const email = `day-${role}${i + 1}@sigaf.cl`;
    const name = `${role === 'operator' ? 'Operador' : role === 'admin' ? 'Administrador' : 'Tutor'} Jornada ${i + 1}`;
    const [row] = await q(sql<{
      id: number;
    }>`insert into users (name, email, password, is_first_login, role_id) values (${name}, ${email}, ${hash}, ${FIRST_LOGIN_DONE}, ${roles[role]})
      on conflict (lower(email)) do update set password = excluded.password, role_id = excluded.role_id returning id`);
    staff.push({
      id: row!.id,
      email,
      role,
      courses: [],
      classrooms: new Map(),
      roomEnrolments: new Map(),
      original,
    });
  };
  for (let i = 0; i < n.operators; i++) await make('operator', i, i === 0);
  for (let i = 0; i < n.admins; i++) await make('admin', i, i === 0);
  for (let i = 0; i < n.tutors; i++) await make('tutor', i, false);

  const enrolments = new Map<number, number[]>();
  const activities = new Map<number, number[]>();
  const tickets = new Map<number, number[]>();
  for (const c of courses) {
    enrolments.set(
      c,
      (
        await q(
          sql<{
            id: number;
          }>`select e.id from course_registered_users e join profiles p on p.id = e.profile_id and p.key = 'student' where e.course_id = ${c} order by e.id`,
        )
      ).map((r) => r.id),
    );
    activities.set(
      c,
      (
        await q(
          sql<{ id: number }>`select id from activities where course_id = ${c} order by id limit 3`,
        )
      ).map((r) => r.id),
    );
    tickets.set(
      c,
      (
        await q(
          sql<{
            id: number;
          }>`select id from tickets where course_id = ${c} order by id desc limit 300`,
        )
      ).map((r) => r.id),
    );
  }
  // Operators: three courses each (the largest for half of them), and a share of those courses'
  // open tickets (150 per course, 40 on the quick set), taken in turn from each course's pool of
  // open tickets not already held by the day's staff, so that no two operators hold the same
  // ticket. A pool that runs out gives the later operators fewer (said in the output).
  const share = quick ? 40 : 150;
  const assignments: Array<{ id: number; user: number | null }> = [];
  const mine = new Map<number, Array<{ id: number; course: number }>>();
  const open = (await q(sql<{ id: number }>`select id from status_tickets where key = 'open'`))[0]!
    .id;
  const operators = staff.filter((s) => s.role === 'operator');
  for (const [i, op] of operators.entries())
    op.courses = [
      ...new Set([
        i % 2 === 0 ? largest : courses[1 + (i % (courses.length - 1))]!,
        courses[(i + 1) % courses.length]!,
        courses[(i + 3) % courses.length]!,
      ]),
    ];
  const pools = new Map<number, Array<{ id: number; user: number | null }>>();
  for (const c of courses) {
    const wanted = share * operators.filter((o) => o.courses.includes(c)).length;
    pools.set(
      c,
      await q(sql<{
        id: number;
        user: number | null;
      }>`select id, user_assigned_id as user from tickets where course_id = ${c} and status_ticket_id = ${open}
        and user_assigned_id not in (select id from users where email like 'day-%') order by id desc limit ${wanted}`),
    );
  }
  const short: string[] = [];
  for (const op of operators) {
    const list: Array<{ id: number; course: number }> = [];
    for (const c of op.courses) {
      const rows = pools.get(c)!.splice(0, share);
      if (rows.length < share) short.push(`${op.email}: ${rows.length} of ${share} in course ${c}`);
      assignments.push(...rows);
      list.push(...rows.map((r) => ({ id: r.id, course: c })));
    }
    if (!list.length)
      throw new Error(
        `day: no open ticket left for ${op.email} in courses ${op.courses.join(', ')}: fewer staff, or a larger data set`,
      );
    mine.set(op.id, list);
  }
  if (short.length)
    console.log(
      `bench: the open tickets ran short for ${short.length} assignments (${short.slice(0, 3).join('; ')}${short.length > 3 ? '; …' : ''})`,
    );
  await note(db, { kind: 'assignments', rows: assignments });
  await sql`update tickets t set user_assigned_id = x.op from unnest(${[...mine].flatMap(([, l]) => l.map((t) => t.id))}::int[], ${[...mine].flatMap(([op, l]) => l.map(() => op))}::int[]) as x(id, op) where t.id = x.id`.execute(
    db,
  );
  for (const a of staff.filter((s) => s.role === 'admin'))
    a.courses = [largest, courses[1]!, courses[2]!];
  // Tutors: one classroom in each of two courses.
  for (const [i, t] of staff.filter((s) => s.role === 'tutor').entries()) {
    t.courses = [courses[i % courses.length]!, courses[(i + 1) % courses.length]!];
    await sql`delete from classroom_tutors where user_id = ${t.id}`.execute(db);
    for (const c of t.courses) {
      const rooms = await q(
        sql<{
          id: number;
        }>`select classroom_id as id from course_registered_users where course_id = ${c} and classroom_id is not null group by 1 order by 1`,
      );
      const room = rooms[i % rooms.length]!.id;
      t.classrooms.set(c, room);
      t.roomEnrolments.set(
        c,
        (
          await q(
            sql<{
              id: number;
            }>`select e.id from course_registered_users e join profiles p on p.id = e.profile_id and p.key = 'student' where e.course_id = ${c} and e.classroom_id = ${room} order by e.id`,
          )
        ).map((r) => r.id),
      );
      await sql`insert into classroom_tutors (course_id, classroom_id, user_id) values (${c}, ${room}, ${t.id})`.execute(
        db,
      );
    }
  }
  const key = async (table: string, k: string) =>
    (await q(sql<{ id: number }>`select id from ${sql.table(table)} where key = ${k}`))[0]!.id;
  const motives = await q(
    sql<{
      id: number;
      description: string;
    }>`select id, description from motive_tickets order by id`,
  );
  const students = await q(sql<{
    id: number;
    course: number;
    name: string;
  }>`select r.id, e.course_id as course, r.name from course_registered_users e join registered_users r on r.id = e.registered_user_id
    where e.course_id = any(${courses}::int[]) and e.id % 97 = 0 order by e.id limit 40`);
  await note(db, { kind: 'motives', rows: motives });
  await note(db, { kind: 'names', rows: students });
  return {
    courses,
    largest,
    enrolments,
    activities,
    tickets,
    mine,
    ids: {
      open,
      medium: await key('priority_tickets', 'medium'),
      high: await key('priority_tickets', 'high'),
      phone: await key('type_tickets', 'phone'),
      incoming: await key('source_tickets', 'incoming'),
      problem: await key('motive_tickets', 'problem'),
      success: await key('status_detail_tickets', 'success'),
      noAnswer: (
        await q(
          sql<{
            id: number;
          }>`select id from status_detail_tickets where key is distinct from 'success' order by id limit 1`,
        )
      )[0]!.id,
    },
    staff,
    motives,
    students,
    moodle: { course: 0, students: 0, at: Infinity, done: false },
  };
}

function client(
  base: string,
  rec: Recorder,
  address: string,
  running: () => boolean,
): { call: Call; login: (email: string) => Promise<void> } {
  let token = '';
  const call: Call = async (method, url, opts = {}) => {
    const name = opts.name ?? routeOf(method, url);
    const first = method === 'GET' ? rec.firstRead(url, opts.courses ?? []) : false;
    const t = performance.now();
    let status = 0;
    let text = '';
    const headers = {
      'content-type': 'application/json',
      'accept-encoding': 'gzip, deflate, br',
      'x-forwarded-for': address,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    };
    try {
      if (method === 'GET' && isWholeCourse(name)) {
        ({ status, text } = await download(`${base}${url}`, headers));
      } else {
        const res = await fetch(`${base}${url}`, {
          method,
          headers,
          body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        });
        text = await res.text();
        status = res.status;
      }
    } catch (err) {
      text = String(err);
    }
    const ms = performance.now() - t;
    const ok = status >= 200 && status < 300;
    if (running()) {
      rec.requests++;
      rec.add(name, { ms, first, ok });
      if (!ok) rec.errors.push(`${method} ${url}: ${status} ${text.slice(0, 200)}`);
    }
    if (ok && opts.write) rec.wrote(opts.write);
    if (!ok) return null;
    // A browser on another machine reads the whole-course answers: this machine only downloads them (download).
    if (isWholeCourse(name)) return {} as never;
    try {
      return JSON.parse(text);
    } catch {
      return text as never;
    }
  };
  const login = async (email: string) => {
    const r = await call<{ access_token: string }>('POST', '/api/auth/login', {
      body: { email, password: PASSWORD },
    });
    if (!r) throw new Error(`day: sign-in of ${email} failed`);
    token = r.access_token;
  };
  return { call, login };
}

export async function dayBench(
  opts: DayOptions,
): Promise<{ rows: DayRow[]; results: Record<string, number> }> {
  const seconds = opts.quick ? 60 : 600;
  const times = opts.staff ?? 1;
  const counts: Counts = {
    operators: OPERATORS * times,
    admins: ADMINS * times,
    tutors: TUTORS * times,
  };
  const server = await startPg();
  const ds = dataset(opts.quick);
  let handle: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    await ensureData(server.url, ds);
    const dbUrl = server.url(ds.database);
    const h = await openDatabase({ url: dbUrl, dataDir: '' });
    handle = h;
    // A previous run that stopped midway (killed, crashed) left its changes: put them back first.
    const leftovers = await putBack(h.db);
    if (leftovers)
      console.log(`bench: put back ${leftovers} changes a previous run left in the data set`);
    await openJournal(h.db);
    const max = async (table: string) =>
      (
        await sql<{
          id: number;
        }>`select coalesce(max(id), 0)::int as id from ${sql.table(table)}`.execute(h.db)
      ).rows[0]!.id;
    const before = {
      tickets: await max('tickets'),
      details: await max('ticket_details'),
      history: await max('ticket_history'),
      reminders: await max('reminders'),
    };
    await note(h.db, { kind: 'before', ...before });
    const w = await prepare(h.db, opts.quick, counts);
    // Moodle (another machine: the simulator in a thread of its own) and the course linked to it.
    const site = moodleSite(opts.quick);
    const generated = generateSite(site);
    const moodleCourse = await linkSimCourse(
      h.db,
      generated,
      'Jornada: curso sincronizado a mano',
      'BDAY',
    );
    const sim = await startSimWorker(site, 20);
    // The day starts with every course's student figures and the effectiveness report's kept days
    // as the night left them: recomputed where a change marked them (a previous run's restored
    // names, the course linked above), kept up to yesterday, so the run measures the day's own work.
    const courseIds = (
      await sql<{ id: number }>`select id from courses order by id`.execute(h.db)
    ).rows.map((r) => r.id);
    await new StudentFiguresRepository(h.db).freshAll(courseIds);
    await keepOutcomes(h.db);
    const platform = await h.db
      .selectFrom('platforms')
      .select(['id', 'url', 'token_encrypted'])
      .where('key', '=', 'moodle')
      .executeTakeFirstOrThrow();
    await note(h.db, {
      kind: 'platform',
      id: platform.id,
      url: platform.url,
      token: platform.token_encrypted,
    });
    await h.db
      .updateTable('platforms')
      .set({ url: sim.url, token_encrypted: encryptSecret(generated.tokens.admin, APP_SECRET) })
      .where('id', '=', platform.id)
      .execute();
    w.moodle = {
      course: moodleCourse,
      students: site.studentsPerCourse ?? 0,
      at: Infinity,
      done: false,
    };
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-day-'));
    // BENCH_SERVER_ARGS: options for the server's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where its time goes under the mix.
    const nodeArgs = process.env.BENCH_SERVER_ARGS?.split(/\s+/).filter(Boolean);
    const app = await spawnServer(
      {
        APP_SECRET,
        DATA_DIR: dataDir,
        DATABASE_URL: dbUrl,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        SYNC_SCHEDULE: 'off',
        TRUST_PROXY: '1',
      },
      { removeDataDir: dataDir, nodeArgs },
    );
    const rec = new Recorder();
    const load1 = os.loadavg()[0]!;
    let cpu0 = 0;
    let cpu1 = 0;
    let requests = 0;
    const ran = { from: new Date(), to: new Date() };
    let ageChanges = 0;
    const shift = workingHoursShift(new Date());
    let moved: number[] = [];
    let db0: number | null = null;
    let db1: number | null = null;
    let machine0 = 0;
    let machine1 = 0;
    try {
      if (shift) {
        moved = (
          await sql<{ id: number }>`select id from tickets where closing_date is null`.execute(h.db)
        ).rows.map((r) => r.id);
        await note(h.db, { kind: 'moved', ids: moved, hours: shift });
        await moveCreation(h.db, moved, -shift);
        console.log(
          `bench: the ${moved.length} open tickets' creation moved ${shift} h back for the run (their ages change in working hours)`,
        );
      }
      console.log(
        `bench: day on ${ds.database}: ${counts.operators} operators, ${counts.admins} administrators, ${counts.tutors} tutors (${times}×) for ${seconds} s; courses ${w.courses.join(', ')} (largest ${w.largest})`,
      );
      let on = true;
      const running = () => on && !interrupted;
      const clients = w.staff.map((me, n) => ({
        me,
        ...client(app.url, rec, `10.30.0.${n + 1}`, running),
      }));
      for (const c of clients) await c.login(c.me.email);
      rec.samples.clear();
      rec.errors = [];
      rec.requests = 0;
      cpu0 = cpuSeconds(app.child.pid!);
      db0 = await databaseCpuSeconds(h.db);
      machine0 = machineCpuSeconds();
      const started = performance.now();
      ran.from = new Date();
      w.moodle.at = started + (seconds * 1000) / 2;
      const timer = setTimeout(() => (on = false), seconds * 1000);
      await Promise.all(
        clients.map(async (c, n) => {
          await sleep(n * 150);
          const day =
            c.me.role === 'operator' ? operatorDay : c.me.role === 'admin' ? adminDay : tutorDay;
          await day(c.me, w, c.call, rec, running);
        }),
      );
      clearTimeout(timer);
      ran.to = new Date();
      requests = rec.requests;
      ageChanges = await agesChanged(h.db, w.largest, ran.from, ran.to);
      cpu1 = cpuSeconds(app.child.pid!);
      db1 = await databaseCpuSeconds(h.db);
      machine1 = machineCpuSeconds();
      console.log(
        `bench: day ran ${((performance.now() - started) / 1000).toFixed(0)} s, ${requests} requests, ${rec.errors.length} errors`,
      );
      for (const e of rec.errors.slice(0, 10)) console.log(`  error: ${e}`);
    } finally {
      await app.stop();
      await sim.close();
      // Put the data set back as it was: the open tickets' creation, what the clients wrote, the
      // assignments, the platform, the edited names (the journal, newest first).
      await putBack(h.db);
      await sql`vacuum analyze tickets`.execute(h.db).catch(() => undefined);
    }

    // Figures per route pattern.
    const rows: DayRow[] = [];
    const results: Record<string, number> = {};
    const hits: Record<string, { hits: number; of: number }> = {};
    for (const [name, list] of [...rec.samples.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const warm = list
        .filter((s) => !s.first)
        .map((s) => s.ms)
        .sort((a, b) => a - b);
      const cold = list
        .filter((s) => s.first)
        .map((s) => s.ms)
        .sort((a, b) => a - b);
      const row: DayRow = {
        name,
        count: warm.length,
        p50: percentile(warm, 50),
        p95: percentile(warm, 95),
        p99: percentile(warm, 99),
        firstCount: cold.length,
        firstP50: percentile(cold, 50),
        firstP95: percentile(cold, 95),
        firstP99: percentile(cold, 99),
        errors: list.filter((s) => !s.ok).length,
      };
      rows.push(row);
      const key = `day.${name}`;
      if (warm.length) results[`${key}.p95.ms`] = row.p95;
      if (cold.length) results[`${key}.first.p95.ms`] = row.firstP95;
      if (isWholeCourse(name) && cold.length) results[`${key}.first.p50.ms`] = row.firstP50;
      results[`${key}.errors`] = row.errors;
      // Kept-answer hits of the whole-course answers, from timing: an answer served in less than a
      // third of the median cold (built) time of the same endpoint was a kept one.
      if (isWholeCourse(name) && cold.length) {
        const limit = row.firstP50 / 3;
        hits[name] = { hits: list.filter((s) => s.ms < limit).length, of: list.length };
        results[`${key}.kept.hit.rate`] = hits[name].hits / hits[name].of;
      }
    }
    const cpuMsPerRequest = requests ? ((cpu1 - cpu0) * 1000) / requests : 0;
    results['day.requests'] = requests;
    results['day.server.cpu.ms.per.request'] = cpuMsPerRequest;
    results['day.errors'] = rec.errors.length;
    const dbCpuMsPerRequest =
      requests && db0 !== null && db1 !== null ? ((db1 - db0) * 1000) / requests : null;
    const machineCpuMsPerRequest = requests ? ((machine1 - machine0) * 1000) / requests : 0;

    console.log(
      '\n| endpoint | n | p50 | p95 | p99 | first after write: n | p50 | p95 | p99 | errors |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    const f = (x: number) => x.toFixed(1);
    for (const r of rows)
      console.log(
        `| ${r.name} | ${r.count} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${r.firstCount} | ${f(r.firstP50)} | ${f(r.firstP95)} | ${f(r.firstP99)} | ${r.errors} |`,
      );
    console.log(
      `\nday: ${requests} requests in ${seconds} s (${(requests / seconds).toFixed(1)}/s); server CPU ${(cpu1 - cpu0).toFixed(1)} s, ${cpuMsPerRequest.toFixed(2)} ms per request; load average ${load1.toFixed(1)} at start, ${os.loadavg()[0]!.toFixed(1)} at end`,
    );
    console.log(
      `day: database CPU ${dbCpuMsPerRequest === null ? 'not readable' : `${dbCpuMsPerRequest.toFixed(2)} ms per request`}; the whole machine (clients included) ${machineCpuMsPerRequest.toFixed(2)} ms per request`,
    );
    console.log(
      `day: ran ${ran.from.toISOString()} – ${ran.to.toISOString()}${shift ? ` (open tickets' creation moved ${shift} h back)` : ''}; ${ageChanges} open tickets of the largest course changed age during it`,
    );
    for (const [name, h] of Object.entries(hits))
      console.log(
        `day: ${name}: kept answers served ${h.hits} of ${h.of} (${((100 * h.hits) / h.of).toFixed(0)} %, from timing)`,
      );

    const file = writeRaw(opts.quick ? 'day-quick' : 'day', load1, {
      quick: opts.quick,
      dataset: ds,
      seconds,
      staff: {
        times,
        operators: counts.operators,
        administrators: counts.admins,
        tutors: counts.tutors,
        originalClient: w.staff.filter((s) => s.original).map((s) => s.email),
      },
      courses: w.courses,
      largestCourse: w.largest,
      requests,
      serverCpuSeconds: cpu1 - cpu0,
      serverCpuMsPerRequest: cpuMsPerRequest,
      databaseCpuSeconds: db0 !== null && db1 !== null ? db1 - db0 : null,
      databaseCpuMsPerRequest: dbCpuMsPerRequest,
      machineCpuSeconds: machine1 - machine0,
      machineCpuMsPerRequest,
      keptAnswers: hits,
      ran: { from: ran.from.toISOString(), to: ran.to.toISOString() },
      openTicketsCreationMovedHours: shift,
      openTicketAgesChangedInLargestCourse: ageChanges,
      rows,
      errors: rec.errors.slice(0, 50),
    });
    console.log(`day: raw figures in ${file}`);
    return { rows, results };
  } finally {
    // A run that failed before its day started puts the data set back here (none left: a no-op).
    if (handle) await putBack(handle.db).finally(() => handle!.close());
    await server.stop();
  }
}
