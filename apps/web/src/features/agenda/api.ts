import type {
  AgendaStudent,
  AgendaTicket,
  AgendaWorkload,
  Collection,
  PageMeta,
  Reminder,
  ReminderState,
} from '@sigaf/contract';
import { REMINDER_POLL_MS } from '@sigaf/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getData, request, type QueryValue } from '../../lib/api';

/** Reminders (Recordatorios) and the agenda (Mi agenda): query and mutation hooks. */

const props = <P>(c: Collection<P>) => c.collections.map((r) => r.properties);

export interface Page<T> {
  rows: T[];
  total: number;
  meta?: PageMeta;
}

const page = <P>(c: Collection<P>): Page<P> => ({
  rows: props(c),
  total: c.meta?.total ?? c.numberOfElements,
  meta: c.meta,
});

export interface ReminderFilters {
  ticket_id?: number;
  mine?: boolean;
  user_id?: number;
  state?: ReminderState;
  due?: boolean;
  page?: number;
  perPage?: number;
  sort?: string;
  order?: 'asc' | 'desc';
}

export function useReminders(filters: ReminderFilters, enabled = true) {
  return useQuery({
    queryKey: ['reminders', 'list', filters],
    enabled,
    queryFn: async () =>
      page(
        await getData<Collection<Reminder>>('/api/v2/reminders', {
          query: filters as Record<string, QueryValue>,
        }),
      ),
  });
}

/** The app bar's badge: my pending reminders already due, asked every 30 s and when the window regains focus. */
export function useDueCount(enabled: boolean) {
  return useQuery({
    queryKey: ['reminders', 'due-count'],
    enabled,
    queryFn: async () => (await getData<{ count: number }>('/api/v2/reminders/due-count')).count,
    refetchInterval: REMINDER_POLL_MS,
    refetchOnWindowFocus: true,
  });
}

export interface ReminderBody {
  ticket_id?: number;
  due_at?: string;
  comment?: string;
  user_id?: number;
  state?: 'pending';
}

/** Every reminder mutation: create, edit, snooze, done, dismissed; each refreshes the lists, the badge and the agenda. */
export function useReminderAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (
      a:
        | { kind: 'create'; body: ReminderBody }
        | { kind: 'update'; id: number; body: ReminderBody }
        | { kind: 'snooze'; id: number; due_at: string }
        | { kind: 'complete' | 'dismiss'; id: number },
    ) => {
      switch (a.kind) {
        case 'create':
          return request<{ message: string }>('/api/v2/reminders', {
            method: 'POST',
            body: a.body,
          });
        case 'update':
          return request<{ message: string }>(`/api/v2/reminders/${a.id}`, {
            method: 'PUT',
            body: a.body,
          });
        case 'snooze':
          return request<{ message: string }>(`/api/v2/reminders/${a.id}/snooze`, {
            method: 'POST',
            body: { due_at: a.due_at },
          });
        default:
          return request<{ message: string }>(`/api/v2/reminders/${a.id}/${a.kind}`, {
            method: 'POST',
            body: {},
          });
      }
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['reminders'] });
      void queryClient.invalidateQueries({ queryKey: ['agenda'] });
    },
  });
}

export interface StaffOption {
  id: number;
  name: string;
}

/** Operators and administrators (the owner picker of a reminder, the agenda's operator picker). */
export function useStaff(enabled: boolean) {
  return useQuery({
    queryKey: ['agenda', 'staff'],
    enabled,
    staleTime: 5 * 60_000,
    queryFn: async () =>
      props(
        await getData<Collection<StaffOption>>('/api/v2/users', { query: { view: 'operators' } }),
      )
        .map(({ id, name }) => ({ id, name }))
        .sort((a, b) => a.name.localeCompare(b.name, 'es')),
  });
}

// ---------------------------------------------------------------------------------------------
// The agenda

export interface AgendaParams {
  user_id?: number;
  /** Open tickets without an attempt for more than this many days. */
  days?: number;
  page: number;
  perPage: number;
  sort?: string;
  order?: 'asc' | 'desc';
  /** At-risk students with an open ticket of the agenda's operator only (what the workload table counts). */
  own_open_tickets?: boolean;
}

export function useAgendaReminders(p: AgendaParams, enabled = true) {
  return useQuery({
    queryKey: ['agenda', 'reminders', p],
    enabled,
    // Reminders fall due while the screen is open: asked as often as the app bar's badge.
    refetchInterval: REMINDER_POLL_MS,
    queryFn: async () =>
      page(
        await getData<Collection<Reminder>>('/api/v2/agenda/reminders', {
          query: p as unknown as Record<string, QueryValue>,
        }),
      ),
  });
}

export function useAgendaStudents(p: AgendaParams) {
  return useQuery({
    queryKey: ['agenda', 'students', p],
    queryFn: async () => {
      // Beside the page: the courses never synchronised with Moodle, whose students are not judged.
      const c = await getData<
        Collection<AgendaStudent> & { unsyncedCourses?: Array<{ id: number; description: string }> }
      >('/api/v2/agenda/students', { query: p as unknown as Record<string, QueryValue> });
      return { ...page(c), unsyncedCourses: c.unsyncedCourses ?? [] };
    },
  });
}

export function useAgendaTickets(p: AgendaParams, enabled = true) {
  return useQuery({
    queryKey: ['agenda', 'tickets', p],
    enabled,
    queryFn: async () =>
      page(
        await getData<Collection<AgendaTicket>>('/api/v2/agenda/tickets', {
          query: p as unknown as Record<string, QueryValue>,
        }),
      ),
  });
}

export function useWorkload(enabled: boolean) {
  return useQuery({
    queryKey: ['agenda', 'workload'],
    enabled,
    queryFn: async () => {
      const c = await getData<Collection<AgendaWorkload> & { atRiskCountedAt: string }>(
        '/api/v2/agenda/workload',
      );
      return { rows: props(c), atRiskCountedAt: c.atRiskCountedAt };
    },
  });
}

export function useReassign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { to_user_id: number; reminder_ids?: number[]; ticket_ids?: number[] }) =>
      request<{ message: string }>('/api/v2/agenda/reassign', { method: 'POST', body }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['agenda'] });
      void queryClient.invalidateQueries({ queryKey: ['reminders'] });
    },
  });
}

/** Logs a contact attempt on a ticket (the agenda's "log the attempt in place"). */
export function useLogAttempt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { ticket_id: number; status_detail_ticket_id: number; comment: string }) =>
      request<{ message: string }>('/api/v2/ticket-details', { method: 'POST', body }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['agenda'] });
      void queryClient.invalidateQueries({ queryKey: ['reminders'] });
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
    },
  });
}

export interface Option {
  id: number;
  description: string;
}

/** The contact attempt results (Intento contacto). */
export function useAttemptResults(enabled: boolean) {
  return useQuery({
    queryKey: ['agenda', 'attempt-results'],
    enabled,
    staleTime: 5 * 60_000,
    queryFn: async () =>
      props(await getData<Collection<Option>>('/api/v2/status-detail-tickets')).map(
        ({ id, description }) => ({ id, description }),
      ),
  });
}

/** The caller's morning digest by e-mail (on or off). */
export function useDigest(enabled: boolean) {
  return useQuery({
    queryKey: ['agenda', 'digest'],
    enabled,
    queryFn: async () =>
      (await getData<{ morningDigest: boolean }>('/api/v2/agenda/digest')).morningDigest,
  });
}

export function useSaveDigest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (on: boolean) =>
      request<{ message: string }>('/api/v2/agenda/digest', {
        method: 'PUT',
        body: { morning_digest: on },
      }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['agenda', 'digest'] }),
  });
}
