import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';
import { TEST_ADMIN } from './fixtures.js';
import { seedCourse } from './data.js';

/**
 * Finding a student by name or RUT to open a ticket, across the active courses (the shown course's
 * first), and each person's current course remembered on the server: kept from page to page,
 * checked against what the person may follow.
 */
type Json = Record<string, any>;

let ctx: TestContext;
let admin: string;
let operator: { id: number; token: string };
let tutor: { id: number; token: string };
let first: Awaited<ReturnType<typeof seedCourse>>;
let second: Awaited<ReturnType<typeof seedCourse>>;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  operator = await ctx.userWithRole('operator');
  tutor = await ctx.userWithRole('tutor');
  first = await seedCourse(ctx.db, {
    categoryCode: 'CA',
    course: 'Curso A',
    students: 3,
    firstRut: 15_200_000,
    names: ['Iñaki', 'Benjamín', 'Catalina'],
  });
  second = await seedCourse(ctx.db, {
    categoryCode: 'CB',
    course: 'Curso B',
    students: 2,
    firstRut: 15_300_000,
    names: ['Iñigo', 'Daniela'],
  });
  // The same person (Iñaki) enrolled in both courses, with an accented surname.
  await ctx.db
    .updateTable('registered_users')
    .set({ last_name: 'Muñoz' })
    .where('id', '=', first.enrolments[0]!.studentId)
    .execute();
  const profile = await ctx.db
    .selectFrom('profiles')
    .select('id')
    .where('key', '=', 'student')
    .executeTakeFirstOrThrow();
  await ctx.db
    .insertInto('course_registered_users')
    .values({
      course_id: second.course,
      registered_user_id: first.enrolments[0]!.studentId,
      profile_id: profile.id,
    })
    .execute();
  await ctx.db
    .insertInto('classroom_tutors')
    .values({ course_id: first.course, classroom_id: first.classroom, user_id: tutor.id })
    .execute();
});
afterAll(() => ctx?.close());

const find = (token: string, query: string) =>
  ctx.request({ method: 'GET', url: `/api/v2/course-registered-users/find?${query}`, token });

describe('finding a student by name or RUT to open a ticket', () => {
  it('finds "munoz" (no accent, any case) in every active course, the shown course first', async () => {
    const res = await find(operator.token, `search=munoz&course_id=${second.course}`);
    expect(res.statusCode, res.body).toBe(200);
    const found = res.json()._data as Json[];
    expect(found.map((m) => [m.fullName, m.course])).toEqual([
      ['Iñaki Muñoz Test', 'Curso B'],
      ['Iñaki Muñoz Test', 'Curso A'],
    ]);
    expect(found[0]).toMatchObject({
      rut: first.enrolments[0]!.rut,
      courseId: second.course,
      category: 'Categoría Curso B',
    });
    const enrolment = await ctx.db
      .selectFrom('course_registered_users')
      .select('id')
      .where('course_id', '=', second.course)
      .where('registered_user_id', '=', first.enrolments[0]!.studentId)
      .executeTakeFirstOrThrow();
    expect(found[0]!.enrolmentId).toBe(enrolment.id);
  });

  it('finds by RUT in any spelling', async () => {
    const rut = second.enrolments[1]!.rut;
    const res = await find(admin, `search=${encodeURIComponent(rut.replace(/\./g, ''))}`);
    expect((res.json()._data as Json[]).map((m) => m.fullName)).toEqual(['Daniela Prueba Test']);
  });

  it('leaves out inactive courses', async () => {
    await ctx.db
      .updateTable('courses')
      .set({ status: 0 })
      .where('id', '=', second.course)
      .execute();
    const res = await find(operator.token, 'search=inaki');
    expect((res.json()._data as Json[]).map((m) => m.course)).toEqual(['Curso A']);
    await ctx.db
      .updateTable('courses')
      .set({ status: 1 })
      .where('id', '=', second.course)
      .execute();
  });

  it('refuses a search too short or a malformed course with a Spanish 422, and tutors with a 403', async () => {
    const short = await find(operator.token, 'search=in');
    expect(short.statusCode).toBe(422);
    expect(short.json()._data.errors.search).toEqual([
      'Escriba al menos 3 letras del nombre o dígitos del RUT.',
    ]);
    expect((await find(operator.token, 'search=inaki&course_id=abc')).statusCode).toBe(422);
    expect((await find(tutor.token, 'search=inaki')).statusCode).toBe(403);
  });
});

describe('the current course, remembered per person on the server', () => {
  const get = (token: string) =>
    ctx.request({ method: 'GET', url: '/api/v2/me/current-course', token });
  const put = (token: string, payload: Record<string, unknown>) =>
    ctx.request({ method: 'PUT', url: '/api/v2/me/current-course', token, payload });

  it('is none at first, then the course chosen, for that person only', async () => {
    expect((await get(operator.token)).json()._data).toBeNull();
    const set = await put(operator.token, { course_id: first.course });
    expect(set.statusCode, set.body).toBe(200);
    const current = (await get(operator.token)).json()._data;
    expect(current.properties).toMatchObject({
      id: first.course,
      description: 'Curso A',
      category: { id: first.category, description: 'Categoría Curso A' },
    });
    expect((await get(admin)).json()._data).toBeNull();
    expect((await put(operator.token, { course_id: null })).statusCode).toBe(200);
    expect((await get(operator.token)).json()._data).toBeNull();
  });

  it('is not given back once the course is inactive or deleted', async () => {
    await put(admin, { course_id: second.course });
    await ctx.db
      .updateTable('courses')
      .set({ status: 0 })
      .where('id', '=', second.course)
      .execute();
    expect((await get(admin)).json()._data).toBeNull();
    await ctx.db
      .updateTable('courses')
      .set({ status: 1 })
      .where('id', '=', second.course)
      .execute();
    expect((await get(admin)).json()._data.properties.id).toBe(second.course);
  });

  it("refuses a missing course (404), a tutor's course without a classroom of theirs (403) and a malformed id (422)", async () => {
    const missing = await put(operator.token, { course_id: 2_147_480_000 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toMatch(/curso/i);
    expect((await put(tutor.token, { course_id: second.course })).statusCode).toBe(403);
    expect((await put(tutor.token, { course_id: first.course })).statusCode).toBe(200);
    expect((await get(tutor.token)).json()._data.properties.id).toBe(first.course);
    const bad = await put(operator.token, { course_id: 'abc' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()._data.errors.course_id).toEqual(['Elija un curso.']);
    expect((await put(operator.token, {})).statusCode).toBe(422);
  });
});
