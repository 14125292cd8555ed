import type { Collection, FollowStudentCard } from '@sigaf/contract';
import { useQuery } from '@tanstack/react-query';
import { getData, request } from '../../lib/api';

/** Calls of the Estadística screen (SCREENS.md §4); the server's routes are in apps/server/src/modules/dashboard. */

export type TicketCountKind = 'total' | 'last-day' | 'open' | 'close';

/** The four bare counts: the body is the number itself. */
export function useTicketCount(courseId: number | undefined, kind: TicketCountKind) {
  return useQuery({
    queryKey: ['dashboard', 'count', courseId, kind],
    enabled: courseId !== undefined,
    queryFn: async ({ signal }) => Number(await request<number>(`/api/v2/tickets/${courseId}/${kind}/count`, { signal })),
    staleTime: 30_000,
  });
}

export function useFollowCard(path: string | null) {
  return useQuery({
    queryKey: ['dashboard', 'card', path],
    enabled: path !== null,
    queryFn: ({ signal }) => getData<FollowStudentCard>(path!, { signal }),
    staleTime: 30_000,
  });
}

export interface CatalogueValue {
  id: number;
  description: string;
  key: string | null;
}

/** A ticket catalogue, to turn a chart label back into the id the ticket list filters on. */
export function useTicketCatalogue(path: 'source-tickets' | 'type-tickets' | 'priority-tickets' | 'motive-tickets' | 'status-tickets') {
  return useQuery({
    queryKey: ['dashboard', 'catalogue', path],
    queryFn: async () => (await getData<Collection<CatalogueValue>>(`/api/v2/${path}`)).collections.map((c) => c.properties),
    staleTime: 5 * 60_000,
  });
}

export function useOperatorNames(enabled: boolean) {
  return useQuery({
    queryKey: ['dashboard', 'operators'],
    enabled,
    queryFn: async () => (await getData<Collection<{ id: number; name: string }>>('/api/v2/users', { query: { view: 'operators' } })).collections.map((c) => c.properties),
    staleTime: 5 * 60_000,
  });
}
