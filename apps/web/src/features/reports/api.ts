import {
  dayRangeText,
  type Collection,
  type FollowStudentCard,
  type StudentTicketEntry,
  type StudentTicketsPage,
  type TicketRangeReport,
} from '@sigaf/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { download, getData } from '../../lib/api';

/** Calls of the report screens (docs/development/screens.md#reports); the server's routes are in apps/server/src/modules/reports and dashboard. */

const reports = (courseId: number) => `/api/v2/reports/courses/${courseId}`;

/** The ticket report's figures over a range of days (`yyyy-mm-dd`, both included, in order). */
export function useRangeReport(courseId: number, from: string, to: string) {
  return useQuery({
    queryKey: ['reports', 'range', courseId, from, to],
    queryFn: () =>
      getData<TicketRangeReport>(`${reports(courseId)}/range`, { query: { from, to } }),
    placeholderData: keepPreviousData,
  });
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
  /** The tickets created in the range; the server names the file after the course and the range. */
  ticketHistory: (courseId: number, from: string, to: string) =>
    download(
      `${reports(courseId)}/excel-download`,
      { from, to },
      `reporte-historico-tickets-${dayRangeText(from, to)}.xlsx`,
    ),
  ticketRangePdf: (courseId: number, from: string, to: string) =>
    download(
      `${reports(courseId)}/pdf/ticket`,
      { from, to },
      `reporte-ticket-${dayRangeText(from, to)}.pdf`,
    ),
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
