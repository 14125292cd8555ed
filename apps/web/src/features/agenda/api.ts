import type {
  AgendaLastReassign,
  AgendaReassignResult,
  AgendaStudent,
  AgendaTicket,
  AgendaWorkload,
  Collection,
  Reminder,
} from '@sigaf/contract';
import { REMINDER_POLL_MS } from '@sigaf/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getData, request, type QueryValue } from '../../lib/api';
import { page, props } from '../../lib/collection';

/** The agenda (Mi agenda): query and mutation hooks. Reminders' own hooks: ../reminders/api.ts. */

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

/** Reassigns reminders and tickets; with `from_user_id` the server keeps it to undo (`useUndoReassign`). */
export function useReassign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: {
      to_user_id: number;
      from_user_id?: number;
      reminder_ids?: number[];
      ticket_ids?: number[];
    }) =>
      request<{ _data: AgendaReassignResult }>('/api/v2/agenda/reassign', {
        method: 'POST',
        body,
      }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['agenda'] });
      void queryClient.invalidateQueries({ queryKey: ['reminders'] });
    },
  });
}

/** The caller's last reassignment while it can be undone: kept by the server, so it survives a reload. */
export function useLastReassign(enabled: boolean) {
  return useQuery({
    queryKey: ['agenda', 'reassign', 'last'],
    enabled,
    queryFn: () => getData<AgendaLastReassign | null>('/api/v2/agenda/reassign/last'),
  });
}

/** Sends the last reassignment's tickets (still with the second operator) back, with their reminders. */
export function useUndoReassign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      request<{ _data: AgendaReassignResult }>('/api/v2/agenda/reassign/undo', { method: 'POST' }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['agenda'] });
      void queryClient.invalidateQueries({ queryKey: ['reminders'] });
    },
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
