import { computeDv, formatRut, MOODLE_SECTION_MSG, type SectionProposals } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';

/**
 * Weights proposed with the sections: a synchronised course whose activities all weigh 0 shows no
 * progress; "Aplicar propuestas" gives its graded activities equal weights within each Moodle
 * section, 100 in all, and the progress appears. Hand-made course (as a first sync leaves it):
 *
 *   Unidad 1   Tarea 1.1 (assign), Cuestionario 1.2 (quiz), Página 1.3 (page: not graded)
 *   Unidad 2   Tarea 2.1 (assign)
 *   Encuesta   Encuesta final (feedback, proposed Encuesta: counts by its section, no weight)
 *   Unidad 3   Foro (forum: not graded)
 *
 * Two units with graded activities: 50 each -> 25 + 25 in Unidad 1, 50 in Unidad 2.
 * The student has Tarea 1.1 graded: progress 1 of the 3 weighted activities + Encuesta -> 1/4 = 25 %.
 */
let ctx: TestContext;
let admin: string;
let courseId: number;
const act: Record<string, number> = {};

beforeAll(async () => {
  ctx = await createTestContext();
  admin = (await ctx.userWithRole('admin')).token;
  const db = ctx.db;
  const section = async (key: string) =>
    (await db.selectFrom('sections').select('id').where('key', '=', key).executeTakeFirstOrThrow())
      .id;
  const formative = await section('formative');
  const survey = await section('survey');
  const platform = (await db.selectFrom('platforms').select('id').executeTakeFirstOrThrow()).id;
  const category = (
    await db
      .insertInto('categories')
      .values({ description: 'Pesos', category_code: 'PESO', platform_id: platform })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  courseId = (
    await db
      .insertInto('courses')
      .values({
        description: 'Curso sin ponderar',
        category_id: category,
        id_course_moodle: 900,
        last_sync_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const rows: Array<[string, string, string, number | null]> = [
    ['Tarea 1.1', 'assign', 'Unidad 1', null],
    ['Cuestionario 1.2', 'quiz', 'Unidad 1', null],
    ['Página 1.3', 'page', 'Unidad 1', null],
    ['Tarea 2.1', 'assign', 'Unidad 2', null],
    ['Encuesta final', 'feedback', 'Encuesta', survey],
    ['Foro', 'forum', 'Unidad 3', null],
  ];
  let cmid = 5000;
  for (const [description, type, moodle_section, proposed_section_id] of rows) {
    act[description] = (
      await db
        .insertInto('activities')
        .values({
          description,
          type,
          moodle_section,
          proposed_section_id,
          section_id: formative,
          course_id: courseId,
          weighing: 0,
          id_activity_moodle: cmid++,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }
  const profile = (
    await db
      .selectFrom('profiles')
      .select('id')
      .where('key', '=', 'student')
      .executeTakeFirstOrThrow()
  ).id;
  const person = (
    await db
      .insertInto('registered_users')
      .values({
        rut: formatRut({ body: 24_000_002, dv: computeDv(24_000_002) }),
        name: 'Pía',
        last_name: 'Pesos',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const enrolment = (
    await db
      .insertInto('course_registered_users')
      .values({
        course_id: courseId,
        registered_user_id: person,
        profile_id: profile,
        is_sincronized: true,
        last_access_registered_moodle: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  await db
    .insertInto('activity_course_users')
    .values({
      course_registered_user_id: enrolment,
      activity_id: act['Tarea 1.1']!,
      status_moodle: 'Enviado',
      completion_state: 1,
      grade: 6,
    })
    .execute();
});
afterAll(() => ctx?.close());

async function call(method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await ctx.request({ method, url, token: admin, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() };
}
const progress = async () =>
  (await call('GET', `/api/v2/follow-up/courses/${courseId}/students`)).body._data.collections.map(
    (c: { properties: { progress: number | null } }) => c.properties.progress,
  );
const weights = async () =>
  Object.fromEntries(
    (
      await ctx.db
        .selectFrom('activities')
        .select(['description', 'weighing'])
        .where('course_id', '=', courseId)
        .execute()
    ).map((a) => [a.description, Number(a.weighing)]),
  );

describe('weights proposed with the sections', () => {
  it('a course whose activities all weigh 0 gets equal weights within each Moodle section, 100 in all, for its graded activities', async () => {
    const before = await progress();
    // Only Encuesta counts before (by its section once filed; still Formativa here): no progress at all.
    expect(before).toEqual([null]);
    const answer = await call('GET', `/api/v2/sync/courses/${courseId}/section-proposals`);
    expect(answer.status).toBe(200);
    const data = answer.body._data as SectionProposals;
    expect(data.proposals.map((p) => p.description)).toEqual(['Encuesta final']);
    expect(data.weights.map((w) => [w.description, w.moodleSection, w.weighing])).toEqual([
      ['Tarea 1.1', 'Unidad 1', 25],
      ['Cuestionario 1.2', 'Unidad 1', 25],
      ['Tarea 2.1', 'Unidad 2', 50],
    ]);

    const applied = await call(
      'POST',
      `/api/v2/sync/courses/${courseId}/section-proposals/apply`,
      {},
    );
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body._data).toMatchObject({ applied: 1, weighted: 3 });
    expect(applied.body.message).toBe(
      `${MOODLE_SECTION_MSG.applied(1, 1)} ${MOODLE_SECTION_MSG.weighted(3)}`,
    );
    expect(await weights()).toEqual({
      'Tarea 1.1': 25,
      'Cuestionario 1.2': 25,
      'Página 1.3': 0,
      'Tarea 2.1': 50,
      'Encuesta final': 0,
      Foro: 0,
    });
    // Tarea 1.1 graded of Tarea 1.1, Cuestionario 1.2, Tarea 2.1 and Encuesta final.
    expect(await progress()).toEqual([25]);
  });

  it('never overwrites weights staff set: once a weight is set nothing more is proposed, and nothing to apply is a 409', async () => {
    const data = (await call('GET', `/api/v2/sync/courses/${courseId}/section-proposals`)).body
      ._data as SectionProposals;
    expect(data.weights).toEqual([]);
    const again = await call(
      'POST',
      `/api/v2/sync/courses/${courseId}/section-proposals/apply`,
      {},
    );
    expect(again).toMatchObject({
      status: 409,
      body: { message: MOODLE_SECTION_MSG.nothingToApply },
    });
  });

  it('three sections of one graded activity each: 33.33, 33.33 and 33.34', async () => {
    const db = ctx.db;
    const formative = (
      await db
        .selectFrom('sections')
        .select('id')
        .where('key', '=', 'formative')
        .executeTakeFirstOrThrow()
    ).id;
    const category = (
      await db
        .selectFrom('courses')
        .select('category_id')
        .where('id', '=', courseId)
        .executeTakeFirstOrThrow()
    ).category_id;
    const course = (
      await db
        .insertInto('courses')
        .values({ description: 'Tres unidades', category_id: category })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    for (const [i, unit] of ['A', 'B', 'C'].entries()) {
      await db
        .insertInto('activities')
        .values({
          description: `Tarea ${unit}`,
          type: 'assign',
          moodle_section: `Unidad ${unit}`,
          section_id: formative,
          course_id: course,
          weighing: 0,
          id_activity_moodle: 6000 + i,
        })
        .execute();
    }
    const data = (await call('GET', `/api/v2/sync/courses/${course}/section-proposals`)).body
      ._data as SectionProposals;
    expect(data.weights.map((w) => w.weighing)).toEqual([33.33, 33.33, 33.34]);
    expect(
      (await call('POST', `/api/v2/sync/courses/${course}/section-proposals/apply`, {})).body._data,
    ).toMatchObject({ applied: 0, weighted: 3 });
  });
});
