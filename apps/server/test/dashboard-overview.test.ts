import { expect, it } from 'vitest';
import { fileContext } from './helpers.js';
import { seedCourse, ticketKeys } from './data.js';

/** Estadística in one answer: each part is the very value its own route gives. */
const file = fileContext();

it('the course overview holds the four counts, the student card and the twelve charts of their own routes', async () => {
  const { ctx, admin } = file;
  const seeded = await seedCourse(ctx.db, {
    categoryCode: 'OVW',
    course: 'Resumen',
    students: 4,
    firstRut: 15_600_000,
  });
  const keys = await ticketKeys(ctx.db);
  for (const [i, e] of seeded.enrolments.entries()) {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v2/tickets',
      token: admin,
      payload: {
        course_registered_user_id: e.id,
        type_ticket_id: keys.email,
        status_ticket_id: i % 2 ? keys.open : keys.closed,
        priority_ticket_id: keys.high,
        source_ticket_id: keys.outgoing,
        motive_ticket_id: keys.welcome,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  const get = async (url: string) =>
    (await ctx.request({ method: 'GET', url, token: admin })).json();
  const overview = (await get(`/api/v2/dashboard/courses/${seeded.course}`))._data;
  const tk = `/api/v2/tickets/${seeded.course}`;
  const cru = `/api/v2/course-registered-users/${seeded.course}`;
  for (const kind of ['total', 'last-day', 'open', 'close'] as const)
    expect(overview.counts[kind]).toBe(await get(`${tk}/${kind}/count`));
  expect(overview.counts).toEqual({ total: 4, 'last-day': 4, open: 2, close: 2 });
  expect(overview.card).toEqual((await get(`${cru}/follow-student-card`))._data);
  const paths = {
    source: `${tk}/source-chart`,
    type: `${tk}/type-chart`,
    status: `${tk}/status-chart`,
    priority: `${tk}/priority-chart`,
    motive: `${tk}/motive-chart`,
    age: `${tk}/age-chart`,
    statusOperator: `${tk}/status-operator-chart`,
    statusMotive: `${tk}/status-motive-chart`,
    studentStatus: `${cru}/status/count`,
    lastAccess: `${cru}/logged-time/count`,
    progress: `${cru}/progress-chart`,
    progressDone: `${cru}/progress-chart-avance`,
  };
  for (const [key, path] of Object.entries(paths))
    expect(overview.charts[key], key).toEqual((await get(path))._data.chartData);
  const operator = await ctx.userWithRole('tutor');
  expect(
    (
      await ctx.request({
        method: 'GET',
        url: `/api/v2/dashboard/courses/${seeded.course}`,
        token: operator.token,
      })
    ).statusCode,
  ).toBe(403);
});
