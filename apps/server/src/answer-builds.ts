import { STUDENT_TICKETS_PER_PAGE, type TicketListQuery } from '@sigaf/contract';
import { requireAuth } from './http/auth.js';
import { ok } from './http/envelope.js';
import { ReportRepository } from './modules/reports/repository.js';
import { ReportService } from './modules/reports/service.js';
import { listCourseUsers, type CourseUsersQuery } from './modules/students/lists.js';
import { presentRawEnrolments } from './modules/students/presenter.js';
import { keptTickets } from './modules/tickets/lists.js';
import type { BuildRequest } from './modules/answers/build.js';
import type { Build } from './modules/answers/builders.js';

/**
 * The answers kept serialised (modules/answers/cache.ts), each built by name from a request
 * described as data, so that the same build runs on the server's thread or on the thread that
 * builds answers (modules/answers/builders.ts). Each route has checked access before asking.
 *
 * The list names pieces of several modules (tickets, students, dashboard, reports), which in turn
 * send their answers through the answers module: it is assembled here, beside services.ts, and
 * handed to the builders, so that the answers module imports none of them.
 */
type With<P, Q = unknown> = BuildRequest & { params: P; query: Q };

export const BUILDS = {
  /** The original client's Ticket screen "Buscar": the course's every ticket with its attempts and results. */
  'tickets.course': (services, request) => {
    const { params, query } = request as With<{ id: number }, TicketListQuery>;
    return keptTickets(services, request, 'course', query, { course_id: params.id });
  },
  /** A student's history in a course, whole: every ticket about the enrolment, the attempts of those the caller may work. */
  'tickets.enrolment': (services, request) => {
    const { params, query } = request as With<{ id: number }, TicketListQuery>;
    return keptTickets(services, request, 'search', query, { enrolmentId: params.id }, false);
  },
  /** A course's every enrolment, raw, as an array. */
  'enrolments.course': async (services, request) => {
    const { params, query } = request as With<{ id: number }, CourseUsersQuery>;
    const { rows } = await listCourseUsers(services.enrolments, params.id, query, true);
    return { value: ok(await presentRawEnrolments(request, services.enrolments, rows)) };
  },
  /** Each student's state and grade on chosen activities, with the raw enrolments of those with one pending. */
  'dashboard.activityStudents': async (services, request) => {
    const { params } = request as With<{ id: number[]; course: number }>;
    const students = await services.dashboard.studentsOnActivities(
      params.course,
      params.id,
      requireAuth(request),
    );
    // The original client reads the raw enrolments of the students with a pending activity at the top level (docs/development/original-api.md#activities).
    const pending = await presentRawEnrolments(
      request,
      services.enrolments,
      await services.enrolments.pendingOn(students),
    );
    return { value: { ...ok(students), usersWithPendingActivities: pending } };
  },
  /** A page of the per-student report, sorted by name over the course's students with tickets. */
  'reports.studentTickets': async (services, request) => {
    const { params, query } = request as With<
      { id: number },
      { search?: string; page?: number; perPage?: number }
    >;
    const reports = new ReportService(new ReportRepository(services.db), services.dashboard);
    return {
      value: ok(
        await reports.studentTicketsPage(
          params.id,
          query.search,
          query.page ?? 1,
          query.perPage ?? STUDENT_TICKETS_PER_PAGE,
        ),
      ),
    };
  },
} satisfies Record<string, Build>;

export type BuildName = keyof typeof BUILDS;
