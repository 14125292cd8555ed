/**
 * A staffed day (`npm run bench -- --only day`): the real server process on the load benchmark's
 * data set and PostgreSQL, used for a fixed time (5 minutes; `--quick`: 60 s on the quick set) by
 * 8 operators, 2 administrators and 3 tutors, each following a script of what the screens call, in
 * order, with think times (0.5–3 s: a working day compressed about tenfold) and writes at their
 * rate relative to reads: an attempt logged on every pass of an operator's queue (every 1–2
 * simulated minutes), tickets created with their first attempt, reminders set, mails queued, now and
 * then a catalogue value or a student's name edited. One operator and one administrator use the
 * original client: its whole-course calls (every ticket, every enrolment, students on activities).
 *
 * Reported per route pattern: p50/p95/p99 and count, separately for the first read of a URL
 * after a write the clients made in its course (or its first read of the run: both must build the
 * answer) and for the other reads; the server's CPU time per request (/proc/<pid>/stat); the
 * kept-answer hit rate of the whole-course answers, derived from timing (the server does not expose
 * its counts). Budgets `day.<name>.p95.ms` (and `.p50.ms` for the whole-course answers cold).
 * The staff, their assignments and everything the clients write are removed or put back at the end.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIRST_LOGIN_DONE } from '@sigaf/contract';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../apps/server/src/db/database.js';
import { hashPassword } from '../apps/server/src/lib/passwords.js';
import { spawnServer } from '../apps/server/test/server-process.js';
import { BENCH_ADMIN } from '../scripts/seed-large.js';
import { dataset, ensureData } from './load.js';
import { startPg } from './pg.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const PASSWORD = 'Day-Bench-Password-1';
const OPERATORS = 8;
const ADMINS = 2;
const TUTORS = 3;

export interface DayOptions {
  quick: boolean;
}

interface Sample {
  ms: number;
  first: boolean;
  ok: boolean;
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

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rand = (min: number, max: number) => min + Math.random() * (max - min);
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const qs = (o: Record<string, unknown>) => new URLSearchParams(Object.entries(o).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])).toString();
/** Think time between two screens (compressed). */
const think = () => sleep(rand(500, 3000));

/** The route pattern of a URL: numbers and id lists as parameters, no query. */
export function routeOf(method: string, url: string): string {
  const p = url.split('?')[0]!.split('/').map((s) => (/^\d+$/.test(s) ? ':id' : /^\d{4}-\d\d-\d\d$/.test(s) ? ':day' : /^(\[|%5B)/i.test(s) ? ':ids' : s));
  return `${method} ${p.join('/')}`;
}

/** Server CPU time (user + system) in seconds, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tick = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return (Number(fields[11]) + Number(fields[12])) / tick;
}

interface Staff {
  id: number;
  email: string;
  role: 'operator' | 'admin' | 'tutor';
  courses: number[];
  /** Tutors: their classroom in each course, and its students' enrolments. */
  classrooms: Map<number, number>;
  roomEnrolments: Map<number, number[]>;
  original: boolean;
}

interface World {
  courses: number[];
  largest: number;
  enrolments: Map<number, number[]>;
  activities: Map<number, number[]>;
  /** Tickets per course (recent ones), and the ones assigned to each operator. */
  tickets: Map<number, number[]>;
  mine: Map<number, Array<{ id: number; course: number }>>;
  ids: Record<'open' | 'medium' | 'high' | 'phone' | 'incoming' | 'problem' | 'success' | 'noAnswer', number>;
  staff: Staff[];
  motives: Array<{ id: number; description: string }>;
  students: Array<{ id: number; course: number; name: string }>;
  restore: { assignments: Array<{ id: number; user: number | null }> };
}

/** The day's staff (created once, reused), their assignments, and what they work on. */
async function prepare(db: Database, quick: boolean): Promise<World> {
  const q = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows;
  const courses = (await q(sql<{ id: number }>`select course_id as id from tickets group by 1 order by count(*) desc limit 6`)).map((r) => r.id);
  const largest = courses[0]!;
  const role = async (key: string) => (await q(sql<{ id: number }>`select id from roles where key = ${key}`))[0]!.id;
  const roles = { operator: await role('operator'), admin: await role('admin'), tutor: await role('tutor') };
  const hash = await hashPassword(PASSWORD);
  const staff: Staff[] = [];
  const make = async (role: Staff['role'], i: number, original: boolean) => {
    const email = `day-${role}${i + 1}@sigaf.cl`;
    const name = `${role === 'operator' ? 'Operador' : role === 'admin' ? 'Administrador' : 'Tutor'} Jornada ${i + 1}`;
    const [row] = await q(sql<{ id: number }>`insert into users (name, email, password, is_first_login, role_id) values (${name}, ${email}, ${hash}, ${FIRST_LOGIN_DONE}, ${roles[role]})
      on conflict (lower(email)) do update set password = excluded.password, role_id = excluded.role_id returning id`);
    staff.push({ id: row!.id, email, role, courses: [], classrooms: new Map(), roomEnrolments: new Map(), original });
  };
  for (let i = 0; i < OPERATORS; i++) await make('operator', i, i === 0);
  for (let i = 0; i < ADMINS; i++) await make('admin', i, i === 0);
  for (let i = 0; i < TUTORS; i++) await make('tutor', i, false);

  const enrolments = new Map<number, number[]>();
  const activities = new Map<number, number[]>();
  const tickets = new Map<number, number[]>();
  for (const c of courses) {
    enrolments.set(c, (await q(sql<{ id: number }>`select e.id from course_registered_users e join profiles p on p.id = e.profile_id and p.key = 'student' where e.course_id = ${c} order by e.id`)).map((r) => r.id));
    activities.set(c, (await q(sql<{ id: number }>`select id from activities where course_id = ${c} order by id limit 3`)).map((r) => r.id));
    tickets.set(c, (await q(sql<{ id: number }>`select id from tickets where course_id = ${c} order by id desc limit 300`)).map((r) => r.id));
  }
  // Operators: three courses each (the largest for half of them), and the open tickets of those
  // courses' busiest operator that fall to them (a share: 150 per course, 40 on the quick set).
  const share = quick ? 40 : 150;
  const assignments: World['restore']['assignments'] = [];
  const mine = new Map<number, Array<{ id: number; course: number }>>();
  const open = (await q(sql<{ id: number }>`select id from status_tickets where key = 'open'`))[0]!.id;
  for (const [i, op] of staff.filter((s) => s.role === 'operator').entries()) {
    op.courses = [...new Set([i % 2 === 0 ? largest : courses[1 + (i % 5)]!, courses[(i + 1) % courses.length]!, courses[(i + 3) % courses.length]!])];
    const list: Array<{ id: number; course: number }> = [];
    for (const c of op.courses) {
      const rows = await q(sql<{ id: number; user: number | null }>`select id, user_assigned_id as user from tickets where course_id = ${c} and status_ticket_id = ${open}
        and user_assigned_id not in (select id from users where email like 'day-%') order by id desc offset ${i * share} limit ${share}`);
      assignments.push(...rows);
      list.push(...rows.map((r) => ({ id: r.id, course: c })));
    }
    await sql`update tickets set user_assigned_id = ${op.id} where id = any(${list.map((t) => t.id)}::int[])`.execute(db);
    mine.set(op.id, list);
  }
  for (const a of staff.filter((s) => s.role === 'admin')) a.courses = [largest, courses[1]!, courses[2]!];
  // Tutors: one classroom in each of two courses.
  for (const [i, t] of staff.filter((s) => s.role === 'tutor').entries()) {
    t.courses = [courses[i % courses.length]!, courses[(i + 1) % courses.length]!];
    await sql`delete from classroom_tutors where user_id = ${t.id}`.execute(db);
    for (const c of t.courses) {
      const rooms = await q(sql<{ id: number }>`select classroom_id as id from course_registered_users where course_id = ${c} and classroom_id is not null group by 1 order by 1`);
      const room = rooms[i % rooms.length]!.id;
      t.classrooms.set(c, room);
      t.roomEnrolments.set(c, (await q(sql<{ id: number }>`select e.id from course_registered_users e join profiles p on p.id = e.profile_id and p.key = 'student' where e.course_id = ${c} and e.classroom_id = ${room} order by e.id`)).map((r) => r.id));
      await sql`insert into classroom_tutors (course_id, classroom_id, user_id) values (${c}, ${room}, ${t.id})`.execute(db);
    }
  }
  const key = async (table: string, k: string) => (await q(sql<{ id: number }>`select id from ${sql.table(table)} where key = ${k}`))[0]!.id;
  const motives = await q(sql<{ id: number; description: string }>`select id, description from motive_tickets order by id`);
  const students = await q(sql<{ id: number; course: number; name: string }>`select r.id, e.course_id as course, r.name from course_registered_users e join registered_users r on r.id = e.registered_user_id
    where e.course_id = any(${courses}::int[]) and e.id % 97 = 0 order by e.id limit 40`);
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
      noAnswer: (await q(sql<{ id: number }>`select id from status_detail_tickets where key is distinct from 'success' order by id limit 1`))[0]!.id,
    },
    staff,
    motives,
    students,
    restore: { assignments },
  };
}

/** What the run measured. */
class Recorder {
  readonly samples = new Map<string, Sample[]>();
  /** Per course: time of the last write the clients made. */
  private readonly lastWrite = new Map<number, number>();
  /** Per URL: time of its last read. */
  private readonly lastRead = new Map<string, number>();
  errors: string[] = [];
  requests = 0;

  wrote(courses: number[]) {
    const t = performance.now();
    for (const c of courses) this.lastWrite.set(c, t);
  }
  /** Whether a read of `url` (about `courses`) is its first since a write in one of them (or its first of the run). */
  firstRead(url: string, courses: number[]): boolean {
    const last = this.lastRead.get(url);
    this.lastRead.set(url, performance.now());
    if (last === undefined) return true;
    return courses.some((c) => (this.lastWrite.get(c) ?? -1) > last);
  }
  add(name: string, s: Sample) {
    let list = this.samples.get(name);
    if (!list) this.samples.set(name, (list = []));
    list.push(s);
  }
}

type Call = <T = any>(method: string, url: string, opts?: { body?: unknown; courses?: number[]; name?: string; write?: number[] }) => Promise<T | null>;

function client(base: string, rec: Recorder, address: string, running: () => boolean): { call: Call; login: (email: string) => Promise<void> } {
  let token = '';
  const call: Call = async (method, url, opts = {}) => {
    const name = opts.name ?? routeOf(method, url);
    const first = method === 'GET' ? rec.firstRead(url, opts.courses ?? []) : false;
    const t = performance.now();
    let status = 0;
    let text = '';
    try {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: {
          'content-type': 'application/json',
          'accept-encoding': 'gzip, deflate, br',
          'x-forwarded-for': address,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      });
      text = await res.text();
      status = res.status;
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
    try {
      return JSON.parse(text);
    } catch {
      return text as never;
    }
  };
  const login = async (email: string) => {
    const r = await call<{ access_token: string }>('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    if (!r) throw new Error(`day: sign-in of ${email} failed`);
    token = r.access_token;
  };
  return { call, login };
}

/** The dashboard (Estadística) of a course: its counts, charts and student figures, asked at once as the screen does. */
async function dashboard(call: Call, course: number) {
  const d = `/api/v2/tickets/${course}`;
  const e = `/api/v2/course-registered-users/${course}`;
  const urls = [
    ...['total', 'last-day', 'open', 'close'].map((k) => `${d}/${k}/count`),
    ...['source', 'type', 'priority', 'status', 'motive', 'age', 'status-operator', 'status-motive'].map((k) => `${d}/${k}-chart`),
    `${e}/status/count`,
    `${e}/logged-time/count`,
    `${e}/follow-student-card`,
    `${e}/progress-chart`,
    `${e}/progress-chart-avance`,
  ];
  // A browser asks six at a time of one host.
  for (let i = 0; i < urls.length; i += 6) await Promise.all(urls.slice(i, i + 6).map((u) => call('GET', u, { courses: [course] })));
}

async function ticketScreen(call: Call, id: number, course: number) {
  await call('GET', `/api/v2/tickets/${id}`, { courses: [course] });
  const lock = await call<{ _data: { properties: { id: number } } }>('POST', '/api/v2/log-editing-tickets', { body: { ticket_id: id } });
  return lock?._data?.properties?.id;
}

async function createWithAttempt(call: Call, rec: Recorder, w: World, me: Staff, course: number, serial: number) {
  const enrolments = w.enrolments.get(course)!;
  const t = performance.now();
  const made = await call<{ _data: { properties: { id: number } } }>('POST', '/api/v2/tickets', {
    body: {
      course_registered_user_id: enrolments[(me.id * 7919 + serial * 31) % enrolments.length],
      type_ticket_id: w.ids.phone,
      status_ticket_id: w.ids.open,
      priority_ticket_id: w.ids.medium,
      source_ticket_id: w.ids.incoming,
      motive_ticket_id: w.ids.problem,
      user_assigned_id: me.role === 'operator' ? me.id : undefined,
    },
    write: [course],
  });
  const id = made?._data?.properties?.id;
  if (!id) return undefined;
  const attempt = await call('POST', '/api/v2/ticket-details', { body: { ticket_id: id, status_detail_ticket_id: w.ids.success, comment: 'Se contacta al estudiante por teléfono.' }, write: [course] });
  if (attempt) rec.add('ticket created with its first attempt', { ms: performance.now() - t, first: false, ok: true });
  return id;
}

/** The original client's whole-course calls of a course. */
async function wholeCourse(call: Call, w: World, course: number, which: 'tickets' | 'enrolments' | 'activities') {
  const at = course === w.largest ? ' (largest course)' : ' (another course)';
  if (which === 'tickets') return call('GET', `/api/v2/tickets/course-registered-users/course/${course}`, { courses: [course], name: `original: every ticket of the course${at}` });
  if (which === 'enrolments') return call('GET', `/api/v2/course-registered-user/${course}/users/all`, { courses: [course], name: `original: every enrolment of the course${at}` });
  return call('GET', `/api/v2/activities/${JSON.stringify(w.activities.get(course))}/course-registered-users/${course}`, { courses: [course], name: `original: students on activities, all${at}` });
}

const isWholeCourse = (name: string) => name.startsWith('original:');

async function operatorDay(me: Staff, w: World, call: Call, rec: Recorder, running: () => boolean) {
  const mine = w.mine.get(me.id)!;
  let serial = 0;
  await call('GET', '/api/v2/users?view=operators');
  await call('GET', '/api/v2/status-detail-tickets');
  let lastPoll = 0;
  while (running()) {
    if (performance.now() - lastPoll > 10_000) {
      // The app bar's reminder badge (every 30 s; every 10 s here, the day being compressed).
      await call('GET', '/api/v2/reminders/due-count', { courses: me.courses });
      lastPoll = performance.now();
    }
    const course = pick(me.courses);
    if (me.original) {
      // The original client: the Ticket screen's "Buscar" over the whole course, then a ticket, then an attempt.
      await wholeCourse(call, w, course, 'tickets');
      await think();
      const t = pick(mine.filter((m) => m.course === course).length ? mine.filter((m) => m.course === course) : mine);
      await call('GET', `/api/v2/tickets/${t.id}`, { courses: [t.course] });
      await think();
      await call('POST', '/api/v2/ticket-details', { body: { ticket_id: t.id, status_detail_ticket_id: pick([w.ids.success, w.ids.noAnswer]), comment: 'Llamado sin respuesta.' }, write: [t.course] });
      await think();
      if (Math.random() < 0.3) {
        await wholeCourse(call, w, course, 'enrolments');
        await think();
        await createWithAttempt(call, rec, w, me, course, serial++);
      }
      if (Math.random() < 0.3) await wholeCourse(call, w, course, 'activities');
      await think();
      continue;
    }
    // Mi agenda: the three sections.
    const agenda = { page: 1, perPage: 10 };
    await Promise.all([
      call('GET', `/api/v2/agenda/reminders?${qs(agenda)}`, { courses: me.courses }),
      call('GET', `/api/v2/agenda/students?${qs(agenda)}`, { courses: me.courses }),
      call('GET', `/api/v2/agenda/tickets?${qs(agenda)}`, { courses: me.courses }),
    ]);
    await think();
    // The ticket list of a course (open, newest first), then one ticket with its edit lock, and an attempt.
    await call('GET', `/api/v2/tickets?${qs({ status: 'open', user_assigned_id: Math.random() < 0.5 ? me.id : undefined, course_id: course, page: 1, perPage: 10, sort: 'createdAt', order: 'desc', compact: true })}`, { courses: [course] });
    await think();
    const own = mine.filter((m) => m.course === course);
    const t = pick(own.length ? own : mine);
    const lock = await ticketScreen(call, t.id, t.course);
    await think();
    await call('POST', '/api/v2/ticket-details', { body: { ticket_id: t.id, status_detail_ticket_id: pick([w.ids.success, w.ids.noAnswer]), comment: 'Se llama al estudiante.' }, write: [t.course] });
    if (Math.random() < 0.25) {
      await call('POST', '/api/v2/reminders', { body: { ticket_id: t.id, due_at: new Date(Date.now() + rand(1, 48) * 3_600_000).toISOString(), comment: 'Volver a llamar.' }, write: [t.course] });
    }
    if (lock) await call('DELETE', `/api/v2/log-editing-tickets/${lock}`, { body: {} });
    await think();
    const roll = Math.random();
    if (roll < 0.3) {
      // Follow-up table, a student's detail and history, sometimes a new ticket for them.
      await call('GET', `/api/v2/follow-up/courses/${course}/students?${qs({ page: 1, perPage: 10, ...pick([{}, { inactive_days: 7 }, { progress_below: 50, open_tickets: 1 }, { sort: 'lastAccess', order: 'asc' }]) })}`, { courses: [course] });
      await think();
      const enrolment = pick(w.enrolments.get(course)!);
      await Promise.all([
        call('GET', `/api/v2/follow-up/enrolments/${enrolment}`, { courses: [course] }),
        call('GET', `/api/v2/course-registered-user/${enrolment}/tickets?${qs({ page: 1, perPage: 100, compact: true })}`, { courses: [course] }),
      ]);
      await think();
      if (Math.random() < 0.5) {
        const id = await createWithAttempt(call, rec, w, me, course, serial++);
        if (id) mine.push({ id, course });
      }
    } else if (roll < 0.45) {
      await dashboard(call, course);
    } else if (roll < 0.55) {
      await call('GET', `/api/v2/tickets?${qs({ status: 'all', search: pick(['gonz', 'mar', 'soto', 'rojas']), course_id: course, page: 1, perPage: 10, sort: 'createdAt', order: 'desc', compact: true })}`, { courses: [course] });
    } else if (roll < 0.6) {
      const enrolments = w.enrolments.get(course)!;
      const some = [pick(enrolments), pick(enrolments)];
      await call('POST', '/api/v2/follow-up/mail', { body: { enrolmentIds: some, subject: 'Seguimiento del curso', text: 'Estimado estudiante: le escribimos para saber cómo va con el curso.', CCRecipient: '', files: [] }, write: [course] });
    }
    await think();
  }
}

async function adminDay(me: Staff, w: World, call: Call, rec: Recorder, running: () => boolean) {
  let serial = 0;
  await call('GET', '/api/v2/users?view=operators');
  let lastPoll = 0;
  let edits = 0;
  const ops = w.staff.filter((s) => s.role === 'operator');
  while (running()) {
    if (performance.now() - lastPoll > 10_000) {
      await call('GET', '/api/v2/reminders/due-count');
      lastPoll = performance.now();
    }
    const course = pick(me.courses);
    if (me.original) {
      // The original client's course screens: every ticket, every enrolment, students on activities.
      await wholeCourse(call, w, w.largest, pick(['tickets', 'tickets', 'enrolments', 'activities'] as const));
      await think();
      if (Math.random() < 0.3) await createWithAttempt(call, rec, w, me, w.largest, serial++);
      await think();
      continue;
    }
    const roll = Math.random();
    if (roll < 0.35) {
      await dashboard(call, course);
    } else if (roll < 0.5) {
      // Reports of the latest day.
      const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const r = `/api/v2/reports/courses/${course}`;
      await Promise.all([call('GET', `${r}/data-card/${day}`, { courses: [course] }), call('GET', `${r}/type-ticket/${day}`, { courses: [course] }), call('GET', `${r}/table-operator/${day}`, { courses: [course] })]);
    } else if (roll < 0.65) {
      // Administración: tickets across courses (newest; by an operator).
      await call('GET', `/api/v2/tickets?${qs({ status: 'all', page: 1, perPage: 10, sort: 'createdAt', order: 'desc', compact: true, user_assigned_id: Math.random() < 0.5 ? pick(ops).id : undefined })}`, { courses: w.courses });
    } else if (roll < 0.75) {
      // An operator's agenda.
      const op = pick(ops);
      await call('GET', `/api/v2/agenda/tickets?${qs({ page: 1, perPage: 10, user_id: op.id })}`, { courses: op.courses });
      await call('GET', '/api/v2/agenda/workload', { courses: w.courses });
    } else if (roll < 0.85) {
      // One of an operator's tickets, and a reminder for that operator.
      const op = pick(ops);
      const t = pick(w.mine.get(op.id)!);
      await call('GET', `/api/v2/tickets/${t.id}`, { courses: [t.course] });
      await think();
      await call('POST', '/api/v2/reminders', { body: { ticket_id: t.id, due_at: new Date(Date.now() + rand(1, 72) * 3_600_000).toISOString(), comment: 'Revisar.', user_id: op.id }, write: [t.course] });
    } else if (roll < 0.93) {
      await call('GET', `/api/v2/follow-up/courses/${course}/students?${qs({ page: 1, perPage: 10, sort: pick(['name', 'progress', 'openTickets']), order: 'desc' })}`, { courses: [course] });
    } else {
      // Now and then an edit: a catalogue value, or a student's name (every course shows them).
      if (edits++ % 2 === 0) {
        const m = pick(w.motives);
        await call('PUT', `/api/v2/motive-tickets/${m.id}`, { body: { description: edits % 4 === 1 ? `${m.description}.` : m.description }, write: w.courses });
      } else {
        const s = pick(w.students);
        await call('PUT', `/api/v2/registered-users/${s.id}/view-update`, { body: { name: edits % 4 === 2 ? s.name.toUpperCase() : s.name }, write: [s.course] });
      }
    }
    await think();
  }
}

async function tutorDay(me: Staff, w: World, call: Call, _rec: Recorder, running: () => boolean) {
  // A tutor reads (follow-up, Mi agenda's students, the classroom's figures); reminders and mail are staff's.
  await call('GET', '/api/v2/follow-up/courses');
  while (running()) {
    const course = pick(me.courses);
    const room = me.classrooms.get(course)!;
    await call('GET', `/api/v2/follow-up/courses/${course}/classrooms`, { courses: [course] });
    await call('GET', `/api/v2/follow-up/courses/${course}/students?${qs({ page: 1, perPage: 10, classroom_id: room, ...pick([{}, { inactive_days: 7 }, { progress_below: 50 }]) })}`, { courses: [course] });
    await think();
    const roll = Math.random();
    if (roll < 0.4) {
      await call('GET', `/api/v2/agenda/students?${qs({ page: 1, perPage: 10 })}`, { courses: me.courses });
    } else if (roll < 0.7) {
      await call('GET', `/api/v2/course-registered-users/${course}/classrooms/${room}/follow-student-classroom`, { courses: [course] });
    } else {
      const mine = me.roomEnrolments.get(course)!;
      if (mine.length) await call('GET', `/api/v2/follow-up/enrolments/${pick(mine)}`, { courses: [course] });
    }
    await think();
  }
}

export async function dayBench(opts: DayOptions): Promise<{ rows: DayRow[]; results: Record<string, number> }> {
  const seconds = opts.quick ? 60 : 300;
  const server = await startPg();
  const ds = dataset(opts.quick);
  try {
    await ensureData(server.url, ds);
    const dbUrl = server.url(ds.database);
    const h = await openDatabase({ url: dbUrl, dataDir: '' });
    const max = async (table: string) => (await sql<{ id: number }>`select coalesce(max(id), 0)::int as id from ${sql.table(table)}`.execute(h.db)).rows[0]!.id;
    const before = { tickets: await max('tickets'), details: await max('ticket_details'), history: await max('ticket_history'), reminders: await max('reminders') };
    const w = await prepare(h.db, opts.quick);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-day-'));
    const app = await spawnServer({ DATA_DIR: dataDir, DATABASE_URL: dbUrl, LOG_LEVEL: 'warn', NODE_ENV: 'production', SYNC_SCHEDULE: 'off', TRUST_PROXY: '1' }, { removeDataDir: dataDir });
    const rec = new Recorder();
    const load1 = os.loadavg()[0]!;
    let cpu0 = 0;
    let cpu1 = 0;
    let requests = 0;
    try {
      console.log(`bench: day on ${ds.database}: ${OPERATORS} operators, ${ADMINS} administrators, ${TUTORS} tutors for ${seconds} s; courses ${w.courses.join(', ')} (largest ${w.largest})`);
      let on = true;
      const running = () => on;
      const clients = w.staff.map((me, n) => ({ me, ...client(app.url, rec, `10.30.0.${n + 1}`, running) }));
      for (const c of clients) await c.login(c.me.email);
      rec.samples.clear();
      rec.errors = [];
      rec.requests = 0;
      cpu0 = cpuSeconds(app.child.pid!);
      const started = performance.now();
      const timer = setTimeout(() => (on = false), seconds * 1000);
      await Promise.all(
        clients.map(async (c, n) => {
          await sleep(n * 150);
          const day = c.me.role === 'operator' ? operatorDay : c.me.role === 'admin' ? adminDay : tutorDay;
          await day(c.me, w, c.call, rec, running);
        }),
      );
      clearTimeout(timer);
      requests = rec.requests;
      cpu1 = cpuSeconds(app.child.pid!);
      console.log(`bench: day ran ${((performance.now() - started) / 1000).toFixed(0)} s, ${requests} requests, ${rec.errors.length} errors`);
      for (const e of rec.errors.slice(0, 10)) console.log(`  error: ${e}`);
    } finally {
      await app.stop();
      // Put the data set back as it was: what the clients wrote, the assignments.
      await sql`delete from reminders where id > ${before.reminders}`.execute(h.db);
      await sql`delete from ticket_details where id > ${before.details}`.execute(h.db);
      await sql`delete from ticket_history where id > ${before.history}`.execute(h.db);
      await sql`delete from tickets where id > ${before.tickets}`.execute(h.db);
      const a = w.restore.assignments;
      await sql`update tickets t set user_assigned_id = x.u from unnest(${a.map((r) => r.id)}::int[], ${a.map((r) => r.user)}::int[]) as x(id, u) where t.id = x.id`.execute(h.db);
      for (const m of w.motives) await sql`update motive_tickets set description = ${m.description} where id = ${m.id}`.execute(h.db);
      for (const s of w.students) await sql`update registered_users set name = ${s.name} where id = ${s.id}`.execute(h.db);
      await sql`vacuum analyze tickets`.execute(h.db).catch(() => undefined);
      await h.close();
    }

    // Figures per route pattern.
    const rows: DayRow[] = [];
    const results: Record<string, number> = {};
    const hits: Record<string, { hits: number; of: number }> = {};
    for (const [name, list] of [...rec.samples.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const warm = list.filter((s) => !s.first).map((s) => s.ms).sort((a, b) => a - b);
      const cold = list.filter((s) => s.first).map((s) => s.ms).sort((a, b) => a - b);
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

    console.log('\n| endpoint | n | p50 | p95 | p99 | first after write: n | p50 | p95 | p99 | errors |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    const f = (x: number) => x.toFixed(1);
    for (const r of rows) console.log(`| ${r.name} | ${r.count} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${r.firstCount} | ${f(r.firstP50)} | ${f(r.firstP95)} | ${f(r.firstP99)} | ${r.errors} |`);
    console.log(`\nday: ${requests} requests in ${seconds} s (${(requests / seconds).toFixed(1)}/s); server CPU ${(cpu1 - cpu0).toFixed(1)} s, ${cpuMsPerRequest.toFixed(2)} ms per request; load average ${load1.toFixed(1)} at start, ${os.loadavg()[0]!.toFixed(1)} at end`);
    for (const [name, h] of Object.entries(hits)) console.log(`day: ${name}: kept answers served ${h.hits} of ${h.of} (${((100 * h.hits) / h.of).toFixed(0)} %, from timing)`);

    // The dated raw file.
    const commit = (() => {
      try {
        return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: here, encoding: 'utf8' }).trim();
      } catch {
        return 'unknown';
      }
    })();
    const cpuModel = /model name\s*:\s*(.*)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
    const raw = {
      at: new Date().toISOString(),
      commit,
      quick: opts.quick,
      dataset: ds,
      seconds,
      staff: { operators: OPERATORS, administrators: ADMINS, tutors: TUTORS, originalClient: w.staff.filter((s) => s.original).map((s) => s.email) },
      courses: w.courses,
      largestCourse: w.largest,
      machine: { nproc: os.availableParallelism(), memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1), cpu: cpuModel, loadAverageAtStart: load1, loadAverageAtEnd: os.loadavg()[0] },
      requests,
      serverCpuSeconds: cpu1 - cpu0,
      serverCpuMsPerRequest: cpuMsPerRequest,
      keptAnswers: hits,
      rows,
      errors: rec.errors.slice(0, 50),
    };
    const dir = path.join(here, 'results');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${raw.at.slice(0, 10)}-day${opts.quick ? '-quick' : ''}.json`);
    fs.writeFileSync(file, JSON.stringify(raw, null, 2));
    console.log(`day: raw figures in ${path.relative(path.join(here, '..'), file)}`);
    return { rows, results };
  } finally {
    await server.stop();
  }
}
