import zlib from 'node:zlib';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { BUILDS } from '../src/answer-builds.js';
import { buildApp } from '../src/app.js';
import { localBuilder } from '../src/modules/answers/builders.js';
import { takesGzip } from '../src/modules/answers/cache.js';
import { seedChain, ticketKeys } from './data.js';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';

/**
 * The original client's whole-course answers kept serialised (modules/answers/cache.ts): never
 * staler than the last committed change. Each write below goes straight to the database (as
 * another server process or a bulk load would), then the kept answer is compared with the one a
 * second server with no memory for answers builds from the same database.
 */
let ctx: TestContext;
let fresh: FastifyInstance;
let admin: string;
let adminId: number;
let A: Awaited<ReturnType<typeof seedChain>>;
let B: Awaited<ReturnType<typeof seedChain>>;
let activityA: number;

const urls = (course: number, activity: number, enrolment: number) => ({
  tickets: `/api/v2/tickets/course-registered-users/course/${course}`,
  enrolments: `/api/v2/course-registered-user/${course}/users/all`,
  activities: `/api/v2/activities/[${activity}]/course-registered-users/${course}`,
  report: `/api/v2/reports/courses/${course}/student-tickets?page=1`,
  history: `/api/v2/course-registered-user/${enrolment}/tickets`,
});
type Answer = keyof ReturnType<typeof urls>;
const headers = (token: string) => ({
  authorization: `Bearer ${token}`,
  accept: 'application/json',
});

async function kept(url: string, token = admin) {
  const res = await ctx.request({ method: 'GET', url, token });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return res.json();
}
async function rebuilt(url: string, token = admin) {
  const res = await fresh.inject({ method: 'GET', url, headers: headers(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const counts = () => ({ ...ctx.app.services.answers.counts });

/**
 * Stops JavaScript's clock at the present (only Date: timers and I/O run): what the kept answers
 * read of the clock moves with vi.setSystemTime. Returns the time it stopped at (ms).
 */
function atFakeClock(): number {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
  return now;
}
afterEach(() => {
  vi.useRealTimers();
});

/** A write as a bulk load makes it: no trigger runs, so no answer version moves. */
async function withoutTriggers(table: string, write: () => Promise<unknown>) {
  await sql`alter table ${sql.table(table)} disable trigger user`.execute(ctx.db);
  try {
    await write();
  } finally {
    await sql`alter table ${sql.table(table)} enable trigger user`.execute(ctx.db);
  }
}

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  adminId = (
    await ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', TEST_ADMIN.email)
      .executeTakeFirstOrThrow()
  ).id;
  A = await seedChain(ctx.db, adminId, '71001');
  B = await seedChain(ctx.db, adminId, '71002');
  activityA = (
    await ctx.db
      .selectFrom('activities')
      .select('id')
      .where('course_id', '=', A.course)
      .executeTakeFirstOrThrow()
  ).id;
  await ctx.db
    .updateTable('course_registered_users')
    .set({ is_sincronized: true })
    .where('id', '=', A.enrolment)
    .execute();
  await ctx.db
    .insertInto('activity_course_users')
    .values({
      activity_id: activityA,
      course_registered_user_id: A.enrolment,
      status_moodle: 'Finalizado',
      completion_state: 1,
      grade: '6.5',
    })
    .execute();
  fresh = await buildApp({ ...ctx.config, ANSWER_CACHE_MB: 0 }, ctx.db);
  await fresh.ready();
});
afterAll(async () => {
  await fresh?.close();
  await ctx?.close();
});

describe('whole-course answers kept serialised', () => {
  it('serves the kept answer again while nothing changed, one build for concurrent askers', async () => {
    const u = urls(A.course, activityA, A.enrolment);
    const before = counts();
    const answers = await Promise.all(Array.from({ length: 5 }, () => kept(u.tickets)));
    expect(counts().built - before.built).toBe(1);
    for (const a of answers) expect(a).toEqual(answers[0]);
    expect(answers[0]._data.collections).toHaveLength(1);
    await kept(u.tickets);
    expect(counts().kept - before.kept).toBeGreaterThanOrEqual(1);
    expect(await kept(u.tickets)).toEqual(await rebuilt(u.tickets));
  });

  // Every table the three answers read, written as another process would, and what must show it.
  const writes: Array<[string, Answer, () => Promise<unknown>]> = [
    [
      'tickets',
      'tickets',
      async () =>
        ctx.db
          .updateTable('tickets')
          .set({ priority_ticket_id: (await ticketKeys(ctx.db)).low })
          .where('id', '=', A.ticket)
          .execute(),
    ],
    [
      'ticket_details',
      'tickets',
      async () =>
        ctx.db
          .insertInto('ticket_details')
          .values({
            ticket_id: A.ticket,
            user_created_id: adminId,
            status_detail_ticket_id: (await ticketKeys(ctx.db)).success,
            comment: 'Contestó',
          })
          .execute(),
    ],
    [
      'log_editing_tickets',
      'tickets',
      () =>
        ctx.db
          .insertInto('log_editing_tickets')
          .values({
            ticket_id: A.ticket,
            user_id: adminId,
            expires_at: new Date(Date.now() + 600_000),
          })
          .execute(),
    ],
    [
      'course_registered_users',
      'enrolments',
      () =>
        ctx.db
          .updateTable('course_registered_users')
          .set({ final_qualification: '5.5' })
          .where('id', '=', A.enrolment)
          .execute(),
    ],
    [
      'registered_users',
      'report',
      () =>
        ctx.db
          .updateTable('registered_users')
          .set({ name: 'Pía Andrea' })
          .where('id', '=', A.student)
          .execute(),
    ],
    [
      'activity_course_users',
      'activities',
      () =>
        ctx.db
          .updateTable('activity_course_users')
          .set({ grade: '4.0' })
          .where('activity_id', '=', activityA)
          .execute(),
    ],
    [
      'activities',
      'enrolments',
      () =>
        ctx.db
          .updateTable('activities')
          .set({ description: 'Actividad renombrada' })
          .where('id', '=', activityA)
          .execute(),
    ],
    [
      'courses',
      'tickets',
      () =>
        ctx.db
          .updateTable('courses')
          .set({ description: 'Curso renombrado' })
          .where('id', '=', A.course)
          .execute(),
    ],
    [
      'categories',
      'tickets',
      () =>
        ctx.db
          .updateTable('categories')
          .set({ description: 'Categoría renombrada' })
          .where('id', '=', A.category)
          .execute(),
    ],
    [
      'classrooms',
      'enrolments',
      () =>
        ctx.db
          .updateTable('classrooms')
          .set({ description: 'Aula renombrada' })
          .where('id', '=', A.classroom)
          .execute(),
    ],
    [
      'final_statuses',
      'enrolments',
      () =>
        ctx.db
          .updateTable('final_statuses')
          .set({ description: 'Aprobado con distinción' })
          .where('id', '=', A.finalStatus)
          .execute(),
    ],
    [
      'sections',
      'enrolments',
      () =>
        ctx.db
          .updateTable('sections')
          .set({ description: 'Unidad renombrada' })
          .where('id', '=', A.section)
          .execute(),
    ],
    [
      'motive_tickets',
      'tickets',
      () =>
        ctx.db
          .updateTable('motive_tickets')
          .set({ description: 'Motivo renombrado' })
          .where('id', '=', A.motive)
          .execute(),
    ],
    [
      'profiles',
      'tickets',
      () =>
        ctx.db
          .updateTable('profiles')
          .set({ description: 'Alumno' })
          .where('key', '=', 'student')
          .execute(),
    ],
    [
      'status_tickets',
      'tickets',
      () =>
        ctx.db
          .updateTable('status_tickets')
          .set({ description: 'Pendiente' })
          .where('key', '=', 'open')
          .execute(),
    ],
    [
      'type_tickets',
      'tickets',
      () =>
        ctx.db
          .updateTable('type_tickets')
          .set({ description: 'Llamada' })
          .where('key', '=', 'phone')
          .execute(),
    ],
    [
      'priority_tickets',
      'tickets',
      () =>
        ctx.db
          .updateTable('priority_tickets')
          .set({ description: 'Baja prioridad' })
          .where('key', '=', 'low')
          .execute(),
    ],
    [
      'source_tickets',
      'tickets',
      () =>
        ctx.db
          .updateTable('source_tickets')
          .set({ description: 'Saliente por teléfono' })
          .where('key', '=', 'outgoing')
          .execute(),
    ],
    [
      'status_detail_tickets',
      'tickets',
      () =>
        ctx.db
          .updateTable('status_detail_tickets')
          .set({ description: 'Contactado' })
          .where('key', '=', 'success')
          .execute(),
    ],
    [
      'users',
      'tickets',
      () =>
        ctx.db
          .updateTable('users')
          .set({ name: 'Administradora' })
          .where('id', '=', adminId)
          .execute(),
    ],
  ];

  for (const [table, shows, write] of writes) {
    it(`a write to ${table} is in the next answer`, async () => {
      const u = urls(A.course, activityA, A.enrolment);
      const before: Record<string, unknown> = {};
      for (const [name, url] of Object.entries(u)) {
        await kept(url);
        before[name] = await kept(url);
      }
      await write();
      for (const [name, url] of Object.entries(u))
        expect(await kept(url), `${name} after a write to ${table}`).toEqual(await rebuilt(url));
      expect(await kept(u[shows]), `${shows} shows the write to ${table}`).not.toEqual(
        before[shows],
      );
    });
  }

  it('a bulk load that bypassed the triggers is in the next answer once the summaries are rebuilt', async () => {
    const u = urls(A.course, activityA, A.enrolment);
    const before = await kept(u.tickets);
    await sql`alter table tickets disable trigger user`.execute(ctx.db);
    await sql`update tickets set ticket_code = 'ABCD-CUR-BULK' where id = ${A.ticket}`.execute(
      ctx.db,
    );
    await sql`alter table tickets enable trigger user`.execute(ctx.db);
    expect(await kept(u.tickets)).toEqual(before);
    await sql`select sigaf_rebuild_stats()`.execute(ctx.db);
    const after = await kept(u.tickets);
    expect(after._data.collections[0].properties.ticketCode).toBe('ABCD-CUR-BULK');
    expect(after).toEqual(await rebuilt(u.tickets));
  });

  it("a write to another course's rows keeps this course's answers", async () => {
    const u = urls(A.course, activityA, A.enrolment);
    await kept(u.enrolments);
    const before = counts();
    await ctx.db
      .updateTable('tickets')
      .set({ priority_ticket_id: (await ticketKeys(ctx.db)).medium })
      .where('id', '=', B.ticket)
      .execute();
    await ctx.db
      .updateTable('registered_users')
      .set({ name: 'Otra' })
      .where('id', '=', B.student)
      .execute();
    await kept(u.enrolments);
    expect(counts().kept - before.kept).toBe(1);
    expect(counts().built - before.built).toBe(0);
  });

  it('an edit lock shown in a kept answer is gone from it when it expires', async () => {
    const u = urls(A.course, activityA, A.enrolment);
    const start = atFakeClock();
    const expires = start + 60_000;
    await ctx.db.deleteFrom('log_editing_tickets').execute();
    await ctx.db
      .insertInto('log_editing_tickets')
      .values({ ticket_id: A.ticket, user_id: adminId, expires_at: new Date(expires) })
      .execute();
    expect((await kept(u.tickets))._data.collections[0].properties.lock).not.toBeNull();
    // The database's clock passes the expiry: the row is moved into its past without a new answer
    // version (no write to show). The kept answers hold until the expiry they were read with.
    await withoutTriggers('log_editing_tickets', () =>
      sql`update log_editing_tickets set expires_at = now() - interval '1 second'`.execute(ctx.db),
    );
    const before = counts();
    expect((await kept(u.tickets))._data.collections[0].properties.lock).not.toBeNull();
    expect(counts().kept - before.kept).toBe(1);
    vi.setSystemTime(expires);
    expect((await kept(u.tickets))._data.collections[0].properties.lock).toBeNull();
  });

  it("an open ticket's age in a kept answer grows with the clock", async () => {
    // The ages are read from the clock where the answer is built; the fake clock is this thread's, so
    // the build runs here (on PostgreSQL it would run on its own thread, on the real clock).
    const answers = ctx.app.services.answers;
    const threaded = answers.builder;
    answers.builder = localBuilder(ctx.app.services, BUILDS);
    onTestFinished(() => {
      answers.builder = threaded;
    });
    const u = urls(A.course, activityA, A.enrolment);
    const start = atFakeClock();
    await ctx.db
      .updateTable('tickets')
      .set({
        created_at: new Date(start - 86_400_000 + 60_000),
        closing_date: null,
        status_ticket_id: (await ticketKeys(ctx.db)).open,
      })
      .where('id', '=', A.ticket)
      .execute();
    const young = (await kept(u.tickets))._data.collections[0].properties;
    expect([young.ageTicket, young.ageText]).toEqual([0, '< 24h']);
    // Sent gzipped (as it is kept) to a client that takes it: the same answer.
    const compressed = async () => {
      const res = await ctx.request({
        method: 'GET',
        url: u.tickets,
        token: admin,
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(res.headers['content-encoding']).toBe('gzip');
      return JSON.parse(zlib.gunzipSync(res.rawPayload).toString())._data.collections[0].properties;
    };
    expect((await compressed()).ageTicket).toBe(0);
    // Kept while the age stands.
    vi.setSystemTime(start + 30_000);
    let before = counts();
    expect((await kept(u.tickets))._data.collections[0].properties.ageTicket).toBe(0);
    expect(counts().kept - before.kept).toBe(1);
    // The age changes a minute later: the answer is built again, for either client.
    vi.setSystemTime(start + 60_000);
    before = counts();
    const old = (await kept(u.tickets))._data.collections[0].properties;
    expect(counts().built - before.built).toBe(1);
    expect([old.ageTicket, old.ageText]).toEqual([1, '1 día']);
    expect(await compressed()).toEqual(old);
  });

  it('each caller gets the answer of their own scope, and access is checked before anything kept is served', async () => {
    const u = urls(A.course, activityA, A.enrolment);
    const operator = await ctx.userWithRole('operator');
    const tutor = await ctx.userWithRole('tutor');
    expect((await kept(u.tickets))._data.collections).toHaveLength(1);
    // The operator is assigned none of the course's tickets.
    expect((await kept(u.tickets, operator.token))._data.collections).toHaveLength(0);
    expect((await kept(u.tickets))._data.collections).toHaveLength(1);
    await kept(u.activities);
    const refused = await ctx.request({ method: 'GET', url: u.activities, token: tutor.token });
    expect(refused.statusCode).toBe(403);
    // A student's history: kept for the administrator, refused to the tutor.
    await kept(u.history);
    expect(
      (await ctx.request({ method: 'GET', url: u.history, token: tutor.token })).statusCode,
    ).toBe(403);
  });

  it('a second administrator asking for the same answer while nothing changed is served what was kept, not a new build', async () => {
    const u = urls(A.course, activityA, A.enrolment);
    const other = await ctx.userWithRole('admin');
    for (const url of [u.tickets, u.enrolments]) {
      const mine = await kept(url);
      const before = counts();
      expect(await kept(url, other.token)).toEqual(mine);
      expect(counts().built - before.built, url).toBe(0);
    }
  });

  it('sends a kept answer compressed to a client that accepts it, and as it is to one that does not', async () => {
    const u = urls(A.course, activityA, A.enrolment);
    const plain = await kept(u.enrolments);
    for (const accept of ['gzip, deflate, br', 'br;q=0, gzip;q=0.8', 'gzip']) {
      const res = await ctx.request({
        method: 'GET',
        url: u.enrolments,
        token: admin,
        headers: { 'accept-encoding': accept },
      });
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(JSON.parse(zlib.gunzipSync(res.rawPayload).toString())).toEqual(plain);
    }
    for (const accept of ['gzip;q=0, identity', 'br']) {
      const refused = await ctx.request({
        method: 'GET',
        url: u.enrolments,
        token: admin,
        headers: { 'accept-encoding': accept },
      });
      expect(refused.headers['content-encoding']).toBeUndefined();
      expect(refused.json()).toEqual(plain);
    }
    const tickets = await ctx.request({
      method: 'GET',
      url: u.tickets,
      token: admin,
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(tickets.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(tickets.rawPayload).toString())).toEqual(
      await rebuilt(u.tickets),
    );
    expect(
      [
        'GZIP',
        '*',
        'deflate',
        undefined,
        'x-gzip;q=0.5',
        'br, gzip',
        'br;q=0',
        'br',
        'gzip;q=0',
        'gzip; q=0.000',
        'gzip;q=0.01',
        'x-gzipped',
      ].map(takesGzip),
    ).toEqual([true, true, false, false, true, true, false, false, false, false, true, false]);
  });

  it('keeps each answer once, gzipped: the memory it counts is the bytes a browser is sent', async () => {
    const own = await buildApp({ ...ctx.config, ANSWER_CACHE_MB: 1 }, ctx.db);
    try {
      const u = urls(A.course, activityA, A.enrolment);
      const plain = await own.inject({ method: 'GET', url: u.tickets, headers: headers(admin) });
      expect(plain.headers['content-encoding']).toBeUndefined();
      const gzipped = await own.inject({
        method: 'GET',
        url: u.tickets,
        headers: { ...headers(admin), 'accept-encoding': 'gzip' },
      });
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gzipped.rawPayload).toString()).toBe(plain.body);
      expect(own.services.answers.counts).toMatchObject({ built: 1, kept: 1 });
      expect(own.services.answers.size).toBe(gzipped.rawPayload.length);
      expect(own.services.answers.size).toBeLessThan(Buffer.byteLength(plain.body));
    } finally {
      await own.close();
    }
  });

  it('keeps no more bytes than it is given', async () => {
    const small = await buildApp({ ...ctx.config, ANSWER_CACHE_MB: 0 }, ctx.db);
    try {
      const u = urls(A.course, activityA, A.enrolment);
      for (let i = 0; i < 3; i++) {
        const res = await small.inject({
          method: 'GET',
          url: u.enrolments,
          headers: headers(admin),
        });
        expect(res.statusCode).toBe(200);
      }
      expect(small.services.answers.size).toBe(0);
      expect(small.services.answers.counts).toMatchObject({ kept: 0, built: 3 });
    } finally {
      await small.close();
    }
  });

  it('every table is either versioned for the answers or named here as not shown in them', async () => {
    // Tables none of the three answers reads: sign-in, audit and job bookkeeping, mail, Moodle sync
    // runs, agenda and reminders, saved filters, history, sends made once, and summaries derived in the same
    // transaction from versioned tables (ticket_counts, the course figures, enrolment_ticket_counts).
    const notShown = [
      'access_tokens',
      'login_attempts',
      'audit_log',
      'jobs',
      'ticket_code_sequences',
      'ticket_counts',
      'course_stats_state',
      'course_progress_stats',
      'course_enrolment_stats',
      'course_follow_up_rows',
      'enrolment_ticket_counts',
      'ticket_history',
      'ticket_filter_presets',
      'mail_attachments',
      'mail_messages',
      'mail_message_attachments',
      'mail_templates',
      'moodle_course_syncs',
      'legacy_alerts',
      'reminders',
      'agenda_course_settings',
      'user_agenda_settings',
      'moodle_sync_schedule_runs',
      'answer_versions',
      'kysely_migration',
      'kysely_migration_lock',
      'enrolment_progress_history',
      'outcome_kept_days',
      'outcome_kept_groups',
      'outcome_stale_days',
      'idempotent_sends',
      'agenda_last_reassignments',
    ];
    const tables = await sql<{ name: string; versioned: boolean }>`
      select c.relname as name, exists (select 1 from pg_trigger g join pg_proc p on p.oid = g.tgfoid where g.tgrelid = c.oid and p.proname like 'sigaf\\_answers\\_%') as versioned
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition`.execute(
      ctx.db,
    );
    const unclassified = tables.rows
      .filter((t) => !t.versioned && !notShown.includes(t.name))
      .map((t) => t.name);
    expect(
      unclassified,
      'tables with neither answer-version triggers nor a place in notShown',
    ).toEqual([]);
    for (const t of tables.rows.filter((x) => x.versioned)) expect(notShown).not.toContain(t.name);
  });
});

describe("a tutor's scope on the follow-up page (built for each request)", () => {
  it('a classroom taken from a tutor while their page is being built is gone from their next page, at any moment it lands', async () => {
    const tutor = await ctx.userWithRole('tutor');
    const C = await seedChain(ctx.db, adminId, '71003');
    // A second classroom of the course with a student of its own.
    const room2 = (
      await ctx.db
        .insertInto('classrooms')
        .values({ description: 'Aula Y71003' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const profile = (
      await ctx.db
        .selectFrom('profiles')
        .select('id')
        .where('key', '=', 'student')
        .executeTakeFirstOrThrow()
    ).id;
    const other = await ctx.db
      .insertInto('registered_users')
      .values({ rut: '71003-9', name: 'Otro', last_name: 'Alumno', email: 'otro@correo.test' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.db
      .insertInto('course_registered_users')
      .values({
        course_id: C.course,
        registered_user_id: other.id,
        profile_id: profile,
        classroom_id: room2,
      })
      .execute();
    await ctx.db
      .insertInto('classroom_tutors')
      .values({ course_id: C.course, classroom_id: C.classroom, user_id: tutor.id })
      .execute();
    const url = `/api/v2/follow-up/courses/${C.course}/students?page=1&perPage=10&sort=name`;
    const seen = async () =>
      ((await kept(url, tutor.token))._data.collections as Array<{ properties: { name: string } }>)
        .map((s) => s.properties.name)
        .sort();
    // Sweep the moment the classroom is taken away across the request's whole life: after k turns
    // (microtasks first, then turns of the event loop), until the request ends before it.
    const turn = (k: number) => (k < 300 ? Promise.resolve() : new Promise((r) => setImmediate(r)));
    for (let k = 0, ended = false; !ended && k < 400; k += 2) {
      await ctx.db
        .insertInto('classroom_tutors')
        .values({ course_id: C.course, classroom_id: room2, user_id: tutor.id })
        .execute();
      expect(await seen()).toEqual(['Otro', 'Pía']);
      await ctx.db
        .updateTable('courses')
        .set({ description: `Curso 71003 ${k}` })
        .where('id', '=', C.course)
        .execute(); // a new version: the next page is built
      let settled = false;
      const asking = seen().finally(() => (settled = true));
      for (let i = 0; i < k && !settled; i++) await turn(i);
      ended = settled;
      await ctx.db
        .deleteFrom('classroom_tutors')
        .where('classroom_id', '=', room2)
        .where('user_id', '=', tutor.id)
        .execute();
      await asking;
      expect(await seen(), `classroom taken after ${k} turns`).toEqual(['Pía']);
    }
  });
});
