import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultFingerprint } from '../src/modules/moodle-sync/diff.js';
import type { LocalResult } from '../src/modules/moodle-sync/plan.js';
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
  const platform = (await db.selectFrom('platforms').select('id').where('key', '=', 'moodle').executeTakeFirstOrThrow()).id;
  const category = await db.insertInto('categories').values({ description: 'Huellas', category_code: 'HUEL', platform_id: platform }).returning('id').executeTakeFirstOrThrow();
  courseId = (await db.insertInto('courses').values({ description: 'Huellas', category_id: category.id, id_course_moodle: 77 }).returning('id').executeTakeFirstOrThrow()).id;
  const profile = (await db.selectFrom('profiles').select('id').where('key', '=', 'student').executeTakeFirstOrThrow()).id;
  for (let i = 0; i < 4; i++) {
    activity.push((await db.insertInto('activities').values({ description: `A${i}`, course_id: courseId, weighing: 0, id_activity_moodle: 700 + i }).returning('id').executeTakeFirstOrThrow()).id);
  }
  for (const rut of ['11111111-1', '22222222-2', '33333333-3']) {
    const s = await db.insertInto('registered_users').values({ rut, name: 'N', last_name: 'A', email: `${rut}@local.test` }).returning('id').executeTakeFirstOrThrow();
    enrolment.push((await db.insertInto('course_registered_users').values({ course_id: courseId, registered_user_id: s.id, profile_id: profile }).returning('id').executeTakeFirstOrThrow()).id);
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
      row(0, 1, { status_moodle: "it's \\ odd, 'quoted'; NULL", qualification_moodle: null, completion_state: 0, grade: -0.25 }),
      row(0, 3, { status_moodle: null, qualification_moodle: 'NULL', completion_state: null, grade: null }),
      row(1, 2, { grade: 99.9999, qualification_moodle: '-' }),
      row(1, 0, { grade: 0 }),
    ];
    await ctx.db.transaction().execute((trx) => repo.insertResults(trx, rows));
    const stored = await repo.resultFingerprints(ctx.db, courseId);
    const ofEnrolment = (e: number) => rows.filter((r) => r.course_registered_user_id === enrolment[e]).sort((x, y) => x.activity_id - y.activity_id);
    expect(stored.get(enrolment[0]!)).toBe(resultFingerprint(ofEnrolment(0)));
    expect(stored.get(enrolment[1]!)).toBe(resultFingerprint(ofEnrolment(1)));
    // Nothing stored: no text, which equals that of no results.
    expect(stored.has(enrolment[2]!)).toBe(false);
    expect(resultFingerprint([])).toBe('');
    expect(await repo.resultFingerprints(ctx.db, courseId, enrolment[1])).toEqual(new Map([[enrolment[1]!, resultFingerprint(ofEnrolment(1))]]));
  });

  it('any different value gives a different text; a grade with more decimals than are stored never matches', () => {
    const base = [row(0, 0), row(0, 1)];
    const text = resultFingerprint(base);
    for (const change of [{ status_moodle: 'En progreso' }, { status_moodle: null }, { qualification_moodle: '55.01' }, { completion_state: 2 }, { completion_state: null }, { grade: 55.0001 }, { grade: null }, { activity_id: activity[2]! }]) {
      expect(resultFingerprint([base[0]!, { ...base[1]!, ...change }])).not.toBe(text);
    }
    expect(resultFingerprint([base[0]!])).not.toBe(text);
    expect(resultFingerprint([row(0, 0, { grade: 1.23456 })])).not.toBe(resultFingerprint([row(0, 0, { grade: 1.2346 })]));
  });
});
