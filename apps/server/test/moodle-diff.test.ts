import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultFingerprint, storedResults } from '../src/modules/moodle-sync/diff.js';
import {
  gradesByUser,
  matchPeople,
  planPeople,
  type LocalActivity,
  type LocalEnrolment,
  type LocalResult,
} from '../src/modules/moodle-sync/plan.js';
import type { MoodleActivityCompletion, MoodleUserGrades } from '../src/moodle/schemas.js';
import { MoodleSyncRepository } from '../src/modules/moodle-sync/repository.js';
import { createTestContext, type TestContext } from './helpers.js';

/**
 * A re-sync reads row by row only the students whose stored results differ from Moodle's: the text
 * the database builds of stored results must equal the one built of the same values, and differ
 * whenever a value differs.
 */

let ctx: TestContext;
let repo: MoodleSyncRepository;
let courseId: number;
const activity: number[] = [];
const enrolment: number[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  repo = new MoodleSyncRepository(ctx.db);
  const db = ctx.db;
  const platform = (
    await db
      .selectFrom('platforms')
      .select('id')
      .where('key', '=', 'moodle')
      .executeTakeFirstOrThrow()
  ).id;
  const category = await db
    .insertInto('categories')
    .values({ description: 'Huellas', category_code: 'HUEL', platform_id: platform })
    .returning('id')
    .executeTakeFirstOrThrow();
  courseId = (
    await db
      .insertInto('courses')
      .values({ description: 'Huellas', category_id: category.id, id_course_moodle: 77 })
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
  for (let i = 0; i < 4; i++) {
    activity.push(
      (
        await db
          .insertInto('activities')
          .values({
            description: `A${i}`,
            course_id: courseId,
            weighing: 0,
            id_activity_moodle: 700 + i,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  }
  for (const rut of ['11111111-1', '22222222-2', '33333333-3']) {
    const s = await db
      .insertInto('registered_users')
      .values({ rut, name: 'N', last_name: 'A', email: `${rut}@local.test` })
      .returning('id')
      .executeTakeFirstOrThrow();
    enrolment.push(
      (
        await db
          .insertInto('course_registered_users')
          .values({ course_id: courseId, registered_user_id: s.id, profile_id: profile })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  }
});

afterAll(async () => {
  await ctx?.close();
});

type Row = Omit<LocalResult, 'id'>;
const row = (e: number, a: number, o: Partial<Row> = {}): Row => ({
  course_registered_user_id: enrolment[e]!,
  activity_id: activity[a]!,
  status_moodle: 'Finalizado',
  qualification_moodle: '55.00',
  completion_state: 1,
  grade: 55,
  ...o,
});

describe('fingerprints of stored results', () => {
  it('the database and the sync write the same text for the same results, whatever the values', async () => {
    const rows: Row[] = [
      row(0, 0),
      row(0, 1, {
        status_moodle: "it's \\ odd, 'quoted'; NULL",
        qualification_moodle: null,
        completion_state: 0,
        grade: -0.25,
      }),
      row(0, 3, {
        status_moodle: null,
        qualification_moodle: 'NULL',
        completion_state: null,
        grade: null,
      }),
      row(1, 2, { grade: 99.9999, qualification_moodle: '-' }),
      row(1, 0, { grade: 0 }),
    ];
    await ctx.db.transaction().execute((trx) => repo.insertResults(trx, rows));
    const stored = await repo.resultFingerprints(ctx.db, courseId);
    const ofEnrolment = (e: number) =>
      rows
        .filter((r) => r.course_registered_user_id === enrolment[e])
        .sort((x, y) => x.activity_id - y.activity_id);
    expect(stored.get(enrolment[0]!)).toBe(resultFingerprint(ofEnrolment(0)));
    expect(stored.get(enrolment[1]!)).toBe(resultFingerprint(ofEnrolment(1)));
    // Nothing stored: no text, which equals that of no results.
    expect(stored.has(enrolment[2]!)).toBe(false);
    expect(resultFingerprint([])).toBe('');
    expect(await repo.resultFingerprints(ctx.db, courseId, enrolment[1])).toEqual(
      new Map([[enrolment[1]!, resultFingerprint(ofEnrolment(1))]]),
    );
  });

  it('any different value gives a different text; a grade with more decimals than are stored never matches', () => {
    const base = [row(0, 0), row(0, 1)];
    const text = resultFingerprint(base);
    for (const change of [
      { status_moodle: 'En progreso' },
      { status_moodle: null },
      { qualification_moodle: '55.01' },
      { completion_state: 2 },
      { completion_state: null },
      { grade: 55.0001 },
      { grade: null },
      { activity_id: activity[2]! },
    ]) {
      expect(resultFingerprint([base[0]!, { ...base[1]!, ...change }])).not.toBe(text);
    }
    expect(resultFingerprint([base[0]!])).not.toBe(text);
    expect(resultFingerprint([row(0, 0, { grade: 1.23456 })])).not.toBe(
      resultFingerprint([row(0, 0, { grade: 1.2346 })]),
    );
  });
});

describe('planning from fingerprints', () => {
  it('plans the same changes as reading every stored result', () => {
    const ruts = ['11.111.111-1', '22.222.222-2', '33.333.333-3', '44.444.444-4'];
    const enrolments: LocalEnrolment[] = ruts.map((rut, i) => ({
      id: i + 1,
      registered_user_id: 100 + i,
      rut,
      name: 'N',
      last_name: 'A',
      last_access_registered_moodle: null,
      last_access_text: 'Nunca',
      is_sincronized: true,
      moodle_suspended: false,
      moodle_seen: true,
      final_qualification_moodle: '50.00',
      status_moodle: 'Activo',
      id_registered_moodle: 10 + i,
      rut_registered_moodle: rut,
      name_registered_moodle: 'N A',
      email_registered_moodle: null,
      student_status_moodle: 'Activo',
    }));
    const users = ruts.map((rut, i) => ({
      id: 10 + i,
      idnumber: rut,
      fullname: 'N A',
      lastcourseaccess: 0,
      roles: [{ roleid: 5, name: '', shortname: 'student', sortorder: 0 }],
    }));
    const activities: LocalActivity[] = [
      {
        id: 7,
        id_activity_moodle: 70,
        description: 'A',
        type: 'quiz',
        section_key: 'formative',
        removed_at: null,
        hidden: false,
      },
      {
        id: 8,
        id_activity_moodle: 80,
        description: 'R',
        type: 'page',
        section_key: 'resign',
        removed_at: null,
        hidden: false,
      },
    ];
    const done = (cmid: number, state: number): MoodleActivityCompletion => ({
      cmid,
      modname: 'quiz',
      instance: 1,
      state,
      timecompleted: 0,
      tracking: 2,
    });
    const item = (cmid: number, graderaw: number | null) =>
      ({ id: cmid, itemtype: 'mod', cmid, graderaw }) as MoodleUserGrades['gradeitems'][number];
    const grades = gradesByUser(
      [10, 11, 13].map(
        (userid) =>
          ({
            userid,
            gradeitems: [
              item(70, 50),
              { id: 1, itemtype: 'course', graderaw: 50 } as MoodleUserGrades['gradeitems'][number],
            ],
          }) as MoodleUserGrades,
      ),
    );
    // User 12: completion not read. User 13: nothing stored yet.
    const completion = new Map([10, 11, 13].map((id) => [id, [done(70, 1), done(80, 0)]]));
    const stored = (e: number, grade: number): LocalResult[] => [
      {
        id: e * 10,
        activity_id: 7,
        course_registered_user_id: e,
        status_moodle: 'Finalizado',
        qualification_moodle: grade.toFixed(2),
        completion_state: 1,
        grade,
      },
      {
        id: e * 10 + 1,
        activity_id: 8,
        course_registered_user_id: e,
        status_moodle: 'No iniciado',
        qualification_moodle: null,
        completion_state: 0,
        grade: null,
      },
    ];
    // Enrolment 1 holds what Moodle says; 2 holds an older grade; 3 is kept as it is.
    const results = [...stored(1, 50), ...stored(2, 40), ...stored(3, 30)];
    const matching = matchPeople(enrolments, users);
    const input = { withProgress: true, matching, enrolments, activities, grades, completion };
    const fingerprints = new Map(
      [1, 2, 3].map((e) => [
        e,
        resultFingerprint(results.filter((r) => r.course_registered_user_id === e)),
      ]),
    );
    const { load, unchanged } = storedResults(input, fingerprints);
    // 2 differs, 3's completion was not read: read; 4 has nothing stored: nothing to read, all new.
    expect([load, [...unchanged]]).toEqual([[2, 3], [1]]);
    const fromFingerprints = planPeople({
      ...input,
      results: results.filter((r) => load.includes(r.course_registered_user_id)),
      unchanged,
    });
    expect(fromFingerprints).toEqual(planPeople({ ...input, results }));
    expect(fromFingerprints.resultUpdates.map((r) => r.id)).toEqual([20]);
    expect(fromFingerprints.resultInserts).toHaveLength(2);
  });
});
