import { MOODLE_MSG, type MoodleSyncResult } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_TOKENS, fixtureSite } from '../../../tools/moodle-sim/src/fixture-site.js';
import { startMoodleSim, type SimServer } from '../../../tools/moodle-sim/src/server.js';
import {
  matchPeople,
  planActivities,
  type LocalEnrolment,
} from '../src/modules/moodle-sync/plan.js';
import { checkTime, MOODLE_RANGES } from '../src/modules/moodle-sync/ranges.js';
import { createTestContext, type TestContext } from './helpers.js';

/**
 * Numbers and dates from Moodle outside the ranges a sync accepts (moodle-sync/ranges.ts): each
 * is refused on its own, named in the report with a Spanish reason, and nothing of it is stored;
 * the rest of the course syncs. A real HTTP Moodle (the simulator) with the fixture site's course 4.
 */

const RUT = { ana: '12.345.678-5', bruno: '17.000.003-K', diego: '20.111.222-2' };
/** Year 5138, in Unix seconds. */
const YEAR_5138 = 99_999_999_999;

let ctx: TestContext;
let sim: SimServer;
let admin: string;
let courseId: number;
const enrolment: Record<string, number> = {};

beforeAll(async () => {
  ctx = await createTestContext();
  admin = (await ctx.userWithRole('admin')).token;
  const site = fixtureSite();
  site.user(3)!.idnumber = RUT.ana;
  site.user(4)!.username = '17000003k';
  const diego = site.addUser({
    id: 6,
    username: '20111222-2',
    firstname: 'Diego',
    lastname: 'Rojas',
    email: 'diego@example.com',
  });
  site.enrol(4, diego.id, 5, { lastaccess: 1_795_000_000 });
  sim = await startMoodleSim({ site });
  const db = ctx.db;
  const platformId = (
    await db
      .selectFrom('platforms')
      .select('id')
      .where('key', '=', 'moodle')
      .executeTakeFirstOrThrow()
  ).id;
  const category = await db
    .insertInto('categories')
    .values({ description: 'Rangos', category_code: 'RNG', platform_id: platformId })
    .returning('id')
    .executeTakeFirstOrThrow();
  courseId = (
    await db
      .insertInto('courses')
      .values({ description: 'Rangos de Moodle', category_id: category.id, id_course_moodle: 4 })
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
  for (const [key, name, lastName] of [
    ['ana', 'Ana', 'Silva'],
    ['bruno', 'Bruno', 'Costa'],
    ['diego', 'Diego', 'Rojas'],
  ] as const) {
    const s = await db
      .insertInto('registered_users')
      .values({ rut: RUT[key], name, last_name: lastName })
      .returning('id')
      .executeTakeFirstOrThrow();
    enrolment[key] = (
      await db
        .insertInto('course_registered_users')
        .values({ course_id: courseId, registered_user_id: s.id, profile_id: profile })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }
  const saved = await ctx.request({
    method: 'PUT',
    url: `/api/v2/platforms/${platformId}/moodle`,
    token: admin,
    payload: { url: `${sim.url}/`, token: FIXTURE_TOKENS.admin },
  });
  expect(saved.statusCode, saved.body).toBe(200);
});
afterAll(async () => {
  await sim?.close();
  await ctx?.close();
});

async function syncNow() {
  const res = await ctx.request({
    method: 'POST',
    url: `/api/v2/sync/courses/${courseId}`,
    token: admin,
    payload: { wait: true },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()._data as MoodleSyncResult;
}

async function stored() {
  const enrolments = await ctx.db
    .selectFrom('course_registered_users')
    .select([
      'id',
      'last_access_registered_moodle',
      'last_access_text',
      'final_qualification_moodle',
    ])
    .where('course_id', '=', courseId)
    .orderBy('id')
    .execute();
  const results = await ctx.db
    .selectFrom('activity_course_users as r')
    .innerJoin('activities as a', 'a.id', 'r.activity_id')
    .select([
      'r.course_registered_user_id',
      'a.id_activity_moodle',
      'r.status_moodle',
      'r.qualification_moodle',
      'r.completion_state',
      'r.grade',
    ])
    .where('a.course_id', '=', courseId)
    .orderBy('r.id')
    .execute();
  const history = await ctx.db
    .selectFrom('enrolment_progress_history')
    .select(['enrolment_id', 'last_access', 'grade'])
    .where('enrolment_id', 'in', Object.values(enrolment))
    .execute();
  return { enrolments, results, history };
}

describe('Moodle values out of range', () => {
  it('are refused one by one with a Spanish reason, nothing of them stored, and the rest of the course syncs', async () => {
    const first = await syncNow();
    expect(first.refused).toEqual([]);
    const before = await stored();
    const ana = before.enrolments.find((e) => e.id === enrolment.ana)!;
    expect(new Date(ana.last_access_registered_moodle!).getTime()).toBe(1_795_332_125_000);

    // Ana: a last access of 1e300 and a grade of 1e300 on the assignment (so her course total too).
    // Bruno: a last access in year 5138 and an unknown completion state on the page.
    // Diego: a negative last access; and a new valid completion, which must still be stored.
    sim.site.enrolment(4, 3)!.lastaccess = 1e300;
    sim.site.setGrade(sim.site.module(2)!.gradeitem!.id, 3, 1e300);
    sim.site.enrolment(4, 4)!.lastaccess = YEAR_5138;
    sim.site.setCompletion(1, 4, 7, 1_795_335_725);
    sim.site.enrolment(4, 6)!.lastaccess = -5;
    sim.site.setCompletion(3, 6, 1, Math.floor(Date.now() / 1000));

    const r = await syncNow();
    const byKey = (student: string, field: string) =>
      r.refused!.find((x) => x.student?.startsWith(student) && x.field === field);
    expect(byKey('Ana Silva', 'lastcourseaccess')).toEqual({
      student: `Ana Silva (${RUT.ana})`,
      activity: null,
      field: 'lastcourseaccess',
      value: '1e+300',
      detail: MOODLE_MSG.refusedTime,
    });
    expect(r.refused).toContainEqual({
      student: `Ana Silva (${RUT.ana})`,
      activity: 'Practical assessment',
      field: 'graderaw',
      value: '1e+300',
      detail: MOODLE_MSG.refusedGrade,
    });
    expect(r.refused).toContainEqual({
      student: `Ana Silva (${RUT.ana})`,
      activity: null,
      field: 'graderaw',
      value: '1e+300',
      detail: MOODLE_MSG.refusedGrade,
    });
    expect(byKey('Bruno Costa', 'lastcourseaccess')).toMatchObject({
      value: String(YEAR_5138),
      detail: MOODLE_MSG.refusedTime,
    });
    expect(r.refused).toContainEqual({
      student: `Bruno Costa (${RUT.bruno})`,
      activity: 'Safety intro',
      field: 'state',
      value: '7',
      detail: MOODLE_MSG.refusedState,
    });
    expect(byKey('Diego Rojas', 'lastcourseaccess')).toMatchObject({
      value: '-5',
      detail: MOODLE_MSG.refusedTime,
    });
    expect(r.refused).toHaveLength(6);
    expect(r.errors).toContain(MOODLE_MSG.refusedValues(6));

    // Nothing of it stored: last accesses, Ana's result and total, Bruno's result are as they were;
    // Diego's new completion is.
    const after = await stored();
    expect(after.enrolments).toEqual(before.enrolments);
    const result = (s: typeof before, who: string, cmid: number) =>
      s.results.find(
        (x) => x.course_registered_user_id === enrolment[who] && x.id_activity_moodle === cmid,
      );
    expect(result(after, 'ana', 2)).toEqual(result(before, 'ana', 2));
    expect(result(after, 'bruno', 1)).toEqual(result(before, 'bruno', 1));
    expect(result(after, 'diego', 3)).toMatchObject({
      status_moodle: 'Finalizado',
      completion_state: 1,
    });
    expect(result(before, 'diego', 3)).not.toMatchObject({ completion_state: 1 });
    // The progress history holds no time out of range either.
    for (const h of after.history)
      if (h.last_access) expect(new Date(h.last_access).getUTCFullYear()).toBeLessThan(2100);
    expect(after.history.length).toBeGreaterThan(before.history.length);
  });
});

describe('the ranges', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  it('take times from 2000-01-01 to a day past now, 0 as never', () => {
    const check = checkTime(now);
    expect(check(0)).toBeNull();
    expect(check(MOODLE_RANGES.earliestTime)).toBeNull();
    expect(check(MOODLE_RANGES.earliestTime - 1)).toBe(MOODLE_MSG.refusedTime);
    expect(check(now.getTime() / 1000 + 86_400)).toBeNull();
    expect(check(now.getTime() / 1000 + 86_401)).toBe(MOODLE_MSG.refusedTime);
    expect(check(-1)).toBe(MOODLE_MSG.refusedTime);
    expect(check(1e300)).toBe(MOODLE_MSG.refusedTime);
  });

  it('refuse a Moodle user or a course module with an id that is not a positive safe integer, leaving its enrolment as it was', () => {
    const local: LocalEnrolment = {
      id: 1,
      registered_user_id: 1,
      rut: RUT.ana,
      name: 'Ana',
      last_name: 'Silva',
      last_access_registered_moodle: null,
      last_access_text: null,
      is_sincronized: true,
      moodle_suspended: false,
      moodle_seen: true,
      final_qualification_moodle: null,
      status_moodle: null,
      id_registered_moodle: 3,
      rut_registered_moodle: null,
      name_registered_moodle: null,
      email_registered_moodle: null,
      student_status_moodle: null,
    };
    const m = matchPeople(
      [local],
      [{ id: 1e300, fullname: 'Ana Silva', idnumber: RUT.ana, username: 'ana' }],
    );
    expect(m.matches).toEqual([]);
    expect(m.missingInMoodle).toEqual([]);
    expect(m.unverified?.has(1)).toBe(true);
    expect(m.refused).toEqual([
      {
        student: 'Ana Silva',
        activity: null,
        field: 'id',
        value: '1e+300',
        detail: MOODLE_MSG.refusedId,
      },
    ]);

    const plan = planActivities(
      [],
      [
        { cmid: -4, name: 'Rota', modname: 'page', hidden: false },
        { cmid: 9, name: 'Buena', modname: 'page', hidden: false },
      ],
    );
    expect(plan.inserts.map((a) => a.id_activity_moodle)).toEqual([9]);
    expect(plan.refused).toEqual([
      { student: null, activity: 'Rota', field: 'id', value: '-4', detail: MOODLE_MSG.refusedId },
    ]);
  });
});
