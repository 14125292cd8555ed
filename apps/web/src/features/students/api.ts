import type {
  Collection,
  Envelope,
  ImportRowResult,
  ImportSummary,
  Resource,
  StudentSummary,
} from '@sigaf/contract';
import { download, getData, request, upload } from '../../lib/api';

export interface StudentProps extends StudentSummary {
  phone: string | null;
  mobile: string | null;
  address: string | null;
  city: string | null;
  region: string | null;
  rbdSchool: string | null;
  nameSchool: string | null;
  citySchool: string | null;
  regionSchool: string | null;
  phoneSchool: string | null;
}

export interface EnrolmentProps {
  id: number;
  /** Never null: an enrolment without a classroom has `{ id: null, description: 'Sin aula' }`. */
  classroom: { id: number | null; description: string } | null;
  profile: { id: number; description: string; key: string | null };
  finalStatus: { id: number; description: string } | null;
  lastAccess: string | null;
  lastAccessText: string | null;
  course: { id: number; description: string };
  registeredUser: {
    id: number;
    rut: string;
    name: string;
    lastName: string;
    motherLastName: string | null;
    email: string | null;
    region: string | null;
  };
  ticketsCount: number;
}

export interface ImportResult {
  summary: ImportSummary;
  rows: ImportRowResult[];
}

export async function importStudents(file: File, courseId: number, confirm: boolean) {
  const form = new FormData();
  form.append('course_id', String(courseId));
  form.append('confirm', confirm ? '1' : '0');
  form.append('file', file);
  return upload<Envelope<ImportResult>>('/api/v2/registered-users/import', form);
}

export const downloadTemplate = (format: 'xlsx' | 'csv') =>
  download('/api/v2/registered-users/import/template', { format }, `plantilla-matricula.${format}`);
export const downloadRoster = (courseId: number) =>
  download(`/api/v2/download-file/excel/${courseId}/nomina`, undefined, 'nomina.xlsx');

/** The RUT lookup answers HTTP 200: an unknown RUT is an error with status 204, an invalid one 406 (the body's statusCode). */
export const findByRut = (rut: string) =>
  getData<{ properties: StudentProps }>(`/api/v2/registered-user/${encodeURIComponent(rut)}`);

/** Create or update a student (by id or RUT): the original's view-store. */
export const saveStudent = (body: Record<string, unknown>) =>
  request<Envelope<{ properties: StudentProps }>>('/api/v2/registered-users/view-store', {
    method: 'POST',
    body,
  });
export const updateStudent = (id: number, body: Record<string, unknown>) =>
  request<Envelope<{ properties: StudentProps }>>(`/api/v2/registered-users/${id}`, {
    method: 'PUT',
    body,
  });

export const enrol = (courseId: number, studentId: number) =>
  request<Envelope<{ properties: EnrolmentProps }>>('/api/v2/course-registered-users/view-store', {
    method: 'POST',
    body: { course_id: courseId, registered_user_id: studentId },
  });

export const removeEnrolment = (id: number) =>
  request<Envelope<null>>(`/api/v2/course-registered-users/${id}`, {
    method: 'DELETE',
    body: true,
  });

export async function studentEnrolments(studentId: number): Promise<EnrolmentProps[]> {
  return (
    await getData<Resource<EnrolmentProps>[]>(`/api/v2/course-users/${studentId}/courses`)
  ).map((c) => c.properties);
}

export interface ClassroomCount {
  classroomId: number | null;
  classroom: string | null;
  count: number;
}

export const classroomCounts = (courseId: number) =>
  getData<ClassroomCount[]>(`/api/v2/courses/${courseId}/classrooms`);

export interface EnrolmentQuery {
  page?: number;
  perPage?: number;
  search?: string;
  classroom_id?: number;
  unassigned?: string;
  sort?: string;
  order?: 'asc' | 'desc';
}

/** A page of a course's enrolments: the answer is a Laravel paginator (`data`, `total`) of raw enrolments carrying `properties`. */
export interface EnrolmentPage<P> {
  data: Array<Resource<P>>;
  total: number;
  current_page: number;
  next_page_url: string | null;
}

export async function courseEnrolments(courseId: number, q: EnrolmentQuery, all = false) {
  if (all) {
    const rows = await getData<Array<Resource<EnrolmentProps>>>(
      `/api/v2/course-registered-user/${courseId}/users/all`,
      { query: { ...q } },
    );
    return { rows: rows.map((c) => c.properties), total: rows.length };
  }
  const data = await getData<EnrolmentPage<EnrolmentProps>>(
    `/api/v2/course-registered-user/${courseId}/users`,
    { query: { ...q } },
  );
  return { rows: data.data.map((c) => c.properties), total: data.total };
}

export const assignClassroom = (classroomId: number, ids: number[], profileId?: number) =>
  request<Envelope<EnrolmentProps[]>>(
    `/api/v2/course-registered-user/classroom/${classroomId}/users`,
    {
      method: 'PUT',
      body: { courseRegisteredUsers: ids, ...(profileId ? { profile_id: profileId } : {}) },
    },
  );

export interface SplitResult {
  applied: boolean;
  total: number;
  plan: Array<{ classroomId: number; classroom: string; count: number }>;
}

export const autoSplit = (courseId: number, classroomIds: number[], confirm: boolean) =>
  request<Envelope<SplitResult>>('/api/v2/course-registered-user/classroom/auto-split', {
    method: 'POST',
    body: { course_id: courseId, classroom_ids: classroomIds, confirm },
  });

export async function searchStudents(q: {
  page: number;
  perPage: number;
  search?: string;
  sort?: string;
  order?: 'asc' | 'desc';
}) {
  const data = await getData<Collection<StudentProps>>('/api/v2/registered-users', {
    query: { ...q },
  });
  // A search counts its matches no further than SEARCH_COUNT_CAP: `capped` says there are more.
  return {
    rows: data.collections.map((c) => c.properties),
    total: data.meta?.total ?? data.numberOfElements,
    capped: Boolean(data.meta?.totalCapped),
  };
}
