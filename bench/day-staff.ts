/** The staffed day's people: what each role's screens call, in order, and what the run records (bench/day.ts runs them). */
import http from 'node:http';

export interface Sample {
  ms: number;
  first: boolean;
  ok: boolean;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const rand = (min: number, max: number) => min + Math.random() * (max - min);
export const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
export const qs = (o: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(o)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  ).toString();
/** Think time between two screens (compressed). */
export const think = () => sleep(rand(500, 3000));

export interface Staff {
  id: number;
  email: string;
  role: 'operator' | 'admin' | 'tutor';
  courses: number[];
  /** Tutors: their classroom in each course, and its students' enrolments. */
  classrooms: Map<number, number>;
  roomEnrolments: Map<number, number[]>;
  original: boolean;
}

export interface World {
  courses: number[];
  largest: number;
  enrolments: Map<number, number[]>;
  activities: Map<number, number[]>;
  /** Tickets per course (recent ones), and the ones assigned to each operator. */
  tickets: Map<number, number[]>;
  mine: Map<number, Array<{ id: number; course: number }>>;
  ids: Record<
    'open' | 'medium' | 'high' | 'phone' | 'incoming' | 'problem' | 'success' | 'noAnswer',
    number
  >;
  staff: Staff[];
  motives: Array<{ id: number; description: string }>;
  students: Array<{ id: number; course: number; name: string }>;
  /** The course linked to the Moodle simulator, synchronised by hand once an administrator's day passes `at` (performance.now()). */
  moodle: { course: number; students: number; at: number; done: boolean };
}

/** The day's staff (created once, reused), their assignments, and what they work on. */

/** What the run measured. */
export class Recorder {
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

export type Call = <T = any>(
  method: string,
  url: string,
  opts?: { body?: unknown; courses?: number[]; name?: string; write?: number[] },
) => Promise<T | null>;

/** The dashboard (Estadística) of a course: its counts, charts and student figures, asked at once as the screen does. */
export async function dashboard(call: Call, course: number) {
  const d = `/api/v2/tickets/${course}`;
  const e = `/api/v2/course-registered-users/${course}`;
  const urls = [
    ...['total', 'last-day', 'open', 'close'].map((k) => `${d}/${k}/count`),
    ...[
      'source',
      'type',
      'priority',
      'status',
      'motive',
      'age',
      'status-operator',
      'status-motive',
    ].map((k) => `${d}/${k}-chart`),
    `${e}/status/count`,
    `${e}/logged-time/count`,
    `${e}/follow-student-card`,
    `${e}/progress-chart`,
    `${e}/progress-chart-avance`,
  ];
  // A browser asks six at a time of one host.
  for (let i = 0; i < urls.length; i += 6)
    await Promise.all(urls.slice(i, i + 6).map((u) => call('GET', u, { courses: [course] })));
}

export async function ticketScreen(call: Call, id: number, course: number) {
  await call('GET', `/api/v2/tickets/${id}`, { courses: [course] });
  const lock = await call<{ _data: { properties: { id: number } } }>(
    'POST',
    '/api/v2/log-editing-tickets',
    { body: { ticket_id: id } },
  );
  return lock?._data?.properties?.id;
}

export async function createWithAttempt(
  call: Call,
  rec: Recorder,
  w: World,
  me: Staff,
  course: number,
  serial: number,
) {
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
  const attempt = await call('POST', '/api/v2/ticket-details', {
    body: {
      ticket_id: id,
      status_detail_ticket_id: w.ids.success,
      comment: 'Se contacta al estudiante por teléfono.',
    },
    write: [course],
  });
  if (attempt)
    rec.add('ticket created with its first attempt', {
      ms: performance.now() - t,
      first: false,
      ok: true,
    });
  return id;
}

/** The original client's whole-course calls of a course. */
export async function wholeCourse(
  call: Call,
  w: World,
  course: number,
  which: 'tickets' | 'enrolments' | 'activities',
) {
  const at = course === w.largest ? ' (largest course)' : ' (another course)';
  if (which === 'tickets')
    return call('GET', `/api/v2/tickets/course-registered-users/course/${course}`, {
      courses: [course],
      name: `original: every ticket of the course${at}`,
    });
  if (which === 'enrolments')
    return call('GET', `/api/v2/course-registered-user/${course}/users/all`, {
      courses: [course],
      name: `original: every enrolment of the course${at}`,
    });
  return call(
    'GET',
    `/api/v2/activities/${JSON.stringify(w.activities.get(course))}/course-registered-users/${course}`,
    { courses: [course], name: `original: students on activities, all${at}` },
  );
}

export const isWholeCourse = (name: string) => name.startsWith('original:');

/**
 * A GET whose answer is only downloaded, as the bytes the server sends (1.5 MB gzipped for 28 MB
 * of JSON): a browser on another machine decompresses and parses the original client's
 * whole-course answers, not this one, whose two cores the server runs on. fetch would decompress
 * and decode them here (0.2 s alone for every ticket of the largest course, more beside the other
 * clients), counted in the answer's time and taken from the server's CPU.
 */
export function download(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        // An error answer is read whole (it is short); an answer is only counted.
        if ((res.statusCode ?? 0) >= 300) chunks.push(c);
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

export async function operatorDay(
  me: Staff,
  w: World,
  call: Call,
  rec: Recorder,
  running: () => boolean,
) {
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
      const t = pick(
        mine.filter((m) => m.course === course).length
          ? mine.filter((m) => m.course === course)
          : mine,
      );
      await call('GET', `/api/v2/tickets/${t.id}`, { courses: [t.course] });
      await think();
      await call('POST', '/api/v2/ticket-details', {
        body: {
          ticket_id: t.id,
          status_detail_ticket_id: pick([w.ids.success, w.ids.noAnswer]),
          comment: 'Llamado sin respuesta.',
        },
        write: [t.course],
      });
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
    await call(
      'GET',
      `/api/v2/tickets?${qs({ status: 'open', user_assigned_id: Math.random() < 0.5 ? me.id : undefined, course_id: course, page: 1, perPage: 10, sort: 'createdAt', order: 'desc', compact: true })}`,
      { courses: [course] },
    );
    await think();
    const own = mine.filter((m) => m.course === course);
    const t = pick(own.length ? own : mine);
    const lock = await ticketScreen(call, t.id, t.course);
    await think();
    await call('POST', '/api/v2/ticket-details', {
      body: {
        ticket_id: t.id,
        status_detail_ticket_id: pick([w.ids.success, w.ids.noAnswer]),
        comment: 'Se llama al estudiante.',
      },
      write: [t.course],
    });
    if (Math.random() < 0.25) {
      await call('POST', '/api/v2/reminders', {
        body: {
          ticket_id: t.id,
          due_at: new Date(Date.now() + rand(1, 48) * 3_600_000).toISOString(),
          comment: 'Volver a llamar.',
        },
        write: [t.course],
      });
    }
    if (lock) await call('DELETE', `/api/v2/log-editing-tickets/${lock}`, { body: {} });
    await think();
    const roll = Math.random();
    if (roll < 0.3) {
      // Follow-up table, a student's detail and history, sometimes a new ticket for them.
      await call(
        'GET',
        `/api/v2/follow-up/courses/${course}/students?${qs({ page: 1, perPage: 10, ...pick([{}, { inactive_days: 7 }, { progress_below: 50, open_tickets: 1 }, { sort: 'lastAccess', order: 'asc' }]) })}`,
        { courses: [course] },
      );
      await think();
      const enrolment = pick(w.enrolments.get(course)!);
      await Promise.all([
        call('GET', `/api/v2/follow-up/enrolments/${enrolment}`, { courses: [course] }),
        call(
          'GET',
          `/api/v2/course-registered-user/${enrolment}/tickets?${qs({ page: 1, perPage: 100, compact: true })}`,
          { courses: [course] },
        ),
      ]);
      await think();
      if (Math.random() < 0.5) {
        const id = await createWithAttempt(call, rec, w, me, course, serial++);
        if (id) mine.push({ id, course });
      }
    } else if (roll < 0.45) {
      await dashboard(call, course);
    } else if (roll < 0.55) {
      await call(
        'GET',
        `/api/v2/tickets?${qs({ status: 'all', search: pick(['gonz', 'mar', 'soto', 'rojas']), course_id: course, page: 1, perPage: 10, sort: 'createdAt', order: 'desc', compact: true })}`,
        { courses: [course] },
      );
    } else if (roll < 0.6) {
      const enrolments = w.enrolments.get(course)!;
      const some = [pick(enrolments), pick(enrolments)];
      await call('POST', '/api/v2/follow-up/mail', {
        body: {
          enrolmentIds: some,
          subject: 'Seguimiento del curso',
          text: 'Estimado estudiante: le escribimos para saber cómo va con el curso.',
          CCRecipient: '',
          files: [],
        },
        write: [course],
      });
    }
    await think();
  }
}

export async function adminDay(
  me: Staff,
  w: World,
  call: Call,
  rec: Recorder,
  running: () => boolean,
) {
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
    if (!me.original && !w.moodle.done && performance.now() >= w.moodle.at) {
      w.moodle.done = true;
      await moodleSync(call, rec, w, running);
    }
    const course = pick(me.courses);
    if (me.original) {
      // The original client's course screens: every ticket, every enrolment, students on activities.
      await wholeCourse(
        call,
        w,
        w.largest,
        pick(['tickets', 'tickets', 'enrolments', 'activities'] as const),
      );
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
      await Promise.all([
        call('GET', `${r}/data-card/${day}`, { courses: [course] }),
        call('GET', `${r}/type-ticket/${day}`, { courses: [course] }),
        call('GET', `${r}/table-operator/${day}`, { courses: [course] }),
      ]);
    } else if (roll < 0.65) {
      // Administración: tickets across courses (newest; by an operator).
      await call(
        'GET',
        `/api/v2/tickets?${qs({ status: 'all', page: 1, perPage: 10, sort: 'createdAt', order: 'desc', compact: true, user_assigned_id: Math.random() < 0.5 ? pick(ops).id : undefined })}`,
        { courses: w.courses },
      );
    } else if (roll < 0.75) {
      // An operator's agenda.
      const op = pick(ops);
      await call('GET', `/api/v2/agenda/tickets?${qs({ page: 1, perPage: 10, user_id: op.id })}`, {
        courses: op.courses,
      });
      await call('GET', '/api/v2/agenda/workload', { courses: w.courses });
    } else if (roll < 0.85) {
      // One of an operator's tickets, and a reminder for that operator.
      const op = pick(ops);
      const t = pick(w.mine.get(op.id)!);
      await call('GET', `/api/v2/tickets/${t.id}`, { courses: [t.course] });
      await think();
      await call('POST', '/api/v2/reminders', {
        body: {
          ticket_id: t.id,
          due_at: new Date(Date.now() + rand(1, 72) * 3_600_000).toISOString(),
          comment: 'Revisar.',
          user_id: op.id,
        },
        write: [t.course],
      });
    } else if (roll < 0.93) {
      await call(
        'GET',
        `/api/v2/follow-up/courses/${course}/students?${qs({ page: 1, perPage: 10, sort: pick(['name', 'progress', 'openTickets']), order: 'desc' })}`,
        { courses: [course] },
      );
    } else {
      // Now and then an edit: a catalogue value, or a student's name (every course shows them).
      if (edits++ % 2 === 0) {
        const m = pick(w.motives);
        await call('PUT', `/api/v2/motive-tickets/${m.id}`, {
          body: { description: edits % 4 === 1 ? `${m.description}.` : m.description },
          write: w.courses,
        });
      } else {
        const s = pick(w.students);
        await call('PUT', `/api/v2/registered-users/${s.id}/view-update`, {
          body: { name: edits % 4 === 2 ? s.name.toUpperCase() : s.name },
          write: [s.course],
        });
      }
    }
    await think();
  }
}

/**
 * "Sincronizar" of one course mid-run, as the course screen does: the job queued, its status
 * asked every 2 s (what the progress bar asks) until it ends. Recorded from the click to the end.
 */
async function moodleSync(call: Call, rec: Recorder, w: World, running: () => boolean) {
  const c = w.moodle.course;
  const t = performance.now();
  const queued = await call('POST', `/api/v2/sync/courses/${c}`, { body: {}, write: [c] });
  let state: string | null = queued ? 'queued' : 'failed';
  while (running() && (state === 'queued' || state === 'running')) {
    await sleep(2000);
    const s = await call<{ _data: { state: string | null; error: string | null } }>(
      'GET',
      `/api/v2/sync/courses/${c}/status`,
      { courses: [c] },
    );
    state = s?._data.state ?? 'failed';
    if (state === 'failed')
      rec.errors.push(`Moodle sync of course ${c}: ${s?._data.error ?? 'no status'}`);
  }
  if (running())
    rec.add(
      `Moodle sync of one course by hand (${w.moodle.students} students × 50 activities), to its end`,
      { ms: performance.now() - t, first: false, ok: state !== 'failed' },
    );
}

export async function tutorDay(
  me: Staff,
  w: World,
  call: Call,
  _rec: Recorder,
  running: () => boolean,
) {
  // A tutor reads (follow-up, Mi agenda's students, the classroom's figures); reminders and mail are staff's.
  await call('GET', '/api/v2/follow-up/courses');
  while (running()) {
    const course = pick(me.courses);
    const room = me.classrooms.get(course)!;
    await call('GET', `/api/v2/follow-up/courses/${course}/classrooms`, { courses: [course] });
    await call(
      'GET',
      `/api/v2/follow-up/courses/${course}/students?${qs({ page: 1, perPage: 10, classroom_id: room, ...pick([{}, { inactive_days: 7 }, { progress_below: 50 }]) })}`,
      { courses: [course] },
    );
    await think();
    const roll = Math.random();
    if (roll < 0.4) {
      await call('GET', `/api/v2/agenda/students?${qs({ page: 1, perPage: 10 })}`, {
        courses: me.courses,
      });
    } else if (roll < 0.7) {
      await call(
        'GET',
        `/api/v2/course-registered-users/${course}/classrooms/${room}/follow-student-classroom`,
        { courses: [course] },
      );
    } else {
      const mine = me.roomEnrolments.get(course)!;
      if (mine.length)
        await call('GET', `/api/v2/follow-up/enrolments/${pick(mine)}`, { courses: [course] });
    }
    await think();
  }
}
