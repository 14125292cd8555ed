import {
  listQuerySchema,
  parsedText,
  parseIdList,
  PERMISSIONS,
  TICKET_MSG,
  type ChartData,
} from '@sigaf/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { idParams } from '../../http/params.js';
import type { Services } from '../../services.js';
import { sendKept } from '../answers/cache.js';
import type { TicketDimension } from './sql.js';
import type { ProgressKind, TicketCount } from './service.js';

/** A classroom (id, or description as the original client sends it) of a course. */
const classroomParams = idParams.extend({ classroom: z.string().trim().min(1).max(150) });
const sectionParams = classroomParams.extend({ section: z.string().trim().min(1).max(150) });
/** `/activities/{ids}/...`: a JSON list (or comma list) of local or Moodle activity ids. */
const activitiesParams = z.object({
  id: parsedText(parseIdList, TICKET_MSG.invalidList),
  course: idParams.shape.id,
});

/** Optional paging of a student list: at most 500 a page. */
const pageQuery = z.object({
  page: listQuerySchema.shape.page,
  perPage: z.coerce.number().int().min(1).max(500).optional(),
});
const DEFAULT_STUDENTS_PER_PAGE = 20;

const chart = (chartData: ChartData) => ok({ chartData });

/**
 * Dashboard (docs/development/domain.md#dashboard, docs/development/screens.md#estadistica) and per-classroom follow-up (docs/development/screens.md#follow-student-report).
 *
 * An unknown course id, by role: on the dashboard routes (staff only: administrator, developer,
 * operator) it answers as an empty course (zeros, empty labels, HTTP 200), as the original did for
 * the course 2 its client asks for on load; a tutor gets 403 there whatever the course. On the
 * per-classroom routes (every role; a tutor only their classrooms) it is a 404 for every role,
 * before the tutor's classroom check: a course's existence is no secret, its figures are.
 * The first path segment after the resource is named `id` like the other routes on the same
 * prefix (the router needs one name per position); it is the course id.
 */
export const dashboardRoutes: FastifyPluginAsync<{ services: Services }> = async (
  instance,
  { services },
) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { dashboard } = services;
  const dash = { access: PERMISSIONS.dashboardRead };
  const follow = { access: PERMISSIONS.followUpRead };
  const tags = ['dashboard'];

  // Estadística's whole course in one answer (this product's client; the routes below stay for the original's).
  app.get(
    '/dashboard/courses/:id',
    { config: dash, schema: { tags, params: idParams } },
    async (request) => ok(await dashboard.courseOverview(request.params.id)),
  );

  // Bare integers: the body is the count itself.
  const counts: Record<string, TicketCount> = {
    total: 'total',
    'last-day': 'today',
    open: 'open',
    close: 'closed',
  };
  for (const [segment, kind] of Object.entries(counts)) {
    app.get(
      `/tickets/:id/${segment}/count`,
      { config: dash, schema: { tags, params: idParams } },
      async (request, reply) =>
        reply
          .type('application/json')
          .send(JSON.stringify(await dashboard.ticketCount(request.params.id, kind))),
    );
  }

  const catalogueCharts: Record<string, TicketDimension> = {
    'source-chart': 'source',
    'type-chart': 'type',
    'priority-chart': 'priority',
    'status-chart': 'status',
  };
  for (const [segment, dimension] of Object.entries(catalogueCharts)) {
    app.get(
      `/tickets/:id/${segment}`,
      { config: dash, schema: { tags, params: idParams } },
      async (request) => chart(await dashboard.catalogueChart(request.params.id, dimension)),
    );
  }
  app.get(
    '/tickets/:id/motive-chart',
    { config: dash, schema: { tags, params: idParams } },
    async (request) => chart(await dashboard.motiveChart(request.params.id)),
  );
  app.get(
    '/tickets/:id/age-chart',
    { config: dash, schema: { tags, params: idParams } },
    async (request) => chart(await dashboard.ageChart(request.params.id)),
  );
  app.get(
    '/tickets/:id/status-operator-chart',
    { config: dash, schema: { tags, params: idParams } },
    async (request) => chart(await dashboard.statusOperatorChart(request.params.id)),
  );
  app.get(
    '/tickets/:id/status-motive-chart',
    { config: dash, schema: { tags, params: idParams } },
    async (request) => chart(await dashboard.statusMotiveChart(request.params.id)),
  );

  // Enrolled students of a course (the dashboard: an unknown course is an empty one, see DashboardService.wholeCourse).
  const base = '/course-registered-users/:id';
  app.get(
    `${base}/status/count`,
    { config: dash, schema: { tags, params: idParams } },
    async (request) => chart(await dashboard.statusChart(dashboard.wholeCourse(request.params.id))),
  );
  app.get(
    `${base}/logged-time/count`,
    { config: dash, schema: { tags, params: idParams } },
    async (request) =>
      chart(await dashboard.loggedTimeChart(dashboard.wholeCourse(request.params.id))),
  );
  app.get(
    `${base}/follow-student-card`,
    { config: dash, schema: { tags, params: idParams } },
    async (request) => ok(await dashboard.card(dashboard.wholeCourse(request.params.id))),
  );
  const progress: Record<string, ProgressKind> = {
    'progress-chart': 'graded',
    'progress-chart-avance': 'completed',
  };
  for (const [segment, kind] of Object.entries(progress)) {
    app.get(
      `${base}/${segment}`,
      { config: dash, schema: { tags, params: idParams } },
      async (request) =>
        chart(await dashboard.progressChart(dashboard.wholeCourse(request.params.id), kind)),
    );
  }

  // Per classroom (follow-up reports).
  const room = `${base}/classrooms/:classroom`;
  app.get(
    `${room}/follow-student-classroom`,
    { config: follow, schema: { tags, params: classroomParams } },
    async (request) =>
      ok(
        await dashboard.card(
          await dashboard.scope(request.params.id, request.params.classroom, requireAuth(request)),
        ),
      ),
  );
  app.get(
    `${room}/status-user-classroom`,
    { config: follow, schema: { tags, params: classroomParams } },
    async (request) =>
      chart(
        await dashboard.statusChart(
          await dashboard.scope(request.params.id, request.params.classroom, requireAuth(request)),
        ),
      ),
  );
  app.get(
    `${room}/logged-time-classroom`,
    { config: follow, schema: { tags, params: classroomParams } },
    async (request) =>
      chart(
        await dashboard.loggedTimeChart(
          await dashboard.scope(request.params.id, request.params.classroom, requireAuth(request)),
        ),
      ),
  );
  app.get(
    `${room}/progress-classroom-chart`,
    { config: follow, schema: { tags, params: classroomParams } },
    async (request) =>
      chart(
        await dashboard.progressChart(
          await dashboard.scope(request.params.id, request.params.classroom, requireAuth(request)),
          'graded',
        ),
      ),
  );
  const activityProgress: Record<string, ProgressKind> = {
    'progress-activities': 'graded',
    'progress-activities-avance': 'completed',
  };
  for (const [segment, kind] of Object.entries(activityProgress)) {
    app.get(
      `${room}/sections/:section/${segment}`,
      { config: follow, schema: { tags, params: sectionParams } },
      async (request) => {
        const scope = await dashboard.scope(
          request.params.id,
          request.params.classroom,
          requireAuth(request),
        );
        return chart(await dashboard.activityProgressChart(scope, request.params.section, kind));
      },
    );
  }

  // Each student's state and grade on chosen activities.
  // The whole list (the original's answer) or, with `page`, one page of it and its place.
  app.get(
    '/activities/:id/course-registered-users/:course',
    { config: follow, schema: { tags, params: activitiesParams, querystring: pageQuery } },
    async (request, reply) => {
      const { page, perPage = DEFAULT_STUDENTS_PER_PAGE } = request.query;
      const { course, id } = request.params;
      const actor = requireAuth(request);
      if (page)
        return ok(await dashboard.studentsOnActivities(course, id, actor, { page, perPage }));
      // The whole list is kept serialised until a row it shows changes (answers/cache.ts); access is checked first, every time.
      await dashboard.scope(course, undefined, actor);
      return sendKept(request, reply, services.answers, course, 'dashboard.activityStudents');
    },
  );
};
