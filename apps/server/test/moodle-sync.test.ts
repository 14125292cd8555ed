import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  MOODLE_ACTIVITY_STATUS,
  MOODLE_CAPABILITIES,
  MOODLE_MSG,
  MOODLE_STUDENT_STATUS,
  normalizeRut,
  type MoodleSyncResult,
} from '@sigaf/contract';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_TOKENS, fixtureSite } from '../../../tools/moodle-sim/src/fixture-site.js';
import { ALL_FUNCTIONS } from '../../../tools/moodle-sim/src/functions.js';
import { generateSite } from '../../../tools/moodle-sim/src/generator.js';
import { startMoodleSim, type SimServer } from '../../../tools/moodle-sim/src/server.js';
import type { Site } from '../../../tools/moodle-sim/src/site.js';
import type { JobWorker } from '../src/jobs/worker.js';
import { decryptSecret } from '../src/lib/crypto.js';
import { createTestContext, type TestContext } from './helpers.js';
import { expectKeptTablesComputed } from './kept/scratch.js';
import { syncCourseAndWait, testWorker, waitFor } from './mail-data.js';

/**
 * The Moodle sync against the simulator started in-process (a real HTTP Moodle on a random
 * port), through the API: settings, connection test, first sync, re-sync with changes, failures
 * that must leave the previous data intact, and the original's synchronous endpoints.
 */

const RUT = {
  ana: '12.345.678-5',
  bruno: '17.000.003-K',
  carla: '15.222.333-1',
  diego: '20.111.222-2',
  eva: '7.654.321-6',
};

/** The fixture site, with RUTs where SIGAF looks for them (idnumber or username, any spelling). */
function moodleSite(): Site {
  const site = fixtureSite();
  site.user(3)!.idnumber = '12.345.678-5'; // Ana: RUT in idnumber, with dots
  site.user(4)!.username = '17000003k'; // Bruno: idnumber EMP-002 is no RUT; username, lower-case k
  // Carla (5): no RUT in Moodle at all.
  const diego = site.addUser({
    id: 6,
    username: '20111222-2',
    firstname: 'Diego',
    lastname: 'Rojas',
    email: 'diego@example.com',
    lastaccess: 1795000000,
  });
  const eva = site.addUser({
    id: 7,
    username: 'eva',
    firstname: 'Eva',
    lastname: 'Soto',
    email: 'eva@example.com',
    idnumber: '7.654.321-6',
  });
  const teacher = site.addUser({
    id: 8,
    username: 'teacher1',
    firstname: 'Tomás',
    lastname: 'Tutor',
    email: 'tutor@example.com',
  });
  site.enrol(4, diego.id, 5, { lastaccess: 1795000000 });
  site.enrol(4, eva.id, 5);
  site.enrol(4, teacher.id, 3);
  site.setCompletion(1, diego.id, 1, 1795335725);
  return site;
}

let ctx: TestContext;
let sim: SimServer;
let admin: string;
let worker: JobWorker;
let platformId: number;
let courseId: number;
const enrolment: Record<string, number> = {};
const student: Record<string, number> = {};

async function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, token = admin) {
  const res = await ctx.request({
    method,
    url,
    token,
    payload: payload === undefined ? (method === 'GET' ? 'true' : {}) : (payload as object),
  });
  return { status: res.statusCode, body: res.body ? res.json() : null };
}

async function configure(token: string = FIXTURE_TOKENS.admin) {
  const res = await call('PUT', `/api/v2/platforms/${platformId}/moodle`, {
    url: `${sim.url}/`,
    token,
  });
  expect(res.status).toBe(200);
}

/** Queues a full sync and waits for the job to end; returns the status answer. */
async function fullSync() {
  return syncCourseAndWait(ctx, call, courseId);
}

async function localState() {
  const enrolments = await ctx.db
    .selectFrom('course_registered_users')
    .select([
      'id',
      'is_sincronized',
      'last_access_registered_moodle',
      'last_access_text',
      'final_qualification_moodle',
      'status_moodle',
      'updated_at',
    ])
    .where('course_id', '=', courseId)
    .orderBy('id')
    .execute();
  const results = await ctx.db
    .selectFrom('activity_course_users as r')
    .innerJoin('activities as a', 'a.id', 'r.activity_id')
    .select([
      'r.id',
      'r.course_registered_user_id',
      'a.id_activity_moodle',
      'r.status_moodle',
      'r.qualification_moodle',
      'r.completion_state',
      'r.grade',
      'r.updated_at',
    ])
    .where('a.course_id', '=', courseId)
    .orderBy('r.id')
    .execute();
  const activities = await ctx.db
    .selectFrom('activities')
    .selectAll()
    .where('course_id', '=', courseId)
    .orderBy('id')
    .execute();
  const students = await ctx.db
    .selectFrom('registered_users')
    .select([
      'id',
      'id_registered_moodle',
      'rut_registered_moodle',
      'name_registered_moodle',
      'email_registered_moodle',
      'status_moodle',
    ])
    .orderBy('id')
    .execute();
  return { enrolments, results, activities, students };
}

const resultOf = (state: Awaited<ReturnType<typeof localState>>, who: string, cmid: number) =>
  state.results.find(
    (r) => r.course_registered_user_id === enrolment[who] && r.id_activity_moodle === cmid,
  );

beforeAll(async () => {
  ctx = await createTestContext({
    MOODLE_TIMEOUT_MS: 400,
    MOODLE_RETRIES: 1,
    MOODLE_CONCURRENCY: 2,
    MOODLE_PAGE_SIZE: 2,
    MOODLE_OUTAGE_WAIT_MS: 1500,
  });
  admin = (await ctx.userWithRole('admin')).token;
  sim = await startMoodleSim({ site: moodleSite(), hangMs: 1500 });
  worker = testWorker(ctx, { retryBaseMs: 20 });
  worker.start();
  const db = ctx.db;
  platformId = (
    await db
      .selectFrom('platforms')
      .select('id')
      .where('key', '=', 'moodle')
      .executeTakeFirstOrThrow()
  ).id;
  const category = await db
    .insertInto('categories')
    .values({ description: 'Capacitación', category_code: 'CAPA', platform_id: platformId })
    .returning('id')
    .executeTakeFirstOrThrow();
  courseId = (
    await db
      .insertInto('courses')
      .values({ description: 'Grúa horquilla', category_id: category.id, id_course_moodle: 4 })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const profile = (
    await db
      .selectFrom('profiles')
      .select('id')
      .where('key', '=', 'student')
      .executeTakeFirstOrThrow()
  ).id;
  const people = {
    ana: ['Ana', 'Silva'],
    bruno: ['Bruno', 'Costa'],
    carla: ['Carla', 'Reis'],
    diego: ['Diego', 'Rojas'],
  } as const;
  for (const [key, [name, lastName]] of Object.entries(people)) {
    const s = await db
      .insertInto('registered_users')
      .values({
        rut: RUT[key as keyof typeof RUT],
        name,
        last_name: lastName,
        email: `${key}@local.test`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    student[key] = s.id;
    enrolment[key] = (
      await db
        .insertInto('course_registered_users')
        .values({
          course_id: courseId,
          registered_user_id: s.id,
          profile_id: profile,
          classroom_id: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }
});

afterEach(() => {
  sim.faults.splice(0, sim.faults.length);
  sim.latencyMs = 0;
});

afterAll(async () => {
  await worker?.stop({ graceMs: 2000 });
  await sim?.close();
  await ctx?.close();
});

describe('Moodle settings per platform', () => {
  it('refuses a first save without token, and an invalid URL', async () => {
    const noToken = await call('PUT', `/api/v2/platforms/${platformId}/moodle`, { url: sim.url });
    expect(noToken.status).toBe(422);
    expect(noToken.body._data.errors.token).toEqual(['El token de Moodle es requerido.']);
    const badUrl = await call('PUT', `/api/v2/platforms/${platformId}/moodle`, {
      url: 'ftp://x',
      token: 'abc',
    });
    expect(badUrl.status).toBe(422);
    expect(badUrl.body._data.errors.url).toEqual(['Ingrese una URL válida (http o https).']);
  });

  it('stores the URL (normalised) and the token encrypted, and never returns the token', async () => {
    const saved = await call('PUT', `/api/v2/platforms/${platformId}/moodle`, {
      url: `${sim.url}/webservice/rest/server.php`,
      token: FIXTURE_TOKENS.admin,
    });
    expect(saved.status).toBe(200);
    expect(saved.body._data).toEqual({
      platformId,
      description: 'Moodle',
      url: sim.url,
      hasToken: true,
    });
    const row = await ctx.db
      .selectFrom('platforms')
      .select(['url', 'token_encrypted'])
      .where('id', '=', platformId)
      .executeTakeFirstOrThrow();
    expect(row.token_encrypted).not.toContain(FIXTURE_TOKENS.admin);
    expect(decryptSecret(row.token_encrypted!, ctx.config.APP_SECRET)).toBe(FIXTURE_TOKENS.admin);
    const read = await call('GET', `/api/v2/platforms/${platformId}/moodle`);
    expect(JSON.stringify(read.body)).not.toContain(FIXTURE_TOKENS.admin);
    // Changing only the URL keeps the token.
    await call('PUT', `/api/v2/platforms/${platformId}/moodle`, { url: sim.url });
    expect((await call('GET', `/api/v2/platforms/${platformId}/moodle`)).body._data.hasToken).toBe(
      true,
    );
  });

  it('tests the connection: site name, release, missing functions', async () => {
    const ok = await call('POST', `/api/v2/platforms/${platformId}/moodle/test`);
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Conexión exitosa con Moodle.');
    expect(ok.body._data).toMatchObject({
      ok: true,
      siteName: 'Sim Test Moodle',
      release: '5.2dev (Build: 20260205)',
      username: 'admin',
      missingFunctions: [],
      missingOptionalFunctions: [],
    });
    sim.site.addToken(
      'limitedlimitedlimited',
      2,
      ALL_FUNCTIONS.filter((f) => !f.startsWith('core_completion') && !f.startsWith('core_group')),
    );
    const limited = await call('POST', `/api/v2/platforms/${platformId}/moodle/test`, {
      token: 'limitedlimitedlimited',
    });
    expect(limited.body._data.ok).toBe(false);
    expect(limited.body._data.missingFunctions).toEqual([
      'core_completion_get_activities_completion_status',
    ]);
    expect(limited.body.message).toBe(
      'Conexión exitosa, pero el servicio web no permite 1 función(es) requerida(s).',
    );
    const bad = await call('POST', `/api/v2/platforms/${platformId}/moodle/test`, {
      token: 'wrongtoken',
    });
    expect([bad.status, bad.body.message]).toEqual([422, 'Token de Moodle inválido']);
    sim.site.settings.wsEnabled = false;
    const off = await call('POST', `/api/v2/platforms/${platformId}/moodle/test`);
    expect([off.status, off.body.message]).toEqual([
      422,
      'Los servicios web de Moodle están deshabilitados',
    ]);
    sim.site.settings.wsEnabled = true;
  });
});

describe('the stored Moodle token goes only to the stored URL', () => {
  /** A server that records every request it gets (and answers with a redirect to itself, or a page). */
  async function recorder(mode: 'redirect' | 'page') {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${body}`);
        if (mode === 'redirect')
          res
            .writeHead(302, {
              location: `http://127.0.0.1:${(server.address() as AddressInfo).port}/again`,
            })
            .end();
        else res.writeHead(200, { 'content-type': 'text/html' }).end('<html>no es Moodle</html>');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      seen,
      close: () => new Promise<void>((r) => server.close(() => r())),
    };
  }

  it('testing or saving another URL without its token is refused; the stored token never reaches it', async () => {
    await call('PUT', `/api/v2/platforms/${platformId}/moodle`, {
      url: sim.url,
      token: FIXTURE_TOKENS.admin,
    });
    const trap = await recorder('page');
    try {
      const test = await call('POST', `/api/v2/platforms/${platformId}/moodle/test`, {
        url: trap.url,
      });
      expect([test.status, test.body._data.errors.token]).toEqual([
        422,
        [MOODLE_MSG.tokenForNewUrl],
      ]);
      const save = await call('PUT', `/api/v2/platforms/${platformId}/moodle`, { url: trap.url });
      expect([save.status, save.body._data.errors.token]).toEqual([
        422,
        [MOODLE_MSG.tokenForNewUrl],
      ]);
      expect(trap.seen).toEqual([]);
      const row = await ctx.db
        .selectFrom('platforms')
        .select('url')
        .where('id', '=', platformId)
        .executeTakeFirstOrThrow();
      expect(row.url).toBe(sim.url);
      // The same URL spelled differently is the stored one.
      expect(
        (await call('POST', `/api/v2/platforms/${platformId}/moodle/test`, { url: `${sim.url}/` }))
          .status,
      ).toBe(200);
    } finally {
      await trap.close();
    }
  });

  it('a redirect is never followed with a token; open and closed ports get the same words', async () => {
    const trap = await recorder('redirect');
    try {
      const res = await call('POST', `/api/v2/platforms/${platformId}/moodle/test`, {
        url: trap.url,
        token: 'tokennuevoparaprobar',
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.body.message).toMatch(/^No se pudo conectar con Moodle/);
      expect(trap.seen).toHaveLength(1);
      expect(trap.seen.filter((r) => r.startsWith('POST /again'))).toEqual([]);
    } finally {
      await trap.close();
    }
    const closed = await call('POST', `/api/v2/platforms/${platformId}/moodle/test`, {
      url: 'http://127.0.0.1:1',
      token: 'tokennuevoparaprobar',
    });
    const page = await recorder('page');
    await page.close();
    const gone = await call('POST', `/api/v2/platforms/${platformId}/moodle/test`, {
      url: page.url,
      token: 'tokennuevoparaprobar',
    });
    expect(closed.body.message).toBe('No se pudo conectar con Moodle');
    expect(gone.body.message).toBe(closed.body.message);
    expect(JSON.stringify(closed.body)).not.toMatch(/ECONN|127\.0\.0\.1|:1\b/);
  });
});

describe('course sync', () => {
  let first: MoodleSyncResult;

  it('first sync: activities, people matched by RUT in idnumber or username, grades and completion, in few calls', async () => {
    await configure();
    const before = sim.calls.length;
    const status = await fullSync();
    expect(status.state).toBe('done');
    expect(status.error).toBeNull();
    first = status.result;
    expect(first.found).toBe(3);
    expect(first.invalidRuts).toEqual([
      {
        source: 'moodle',
        id: 5,
        rut: 'student3',
        name: 'Carla Reis',
        detail: 'Sin RUT válido en idnumber ni en username',
      },
    ]);
    expect(first.missingInMoodle).toEqual([
      { source: 'local', id: enrolment.carla, rut: RUT.carla, name: 'Carla Reis' },
    ]);
    expect(first.missingLocally).toEqual([
      { source: 'moodle', id: 7, rut: RUT.eva, name: 'Eva Soto' },
    ]);
    expect(first.activitiesAdded).toBe(3);
    expect(first.errors).toEqual([]);
    // Contents once, enrolled users in pages of 2, two at a time after the first (6 people: the
    // first page, then the next two, then two more of which the first comes back empty: 5 calls),
    // grades of everybody once, completion per matched student.
    const calls = sim.calls.slice(before).map((c) => c.wsfunction);
    expect(calls.filter((f) => f === 'core_course_get_contents')).toHaveLength(1);
    expect(calls.filter((f) => f === 'core_enrol_get_enrolled_users')).toHaveLength(5);
    expect(calls.filter((f) => f === 'gradereport_user_get_grade_items')).toHaveLength(1);
    expect(
      calls.filter((f) => f === 'core_completion_get_activities_completion_status'),
    ).toHaveLength(3);
    expect(first.moodleCalls).toBe(calls.length);

    const state = await localState();
    expect(
      state.activities.map((a) => [
        a.id_activity_moodle,
        a.description,
        a.type,
        Number(a.weighing),
      ]),
    ).toEqual([
      [1, 'Safety intro', 'page', 0],
      [2, 'Practical assessment', 'assign', 0],
      [3, 'Regulations link', 'url', 0],
    ]);
    const formative = (
      await ctx.db
        .selectFrom('sections')
        .select('id')
        .where('key', '=', 'formative')
        .executeTakeFirstOrThrow()
    ).id;
    expect(new Set(state.activities.map((a) => a.section_id))).toEqual(new Set([formative]));

    const ana = state.enrolments.find((e) => e.id === enrolment.ana)!;
    expect(ana).toMatchObject({
      is_sincronized: true,
      last_access_text: null,
      final_qualification_moodle: '85.00',
      status_moodle: MOODLE_STUDENT_STATUS.active,
    });
    expect(new Date(ana.last_access_registered_moodle!).getTime()).toBe(1795332125 * 1000);
    expect(state.enrolments.find((e) => e.id === enrolment.carla)).toMatchObject({
      is_sincronized: false,
      last_access_registered_moodle: null,
    });
    expect(state.students.find((s) => s.id === student.ana)).toMatchObject({
      id_registered_moodle: 3,
      rut_registered_moodle: '12.345.678-5',
      name_registered_moodle: 'Ana Silva',
      email_registered_moodle: 'ana@example.com',
    });
    expect(state.students.find((s) => s.id === student.bruno)).toMatchObject({
      id_registered_moodle: 4,
      rut_registered_moodle: '17000003k',
    });
    expect(
      normalizeRut(state.students.find((s) => s.id === student.bruno)!.rut_registered_moodle),
    ).toBe(RUT.bruno);

    expect(resultOf(state, 'ana', 1)).toMatchObject({
      status_moodle: 'Finalizado',
      completion_state: 1,
      qualification_moodle: null,
      grade: null,
    });
    expect(resultOf(state, 'ana', 2)).toMatchObject({
      status_moodle: 'Finalizado',
      completion_state: 2,
      qualification_moodle: '85.00',
    });
    expect(Number(resultOf(state, 'ana', 2)!.grade)).toBe(85);
    expect(resultOf(state, 'bruno', 2)).toMatchObject({
      status_moodle: 'Finalizado',
      completion_state: 3,
      qualification_moodle: '45.00',
    });
    expect(resultOf(state, 'bruno', 3)).toMatchObject({
      status_moodle: MOODLE_ACTIVITY_STATUS.notStarted,
      completion_state: 0,
    });
    expect(resultOf(state, 'diego', 2)).toMatchObject({
      status_moodle: MOODLE_ACTIVITY_STATUS.notStarted,
      qualification_moodle: '-',
      grade: null,
    });
    expect(state.results.filter((r) => r.course_registered_user_id === enrolment.carla)).toEqual(
      [],
    );

    const course = await ctx.db
      .selectFrom('courses')
      .select('last_sync_at')
      .where('id', '=', courseId)
      .executeTakeFirstOrThrow();
    expect(course.last_sync_at).not.toBeNull();
    expect(status.lastSyncAt).toBe(new Date(course.last_sync_at!).toISOString());
    expect(status.progress).toMatchObject({ phase: 'done' });
  });

  it('a second sync with nothing new in Moodle writes nothing', async () => {
    const before = await localState();
    const status = await fullSync();
    expect(status.state).toBe('done');
    expect(status.result).toMatchObject({
      found: 3,
      activitiesAdded: 0,
      activitiesUpdated: 0,
      rowsWritten: 0,
    });
    const after = await localState();
    expect(after.results).toEqual(before.results);
    expect(after.enrolments).toEqual(before.enrolments);
  });

  it('re-sync with changes: a new activity, a new grade, a student withdrawing, a student removed from Moodle', async () => {
    // Staff put the URL activity in the Renuncia section (SIGAF side).
    const resign = (
      await ctx.db
        .selectFrom('sections')
        .select('id')
        .where('key', '=', 'resign')
        .executeTakeFirstOrThrow()
    ).id;
    const urlActivity = (
      await ctx.db
        .selectFrom('activities')
        .select('id')
        .where('course_id', '=', courseId)
        .where('id_activity_moodle', '=', 3)
        .executeTakeFirstOrThrow()
    ).id;
    expect(
      (await call('PUT', `/api/v2/activities/${urlActivity}`, { section_id: resign, weighing: 0 }))
        .status,
    ).toBe(200);
    // Moodle side: a new graded quiz, Bruno's grade on it, Ana finished the Renuncia activity long ago
    // (she had viewed it), Bruno started it, Diego was unenrolled.
    const s12 = sim.site.sections.find((s) => s.id === 12)!;
    const quiz = sim.site.addModule(s12.id, {
      modname: 'quiz',
      name: 'Final test',
      completion: 2,
      rules: [{ rulename: 'completionusegrade', description: 'Receive a grade' }],
      gradeitem: sim.site.newGradeItem(4, { gradepass: 60 }),
    });
    sim.site.gradeModule(quiz.id, 4, 70);
    sim.site.setCompletion(3, 4, 0, 0, { completionview: 1 });
    sim.site.unenrol(4, 6);

    const status = await fullSync();
    expect(status.state).toBe('done');
    const r = status.result as MoodleSyncResult;
    expect(r).toMatchObject({ found: 2, activitiesAdded: 1 });
    expect(r.missingInMoodle.map((m) => m.id).sort()).toEqual(
      [enrolment.carla, enrolment.diego].sort(),
    );

    const state = await localState();
    const added = state.activities.find((a) => a.id_activity_moodle === quiz.id)!;
    expect(added).toMatchObject({ description: 'Final test', type: 'quiz' });
    expect(Number(added.weighing)).toBe(0);
    expect(resultOf(state, 'bruno', quiz.id)).toMatchObject({
      status_moodle: 'Finalizado',
      completion_state: 2,
      qualification_moodle: '70.00',
    });
    expect(resultOf(state, 'ana', quiz.id)).toMatchObject({
      status_moodle: MOODLE_ACTIVITY_STATUS.notStarted,
      qualification_moodle: '-',
    });
    expect(state.enrolments.find((e) => e.id === enrolment.ana)!.status_moodle).toBe(
      MOODLE_STUDENT_STATUS.resigned,
    );
    expect(state.students.find((s) => s.id === student.ana)!.status_moodle).toBe(
      MOODLE_STUDENT_STATUS.resigned,
    );
    expect(state.enrolments.find((e) => e.id === enrolment.bruno)).toMatchObject({
      status_moodle: MOODLE_STUDENT_STATUS.resigning,
      final_qualification_moodle: '115.00',
    });
    expect(resultOf(state, 'bruno', 3)).toMatchObject({
      status_moodle: MOODLE_ACTIVITY_STATUS.inProgress,
    });
    // Diego: not synchronised any more; what was read from Moodle before stays.
    expect(state.enrolments.find((e) => e.id === enrolment.diego)).toMatchObject({
      is_sincronized: false,
    });
    expect(resultOf(state, 'diego', 1)).toMatchObject({ status_moodle: 'Finalizado' });
    // The section chosen by staff is kept.
    expect(state.activities.find((a) => a.id === urlActivity)!.section_id).toBe(resign);
  });

  it('after the syncs every kept figure equals the figure computed from the synchronised data', async () => {
    await expectKeptTablesComputed(
      ctx.db,
      [courseId],
      () => ctx.app.services.figuresKeeper.settle(),
      'a first sync and a re-sync with changes',
    );
  });

  it('a 5xx in the middle of a sync leaves the previous data intact and says why', async () => {
    const before = await localState();
    sim.site.gradeModule(2, 3, 99, 'Changed'); // would change Ana's result if anything were written
    sim.faults.push({
      kind: 'http503',
      wsfunction: 'core_completion_get_activities_completion_status',
      after: 1,
    });
    const status = await fullSync();
    expect(status.state).toBe('failed');
    expect(status.error).toBe('Moodle respondió con un error HTTP: HTTP 503');
    // Back to the queue while Moodle may come back (MOODLE_OUTAGE_WAIT_MS), then failed for good.
    expect(status.attempts).toBeGreaterThanOrEqual(3);
    const after = await localState();
    expect(after).toEqual(before);
    // The last good report is still there.
    expect(status.result).toMatchObject({ found: 2, activitiesAdded: 1 });
    expect(status.lastSyncAt).not.toBeNull();
  });

  it('a compression bomb from Moodle: the sync fails at once with a clear message, nothing written, /health answering meanwhile', async () => {
    const before = await localState(); // Ana's changed grade (above) is still to be read
    sim.faults.push({ kind: 'gzipbomb', wsfunction: 'gradereport_user_get_grade_items' });
    let slowestHealth = 0;
    let healthy = true;
    let syncing = true;
    const watch = (async () => {
      while (syncing) {
        const t = performance.now();
        const res = await ctx.request({ method: 'GET', url: '/health' });
        healthy &&= res.statusCode === 200;
        slowestHealth = Math.max(slowestHealth, performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const status = await fullSync().finally(() => (syncing = false));
    await watch;
    expect(status.state).toBe('failed');
    expect(status.error).toBe(
      'La respuesta de Moodle supera el tamaño admitido y no se leyó: demasiados valores para su tamaño',
    );
    expect(status.attempts).toBe(1); // not retried: the same answer would come again
    expect(await localState()).toEqual(before);
    expect(healthy).toBe(true);
    expect(slowestHealth).toBeLessThan(1000);
  });

  it('a timeout in the middle of a synchronous sync: 502 with a clear message, nothing written', async () => {
    const before = await localState();
    sim.faults.push({
      kind: 'timeout',
      wsfunction: 'core_completion_get_activities_completion_status',
      after: 1,
    });
    const res = await call('POST', `/api/v2/sync/courses/${courseId}`, { wait: true });
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('Moodle no respondió a tiempo: 400 ms sin respuesta');
    expect(await localState()).toEqual(before);
  });

  it('an invalid token fails at once with "Token de Moodle inválido", also mid-run', async () => {
    await configure('notavalidtoken');
    const status = await fullSync();
    expect(status).toMatchObject({
      state: 'failed',
      error: 'Token de Moodle inválido',
      attempts: 1,
    });
    await configure();
    sim.faults.push({ kind: 'invalidtoken', after: 3 });
    const midRun = await fullSync();
    expect(midRun).toMatchObject({
      state: 'failed',
      error: 'Token de Moodle inválido',
      attempts: 1,
    });
  });

  it('Moodle in maintenance or restarting for longer than three attempts: the sync goes back to the queue and completes; a server cut mid-request is retried', async () => {
    sim.faults.push({ kind: 'maintenance', times: 4 });
    const status = await fullSync();
    expect(status).toMatchObject({ state: 'done', attempts: 5, error: null });
    // "Terminated: 15" from a web server stopping, after Moodle answered in this sync: retried, not "revise la URL".
    sim.faults.push({
      kind: 'terminated',
      wsfunction: 'gradereport_user_get_grade_items',
      times: 3,
    });
    const again = await fullSync();
    expect(again).toMatchObject({ state: 'done', attempts: 2, error: null });
  });

  it('recovers after the failures; one queued sync per course at a time; progress while it runs', async () => {
    sim.latencyMs = 80;
    const first = await call('POST', `/api/v2/sync/courses/${courseId}`);
    const second = await call('POST', `/api/v2/sync/courses/${courseId}`);
    expect(second.body._data).toMatchObject({ jobId: first.body._data.jobId, created: false });
    expect(second.body.message).toBe('Ya hay una sincronización en curso para este curso.');
    const phases = new Set<string>();
    const final = await waitFor(
      async () => {
        const s = (await call('GET', `/api/v2/sync/courses/${courseId}/status`)).body._data;
        if (s.progress?.phase) phases.add(s.progress.phase);
        return s.state === 'done' || s.state === 'failed' ? s : null;
      },
      30_000,
      'the sync',
    );
    expect(final.state).toBe('done');
    expect([...phases].some((p) => p !== 'done')).toBe(true);
    const state = await localState();
    expect(resultOf(state, 'ana', 2)).toMatchObject({ qualification_moodle: '99.00' });
  });

  it('refuses a course without a Moodle id, and unknown courses', async () => {
    const category = (
      await ctx.db
        .selectFrom('courses')
        .select('category_id')
        .where('id', '=', courseId)
        .executeTakeFirstOrThrow()
    ).category_id;
    const other = (
      await ctx.db
        .insertInto('courses')
        .values({ description: 'Sin Moodle', category_id: category })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const res = await call('POST', `/api/v2/sync/courses/${other}`);
    expect([res.status, res.body.message]).toEqual([
      422,
      'El curso no tiene asociado un id de Moodle.',
    ]);
    expect((await call('POST', '/api/v2/sync/courses/999999')).status).toBe(404);
    const never = await call('GET', `/api/v2/sync/courses/${other}/status`);
    expect([never.status, never.body.message, never.body._data.state]).toEqual([
      200,
      'El curso aún no se ha sincronizado.',
      null,
    ]);
  });
});

describe("the original's synchronous endpoints", () => {
  it('GET sync/course-users/{moodleId}/users: people only, 201 "Sincronización exitosa"', async () => {
    sim.site.enrol(4, 6, 5, { lastaccess: 1795100000 });
    const res = await call('GET', '/api/v2/sync/course-users/4/users');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ statusCode: 201, message: 'Sincronización exitosa' });
    expect(res.body._data.results[0]).toMatchObject({ scope: 'users', courseId, found: 3 });
    const diego = await ctx.db
      .selectFrom('course_registered_users')
      .select(['is_sincronized', 'last_access_registered_moodle'])
      .where('id', '=', enrolment.diego!)
      .executeTakeFirstOrThrow();
    expect(diego.is_sincronized).toBe(true);
    expect(new Date(diego.last_access_registered_moodle!).getTime()).toBe(1795100000 * 1000);
    expect((await call('GET', '/api/v2/sync/course-users/99999/users')).status).toBe(404);
  });

  it('GET sync/course-users/{moodleId}/users/{rut}: one person by RUT in any spelling; 416 for a bad RUT', async () => {
    const res = await call('GET', '/api/v2/sync/course-users/4/users/123456785');
    expect([res.status, res.body.message]).toEqual([201, 'Sincronización exitosa']);
    expect(res.body._data).toMatchObject({
      studentId: student.ana,
      results: [{ scope: 'users', found: 1, missingLocally: [], missingInMoodle: [] }],
    });
    // Nobody found in Moodle: a real HTTP 204 without a body (the original client branches on the status).
    const carla = await call(
      'GET',
      `/api/v2/sync/course-users/4/users/${encodeURIComponent(RUT.carla)}`,
    );
    expect([carla.status, carla.body]).toEqual([204, null]);
    const bad = await call('GET', '/api/v2/sync/course-users/4/users/12345678-9');
    expect([bad.status, bad.body.message]).toEqual([416, 'RUT no válido']);
    expect((await call('GET', '/api/v2/sync/course-users/4/users/11.111.111-1')).status).toBe(404);
  });

  it('GET sync/users/{id}/courses/{id}/activities: one student, 201 with the activities; 204 when not in Moodle', async () => {
    sim.site.gradeModule(2, 6, 77);
    const before = sim.calls.length;
    const res = await call(
      'GET',
      `/api/v2/sync/users/${student.diego}/courses/${courseId}/activities`,
    );
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Sincronización exitosa Diego Rojas');
    const rows = res.body._data.activities.collections.map(
      (c: {
        properties: { activity: { idActivityMoodle: number }; qualificationMoodle: string };
      }) => c.properties,
    );
    expect(
      rows.find(
        (p: { activity: { idActivityMoodle: number } }) => p.activity.idActivityMoodle === 2,
      ),
    ).toMatchObject({ qualificationMoodle: '77.00', statusMoodle: 'Finalizado' });
    // One student: their grades and completion only.
    const calls = sim.calls.slice(before).map((c) => c.wsfunction);
    expect(
      calls.filter((f) => f === 'core_completion_get_activities_completion_status'),
    ).toHaveLength(1);
    expect(res.body._data.result).toMatchObject({ scope: 'student', found: 1, missingLocally: [] });
    const carla = await call(
      'GET',
      `/api/v2/sync/users/${student.carla}/courses/${courseId}/activities`,
    );
    expect([carla.status, carla.body.statusCode, carla.body.message]).toEqual([
      200,
      204,
      'El usuario no se encuentra registrado en moodle',
    ]);
    expect(
      (await call('GET', `/api/v2/sync/users/${student.carla}/courses/999999/activities`)).status,
    ).toBe(404);
  });

  it('GET sync/course-users/{moodleId}/users/{moodleUserId}/activities/{ids}: one student by Moodle id, the listed activities from Moodle; `null` and unknown ids answer success false (HTTP 200)', async () => {
    sim.site.gradeModule(2, 6, 81);
    const diego = await ctx.db
      .selectFrom('registered_users')
      .select('id_registered_moodle')
      .where('id', '=', student.diego!)
      .executeTakeFirstOrThrow();
    const before = sim.calls.length;
    const res = await call(
      'GET',
      `/api/v2/sync/course-users/4/users/${diego.id_registered_moodle}/activities/[2]`,
    );
    expect([res.status, res.body.success, res.body.message]).toEqual([
      200,
      true,
      'Sincronización exitosa Diego Rojas',
    ]);
    const rows = res.body._data.activities.collections.map(
      (c: { properties: unknown }) => c.properties,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      activity: { idActivityMoodle: 2 },
      qualificationMoodle: '81.00',
      statusMoodle: 'Finalizado',
    });
    expect(res.body._data.results).toMatchObject([{ scope: 'student', found: 1 }]);
    // One student: their completion only.
    expect(
      sim.calls
        .slice(before)
        .filter((c) => c.wsfunction === 'core_completion_get_activities_completion_status'),
    ).toHaveLength(1);
    for (const who of ['null', '999999']) {
      const none = await call('GET', `/api/v2/sync/course-users/4/users/${who}/activities/[2]`);
      expect(
        [none.status, none.body.success, none.body.statusCode, none.body.message],
        who,
      ).toEqual([200, false, 204, 'El usuario no se encuentra registrado en moodle']);
    }
    expect(
      (
        await call(
          'GET',
          `/api/v2/sync/course-users/4/users/${diego.id_registered_moodle}/activities/[]`,
        )
      ).body._data.activities.collections,
    ).toEqual([]);
    expect(
      (
        await call(
          'GET',
          `/api/v2/sync/course-users/4/users/${diego.id_registered_moodle}/activities/abc`,
        )
      ).status,
    ).toBe(422);
    expect(
      (await call('GET', '/api/v2/sync/course-users/99999/users/1/activities/[2]')).status,
    ).toBe(404);
  });

  it('GET sync/course/{moodleId}/activities: activities only', async () => {
    const s11 = sim.site.sections.find((s) => s.id === 11)!;
    sim.site.addModule(s11.id, {
      modname: 'forum',
      name: 'Foro de consultas',
      completion: 2,
      rules: [{ rulename: 'completionview', description: 'View' }],
    });
    const res = await call('GET', '/api/v2/sync/course/4/activities');
    expect(res.status).toBe(201);
    expect(res.body._data.results[0]).toMatchObject({
      scope: 'activities',
      activitiesAdded: 1,
      found: 0,
    });
  });

  it('an operator may read the status but not synchronise', async () => {
    const operator = (await ctx.userWithRole('operator')).token;
    expect(
      (await call('GET', `/api/v2/sync/courses/${courseId}/status`, undefined, operator)).status,
    ).toBe(200);
    expect(
      (await call('POST', `/api/v2/sync/courses/${courseId}`, undefined, operator)).status,
    ).toBe(403);
    expect(
      (await call('GET', `/api/v2/platforms/${platformId}/moodle`, undefined, operator)).status,
    ).toBe(403);
  });
});

describe('a generated site', () => {
  it('syncs a course of 80 students with RUTs in every spelling, in one transaction', async () => {
    const g = generateSite({
      seed: 11,
      courses: 1,
      studentsPerCourse: 80,
      units: 3,
      activitiesPerUnit: 3,
      invalidRutRate: 0.05,
      withdrawnRate: 0.1,
    });
    const other = await startMoodleSim({ site: g.site });
    try {
      const db = ctx.db;
      const platform = (
        await db
          .insertInto('platforms')
          .values({ description: 'Moodle generado', status: 1 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      expect(
        (
          await call('PUT', `/api/v2/platforms/${platform}/moodle`, {
            url: other.url,
            token: g.tokens.admin,
          })
        ).status,
      ).toBe(200);
      const category = (
        await db
          .insertInto('categories')
          .values({ description: 'Generada', category_code: 'GENE', platform_id: platform })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      const course = (
        await db
          .insertInto('courses')
          .values({
            description: 'Curso generado',
            category_id: category,
            id_course_moodle: g.courseIds[0]!,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      const profile = (
        await db
          .selectFrom('profiles')
          .select('id')
          .where('key', '=', 'student')
          .executeTakeFirstOrThrow()
      ).id;
      const withRut = g.people.filter((p) => p.rut);
      // Ten of them are not enrolled locally.
      for (const p of withRut.slice(10)) {
        const s = await db
          .insertInto('registered_users')
          .values({
            rut: normalizeRut(p.rut)!,
            name: p.firstname,
            last_name: p.lastname,
            mother_last_name: p.motherLastName,
            email: p.email,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await db
          .insertInto('course_registered_users')
          .values({
            course_id: course,
            registered_user_id: s.id,
            profile_id: profile,
            classroom_id: null,
          })
          .execute();
      }
      const r = await ctx.app.services.moodleSync.syncCourse(course, { scope: 'full' });
      expect(r.found).toBe(withRut.length - 10);
      expect(r.missingLocally).toHaveLength(10);
      expect(r.invalidRuts.map((i) => i.source)).toEqual(
        g.people.filter((p) => !p.rut).map(() => 'moodle'),
      );
      expect(r.missingInMoodle).toEqual([]);
      expect(r.activitiesAdded).toBe(9 + 6);
      // Contents, enrolled users (81 people, pages of 2), the matched users' accounts (suspended?), grades, completion per student.
      expect(r.moodleCalls).toBe(1 + 41 + 1 + 1 + r.found);
      const statuses = await db
        .selectFrom('course_registered_users')
        .select(['status_moodle', sql<number>`count(*)`.as('n')])
        .where('course_id', '=', course)
        .groupBy('status_moodle')
        .execute();
      const resigned = Number(
        statuses.find((x) => x.status_moodle === MOODLE_STUDENT_STATUS.resigned)?.n ?? 0,
      );
      // New activities land in Formativa: nobody is "Renunciado" until staff choose the Renuncia activity.
      expect(resigned).toBe(0);
      const results = await db
        .selectFrom('activity_course_users as r')
        .innerJoin('course_registered_users as e', 'e.id', 'r.course_registered_user_id')
        .select(sql<number>`count(*)`.as('n'))
        .where('e.course_id', '=', course)
        .executeTakeFirstOrThrow();
      expect(Number(results.n)).toBe(r.found * 15);
    } finally {
      await other.close();
    }
  });
});

describe('Moodle as it really behaves', () => {
  let made = 0;
  /** Its own simulator, platform and course (the fixture course 4 with Ana and Bruno matched), synced once. */
  async function fresh(token: keyof typeof FIXTURE_TOKENS | string = 'admin') {
    const site = fixtureSite();
    site.user(3)!.idnumber = '12.345.678-5';
    site.user(4)!.username = '17000003k';
    const teacher = site.addUser({
      id: 8,
      username: 'teacher1',
      firstname: 'Tomás',
      lastname: 'Tutor',
      email: 'tutor@example.com',
    });
    site.enrol(4, teacher.id, 3);
    site.addToken('limitedteachertoken00000000000000', teacher.id, ALL_FUNCTIONS);
    const server = await startMoodleSim({ site });
    const db = ctx.db;
    const tag = String.fromCharCode(65 + made++);
    const platform = (
      await db
        .insertInto('platforms')
        .values({ description: `Moodle real ${tag}`, status: 1 })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const secret =
      token in FIXTURE_TOKENS ? FIXTURE_TOKENS[token as keyof typeof FIXTURE_TOKENS] : token;
    expect(
      (
        await call('PUT', `/api/v2/platforms/${platform}/moodle`, {
          url: server.url,
          token: secret,
        })
      ).status,
    ).toBe(200);
    const category = (
      await db
        .insertInto('categories')
        .values({ description: `Real ${tag}`, category_code: `RL${tag}`, platform_id: platform })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const course = (
      await db
        .insertInto('courses')
        .values({ description: `Curso real ${tag}`, category_id: category, id_course_moodle: 4 })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const profile = (
      await db
        .selectFrom('profiles')
        .select('id')
        .where('key', '=', 'student')
        .executeTakeFirstOrThrow()
    ).id;
    const ids: Record<string, number> = {};
    for (const [key, rut] of [
      ['ana', RUT.ana],
      ['bruno', RUT.bruno],
    ] as const) {
      const s = (
        await db
          .selectFrom('registered_users')
          .select('id')
          .where('rut', '=', rut)
          .executeTakeFirstOrThrow()
      ).id;
      ids[key] = (
        await db
          .insertInto('course_registered_users')
          .values({
            course_id: course,
            registered_user_id: s,
            profile_id: profile,
            classroom_id: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    }
    return {
      server,
      site,
      platform,
      course,
      ids,
      sync: () => ctx.app.services.moodleSync.syncCourse(course, { scope: 'full' }),
    };
  }
  const enrolmentRow = (id: number) =>
    ctx.db
      .selectFrom('course_registered_users')
      .select(['is_sincronized', 'moodle_suspended', 'final_qualification_moodle'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const resultRow = (enrolmentId: number, cmid: number) =>
    ctx.db
      .selectFrom('activity_course_users as r')
      .innerJoin('activities as a', 'a.id', 'r.activity_id')
      .select(['r.qualification_moodle', 'r.grade', 'r.status_moodle'])
      .where('r.course_registered_user_id', '=', enrolmentId)
      .where('a.id_activity_moodle', '=', cmid)
      .executeTakeFirst();

  it('a suspended enrolment keeps its grades: absent from the report for everyone, read on its own, shown as suspended', async () => {
    const m = await fresh();
    try {
      await m.sync();
      const before = await resultRow(m.ids.ana!, 2);
      expect(before).toMatchObject({ qualification_moodle: '85.00', grade: 85 });
      m.site.enrolment(4, 3)!.status = 1;
      const r = await m.sync();
      expect(r.suspended).toBe(1);
      expect(r.suspendedStudents).toEqual([
        {
          source: 'local',
          id: m.ids.ana,
          rut: normalizeRut(RUT.ana),
          name: 'Ana Silva',
          detail: MOODLE_MSG.enrolmentSuspended,
        },
      ]);
      expect(await resultRow(m.ids.ana!, 2)).toEqual(before);
      expect(await enrolmentRow(m.ids.ana!)).toMatchObject({
        is_sincronized: true,
        moodle_suspended: true,
      });
      m.site.enrolment(4, 3)!.status = 0;
      await m.sync();
      expect(await enrolmentRow(m.ids.ana!)).toMatchObject({ moodle_suspended: false });
      expect(await resultRow(m.ids.ana!, 2)).toEqual(before);
      // A suspended account (the Moodle user, its enrolment active) is recognised too, and named.
      m.site.user(4)!.suspended = true;
      const account = await m.sync();
      expect(account.suspendedStudents).toEqual([
        {
          source: 'local',
          id: m.ids.bruno,
          rut: normalizeRut(RUT.bruno),
          name: 'Bruno Costa',
          detail: MOODLE_MSG.accountSuspended,
        },
      ]);
      expect(await enrolmentRow(m.ids.bruno!)).toMatchObject({
        is_sincronized: true,
        moodle_suspended: true,
      });
      m.site.user(4)!.suspended = false;
      await m.sync();
      expect(await enrolmentRow(m.ids.bruno!)).toMatchObject({ moodle_suspended: false });
    } finally {
      await m.server.close();
    }
  });

  it('a grade with more decimals than 4 (200/3, kept by Moodle as 66.66667) is stored as Moodle has it; an unchanged re-sync writes nothing', async () => {
    const m = await fresh();
    try {
      m.site.gradeModule(2, 3, 200 / 3);
      m.site.gradeModule(2, 4, 100 / 3);
      await m.sync();
      expect(await resultRow(m.ids.ana!, 2)).toMatchObject({
        qualification_moodle: '66.67',
        grade: 66.66667,
      });
      expect(await resultRow(m.ids.bruno!, 2)).toMatchObject({
        qualification_moodle: '33.33',
        grade: 33.33333,
      });
      expect((await m.sync()).rowsWritten).toBe(0);
      expect((await m.sync()).rowsWritten).toBe(0);
    } finally {
      await m.server.close();
    }
  });

  it('a token that cannot see usernames nor ID numbers: the connection test warns, the sync refuses and marks nobody unsynchronised', async () => {
    const m = await fresh();
    try {
      await m.sync();
      expect(await enrolmentRow(m.ids.ana!)).toMatchObject({ is_sincronized: true });
      const platform = (
        await ctx.db
          .selectFrom('courses as c')
          .innerJoin('categories as k', 'k.id', 'c.category_id')
          .select('k.platform_id')
          .where('c.id', '=', m.course)
          .executeTakeFirstOrThrow()
      ).platform_id;
      expect(
        (
          await call('PUT', `/api/v2/platforms/${platform}/moodle`, {
            url: m.server.url,
            token: 'limitedteachertoken00000000000000',
          })
        ).status,
      ).toBe(200);
      const test = await call('POST', `/api/v2/platforms/${platform}/moodle/test`);
      expect(test.body._data.identityWarning).toBe(MOODLE_MSG.identityFieldsMissing);
      await expect(m.sync()).rejects.toThrow(MOODLE_MSG.identityFieldsMissing);
      expect(await enrolmentRow(m.ids.ana!)).toMatchObject({ is_sincronized: true });
      expect(await enrolmentRow(m.ids.bruno!)).toMatchObject({ is_sincronized: true });
    } finally {
      await m.server.close();
    }
  });

  it('a token that sees ID numbers but not usernames: a student whose RUT is only in the username is listed once as not visible, not invalid nor missing, and stays synchronised', async () => {
    const m = await fresh();
    try {
      expect((await m.sync()).found).toBe(2);
      // showuseridentity=email,idnumber and no moodle/user:viewalldetails: Bruno's RUT is in his username only.
      m.site.settings.showuseridentity = ['email', 'idnumber'];
      const platform = (
        await ctx.db
          .selectFrom('courses as c')
          .innerJoin('categories as k', 'k.id', 'c.category_id')
          .select('k.platform_id')
          .where('c.id', '=', m.course)
          .executeTakeFirstOrThrow()
      ).platform_id;
      expect(
        (
          await call('PUT', `/api/v2/platforms/${platform}/moodle`, {
            url: m.server.url,
            token: 'limitedteachertoken00000000000000',
          })
        ).status,
      ).toBe(200);
      const r = await m.sync();
      expect(r.found).toBe(1);
      expect(r.identityHidden).toContainEqual({
        source: 'moodle',
        id: 4,
        rut: null,
        name: 'Bruno Costa',
        detail: MOODLE_MSG.identityHiddenDetail,
      });
      expect(r.invalidRuts.filter((i) => i.source === 'moodle')).toEqual([]);
      expect(r.missingInMoodle).toEqual([]);
      expect(r.errors).toContain(MOODLE_MSG.identityPartial(r.identityHidden!.length, 1));
      expect(await enrolmentRow(m.ids.bruno!)).toMatchObject({ is_sincronized: true });
      expect(await enrolmentRow(m.ids.ana!)).toMatchObject({ is_sincronized: true });
    } finally {
      await m.server.close();
    }
  });

  it('a token that may not see hidden activities: a hidden activity is kept, marked unseen, until a sync can tell or staff confirm its removal', async () => {
    const m = await fresh();
    try {
      // The token's user (an editing teacher) sees usernames and ID numbers through showuseridentity, but not hidden activities.
      m.site.settings.showuseridentity = ['email', 'idnumber', 'username'];
      m.site.prohibit(3, 'moodle/course:viewhiddenactivities');
      const platform = (
        await ctx.db
          .selectFrom('courses as c')
          .innerJoin('categories as k', 'k.id', 'c.category_id')
          .select('k.platform_id')
          .where('c.id', '=', m.course)
          .executeTakeFirstOrThrow()
      ).platform_id;
      expect(
        (
          await call('PUT', `/api/v2/platforms/${platform}/moodle`, {
            url: m.server.url,
            token: 'limitedteachertoken00000000000000',
          })
        ).status,
      ).toBe(200);
      expect((await m.sync()).found).toBe(2);
      const row = (cmid: number) =>
        ctx.db
          .selectFrom('activities')
          .select(['id', 'hidden', 'removed_at', 'moodle_unseen_at'])
          .where('course_id', '=', m.course)
          .where('id_activity_moodle', '=', cmid)
          .executeTakeFirstOrThrow();
      const activityId = (await row(2)).id;
      // Weighed, so that it counts toward progress.
      await ctx.db
        .updateTable('activities')
        .set({ weighing: 20 })
        .where('id', '=', activityId)
        .execute();
      const counts = async () =>
        (await call('GET', `/api/v2/follow-up/enrolments/${m.ids.ana}`)).body._data.activities.find(
          (a: { activityId: number }) => a.activityId === activityId,
        )?.counts;
      expect(await counts()).toBe(true);

      // Hidden: Moodle leaves it out of contents, completion and grades alike. Deleted or hidden
      // cannot be told: kept, with its results, still in progress, and named.
      m.site.module(2)!.visible = 0;
      const r = await m.sync();
      expect([r.activitiesRemoved, r.removedActivities, r.hiddenActivities]).toEqual([0, [], []]);
      expect(r.unseenActivities).toEqual([
        { cmid: 2, name: 'Practical assessment', detail: MOODLE_MSG.unseenDetail },
      ]);
      expect(r.errors).toContain(MOODLE_MSG.activitiesUnseen(1));
      expect(await row(2)).toMatchObject({ hidden: false, removed_at: null });
      expect((await row(2)).moodle_unseen_at).not.toBeNull();
      expect(await resultRow(m.ids.ana!, 2)).toMatchObject({ grade: 85 });
      expect(await counts()).toBe(true);
      const listed = (
        await call('GET', `/api/v2/activities?course_id=${m.course}`)
      ).body._data.collections.find(
        (c: { properties: { id: number } }) => c.properties.id === activityId,
      ).properties;
      expect([listed.removedAt, typeof listed.unseenAt]).toEqual([null, 'string']);
      // Nothing new: nothing written.
      const again = await m.sync();
      expect([again.rowsWritten, again.unseenActivities!.length]).toEqual([0, 1]);
      // The connection test warns that the capability cannot be confirmed.
      const test = await call('POST', `/api/v2/platforms/${platform}/moodle/test`);
      expect(test.body._data.hiddenActivitiesWarning).toBe(MOODLE_MSG.hiddenActivitiesUnconfirmed);

      // The capability given: Moodle lists it hidden; the mark goes, nothing is removed.
      m.site.allow(3, 'moodle/course:viewhiddenactivities');
      expect(
        (await call('POST', `/api/v2/platforms/${platform}/moodle/test`)).body._data
          .hiddenActivitiesWarning,
      ).toBeNull();
      const seen = await m.sync();
      expect(seen.hiddenActivities).toEqual([
        { cmid: 2, name: 'Practical assessment', detail: MOODLE_MSG.hiddenDetail },
      ]);
      expect([seen.activitiesRemoved, seen.unseenActivities, seen.errors]).toEqual([0, [], []]);
      expect(await row(2)).toMatchObject({
        hidden: true,
        removed_at: null,
        moodle_unseen_at: null,
      });

      // Deleted while the course shows a hidden activity (the capability confirmed): removed.
      m.site.removeModule(3);
      const gone = await m.sync();
      expect([gone.activitiesRemoved, gone.removedActivities, gone.unseenActivities]).toEqual([
        1,
        [{ cmid: 3, name: 'Regulations link' }],
        [],
      ]);
      expect((await row(3)).removed_at).not.toBeNull();

      // Capability taken again, activity deleted: unseen, until staff confirm the removal.
      m.site.prohibit(3, 'moodle/course:viewhiddenactivities');
      m.site.removeModule(2);
      expect((await m.sync()).unseenActivities!.map((a) => a.cmid)).toEqual([2]);
      const operator = (await ctx.userWithRole('operator')).token;
      expect(
        (await call('POST', `/api/v2/activities/${activityId}/removal`, undefined, operator))
          .status,
      ).toBe(403);
      const confirmed = await call('POST', `/api/v2/activities/${activityId}/removal`);
      expect([confirmed.status, confirmed.body.message]).toEqual([
        200,
        MOODLE_MSG.removalConfirmed,
      ]);
      expect(confirmed.body._data.properties).toMatchObject({ unseenAt: null });
      expect(confirmed.body._data.properties.removedAt).not.toBeNull();
      expect(await counts()).toBe(false);
      expect(await resultRow(m.ids.ana!, 2)).toMatchObject({ grade: 85 });
      const twice = await call('POST', `/api/v2/activities/${activityId}/removal`);
      expect([twice.status, twice.body.message]).toEqual([409, MOODLE_MSG.removalNotUnseen]);
      expect((await call('POST', '/api/v2/activities/999999/removal')).status).toBe(404);
      // A later sync leaves it removed and writes nothing.
      const after = await m.sync();
      expect([after.unseenActivities, after.activitiesRemoved, after.rowsWritten]).toEqual([
        [],
        0,
        0,
      ]);
    } finally {
      await m.server.close();
    }
  });

  it('an activity deleted in Moodle stays, marked removed, out of progress, its results kept; a hidden one is marked hidden', async () => {
    const m = await fresh();
    try {
      await m.sync();
      const activity = await ctx.db
        .selectFrom('activities')
        .select(['id'])
        .where('course_id', '=', m.course)
        .where('id_activity_moodle', '=', 2)
        .executeTakeFirstOrThrow();
      await ctx.db
        .updateTable('activities')
        .set({ weighing: 20 })
        .where('id', '=', activity.id)
        .execute();
      const counts = async () =>
        (await call('GET', `/api/v2/follow-up/enrolments/${m.ids.ana}`)).body._data.activities.find(
          (a: { activityId: number }) => a.activityId === activity.id,
        )?.counts;
      expect(await counts()).toBe(true);
      // Staff may leave an activity out of progress, and bring it back.
      const out = await call('PUT', `/api/v2/activities/${activity.id}/progress`, {
        excluded: true,
      });
      expect([out.status, out.body._data.properties.excludedFromProgress]).toEqual([200, true]);
      expect(await counts()).toBe(false);
      await call('PUT', `/api/v2/activities/${activity.id}/progress`, { excluded: false });
      expect(await counts()).toBe(true);
      m.site.removeModule(2);
      m.site.module(1)!.visible = 0;
      const r = await m.sync();
      expect(r.activitiesRemoved).toBe(1);
      const rows = await ctx.db
        .selectFrom('activities')
        .select(['id_activity_moodle', 'removed_at', 'hidden'])
        .where('course_id', '=', m.course)
        .orderBy('id_activity_moodle')
        .execute();
      expect(rows.find((a) => a.id_activity_moodle === 2)!.removed_at).not.toBeNull();
      const shown = (
        await call('GET', `/api/v2/activities?course_id=${m.course}`)
      ).body._data.collections.map(
        (c: {
          properties: { idActivityMoodle: number; removedAt: string | null; hidden: boolean };
        }) => c.properties,
      );
      expect(
        shown.find((a: { idActivityMoodle: number }) => a.idActivityMoodle === 2).removedAt,
      ).not.toBeNull();
      expect(shown.find((a: { idActivityMoodle: number }) => a.idActivityMoodle === 1).hidden).toBe(
        true,
      );
      expect(rows.find((a) => a.id_activity_moodle === 1)).toMatchObject({
        hidden: true,
        removed_at: null,
      });
      expect(await resultRow(m.ids.ana!, 2)).toMatchObject({ grade: 85 });
      expect(await counts()).toBe(false);
      // A second sync reports nothing new.
      expect((await m.sync()).activitiesRemoved).toBe(0);
    } finally {
      await m.server.close();
    }
  });
  describe('the connection test lists every capability the sync needs, checks the ones it can, and names the missing ones', () => {
    type Check = {
      capability: string;
      use: string;
      kind: string;
      state: string;
      reason: string;
      detail: string | null;
    };
    const TEACHER = 'limitedteachertoken00000000000000';
    /** "Probar conexión" of a platform: each capability as [state, reason, detail]. */
    async function capabilities(platform: number, token?: string) {
      const res = await call(
        'POST',
        `/api/v2/platforms/${platform}/moodle/test`,
        token ? { token } : {},
      );
      expect(res.status).toBe(200);
      const list = res.body._data.capabilities as Check[];
      expect(list.map((c) => c.capability)).toEqual(MOODLE_CAPABILITIES.map((c) => c.capability));
      expect(list.map((c) => [c.use, c.kind])).toEqual(
        MOODLE_CAPABILITIES.map((c) => [c.use, c.kind]),
      );
      return {
        report: res.body._data,
        caps: Object.fromEntries(
          list.map((c) => [c.capability, [c.state, c.reason, c.detail]]),
        ) as Record<string, [string, string, string | null]>,
      };
    }
    const PUSH_UNCHECKED = {
      'moodle/user:create': ['unchecked', 'pushNotChecked', null],
      'enrol/manual:enrol': ['unchecked', 'pushNotChecked', null],
    };

    it('a full token: each capability the course shows is ok, the push ones are listed as not checked; a site administrator holds them all', async () => {
      const m = await fresh();
      try {
        // An editing teacher who sees usernames and ID numbers (showuseridentity), in a course with a hidden activity.
        m.site.settings.showuseridentity = ['email', 'idnumber', 'username'];
        m.site.module(1)!.visible = 0;
        const teacher = await capabilities(m.platform, TEACHER);
        expect(teacher.report.checkedMoodleCourseId).toBe(4);
        expect(teacher.caps).toEqual({
          'moodle/course:viewparticipants': ['ok', 'answered', null],
          'moodle/grade:viewall': ['ok', 'answered', null],
          'report/progress:view': ['ok', 'answered', null],
          'moodle/user:viewalldetails': ['ok', 'identityShown', null],
          'moodle/course:viewhiddenactivities': ['ok', 'hiddenShown', null],
          // Moodle sends a user's account state only to a user who may update users.
          'moodle/user:update': ['missing', 'suspendedHidden', null],
          ...PUSH_UNCHECKED,
          'moodle/course:managegroups': ['ok', 'answered', null],
        });
        expect([teacher.report.identityWarning, teacher.report.hiddenActivitiesWarning]).toEqual([
          null,
          null,
        ]);
        // No hidden activity in the course: viewhiddenactivities cannot be told, and the test warns.
        m.site.module(1)!.visible = 1;
        const untold = await capabilities(m.platform, TEACHER);
        expect([
          untold.caps['moodle/course:viewhiddenactivities'],
          untold.report.hiddenActivitiesWarning,
        ]).toEqual([
          ['unchecked', 'noHiddenActivity', null],
          MOODLE_MSG.hiddenActivitiesUnconfirmed,
        ]);
        const admin = await capabilities(m.platform);
        expect(admin.report.userIsSiteAdmin).toBe(true);
        expect(Object.values(admin.caps).every(([state]) => state === 'ok')).toBe(true);
        expect(admin.caps['moodle/user:update']).toEqual(['ok', 'suspendedShown', null]);
        expect(admin.caps['moodle/user:create']).toEqual(['ok', 'siteAdmin', null]);
        expect(admin.caps['moodle/course:viewhiddenactivities']).toEqual(['ok', 'siteAdmin', null]);
        expect(admin.report.hiddenActivitiesWarning).toBeNull();
      } finally {
        await m.server.close();
      }
    });

    it('a token lacking each capability it can check: missing, by name, with what Moodle answered', async () => {
      const m = await fresh();
      try {
        m.site.settings.showuseridentity = ['email', 'idnumber', 'username'];
        const without = async (capability: string) => {
          m.site.prohibited.clear();
          m.site.prohibit(3, capability);
          return capabilities(m.platform, TEACHER);
        };
        const participants = await without('moodle/course:viewparticipants');
        expect(participants.caps).toMatchObject({
          'moodle/course:viewparticipants': ['missing', 'denied', 'nopermissions'],
          'moodle/grade:viewall': ['unchecked', 'notReached', null],
          'report/progress:view': ['unchecked', 'notReached', null],
          'moodle/user:viewalldetails': ['unchecked', 'notReached', null],
          'moodle/course:viewhiddenactivities': ['unchecked', 'notReached', null],
          'moodle/course:managegroups': ['ok', 'answered', null],
        });
        // Another user's grades without moodle/grade:viewall: Moodle answers nopermissiontoviewgrades.
        const grades = await without('moodle/grade:viewall');
        expect(grades.caps).toMatchObject({
          'moodle/course:viewparticipants': ['ok', 'answered', null],
          'moodle/grade:viewall': ['missing', 'denied', 'nopermissiontoviewgrades'],
          'report/progress:view': ['ok', 'answered', null],
        });
        const completion = await without('report/progress:view');
        expect(completion.caps).toMatchObject({
          'moodle/grade:viewall': ['ok', 'answered', null],
          'report/progress:view': ['missing', 'denied', 'nopermissions'],
        });
        const groups = await without('moodle/course:managegroups');
        expect(groups.caps['moodle/course:managegroups']).toEqual([
          'missing',
          'denied',
          'nopermissions',
        ]);
        // A hidden graded activity the token's user cannot see: Moodle leaves it out of the grade
        // report too, so nothing tells; not confirmed, and the warning says what that means.
        m.site.module(2)!.visible = 0;
        const hidden = await without('moodle/course:viewhiddenactivities');
        expect(hidden.caps['moodle/course:viewhiddenactivities']).toEqual([
          'unchecked',
          'noHiddenActivity',
          null,
        ]);
        expect(hidden.report.hiddenActivitiesWarning).toBe(MOODLE_MSG.hiddenActivitiesUnconfirmed);
        m.site.module(2)!.visible = 1;
        m.site.prohibited.clear();
        // Identity: ID numbers without usernames, then neither (today's warning).
        m.site.settings.showuseridentity = ['email', 'idnumber'];
        const partial = await capabilities(m.platform, TEACHER);
        expect([
          partial.caps['moodle/user:viewalldetails'],
          partial.report.identityWarning,
        ]).toEqual([['missing', 'identityPartial', null], null]);
        m.site.settings.showuseridentity = ['email'];
        const none = await capabilities(m.platform, TEACHER);
        expect([none.caps['moodle/user:viewalldetails'], none.report.identityWarning]).toEqual([
          ['missing', 'identityHidden', null],
          MOODLE_MSG.identityFieldsMissing,
        ]);
        // A function the token's service lacks: its capability cannot be checked, and the report says which function.
        m.site.addToken(
          'teachernogradestoken0000000000000',
          8,
          ALL_FUNCTIONS.filter((f) => f !== 'gradereport_user_get_grade_items'),
        );
        const noFunction = await capabilities(m.platform, 'teachernogradestoken0000000000000');
        expect(noFunction.caps['moodle/grade:viewall']).toEqual([
          'unchecked',
          'functionNotAllowed',
          'gradereport_user_get_grade_items',
        ]);
      } finally {
        await m.server.close();
      }
    });

    it('a platform with no linked course: every capability listed, none checked, and why; a linked course Moodle does not have says so', async () => {
      const m = await fresh();
      try {
        const platform = (
          await ctx.db
            .insertInto('platforms')
            .values({ description: 'Moodle sin cursos', status: 1 })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
        expect(
          (
            await call('PUT', `/api/v2/platforms/${platform}/moodle`, {
              url: m.server.url,
              token: TEACHER,
            })
          ).status,
        ).toBe(200);
        const empty = await capabilities(platform);
        expect(empty.report.checkedMoodleCourseId).toBeNull();
        expect(empty.caps).toEqual({
          ...Object.fromEntries(
            MOODLE_CAPABILITIES.map((c) => [c.capability, ['unchecked', 'noLinkedCourse', null]]),
          ),
          ...PUSH_UNCHECKED,
        });
        expect([empty.report.identityWarning, empty.report.hiddenActivitiesWarning]).toEqual([
          null,
          MOODLE_MSG.hiddenActivitiesUnconfirmed,
        ]);
        // A course linked to a Moodle id the site does not have.
        const category = (
          await ctx.db
            .insertInto('categories')
            .values({
              description: 'Sin curso en Moodle',
              category_code: 'SMDL',
              platform_id: platform,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
        await ctx.db
          .insertInto('courses')
          .values({ description: 'Curso perdido', category_id: category, id_course_moodle: 999 })
          .execute();
        const lost = await capabilities(platform);
        expect(lost.report.checkedMoodleCourseId).toBe(999);
        for (const c of MOODLE_CAPABILITIES.filter((c) => c.kind !== 'push' || c.use === 'groups'))
          expect(lost.caps[c.capability]!.slice(0, 2)).toEqual([
            'unchecked',
            'courseNotAccessible',
          ]);
        expect(lost.caps['moodle/course:viewparticipants']![2]).toBeTruthy();
      } finally {
        await m.server.close();
      }
    });
  });
});
