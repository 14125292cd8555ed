import type { Collection, Reminder, ReminderState } from '@sigaf/contract';
import { REMINDER_POLL_MS } from '@sigaf/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getData, request, type QueryValue } from '../../lib/api';
import { page, props } from '../../lib/collection';

/** Reminders (Recordatorios): query and mutation hooks, for the agenda, the ticket dialog and the app bar. */

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
