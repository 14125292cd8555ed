import type {
  ClassroomTutors,
  Collection,
  Envelope,
  FollowStudentCard,
  FollowUpClassroom,
  FollowUpCourse,
  FollowUpMailPreview,
  FollowUpMailResult,
  FollowUpStatus,
  FollowUpStudent,
  FollowUpStudentDetail,
  TicketProperties,
} from '@sigaf/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { download, getData, request, sendOnce, type QueryValue } from '../../lib/api';

/** Calls of the Seguimiento screen; the server's routes are in apps/server/src/modules/follow-up. */

/** The table's filters as the screen keeps them (the API's parameter names). */
export interface FollowUpFilterValues {
  search?: string;
  classroom_id?: number;
  status?: FollowUpStatus;
  inactive_days?: number;
  progress_below?: number;
  open_tickets?: boolean;
}

export interface TablePage {
  page: number;
  perPage: number;
  sort?: string;
  order?: 'asc' | 'desc';
}

const props = <P>(c: Collection<P>) => c.collections.map((r) => r.properties);

export function useFollowUpCourses() {
  return useQuery({
    queryKey: ['follow-up', 'courses'],
    queryFn: async () =>
      props(await getData<Collection<FollowUpCourse>>('/api/v2/follow-up/courses')),
    staleTime: 60_000,
  });
}

export function useFollowUpClassrooms(courseId: number | null) {
  return useQuery({
    queryKey: ['follow-up', 'classrooms', courseId],
    enabled: courseId !== null,
    queryFn: async () =>
      props(
        await getData<Collection<FollowUpClassroom>>(
          `/api/v2/follow-up/courses/${courseId}/classrooms`,
        ),
      ),
    staleTime: 60_000,
  });
}

const query = (filters: FollowUpFilterValues, page?: TablePage): Record<string, QueryValue> => ({
  ...filters,
  ...page,
});

export function useFollowUpStudents(
  courseId: number,
  filters: FollowUpFilterValues,
  page: TablePage,
) {
  return useQuery({
    queryKey: ['follow-up', 'students', courseId, filters, page],
    queryFn: async ({ signal }) => {
      const data = await getData<Collection<FollowUpStudent>>(
        `/api/v2/follow-up/courses/${courseId}/students`,
        { query: query(filters, page), signal },
      );
      return { rows: props(data), total: data.meta?.total ?? data.numberOfElements };
    },
    placeholderData: keepPreviousData,
  });
}

export const exportFollowUp = (
  courseId: number,
  filters: FollowUpFilterValues,
  sort?: Pick<TablePage, 'sort' | 'order'>,
) =>
  download(
    `/api/v2/follow-up/courses/${courseId}/students/export`,
    query(filters, sort as TablePage),
    'seguimiento.xlsx',
  );

export type StudentDetail = FollowUpStudentDetail & { tickets: Collection<TicketProperties> };

export function useStudentDetail(enrolmentId: number | null) {
  return useQuery({
    queryKey: ['follow-up', 'student', enrolmentId],
    enabled: enrolmentId !== null,
    queryFn: () => getData<StudentDetail>(`/api/v2/follow-up/enrolments/${enrolmentId}`),
  });
}

export function useFollowCardAt(path: string | null) {
  return useQuery({
    queryKey: ['follow-up', 'card', path],
    enabled: path !== null,
    queryFn: ({ signal }) => getData<FollowStudentCard>(path!, { signal }),
    staleTime: 30_000,
  });
}

// Tutors of a classroom in a course (maintenance "Aula").

const tutorsPath = (courseId: number, classroomId: number) =>
  `/api/v2/courses/${courseId}/classrooms/${classroomId}/tutors`;

export function useClassroomTutors(courseId: number | null, classroomId: number) {
  return useQuery({
    queryKey: ['classroom-tutors', courseId, classroomId],
    enabled: courseId !== null,
    queryFn: () => getData<ClassroomTutors>(tutorsPath(courseId!, classroomId)),
  });
}

export const saveClassroomTutors = (courseId: number, classroomId: number, userIds: number[]) =>
  request<Envelope<ClassroomTutors>>(tutorsPath(courseId, classroomId), {
    method: 'PUT',
    body: { user_ids: userIds },
  });

// Massive mail to chosen students.

export interface FollowUpMailBody {
  subject: string;
  text: string;
  CCRecipient: string;
  files: string[];
}

export const previewFollowUpMail = (
  enrolmentIds: number[],
  body: Pick<FollowUpMailBody, 'subject' | 'text'>,
) => getDataPost<FollowUpMailPreview>('/api/v2/follow-up/mail/preview', { enrolmentIds, ...body });

export const sendFollowUpMail = (enrolmentIds: number[], body: FollowUpMailBody) =>
  sendOnce<Envelope<FollowUpMailResult>>('/api/v2/follow-up/mail', {
    body: { enrolmentIds, ...body },
  });

async function getDataPost<T>(path: string, body: unknown): Promise<T> {
  return (await request<Envelope<T>>(path, { method: 'POST', body }))._data;
}
