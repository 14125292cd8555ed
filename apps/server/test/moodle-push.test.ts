import { MOODLE_MSG_MORE, type MoodleImportResult, type MoodlePushResult } from '@sigaf/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_TOKENS, fixtureSite } from '../../../tools/moodle-sim/src/fixture-site.js';
import { startMoodleSim, type SimServer } from '../../../tools/moodle-sim/src/server.js';
import type { JobWorker } from '../src/jobs/worker.js';
import { categoryCodeOf } from '../src/modules/moodle-sync/import.js';
import { studentRoleOf } from '../src/modules/moodle-sync/push.js';
import {
  localDay,
  MoodleScheduler,
  parseSchedule,
  type NightlySchedule,
} from '../src/modules/moodle-sync/schedule.js';
import { processInUtc } from './utc-clock.js';
import { createTestContext, type TestContext } from './helpers.js';
import { testWorker, waitFor } from './mail-data.js';

/**
 * Import from Moodle (browse categories and courses, link by Moodle id), the push direction
 * (create students in Moodle, enrol them as students, classrooms as groups) and the nightly
 * schedule (one sync per course and day however many processes run it), against the simulator.
 */

let ctx: TestContext;
let sim: SimServer;
let admin: string;
let operator: string;
let platformId: number;
let worker: JobWorker;

async function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, token = admin) {
  const res = await ctx.request({
    method,
    url,
    token,
    payload: payload === undefined ? (method === 'GET' ? 'true' : {}) : (payload as object),
  });
  return { status: res.statusCode, body: res.json() };
}

async function waitJob(jobId: number) {
  return waitFor(
    async () => {
      const job = await ctx.app.services.jobs.queue.get(jobId);
      return job && ['done', 'failed'].includes(job.status) ? job : null;
    },
    30_000,
    `job ${jobId}`,
  );
}

beforeAll(async () => {
  ctx = await createTestContext({ MOODLE_TIMEOUT_MS: 2000, MOODLE_RETRIES: 0 });
  admin = (await ctx.userWithRole('admin')).token;
  operator = (await ctx.userWithRole('operator')).token;
  const site = fixtureSite();
  site.user(3)!.idnumber = '12.345.678-5'; // Ana is in Moodle (not in course 5) with her RUT
  sim = await startMoodleSim({ site });
  platformId = (
    await ctx.db
      .selectFrom('platforms')
      .select('id')
      .where('key', '=', 'moodle')
      .executeTakeFirstOrThrow()
  ).id;
  worker = testWorker(ctx, { id: 'push-worker' });
  worker.start();
});

afterAll(async () => {
  await worker?.stop({ graceMs: 2000 });
  await sim?.close();
  await ctx?.close();
});

describe('import from Moodle', () => {
  it('needs the platform connection first', async () => {
    const res = await call('GET', `/api/v2/platforms/${platformId}/moodle/categories`);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'La plataforma no tiene configurada la conexión con Moodle (URL y token).',
    );
    const saved = await call('PUT', `/api/v2/platforms/${platformId}/moodle`, {
      url: sim.url,
      token: FIXTURE_TOKENS.admin,
    });
    expect(saved.status).toBe(200);
  });

  it("browses Moodle's categories and a category's courses", async () => {
    const cats = await call('GET', `/api/v2/platforms/${platformId}/moodle/categories`);
    expect(cats.status).toBe(200);
    expect(
      cats.body._data.categories.map(
        (c: { id: number; name: string; localCategoryId: number | null }) => [
          c.id,
          c.name,
          c.localCategoryId,
        ],
      ),
    ).toEqual([
      [1, 'Category 1', null],
      [2, 'Training Org', null],
      [3, 'Forklift', null],
    ]);
    const courses = await call('GET', `/api/v2/platforms/${platformId}/moodle/courses?category=3`);
    expect(courses.status).toBe(200);
    expect(courses.body._data.courses).toEqual([
      {
        id: 4,
        shortname: 'FS101',
        fullname: expect.any(String),
        categoryId: 3,
        localCourseId: null,
      },
    ]);
    const bad = await call('GET', `/api/v2/platforms/${platformId}/moodle/courses?category=abc`);
    expect(bad.status).toBe(422);
    // Operators may not browse or import.
    expect(
      (await call('GET', `/api/v2/platforms/${platformId}/moodle/categories`, undefined, operator))
        .status,
    ).toBe(403);
  });

  it('imports a course by Moodle id: category and course created and linked, once', async () => {
    const first = await call('POST', `/api/v2/platforms/${platformId}/moodle/import`, {
      moodleCourseId: 4,
    });
    expect(first.status).toBe(201);
    expect(first.body.message).toBe('Curso importado desde Moodle.');
    const r = first.body._data as MoodleImportResult;
    expect(r.category).toMatchObject({ description: 'Forklift', created: true });
    expect(r.course).toMatchObject({ created: true });
    const cat = await ctx.db
      .selectFrom('categories')
      .selectAll()
      .where('id', '=', r.category.id)
      .executeTakeFirstOrThrow();
    expect(cat).toMatchObject({
      id_category_moodle: 3,
      category_code: 'CATF',
      platform_id: platformId,
    });
    const course = await ctx.db
      .selectFrom('courses')
      .selectAll()
      .where('id', '=', r.course.id)
      .executeTakeFirstOrThrow();
    expect(course).toMatchObject({ id_course_moodle: 4, category_id: cat.id, status: 1 });

    const again = await call('POST', `/api/v2/platforms/${platformId}/moodle/import`, {
      moodleCourseId: 4,
    });
    expect(again.status).toBe(200);
    expect(again.body.message).toBe('El curso ya estaba vinculado; se actualizaron sus datos.');
    expect(again.body._data.course).toEqual({ ...r.course, created: false });
    expect(
      Number(
        (
          await ctx.db
            .selectFrom('courses')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('id_course_moodle', '=', 4)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(1);

    // The browser now shows the links.
    const courses = await call('GET', `/api/v2/platforms/${platformId}/moodle/courses?category=3`);
    expect(courses.body._data.courses[0].localCourseId).toBe(r.course.id);
  });

  it('refuses an unknown or invalid Moodle course id in Spanish', async () => {
    const unknown = await call('POST', `/api/v2/platforms/${platformId}/moodle/import`, {
      moodleCourseId: 999,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('No existe un curso con ese id en Moodle.');
    const invalid = await call('POST', `/api/v2/platforms/${platformId}/moodle/import`, {
      moodleCourseId: 'x',
    });
    expect(invalid.status).toBe(422);
    expect(JSON.stringify(invalid.body)).toContain('Ingrese un id de curso de Moodle válido.');
  });

  it('derives category codes from the idnumber or the name', () => {
    expect(categoryCodeOf({ name: 'Forklift', idnumber: 'CAT-FORK' })).toBe('CATF');
    expect(categoryCodeOf({ name: 'Capacitación en grúas horquilla', idnumber: null })).toBe(
      'CEGH',
    );
    expect(categoryCodeOf({ name: 'Seguridad', idnumber: '' })).toBe('SEGU');
  });
});

describe('push to Moodle', () => {
  let courseId: number;
  const enrolmentOf: Record<string, number> = {};

  beforeAll(async () => {
    const db = ctx.db;
    const imported = await call('POST', `/api/v2/platforms/${platformId}/moodle/import`, {
      moodleCourseId: 5,
    });
    courseId = imported.body._data.course.id;
    const profile = (
      await db
        .selectFrom('profiles')
        .select('id')
        .where('key', '=', 'student')
        .executeTakeFirstOrThrow()
    ).id;
    const rooms = await db
      .selectFrom('classrooms')
      .select(['id', 'description'])
      .orderBy('id')
      .execute();
    const people = [
      {
        key: 'ana',
        rut: '12.345.678-5',
        name: 'Ana',
        last: 'Silva',
        email: 'ana.local@test.cl',
        room: rooms[0]!.id,
      },
      {
        key: 'diego',
        rut: '20.111.222-2',
        name: 'Diego',
        last: 'Rojas',
        email: 'diego@test.cl',
        room: rooms[0]!.id,
      },
      {
        key: 'eva',
        rut: '7.654.321-6',
        name: 'Eva',
        last: 'Soto',
        email: 'eva@test.cl',
        room: rooms[1]!.id,
      },
      { key: 'nomail', rut: '15.222.333-1', name: 'Sin', last: 'Correo', email: null, room: null },
      {
        key: 'taken',
        rut: '17.000.003-K',
        name: 'Correo',
        last: 'Ocupado',
        email: 'carla@example.com',
        room: null,
      },
    ];
    for (const p of people) {
      const s = await db
        .insertInto('registered_users')
        .values({
          rut: p.rut,
          name: p.name,
          last_name: p.last,
          mother_last_name: 'Pérez',
          email: p.email,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      enrolmentOf[p.key] = (
        await db
          .insertInto('course_registered_users')
          .values({
            course_id: courseId,
            registered_user_id: s.id,
            profile_id: profile,
            classroom_id: p.room,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    }
  });

  it('refuses an empty choice and other roles', async () => {
    const none = await call('POST', `/api/v2/sync/courses/${courseId}/push`, {
      createUsers: false,
      enrol: false,
      groups: false,
    });
    expect(none.status).toBe(422);
    expect(JSON.stringify(none.body)).toContain(
      'Seleccione al menos una acción para enviar a Moodle.',
    );
    expect((await call('POST', `/api/v2/sync/courses/${courseId}/push`, {}, operator)).status).toBe(
      403,
    );
    const never = await call('GET', `/api/v2/sync/courses/${courseId}/push/status`);
    expect(never.body).toMatchObject({
      message: 'Aún no se han enviado datos de este curso a Moodle.',
      _data: { state: null },
    });
  });

  it('creates the missing students, enrols them as students and mirrors classrooms as groups', async () => {
    const queued = await call('POST', `/api/v2/sync/courses/${courseId}/push`, {
      createUsers: true,
      enrol: true,
      groups: true,
    });
    expect(queued.status).toBe(202);
    expect(queued.body.message).toBe('Envío a Moodle en cola.');
    await waitJob(queued.body._data.jobId);
    const status = await call('GET', `/api/v2/sync/courses/${courseId}/push/status`);
    expect(status.body._data.state).toBe('done');
    const r = status.body._data.result as MoodlePushResult;
    expect(r).toMatchObject({
      courseMoodleId: 5,
      studentRoleId: 5,
      usersCreated: 2,
      usersLinked: 1,
      enrolled: 3,
      alreadyEnrolled: 0,
      groupsCreated: 2,
      membersAdded: 3,
      errors: [],
    });
    expect(r.skipped.map((s) => [s.rut, s.detail])).toEqual([
      ['15.222.333-1', 'Sin correo electrónico válido: Moodle lo exige'],
      ['17.000.003-K', 'El correo carla@example.com ya lo usa otro usuario de Moodle'],
    ]);

    const site = sim.site;
    const diego = site.users.find((u) => u.username === '20111222-2')!;
    expect(diego).toMatchObject({
      firstname: 'Diego',
      lastname: 'Rojas Pérez',
      email: 'diego@test.cl',
      idnumber: '20.111.222-2',
    });
    expect(site.users.find((u) => u.username === '7654321-6')).toBeTruthy();
    const enrolments = site.enrolmentsOf(5);
    expect(enrolments.map((e) => [e.userid, e.roleid]).sort()).toEqual(
      [
        [3, 5],
        [diego.id, 5],
        [site.users.find((u) => u.username === '7654321-6')!.id, 5],
      ].sort(),
    );
    const groups = site.groups.filter((g) => g.courseid === 5);
    expect(groups.map((g) => [g.name, g.members.length])).toEqual([
      ['Aula 1', 2],
      ['Aula 2', 1],
    ]);
    // The Moodle ids are remembered locally.
    const local = await ctx.db
      .selectFrom('registered_users')
      .select(['rut', 'id_registered_moodle'])
      .where('rut', 'in', ['12.345.678-5', '20.111.222-2'])
      .orderBy('rut')
      .execute();
    expect(local).toEqual([
      { rut: '12.345.678-5', id_registered_moodle: 3 },
      { rut: '20.111.222-2', id_registered_moodle: diego.id },
    ]);
  });

  it('sends nothing twice', async () => {
    const usersBefore = sim.site.users.length;
    const queued = await call('POST', `/api/v2/sync/courses/${courseId}/push`, null);
    await waitJob(queued.body._data.jobId);
    const r = (await call('GET', `/api/v2/sync/courses/${courseId}/push/status`)).body._data
      .result as MoodlePushResult;
    expect(r).toMatchObject({
      usersCreated: 0,
      usersLinked: 0,
      enrolled: 0,
      alreadyEnrolled: 3,
      groupsCreated: 0,
      membersAdded: 0,
    });
    expect(sim.site.users.length).toBe(usersBefore);
    expect(sim.site.groups.filter((g) => g.courseid === 5)).toHaveLength(2);
  });

  it('an enrol that Moodle commits and then fails (welcome message not sent) is reported as what Moodle has, and grouped', async () => {
    // A new student, in a classroom, not yet in the Moodle course.
    const db = ctx.db;
    const profile = (
      await db
        .selectFrom('profiles')
        .select('id')
        .where('key', '=', 'student')
        .executeTakeFirstOrThrow()
    ).id;
    const room = (
      await db.selectFrom('classrooms').select('id').orderBy('id').executeTakeFirstOrThrow()
    ).id;
    const s = await db
      .insertInto('registered_users')
      .values({ rut: '9.876.543-3', name: 'Rosa', last_name: 'Vidal', email: 'rosa@test.cl' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('course_registered_users')
      .values({
        course_id: courseId,
        registered_user_id: s.id,
        profile_id: profile,
        classroom_id: room,
      })
      .execute();
    sim.site.settings.enrolMessageFails = true;
    try {
      const queued = await call('POST', `/api/v2/sync/courses/${courseId}/push`, {
        createUsers: true,
        enrol: true,
        groups: true,
      });
      await waitJob(queued.body._data.jobId);
      const r = (await call('GET', `/api/v2/sync/courses/${courseId}/push/status`)).body._data
        .result as MoodlePushResult;
      const rosa = sim.site.users.find((u) => u.username === '9876543-3')!;
      expect(sim.site.enrolment(5, rosa.id)).toBeTruthy();
      expect(r).toMatchObject({ usersCreated: 1, enrolled: 1, membersAdded: 1 });
      // Said truthfully and in Spanish: enrolled, only the welcome message failed.
      expect(r.errors).toEqual([MOODLE_MSG_MORE.enrolledWelcomeNotSent(1)]);
      expect(r.errors.join(' ')).not.toMatch(/Message was not sent|No se pudo matricular/);
      expect(
        sim.site.groups.find((g) => g.courseid === 5 && g.name === 'Aula 1')!.members,
      ).toContain(rosa.id);
    } finally {
      sim.site.settings.enrolMessageFails = false;
    }
  });

  it('a student unenrolled in Moodle on purpose is not enrolled again unless the push asks to, and is listed', async () => {
    await ctx.app.services.moodleSync.syncCourse(courseId, { scope: 'users' });
    sim.site.unenrol(5, 3); // Ana, unenrolled in Moodle
    const push = async (reenrol?: boolean) => {
      const queued = await call('POST', `/api/v2/sync/courses/${courseId}/push`, {
        createUsers: false,
        enrol: true,
        groups: false,
        ...(reenrol === undefined ? {} : { reenrol }),
      });
      await waitJob(queued.body._data.jobId);
      return (await call('GET', `/api/v2/sync/courses/${courseId}/push/status`)).body._data
        .result as MoodlePushResult;
    };
    const kept = await push();
    expect(sim.site.enrolment(5, 3)).toBeFalsy();
    expect(kept.enrolled).toBe(0);
    expect(kept.notReenrolled.map((i) => i.rut)).toEqual(['12.345.678-5']);
    const again = await push(true);
    expect(sim.site.enrolment(5, 3)).toBeTruthy();
    expect(again).toMatchObject({ enrolled: 1, notReenrolled: [] });
  });

  it("checks Moodle's student role and never gives a privileged one", () => {
    const role = (roleid: number, shortname: string) => ({
      roleid,
      shortname,
      name: shortname,
      sortorder: 0,
    });
    const user = (roles: ReturnType<typeof role>[]) => ({ id: 1, fullname: 'x', roles });
    expect(studentRoleOf([user([role(5, 'student')]), user([role(3, 'editingteacher')])])).toBe(5);
    expect(studentRoleOf([user([role(9, 'student')])])).toBe(9);
    expect(studentRoleOf([])).toBe(5);
    expect(studentRoleOf([user([role(1, 'student')])])).toBeNull();
    expect(studentRoleOf([user([role(5, 'editingteacher')])])).toBeNull();
  });
});

describe('nightly schedule', () => {
  // The server's clock is UTC; the schedule is 02:00 in Santiago (times: nightly-schedule.test.ts).
  processInUtc();
  const ZONE = 'America/Santiago';

  it('queues one sync per active linked course and day, with two processes and two workers', async () => {
    const services = ctx.app.services;
    const courses = await ctx.db
      .selectFrom('courses')
      .select('id')
      .where('status', '=', 1)
      .where('id_course_moodle', 'is not', null)
      .orderBy('id')
      .execute();
    expect(courses.length).toBe(2);
    // An inactive linked course is left alone.
    const inactive = await ctx.db
      .insertInto('courses')
      .values({
        description: 'Curso cerrado',
        category_id: (await ctx.db.selectFrom('categories').select('id').executeTakeFirstOrThrow())
          .id,
        id_course_moodle: 4,
        status: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const second = testWorker(ctx, { id: 'second-worker' });
    second.start();
    const at: NightlySchedule = { at: parseSchedule('02:00')!, timeZone: ZONE };
    const a = new MoodleScheduler(ctx.db, services.jobs.queue, services.moodleSync, at);
    const b = new MoodleScheduler(ctx.db, services.jobs.queue, services.moodleSync, at);
    // 02:30 in Santiago on 4 April 2026 (UTC-3); the server's 02:30 and Santiago's 01:00 are early.
    const night = new Date('2026-04-04T05:30:00Z');
    expect(await a.tick(new Date('2026-04-04T02:30:00Z'))).toEqual([]);
    expect(await a.tick(new Date('2026-04-04T04:00:00Z'))).toEqual([]);

    const [qa, qb] = await Promise.all([a.tick(night), b.tick(night)]);
    const queued = [...qa, ...qb];
    expect(queued.map((q) => q.courseId).sort((x, y) => x - y)).toEqual(courses.map((c) => c.id));
    // Again the same night, from either process: nothing more.
    expect([
      ...(await a.tick(night)),
      ...(await b.tick(new Date(night.getTime() + 60 * 60_000))),
    ]).toEqual([]);
    for (const q of queued) expect((await waitJob(q.jobId)).status).toBe('done');
    await second.stop({ graceMs: 2000 });

    const syncJobs = await ctx.db
      .selectFrom('jobs')
      .select(['id', 'payload', 'locked_by'])
      .where('type', '=', 'moodle.sync')
      .execute();
    const perCourse = new Map<number, number>();
    for (const j of syncJobs) {
      const id = (j.payload as { courseId: number }).courseId;
      perCourse.set(id, (perCourse.get(id) ?? 0) + 1);
    }
    expect(Object.fromEntries(perCourse)).toEqual(
      Object.fromEntries(courses.map((c) => [c.id, 1])),
    );
    expect(perCourse.has(inactive.id)).toBe(false);
    const runs = await ctx.db
      .selectFrom('moodle_sync_schedule_runs')
      .select(['course_id', 'job_id'])
      .orderBy('course_id')
      .execute();
    expect(runs).toEqual(
      queued
        .map((q) => ({ course_id: q.courseId, job_id: q.jobId }))
        .sort((x, y) => x.course_id - y.course_id),
    );
    const status = await call('GET', `/api/v2/sync/courses/${courses[0]!.id}/status`);
    expect(status.body._data.state).toBe('done');
    expect(status.body._data.lastSyncAt).not.toBeNull();

    // The next night, 02:30 after the change to UTC-4, queues them again (not an hour early); "off" never does.
    const next = new Date('2026-04-05T06:30:00Z');
    expect(await b.tick(new Date('2026-04-05T05:30:00Z'))).toEqual([]);
    expect(
      await new MoodleScheduler(ctx.db, services.jobs.queue, services.moodleSync, null).tick(next),
    ).toEqual([]);
    const old = localDay(new Date(next.getTime() - 70 * 24 * 60 * 60_000), ZONE);
    await ctx.db
      .insertInto('moodle_sync_schedule_runs')
      .values({ course_id: courses[0]!.id, day: old })
      .execute();
    const tomorrow = await b.tick(next);
    expect(tomorrow).toHaveLength(2);
    // Claims older than two months are cleared by the night's tick.
    const days = await ctx.db
      .selectFrom('moodle_sync_schedule_runs')
      .select(sql<string>`day::text`.as('day'))
      .where('course_id', '=', courses[0]!.id)
      .orderBy('day')
      .execute();
    expect(days.map((d) => d.day)).toEqual(['2026-04-04', '2026-04-05']);
    for (const q of tomorrow) await waitJob(q.jobId);
  });
});
