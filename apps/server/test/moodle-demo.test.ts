import { chileParts, normalizeRut } from '@sigaf/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMoodleSim, type SimServer } from '../../../tools/moodle-sim/src/server.js';
import { demoRequested } from '../src/config.js';
import { DEMO_PASSWORD, DEMO_STAFF, demoSite, seedDemo } from '../src/demo/seed.js';
import { demoBanner } from '../src/demo/start.js';
import { firstAdminBanner } from '../src/banner.js';
import type { JobWorker } from '../src/jobs/worker.js';
import { createTestContext, type TestContext } from './helpers.js';
import { testWorker, waitFor } from './mail-data.js';

/** The demo: seeded once against the simulator with the demo site, idempotent, and its first sync works. */

let ctx: TestContext;
let sim: SimServer;
let worker: JobWorker;
const generated = demoSite();

async function totals() {
  const count = async (
    table:
      | 'categories'
      | 'courses'
      | 'registered_users'
      | 'course_registered_users'
      | 'tickets'
      | 'ticket_details'
      | 'users',
  ) =>
    Number(
      (
        await ctx.db
          .selectFrom(table)
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    categories: await count('categories'),
    courses: await count('courses'),
    students: await count('registered_users'),
    enrolments: await count('course_registered_users'),
    tickets: await count('tickets'),
    attempts: await count('ticket_details'),
    users: await count('users'),
  };
}

beforeAll(async () => {
  ctx = await createTestContext();
  sim = await startMoodleSim({ site: generated.site });
  worker = testWorker(ctx);
});

afterAll(async () => {
  await worker?.stop({ graceMs: 2000 });
  await sim?.close();
  await ctx?.close();
});

describe('demo data', () => {
  it('is asked for by flag, npm option or environment', () => {
    expect(demoRequested(ctx.config, ['node', 'main.ts'], {})).toBe(false);
    expect(demoRequested(ctx.config, ['node', 'main.ts', '--demo'], {})).toBe(true);
    expect(demoRequested(ctx.config, ['node', 'main.ts'], { npm_config_demo: 'true' })).toBe(true);
    expect(demoRequested({ ...ctx.config, DEMO: true }, ['node'], {})).toBe(true);
  });

  it('prints one console block: the simulator, demo staff and the first administrator together', () => {
    const summary = {
      platformId: 1,
      categories: 1,
      courses: 4,
      students: 190,
      enrolments: 190,
      staff: DEMO_STAFF.length,
      tickets: 180,
      attempts: 360,
      created: true,
      queuedCourseId: null,
    };
    const text = demoBanner(sim, summary, { email: 'admin@sigaf.cl', password: 'Temp-1234' });
    expect(text.split('\n').filter((l) => l.startsWith('====')).length).toBe(2);
    expect(text).toContain(sim.url);
    for (const u of DEMO_STAFF) expect(text).toContain(u.email);
    // Roles as the screens name them.
    for (const role of ['Administrador', 'Operador', 'Tutor']) expect(text).toContain(role);
    expect(text).not.toMatch(/\b(admin|operator|tutor)$/m);
    expect(text).toContain('admin@sigaf.cl  password Temp-1234');
    expect(firstAdminBanner(null)).toBe('');
    expect(firstAdminBanner({ email: 'a@b.cl', password: null })).toContain('ADMIN_PASSWORD');
  });

  it('loads a realistic site once: courses linked by Moodle id, students with its RUTs, staff, tickets over past weeks', async () => {
    const before = await totals();
    const summary = await seedDemo(ctx.db, ctx.config, ctx.app.services, generated, sim.url);
    const withRut = generated.people.filter((p) => p.rut).length;
    expect(generated.people.length).toBe(200);
    expect(summary).toMatchObject({
      created: true,
      categories: 1,
      courses: 4,
      students: withRut,
      enrolments: withRut,
      staff: DEMO_STAFF.length,
      tickets: 400,
    });
    // One to three attempts per ticket.
    expect(summary.attempts).toBeGreaterThanOrEqual(400);
    expect(summary.attempts).toBeLessThanOrEqual(1200);
    const after = await totals();
    expect(after.courses - before.courses).toBe(4);
    expect(after.students - before.students).toBe(withRut);
    expect(after.users - before.users).toBe(DEMO_STAFF.length);
    // Contacts are logged at work, 09:00–18:59 in Chile, after their ticket was opened.
    const attempts = await ctx.db
      .selectFrom('ticket_details as d')
      .innerJoin('tickets as t', 't.id', 'd.ticket_id')
      .select(['d.created_at as at', 't.created_at as opened'])
      .where(
        't.course_id',
        'in',
        (
          await ctx.db
            .selectFrom('courses')
            .select('id')
            .where('id_course_moodle', 'in', generated.courseIds)
            .execute()
        ).map((c) => c.id),
      )
      .execute();
    expect(attempts.length).toBe(summary.attempts);
    const hours = new Set(attempts.map((a) => Number(chileParts(a.at).time.slice(0, 2))));
    expect(
      [...hours].every((h) => h >= 9 && h <= 18),
      [...hours].join(','),
    ).toBe(true);
    expect(attempts.every((a) => new Date(a.at) >= new Date(a.opened))).toBe(true);
    // Each staff member has a valid RUT, as Mantenedor › Usuario requires of the users it creates.
    const staffRuts = await ctx.db
      .selectFrom('users')
      .select('rut')
      .where(
        'email',
        'in',
        DEMO_STAFF.map((u) => u.email),
      )
      .execute();
    expect(staffRuts.map((u) => normalizeRut(u.rut))).toEqual(staffRuts.map((u) => u.rut));
    expect(new Set(staffRuts.map((u) => u.rut)).size).toBe(DEMO_STAFF.length);

    const courses = await ctx.db
      .selectFrom('courses')
      .select(['id', 'description', 'id_course_moodle'])
      .where('id_course_moodle', 'in', generated.courseIds)
      .orderBy('id')
      .execute();
    expect(courses.map((c) => c.id_course_moodle)).toEqual(generated.courseIds);
    expect(courses[0]!.description).toBe('Operación segura de grúa horquilla');
    const platform = await ctx.db
      .selectFrom('platforms')
      .select(['url', 'token_encrypted'])
      .where('id', '=', summary.platformId)
      .executeTakeFirstOrThrow();
    expect(platform.url).toBe(sim.url);
    expect(platform.token_encrypted).not.toContain(generated.tokens.admin);
    // Tickets are spread over several weeks, some closed.
    const spread = await ctx.db
      .selectFrom('tickets')
      .select([
        sql<number>`count(distinct date_trunc('week', created_at))`.as('weeks'),
        sql<number>`count(closing_date)`.as('closed'),
      ])
      .executeTakeFirstOrThrow();
    expect(Number(spread.weeks)).toBeGreaterThanOrEqual(4);
    expect(Number(spread.closed)).toBeGreaterThan(0);
    expect(summary.queuedCourseId).toBe(courses[0]!.id);
    // Each demo tutor follows a classroom of every demo course, so a tutor signing in sees students.
    const follows = await ctx.db
      .selectFrom('classroom_tutors as ct')
      .innerJoin('users as u', 'u.id', 'ct.user_id')
      .select(['u.email', 'ct.course_id', 'ct.classroom_id'])
      .where('u.email', 'in', ['tutor1@sigaf.cl', 'tutor2@sigaf.cl'])
      .execute();
    for (const email of ['tutor1@sigaf.cl', 'tutor2@sigaf.cl'])
      expect(
        follows
          .filter((f) => f.email === email)
          .map((f) => f.course_id)
          .sort(),
      ).toEqual(courses.map((c) => c.id).sort());
    const tutorToken = await ctx.login('tutor1@sigaf.cl', DEMO_PASSWORD);
    const seen = await ctx.request({
      method: 'GET',
      url: `/api/v2/follow-up/courses/${courses[0]!.id}/students?page=1&perPage=5`,
      token: tutorToken,
    });
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json()._data.meta.total).toBeGreaterThan(0);
  });

  it('has a simulated progress history answering the contacts: the effectiveness report shows phone above mail, with baselines', async () => {
    const history = await ctx.db
      .selectFrom('enrolment_progress_history')
      .select(sql<number>`count(distinct enrolment_id)`.as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(history.n)).toBeGreaterThan(150);
    const admin = (await ctx.userWithRole('admin')).token;
    const res = await ctx.request({ method: 'GET', url: '/api/v2/outcomes/report', token: admin });
    const report = res.json()._data;
    expect(report.dimensions.all[0].reengaged.n).toBeGreaterThan(150);
    expect(report.dimensions.all[0].baseline.n).toBeGreaterThan(0);
    const rate = (label: string) =>
      report.dimensions.type.find((g: { label: string }) => g.label === label).reengaged.rate;
    expect(rate('Contacto telefónico')).toBeGreaterThan(rate('Correo electrónico'));
  });

  it('adds nothing on a second start (and follows the simulator to its new address)', async () => {
    const before = await totals();
    const again = await seedDemo(ctx.db, ctx.config, ctx.app.services, generated, `${sim.url}/`);
    expect(again).toMatchObject({
      created: false,
      categories: 0,
      courses: 0,
      students: 0,
      enrolments: 0,
      staff: 0,
      tickets: 0,
      attempts: 0,
      queuedCourseId: null,
    });
    expect(await totals()).toEqual(before);
  });

  it('the first course synchronises against the simulator: data arrives, with the planted differences reported', async () => {
    worker.start();
    const courseId = (
      await ctx.db
        .selectFrom('courses')
        .select('id')
        .where('id_course_moodle', '=', generated.courseIds[0]!)
        .executeTakeFirstOrThrow()
    ).id;
    const status = await waitFor(
      async () => {
        const s = await ctx.app.services.moodleSync.status(courseId);
        return s.state === 'done' || s.state === 'failed' ? s : null;
      },
      60_000,
      'the demo sync',
    );
    expect(status.error).toBeNull();
    const r = status.result!;
    expect(r.missingInMoodle).toHaveLength(2);
    expect(r.missingLocally).toHaveLength(2);
    expect(r.found).toBeGreaterThan(40);
    expect(r.activitiesAdded).toBe(4 * 3 + 6);
    const results = await ctx.db
      .selectFrom('activity_course_users as r')
      .innerJoin('activities as a', 'a.id', 'r.activity_id')
      .select(sql<number>`count(*)`.as('n'))
      .where('a.course_id', '=', courseId)
      .executeTakeFirstOrThrow();
    expect(Number(results.n)).toBe(r.found * r.activitiesAdded);
  });
});
