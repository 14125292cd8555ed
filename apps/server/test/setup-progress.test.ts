import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';
import { TEST_ADMIN } from './fixtures.js';
import { seedCourse } from './data.js';

/** The first steps of an installation, as the home page shows them to administrators. */
let ctx: TestContext;
let admin: string;
beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(() => ctx?.close());

const progress = async (token = admin) => {
  const res = await ctx.request({ method: 'GET', url: '/api/v2/setup-progress', token });
  return { status: res.statusCode, body: res.json() };
};

it('counts each step from nothing to done, and only for administrators', async () => {
  expect((await progress()).body._data).toEqual({
    moodle: false,
    courses: 0,
    syncedCourses: 0,
    students: 0,
    staff: 0,
  });
  const course = await seedCourse(ctx.db, {
    categoryCode: 'SP',
    course: 'Paso a paso',
    students: 2,
    firstRut: 15_400_000,
  });
  const operator = await ctx.userWithRole('operator');
  expect((await progress()).body._data).toEqual({
    moodle: false,
    courses: 1,
    syncedCourses: 0,
    students: 2,
    staff: 1,
  });
  await ctx.db
    .updateTable('platforms')
    .set({ url: 'https://moodle.example.cl', token_encrypted: 'x' })
    .execute();
  await ctx.db
    .updateTable('courses')
    .set({ last_sync_at: new Date() })
    .where('id', '=', course.course)
    .execute();
  expect((await progress()).body._data).toEqual({
    moodle: true,
    courses: 1,
    syncedCourses: 1,
    students: 2,
    staff: 1,
  });
  // An inactive course and its students no longer count.
  await ctx.db.updateTable('courses').set({ status: 0 }).where('id', '=', course.course).execute();
  expect((await progress()).body._data).toMatchObject({
    courses: 0,
    syncedCourses: 0,
    students: 0,
  });
  expect((await progress(operator.token)).status).toBe(403);
});
