import type {
  AttemptDirection,
  AttemptMedium,
  Collection,
  Envelope,
  Resource,
  TicketDetailProperties,
  TicketLockProperties,
  TicketProperties,
  TicketStatusFilter,
  StudentOnActivities,
} from '@sigaf/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ServerPage } from '../../components/ServerDataGrid';
import {
  API_BASE_URL,
  buildHeaders,
  download,
  getData,
  request,
  tokenStore,
  type QueryValue,
} from '../../lib/api';
import { props } from '../../lib/collection';

/** Calls of the ticket screens (docs/development/screens.md#ticket, #manage-ticket, #unlock); the server's routes are in apps/server/src/modules/tickets. */

export type Ticket = TicketProperties;
export type TicketDetail = TicketDetailProperties;
export type TicketLock = TicketLockProperties;

/** A catalogue value: behaviour hangs on `key`, never on the description. */
export interface Option {
  id: number;
  description: string;
  key: string | null;
}

export { useOperators, type Operator } from '../../lib/operators';

export const CATALOGUE_PATHS = {
  status: 'status-tickets',
  type: 'type-tickets',
  priority: 'priority-tickets',
  source: 'source-tickets',
  motive: 'motive-tickets',
  detail: 'status-detail-tickets',
  classroom: 'classrooms',
} as const;
export type CatalogueName = keyof typeof CATALOGUE_PATHS;

export function useCatalogue(name: CatalogueName) {
  return useQuery({
    queryKey: ['ticket-options', name],
    queryFn: async () =>
      props(await getData<Collection<Option>>(`/api/v2/${CATALOGUE_PATHS[name]}`)).map(
        ({ id, description, key }) => ({ id, description, key }),
      ),
    staleTime: 5 * 60_000,
  });
}

// ---------------------------------------------------------------------------------------------
// Lists

/** The list filters the screen sends; the same object is the export query and a saved preset. */
export interface TicketFilterValues {
  status: TicketStatusFilter;
  priority_ticket_id?: number;
  type_ticket_id?: number;
  motive_ticket_id?: number;
  source_ticket_id?: number;
  user_assigned_id?: number;
  classroom_id?: number;
  /** yyyy-mm-dd */
  from?: string;
  to?: string;
  search?: string;
}

export interface TicketListParams extends ServerPage {
  courseId?: number;
  filters: TicketFilterValues;
}

export const filterQuery = (
  filters: TicketFilterValues,
  courseId?: number,
): Record<string, QueryValue> => ({ ...filters, course_id: courseId });

export function useTicketList(params: TicketListParams) {
  return useQuery({
    queryKey: ['tickets', 'list', params],
    queryFn: async () => {
      const data = await getData<Collection<Ticket>>('/api/v2/tickets', {
        query: {
          ...filterQuery(params.filters, params.courseId),
          page: params.page,
          perPage: params.perPage,
          sort: params.sort ?? 'createdAt',
          order: params.order ?? 'desc',
          // Without the original client's raw attempts and Moodle results (the table does not show them).
          compact: true,
        },
      });
      return { rows: props(data), total: data.meta?.total ?? data.numberOfElements };
    },
    placeholderData: keepPreviousData,
  });
}

/** Every ticket of one enrolment, all statuses (the student's history). */
export function useEnrolmentTickets(enrolmentId: number | undefined) {
  return useQuery({
    queryKey: ['tickets', 'history', enrolmentId],
    enabled: Boolean(enrolmentId),
    queryFn: async () =>
      props(
        await getData<Collection<Ticket>>(`/api/v2/course-registered-user/${enrolmentId}/tickets`, {
          query: { page: 1, perPage: 100, compact: true },
        }),
      ),
  });
}

export const exportTickets = (filters: TicketFilterValues, courseId?: number) =>
  download('/api/v2/tickets/export', filterQuery(filters, courseId), 'tickets.xlsx');

// ---------------------------------------------------------------------------------------------
// One ticket, its attempts and its edit lock

export async function fetchTicket(
  id: number,
): Promise<{ ticket: Ticket; details: TicketDetail[] }> {
  const data = await getData<Resource<Ticket>>(`/api/v2/tickets/${id}`);
  const rel = 'collection' in data.relationships ? data.relationships.collection : undefined;
  const items = (Array.isArray(rel) ? rel : (rel?.data ?? [])) as Array<Resource<TicketDetail>>;
  return { ticket: data.properties, details: items.map((d) => d.properties) };
}

const ids = (list: number[]) => encodeURIComponent(JSON.stringify(list));
const DELETE = { method: 'DELETE', body: {} } as const;

/** Takes (or renews) the caller's edit lock; 409 with "bloqueado por X desde las HH:mm" when someone else holds it. */
export const takeLock = (ticketId: number) =>
  request<Envelope<Resource<TicketLock>>>('/api/v2/log-editing-tickets', {
    method: 'POST',
    body: { ticket_id: ticketId },
  });
export const releaseLock = (lockId: number) =>
  request<Envelope<null>>(`/api/v2/log-editing-tickets/${lockId}`, DELETE);
export const releaseLocks = (lockIds: number[]) =>
  request<Envelope<{ deleted: number[]; notFound: number[] }>>(
    `/api/v2/log-editing-tickets/multiple/${ids(lockIds)}`,
    DELETE,
  );

export interface TicketUpdateBody {
  version: number;
  status_ticket_id?: number;
  priority_ticket_id?: number;
  user_assigned_id?: number | null;
  type_ticket_id?: number;
  source_ticket_id?: number;
  motive_ticket_id?: number;
}
export const updateTicket = (id: number, body: TicketUpdateBody) =>
  request<Envelope<Resource<Ticket>>>(`/api/v2/tickets/${id}`, {
    method: 'PUT',
    body: { ticket_id: id, ...body },
  });

export interface TicketOptionsBody {
  source_ticket_id: number;
  type_ticket_id: number;
  motive_ticket_id: number;
  priority_ticket_id: number;
  status_ticket_id: number;
  user_assigned_id: number;
}
export interface AttemptBody {
  status_detail_ticket_id: number;
  comment: string;
  /** How the contact was made, when known (a call or WhatsApp message started from SIGAF). */
  medium?: AttemptMedium;
  direction?: AttemptDirection;
}

export const createTicket = (enrolmentId: number, body: TicketOptionsBody) =>
  request<Envelope<Resource<Ticket>>>('/api/v2/tickets', {
    method: 'POST',
    body: { ...body, course_registered_user_id: enrolmentId },
  });
/** The server answers an array of tickets (as the original client reads it); the screens read it as a collection. */
export const createTickets = async (
  enrolmentIds: number[],
  body: TicketOptionsBody,
): Promise<Envelope<{ collections: Array<Resource<Ticket>> }>> => {
  const res = await request<Envelope<Array<Resource<Ticket>>>>('/api/v2/tickets/multiple', {
    method: 'POST',
    body: { ...body, course_registered_user_id: enrolmentIds },
  });
  return { ...res, _data: { collections: res._data } };
};
export const addAttempt = (ticketId: number, body: AttemptBody) =>
  request<Envelope<Resource<TicketDetail>>>('/api/v2/ticket-details', {
    method: 'POST',
    body: { ...body, ticket_id: ticketId },
  });
export const addAttempts = (ticketIds: number[], body: AttemptBody) =>
  request<Envelope<Collection<TicketDetail>>>('/api/v2/ticket-details/multiple', {
    method: 'POST',
    body: { ...body, ticket_id: ticketIds },
  });
export const deleteAttempt = (id: number) =>
  request<Envelope<null>>(`/api/v2/ticket-details/${id}`, DELETE);

export interface Refused {
  id: number;
  reason: string;
}
export type BulkAction = { action: 'close' } | { action: 'assign'; user_assigned_id: number };
export const bulkTickets = (ticketIds: number[], action: BulkAction) =>
  request<Envelope<{ updated: number[]; refused: Refused[] }>>('/api/v2/tickets/bulk', {
    method: 'POST',
    body: { ids: ticketIds, ...action },
  });
export const deleteTicket = (id: number) =>
  request<Envelope<null>>(`/api/v2/tickets/${id}`, DELETE);
/** Deletes the tickets the rules allow (`partial`); the others come back in `refused` with the reason. */
export const deleteTickets = (ticketIds: number[]) =>
  request<Envelope<{ deleted: number[]; refused: Refused[] }>>(
    `/api/v2/tickets/multiple/${ids(ticketIds)}`,
    { ...DELETE, query: { partial: 1 } },
  );

/** Active edit locks (Desbloqueo ticket). */
export function useLocks(page: number, perPage: number) {
  return useQuery({
    queryKey: ['tickets', 'locks', page, perPage],
    queryFn: async () => {
      const data = await getData<Collection<TicketLock>>('/api/v2/log-editing-tickets', {
        query: { page, perPage },
      });
      return { rows: props(data), total: data.meta?.total ?? data.numberOfElements };
    },
    placeholderData: keepPreviousData,
  });
}

// ---------------------------------------------------------------------------------------------
// Students and enrolments

/** A student's contact data, as a ticket carries it (and the RUT lookup answers). */
export type StudentContact = TicketProperties['courseRegisteredUser']['registeredUser'];

/** What the student card shows: an enrolment (a ticket's, or one found by RUT). */
export type EnrolmentInfo = Pick<
  TicketProperties['courseRegisteredUser'],
  'id' | 'classroom' | 'lastAccess' | 'lastAccessText' | 'registeredUser'
>;

export const studentByRut = (rut: string) =>
  getData<Resource<StudentContact>>(`/api/v2/registered-user/${encodeURIComponent(rut)}`);
export const enrolmentOf = (studentId: number, courseId: number) =>
  getData<Resource<EnrolmentInfo>>(
    `/api/v2/course-registered-user/${studentId}/courses/${courseId}`,
  );

/** One page of a course's students (the massive picker). */
export function useCourseStudents(courseId: number, page: number, perPage: number, search: string) {
  return useQuery({
    queryKey: ['tickets', 'course-students', courseId, page, perPage, search],
    queryFn: async () => {
      // A Laravel paginator of raw enrolments, each carrying its `properties`.
      const data = await getData<{ data: Array<Resource<EnrolmentInfo>>; total: number }>(
        `/api/v2/course-registered-user/${courseId}/users`,
        {
          query: { page, perPage, search, profile: 'student' },
        },
      );
      return { rows: data.data.map((r) => r.properties), total: data.total };
    },
    placeholderData: keepPreviousData,
  });
}

export type StudentContactBody = Partial<
  Record<'name' | 'last_name' | 'mother_last_name' | 'email' | 'mobile' | 'phone', string>
>;
export const updateStudentContact = (studentId: number, body: StudentContactBody) =>
  request<Envelope<Resource<StudentContact>>>(`/api/v2/registered-users/${studentId}/view-update`, {
    method: 'PUT',
    body,
  });

// ---------------------------------------------------------------------------------------------
// Saved filters

export interface FilterPreset {
  id: number;
  name: string;
  filters: Partial<TicketFilterValues>;
}

export function usePresets() {
  return useQuery({
    queryKey: ['tickets', 'presets'],
    queryFn: async () => props(await getData<Collection<FilterPreset>>('/api/v2/ticket-filters')),
  });
}
export const savePreset = (name: string, filters: TicketFilterValues) =>
  request<Envelope<Resource<FilterPreset>>>('/api/v2/ticket-filters', {
    method: 'POST',
    body: { name, filters },
  });
export const deletePreset = (id: number) =>
  request<Envelope<null>>(`/api/v2/ticket-filters/${id}`, DELETE);

/** Frees a lock while the page goes away (tab closed, reload): a request that outlives the page. */
export function releaseLockOnExit(lockId: number) {
  void fetch(`${API_BASE_URL}/api/v2/log-editing-tickets/${lockId}`, {
    method: 'DELETE',
    keepalive: true,
    headers: buildHeaders(tokenStore.get()),
    body: '{}',
  }).catch(() => undefined);
}

// ---------------------------------------------------------------------------------------------
// Masivo recipients (docs/development/screens.md#massive-tickets): the whole course, filtered on screen

/** Every student of the course (the massive picker filters them on screen). */
export function useAllCourseStudents(courseId: number) {
  return useQuery({
    queryKey: ['tickets', 'course-students', courseId, 'all'],
    queryFn: async () => {
      // A list of enrolment resources, or a collection of them.
      const data = await getData<Collection<EnrolmentInfo> | Array<{ properties: EnrolmentInfo }>>(
        `/api/v2/course-registered-user/${courseId}/users/all`,
        { query: { profile: 'student' } },
      );
      return (Array.isArray(data) ? data : data.collections).map((r) => r.properties);
    },
  });
}

export interface CourseActivity {
  id: number;
  description: string;
  idActivityMoodle: number | null;
}
/** A section of the course with its activities. */
export interface CourseSection {
  id: number | null;
  description: string;
  key: string | null;
  activities: CourseActivity[];
}

/** The course's activities grouped by section. */
export function useCourseSections(courseId: number) {
  return useQuery({
    queryKey: ['tickets', 'course-sections', courseId],
    queryFn: async () =>
      (
        await getData<Collection<Omit<CourseSection, 'activities'>>>(
          `/api/v2/courses/${courseId}/activities`,
        )
      ).collections.map((c): CourseSection => ({
        ...c.properties,
        activities: (
          (c.relationships as { array?: Array<{ properties: CourseActivity }> }).array ?? []
        ).map(({ properties: a }) => ({
          id: a.id,
          description: a.description,
          idActivityMoodle: a.idActivityMoodle,
        })),
      })),
    staleTime: 60_000,
  });
}

/** Each student's state on the chosen activities (local ids), with their test form and withdrawal state. */
export const studentsOnActivities = (courseId: number, activityIds: number[]) =>
  getData<StudentOnActivities[]>(
    `/api/v2/activities/${ids(activityIds)}/course-registered-users/${courseId}`,
  );
