import { chartQuery } from '../../components/charts/useChart';
import { queryClient } from '../../lib/queryClient';
import { readRememberedCourse } from '../../lib/rememberedCourse';
import type { CourseOverview } from '@sigaf/contract';
import { getData } from '../../lib/api';
import { followCardQuery, ticketCountQuery, type TicketCountKind } from './api';

/** The API paths of a course's charts and student card. */
export function coursePaths(courseId: number) {
  const tk = `/api/v2/tickets/${courseId}`;
  const cru = `/api/v2/course-registered-users/${courseId}`;
  return {
    card: `${cru}/follow-student-card`,
    charts: {
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
    },
  };
}

const COUNT_KINDS: readonly TicketCountKind[] = ['last-day', 'total', 'open', 'close'];

/**
 * The course's whole Estadística in one call (GET /api/v2/dashboard/courses/:id), its parts put
 * in the data cache under the keys each count, card and chart reads, so none of them asks again.
 */
export const overviewQuery = (courseId: number) => ({
  queryKey: ['dashboard', 'overview', courseId],
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    const overview = await getData<CourseOverview>(`/api/v2/dashboard/courses/${courseId}`, {
      signal,
    });
    const paths = coursePaths(courseId);
    for (const kind of COUNT_KINDS)
      queryClient.setQueryData(ticketCountQuery(courseId, kind).queryKey, overview.counts[kind]);
    queryClient.setQueryData(followCardQuery(paths.card).queryKey, overview.card);
    for (const [key, path] of Object.entries(paths.charts))
      queryClient.setQueryData(
        chartQuery(path).queryKey,
        overview.charts[key as keyof CourseOverview['charts']],
      );
    return true;
  },
  staleTime: 30_000,
});

/**
 * Asks for the current course's figures (as last seen in this browser) when the page is opened
 * on the dashboard with a stored token, while the session is checked and the screen's code loads:
 * the same call the screen makes, so it finds its answer in the data cache or on its way.
 */
export function prefetch() {
  const course = readRememberedCourse();
  if (course) void queryClient.prefetchQuery(overviewQuery(course.id));
}
