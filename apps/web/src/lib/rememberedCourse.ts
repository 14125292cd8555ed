import type { Resource } from '@sigaf/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from './session';
import { getData, request } from './api';
import { readPref, writePref } from './storage';

/**
 * The current course: one course for every page with a course selector (Estadística, Ticket,
 * Seguimiento, the reports, the student and activity pages), remembered per person on the server
 * (GET/PUT /api/v2/me/current-course), so it follows them from page to page and device to
 * device. The last one known is kept in this browser too, so a page draws it at once.
 */
const LOCAL_KEY = 'sigaf.currentCourse';

/** A course as the course pickers list it and as it is remembered. */
export interface CourseOption {
  id: number;
  description: string;
  idCourseMoodle: number | null;
  lastSyncAt: string | null;
  category: { id: number; description: string; categoryCode: string };
}

export const CURRENT_COURSE_QUERY = ['me', 'current-course'] as const;

interface LocalCopy {
  userId: number;
  course: CourseOption;
}

const isCourse = (c: unknown): c is CourseOption =>
  Boolean(c && typeof (c as CourseOption).id === 'number' && (c as CourseOption).category);

/** The current course last seen in this browser (of `userId` when given), if any. */
export function readRememberedCourse(userId?: number): CourseOption | null {
  try {
    const raw = readPref(LOCAL_KEY);
    const parsed = raw ? (JSON.parse(raw) as LocalCopy) : null;
    if (!parsed || !isCourse(parsed.course) || (userId !== undefined && parsed.userId !== userId))
      return null;
    return parsed.course;
  } catch {
    return null;
  }
}

function keepLocal(userId: number | undefined, course: CourseOption | null) {
  if (userId !== undefined)
    writePref(LOCAL_KEY, course ? JSON.stringify({ userId, course } satisfies LocalCopy) : '');
}

/** The current course and how to change it (for this page and every other one). */
export function useCurrentCourse(): [
  CourseOption | null,
  (course: CourseOption | { id: number } | null) => void,
] {
  const queryClient = useQueryClient();
  const userId = useSession().user?.id;
  const current = useQuery({
    queryKey: [...CURRENT_COURSE_QUERY, userId],
    enabled: userId !== undefined,
    queryFn: async () => {
      const answer = await getData<Resource<CourseOption> | null>('/api/v2/me/current-course');
      const course = answer && isCourse(answer.properties) ? answer.properties : null;
      keepLocal(userId, course);
      return course;
    },
    placeholderData: () => readRememberedCourse(userId),
    staleTime: 30_000,
  });
  /** A course known by its id only (a page with its own course list) is read back from the server. */
  const choose = (course: CourseOption | { id: number } | null) => {
    const full = course === null || isCourse(course) ? course : null;
    if (full !== null || course === null) {
      // A read under way must not bring back the course this replaces.
      void queryClient.cancelQueries({ queryKey: CURRENT_COURSE_QUERY });
      queryClient.setQueryData([...CURRENT_COURSE_QUERY, userId], full);
      keepLocal(userId, full);
    }
    void request('/api/v2/me/current-course', {
      method: 'PUT',
      body: { course_id: course?.id ?? null },
    })
      .then(() =>
        full === null && course !== null
          ? queryClient.invalidateQueries({ queryKey: CURRENT_COURSE_QUERY })
          : undefined,
      )
      .catch(() => undefined);
  };
  return [current.data ?? null, choose];
}
