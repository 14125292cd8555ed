import { MOODLE_SECTION_MSG, type SectionProposals } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSite, type GeneratedSite } from '../../../tools/moodle-sim/src/generator.js';
import { startMoodleSim, type SimServer } from '../../../tools/moodle-sim/src/server.js';
import type { JobWorker } from '../src/jobs/worker.js';
import { createTestContext, type TestContext } from './helpers.js';
import { syncCourseAndWait, testWorker } from './mail-data.js';

/**
 * Sections of synchronised activities on the Moodle simulator: the sync proposes a section for
 * each new activity from Moodle's names, "Aplicar propuestas" files them and maps the Moodle
 * sections, and later syncs file new activities of a mapped Moodle section at once.
 */

let ctx: TestContext;
let sim: SimServer;
let worker: JobWorker;
let admin: string;
let operator: string;
let courseId: number;
let generated: GeneratedSite;
let moodleCourse: number;
const sectionId: Record<string, number> = {};

async function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  token = admin,
) {
  const res = await ctx.request({
    method,
    url,
    token,
    payload:
      payload === undefined
        ? method === 'GET' || method === 'DELETE'
          ? 'true'
          : {}
        : (payload as object),
  });
  return { status: res.statusCode, body: res.json() };
}

async function fullSync() {
  const status = await syncCourseAndWait(ctx, call, courseId);
  expect(status.state, JSON.stringify(status)).toBe('done');
  return status;
}

const activities = () =>
  ctx.db
    .selectFrom('activities as a')
    .leftJoin('sections as s', 's.id', 'a.section_id')
    .leftJoin('sections as p', 'p.id', 'a.proposed_section_id')
    .select(['a.id', 'a.description', 'a.moodle_section', 's.key as section', 'p.key as proposed'])
    .where('a.course_id', '=', courseId)
    .orderBy('a.id')
    .execute();

const moodleSection = (name: string) =>
  generated.site.sections.find((s) => s.courseid === moodleCourse && s.name === name)!;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = (await ctx.userWithRole('admin')).token;
  operator = (await ctx.userWithRole('operator')).token;
  generated = generateSite({
    seed: 6,
    courses: 1,
    studentsPerCourse: 3,
    units: 2,
    activitiesPerUnit: 1,
    invalidRutRate: 0,
  });
  moodleCourse = generated.courseIds[0]!;
  // A withdrawal section named differently, and a test filed by its name inside a unit.
  const retiro = generated.site.addSection(moodleCourse, { name: 'Retiro' });
  generated.site.addModule(retiro.id, { modname: 'feedback', name: 'Solicitud' });
  generated.site.addModule(moodleSection('Unidad 1').id, { modname: 'quiz', name: 'Test B' });
  sim = await startMoodleSim({ site: generated.site });
  worker = testWorker(ctx, { retryBaseMs: 20 });
  worker.start();
  const db = ctx.db;
  const platformId = (
    await db
      .selectFrom('platforms')
      .select('id')
      .where('key', '=', 'moodle')
      .executeTakeFirstOrThrow()
  ).id;
  expect(
    (
      await call('PUT', `/api/v2/platforms/${platformId}/moodle`, {
        url: sim.url,
        token: generated.tokens.admin,
      })
    ).status,
  ).toBe(200);
  const category = await db
    .insertInto('categories')
    .values({ description: 'Capacitación', category_code: 'CAPA', platform_id: platformId })
    .returning('id')
    .executeTakeFirstOrThrow();
  courseId = (
    await db
      .insertInto('courses')
      .values({
        description: 'Curso con secciones',
        category_id: category.id,
        id_course_moodle: moodleCourse,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  for (const s of await db.selectFrom('sections').select(['id', 'key']).execute())
    if (s.key) sectionId[s.key] = s.id;
});

afterAll(async () => {
  await worker?.stop({ graceMs: 2000 });
  await sim?.close();
  await ctx?.close();
});

describe('section proposals for synchronised activities', () => {
  it('the first sync keeps new activities in Formativa and proposes a section from Moodle names', async () => {
    await fullSync();
    const rows = await activities();
    expect(rows.every((a) => a.section === 'formative')).toBe(true);
    const byName = Object.fromEntries(rows.map((a) => [a.description, a]));
    expect(byName['Pre Test A']).toMatchObject({
      moodle_section: 'Pre Test A',
      proposed: 'pre_test_a',
    });
    expect(byName['Post Test B']).toMatchObject({
      moodle_section: 'Post Test B',
      proposed: 'post_test_b',
    });
    expect(byName['Encuesta de satisfacción']).toMatchObject({
      moodle_section: 'Encuesta',
      proposed: 'survey',
    });
    expect(byName['Formulario de renuncia']).toMatchObject({
      moodle_section: 'Renuncia',
      proposed: 'resign',
    });
    expect(byName['Solicitud']).toMatchObject({ moodle_section: 'Retiro', proposed: 'resign' });
    expect(byName['Test B']).toMatchObject({ moodle_section: 'Unidad 1', proposed: 'pre_test_b' });
    const unit = rows.filter((a) => a.description.startsWith('Actividad '));
    expect(unit.length).toBe(2);
    expect(unit.every((a) => a.proposed === null)).toBe(true);

    const answer = await call('GET', `/api/v2/sync/courses/${courseId}/section-proposals`);
    expect(answer.status).toBe(200);
    const data = answer.body._data as SectionProposals;
    expect(data.proposals).toHaveLength(8);
    expect(data.maps).toEqual([]);
    expect(data.moodleSections).toEqual(
      expect.arrayContaining(['Encuesta', 'Renuncia', 'Retiro', 'Unidad 1', 'Unidad 2']),
    );
    const test = data.proposals.find((p) => p.description === 'Test B')!;
    // Proposed from the activity's name: accepting it does not send all of "Unidad 1" there.
    expect(test).toMatchObject({
      moodleSection: 'Unidad 1',
      current: { key: 'formative' },
      proposed: { key: 'pre_test_b', description: 'Pre Test B' },
      mapsMoodleSection: false,
    });
    expect(data.proposals.find((p) => p.description === 'Solicitud')).toMatchObject({
      proposed: { key: 'resign' },
      mapsMoodleSection: true,
    });
  });

  it('bad input and other roles get clear answers, never a 500', async () => {
    expect(
      (await call('GET', `/api/v2/sync/courses/${courseId}/section-proposals`, undefined, operator))
        .status,
    ).toBe(403);
    expect(
      (await call('POST', `/api/v2/sync/courses/${courseId}/section-proposals/apply`, {}, operator))
        .status,
    ).toBe(403);
    const missing = await call('GET', '/api/v2/sync/courses/2147480000/section-proposals');
    expect(missing).toMatchObject({
      status: 404,
      body: { message: MOODLE_SECTION_MSG.courseNotFound },
    });
    const empty = await call('PUT', `/api/v2/sync/courses/${courseId}/section-maps`, {
      moodle_section: '  ',
      section_id: 'x',
    });
    expect(empty.status).toBe(422);
    expect(empty.body._data.errors).toMatchObject({
      moodle_section: [MOODLE_SECTION_MSG.moodleSectionRequired],
      section_id: [MOODLE_SECTION_MSG.sectionRequired],
    });
    const noSection = await call('PUT', `/api/v2/sync/courses/${courseId}/section-maps`, {
      moodle_section: 'Unidad 2',
      section_id: 2_147_000_000,
    });
    expect(noSection.status).toBe(422);
    expect(noSection.body._data.errors.section_id).toEqual([MOODLE_SECTION_MSG.sectionNotFound]);
    const badList = await call('POST', `/api/v2/sync/courses/${courseId}/section-proposals/apply`, {
      activity_ids: 'todas',
    });
    expect(badList.status).toBe(422);
    expect(
      (await call('DELETE', `/api/v2/sync/courses/${courseId}/section-maps/2147480000`)).status,
    ).toBe(404);
  });

  it('"Aplicar propuestas" files every proposal and maps the Moodle sections whose names gave them', async () => {
    // Staff already filed one by hand (Actividades › Editar): its proposal is no longer pending.
    await ctx.db
      .updateTable('activities')
      .set({ section_id: sectionId.survey })
      .where('course_id', '=', courseId)
      .where('description', '=', 'Post Test B')
      .execute();
    expect(
      (await call('GET', `/api/v2/sync/courses/${courseId}/section-proposals`)).body._data
        .proposals,
    ).toHaveLength(7);
    const res = await call('POST', `/api/v2/sync/courses/${courseId}/section-proposals/apply`, {});
    expect(res.status).toBe(200);
    expect(res.body._data.applied).toBe(7);
    const mapped = (
      res.body._data.mapped as Array<{ moodleSection: string; section: { key: string } }>
    )
      .map((m) => [m.moodleSection, m.section.key])
      .sort();
    expect(mapped).toEqual([
      ['Encuesta', 'survey'],
      ['Post Test A', 'post_test_a'],
      ['Pre Test A', 'pre_test_a'],
      ['Pre Test B', 'pre_test_b'],
      ['Renuncia', 'resign'],
      ['Retiro', 'resign'],
    ]);
    expect(res.body.message).toBe(MOODLE_SECTION_MSG.applied(7, 6));
    const byName = Object.fromEntries((await activities()).map((a) => [a.description, a]));
    expect(byName['Test B']).toMatchObject({ section: 'pre_test_b', proposed: null });
    expect(byName['Solicitud']).toMatchObject({ section: 'resign', proposed: null });
    expect(byName['Post Test B']).toMatchObject({ section: 'survey' });
    expect(
      Object.values(byName)
        .filter((a) => a.description.startsWith('Actividad '))
        .map((a) => a.section),
    ).toEqual(['formative', 'formative']);
    // Nothing left: a clear 409.
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

  it('staff map a Moodle section once: its unfiled activities move, and later syncs file new ones there at once', async () => {
    const saved = await call('PUT', `/api/v2/sync/courses/${courseId}/section-maps`, {
      moodle_section: 'unidad 2',
      section_id: sectionId.survey,
    });
    expect(saved.status).toBe(200);
    expect(saved.body._data).toMatchObject({
      filed: 1,
      map: { moodleSection: 'unidad 2', section: { key: 'survey' }, activities: 1 },
    });
    expect(saved.body.message).toBe(MOODLE_SECTION_MSG.mapSaved(1));

    // Moodle gets new activities: in a mapped section (by staff, and by "Aplicar propuestas"), and in an unmapped one.
    generated.site.addModule(moodleSection('Unidad 2').id, {
      modname: 'assign',
      name: 'Tarea final',
    });
    generated.site.addModule(moodleSection('Retiro').id, {
      modname: 'feedback',
      name: 'Carta de salida',
    });
    generated.site.addModule(moodleSection('Unidad 1').id, {
      modname: 'page',
      name: 'Lectura complementaria',
    });
    const status = await fullSync();
    expect(status.result.activitiesAdded).toBe(3);
    const byName = Object.fromEntries((await activities()).map((a) => [a.description, a]));
    expect(byName['Tarea final']).toMatchObject({
      moodle_section: 'Unidad 2',
      section: 'survey',
      proposed: null,
    });
    expect(byName['Carta de salida']).toMatchObject({
      moodle_section: 'Retiro',
      section: 'resign',
      proposed: null,
    });
    expect(byName['Lectura complementaria']).toMatchObject({
      moodle_section: 'Unidad 1',
      section: 'formative',
      proposed: null,
    });
    // Already filed activities stay where staff put them; no proposal is pending.
    expect(byName['Test B']).toMatchObject({ section: 'pre_test_b' });
    expect(
      (await call('GET', `/api/v2/sync/courses/${courseId}/section-proposals`)).body._data
        .proposals,
    ).toEqual([]);

    // Removing a mapping leaves the activities where they are; the next new one stays in Formativa.
    const maps = (await call('GET', `/api/v2/sync/courses/${courseId}/section-proposals`)).body
      ._data.maps as Array<{ id: number; moodleSection: string }>;
    const unit2 = maps.find((m) => m.moodleSection === 'unidad 2')!;
    const deleted = await call(
      'DELETE',
      `/api/v2/sync/courses/${courseId}/section-maps/${unit2.id}`,
    );
    expect(deleted).toMatchObject({
      status: 200,
      body: { message: MOODLE_SECTION_MSG.mapDeleted },
    });
    generated.site.addModule(moodleSection('Unidad 2').id, { modname: 'url', name: 'Enlace' });
    await fullSync();
    const after = Object.fromEntries((await activities()).map((a) => [a.description, a]));
    expect(after['Tarea final']).toMatchObject({ section: 'survey' });
    expect(after['Enlace']).toMatchObject({ section: 'formative', proposed: null });
  });
});
