import type {
  ChartData,
  Collection,
  DailyTicketCard,
  DailyTicketCharts,
  FollowStudentCard,
  OperatorDayRow,
  StudentTicketEntry,
  StudentTicketsPage,
} from '@sigaf/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { download, getData } from '../../lib/api';

/** Calls of the report screens (docs/development/screens.md#reports); the server's routes are in apps/server/src/modules/reports and dashboard. */

const reports = (courseId: number) => `/api/v2/reports/courses/${courseId}`;

/** One day's figures of the ticket report; `day` is yyyy-mm-dd. */
export function useDayReport(courseId: number, day: string | null) {
  const enabled = day !== null;
  const card = useQuery({
    queryKey: ['reports', 'day', courseId, day, 'card'],
    enabled,
    queryFn: () => getData<DailyTicketCard>(`${reports(courseId)}/data-card/${day}`),
  });
  const charts = useQuery({
    queryKey: ['reports', 'day', courseId, day, 'charts'],
    enabled,
    queryFn: () => getData<DailyTicketCharts>(`${reports(courseId)}/type-ticket/${day}`),
  });
  const operators = useQuery({
    queryKey: ['reports', 'day', courseId, day, 'operators'],
    enabled,
    queryFn: () =>
      getData<{ table: OperatorDayRow[]; chartData: ChartData }>(
        `${reports(courseId)}/table-operator/${day}`,
      ),
  });
  return { card, charts, operators };
}

export function useStudentTickets(courseId: number, search: string, page: number) {
  return useQuery({
    queryKey: ['reports', 'student-tickets', courseId, search, page],
    queryFn: () =>
      getData<StudentTicketsPage>(`${reports(courseId)}/student-tickets`, {
        query: { search, page },
      }),
    placeholderData: keepPreviousData,
  });
}

/** One student's tickets with their attempts, read when the student is opened. */
export function useStudentTicketsOf(courseId: number, enrolmentId: number) {
  return useQuery({
    queryKey: ['reports', 'student-tickets', courseId, 'student', enrolmentId],
    queryFn: () =>
      getData<StudentTicketEntry[]>(`${reports(courseId)}/student-tickets/${enrolmentId}`),
  });
}

export interface ClassroomCount {
  classroomId: number | null;
  classroom: string | null;
  count: number;
}

export function useCourseClassrooms(courseId: number | undefined) {
  return useQuery({
    queryKey: ['reports', 'classrooms', courseId],
    enabled: courseId !== undefined,
    queryFn: async () =>
      (await getData<ClassroomCount[]>(`/api/v2/courses/${courseId}/classrooms`))
        .filter(
          (c): c is ClassroomCount & { classroomId: number; classroom: string } =>
            c.classroomId !== null && c.classroom !== null,
        )
        .sort((a, b) => a.classroom.localeCompare(b.classroom, 'es', { numeric: true })),
  });
}

export interface CourseSection {
  id: number | null;
  description: string;
  key: string | null;
}

/** The course's sections that have activities, except Formativa (as the original) and Renuncia (nothing to progress on). */
export function useCourseSections(courseId: number) {
  return useQuery({
    queryKey: ['reports', 'sections', courseId],
    queryFn: async () =>
      (
        await getData<Collection<CourseSection>>(`/api/v2/courses/${courseId}/activities`)
      ).collections
        .map((c) => c.properties)
        .filter(
          (s): s is CourseSection & { id: number } =>
            s.id !== null && s.key !== 'formative' && s.key !== 'resign',
        ),
  });
}

export function useClassroomCard(courseId: number, classroomId: number | null) {
  return useQuery({
    queryKey: ['reports', 'classroom-card', courseId, classroomId],
    enabled: classroomId !== null,
    queryFn: () =>
      getData<FollowStudentCard>(
        `/api/v2/course-registered-users/${courseId}/classrooms/${classroomId}/follow-student-classroom`,
      ),
  });
}

export const exports = {
  ticketHistory: (courseId: number) =>
    download(`${reports(courseId)}/excel-download`, undefined, 'reporte-historico-tickets.xlsx'),
  ticketDayPdf: (courseId: number, day: string) =>
    download(`${reports(courseId)}/pdf/ticket/${day}`, undefined, `reporte-ticket-${day}.pdf`),
  studentTickets: (courseId: number, search: string) =>
    download(`${reports(courseId)}/student-tickets/excel`, { search }, 'tickets-por-alumno.xlsx'),
  studentTicketsPdf: (courseId: number, search: string) =>
    download(`${reports(courseId)}/pdf/student-tickets`, { search }, 'tickets-por-alumno.pdf'),
  roster: (courseId: number, classroomId?: number) =>
    download(`${reports(courseId)}/roster`, { classroom: classroomId }, 'nomina.xlsx'),
  followStudentPdf: (courseId: number, classroomId: number) =>
    download(
      `${reports(courseId)}/pdf/follow-student/${classroomId}`,
      undefined,
      'seguimiento.pdf',
    ),
};
