import { chartQuery } from '../../components/charts/useChart';
import { queryClient } from '../../lib/queryClient';
import { readRememberedCourse } from '../../lib/rememberedCourse';
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
 * Asks for the current course's figures (as last seen in this browser) when the page is opened on the dashboard with a
 * stored token, while the session is checked and the screen's code loads: the same calls the
 * screen makes, so it finds their answers in the data cache or on their way.
 */
export function prefetch() {
  const course = readRememberedCourse();
  if (!course) return;
  const paths = coursePaths(course.id);
  for (const kind of COUNT_KINDS) void queryClient.prefetchQuery(ticketCountQuery(course.id, kind));
  void queryClient.prefetchQuery(followCardQuery(paths.card));
  for (const path of Object.values(paths.charts)) void queryClient.prefetchQuery(chartQuery(path));
}
