import { z } from 'zod';
import { listQuery } from '../../http/params.js';
import type { EnrolmentService } from './service.js';

/** The query of a course's enrolments (Seguimiento's pages, every enrolment, Gestión de estudiantes). */
export const courseUsersQuery = listQuery.extend({
  classroom_id: z.coerce.number().int().positive().optional(),
  unassigned: z.enum(['0', '1', 'true', 'false']).optional(),
  profile: z.string().max(40).optional(),
});
export type CourseUsersQuery = z.infer<typeof courseUsersQuery>;

/** A course's enrolments, a page (15 unless asked otherwise: Laravel's default, which the original's paginator used) or `all`. */
export const listCourseUsers = (
  enrolments: EnrolmentService,
  courseId: number,
  q: CourseUsersQuery,
  all: boolean,
  classroomIds?: number[],
) =>
  enrolments.list({
    ...q,
    classroomIds,
    page: all ? undefined : (q.page ?? 1),
    perPage: q.perPage ?? 15,
    courseId,
    classroomId: q.classroom_id,
    unassigned: q.unassigned === '1' || q.unassigned === 'true',
    profileKey: q.profile,
  });
