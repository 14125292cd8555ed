import type { AttemptDirection, AttemptMedium, Collection } from '@sigaf/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getData, request } from '../../lib/api';
import { props } from '../../lib/collection';

/** Logging one contact attempt in place (Mi agenda, a call or a WhatsApp message on a student). */

export interface AttemptInput {
  ticket_id: number;
  status_detail_ticket_id: number;
  comment: string;
  medium?: AttemptMedium;
  direction?: AttemptDirection;
}

/** Logs a contact attempt on a ticket. */
export function useLogAttempt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AttemptInput) =>
      request<{ message: string }>('/api/v2/ticket-details', { method: 'POST', body }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['agenda'] });
      void queryClient.invalidateQueries({ queryKey: ['reminders'] });
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
      void queryClient.invalidateQueries({ queryKey: ['follow-up', 'student'] });
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
