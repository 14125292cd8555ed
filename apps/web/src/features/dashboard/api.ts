import type { Collection, FollowStudentCard } from '@sigaf/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getData, request } from '../../lib/api';

/** Calls of the Estadística screen (docs/development/screens.md#estadistica); the server's routes are in apps/server/src/modules/dashboard. */

export type TicketCountKind = 'total' | 'last-day' | 'open' | 'close';

/** The four bare counts: the body is the number itself. */
export const ticketCountQuery = (courseId: number | undefined, kind: TicketCountKind) => ({
  queryKey: ['dashboard', 'count', courseId, kind],
  queryFn: async ({ signal }: { signal: AbortSignal }) =>
    Number(await request<number>(`/api/v2/tickets/${courseId}/${kind}/count`, { signal })),
  staleTime: 30_000,
});

export function useTicketCount(courseId: number | undefined, kind: TicketCountKind) {
  return useQuery({ ...ticketCountQuery(courseId, kind), enabled: courseId !== undefined });
}

export const followCardQuery = (path: string | null) => ({
  queryKey: ['dashboard', 'card', path],
  queryFn: ({ signal }: { signal: AbortSignal }) => getData<FollowStudentCard>(path!, { signal }),
  staleTime: 30_000,
});

export function useFollowCard(path: string | null) {
  return useQuery({ ...followCardQuery(path), enabled: path !== null });
}

export interface CatalogueValue {
  id: number;
  description: string;
  key: string | null;
}

export type CataloguePath =
  'source-tickets' | 'type-tickets' | 'priority-tickets' | 'motive-tickets' | 'status-tickets';

/** A ticket catalogue, to turn a chart label back into the id the ticket list filters on. */
const catalogueQuery = (path: CataloguePath) => ({
  queryKey: ['dashboard', 'catalogue', path],
  queryFn: async () =>
    (await getData<Collection<CatalogueValue>>(`/api/v2/${path}`)).collections.map(
      (c) => c.properties,
    ),
  staleTime: 5 * 60_000,
});

/** The operators, to turn a chart label back into the id the ticket list filters on. */
const operatorsQuery = () => ({
  queryKey: ['dashboard', 'operators'],
  queryFn: async () =>
    (
      await getData<Collection<{ id: number; name: string }>>('/api/v2/users', {
        query: { view: 'operators' },
      })
    ).collections.map((c) => c.properties),
  staleTime: 5 * 60_000,
});

/**
 * What a click on a chart needs to open the ticket list, read when a chart is first clicked (then
 * kept for five minutes), so the first render of the charts does not share the server with it.
 */
export function useChartLookups() {
  const queryClient = useQueryClient();
  return {
    catalogue: (path: CataloguePath) => queryClient.fetchQuery(catalogueQuery(path)),
    operators: () => queryClient.fetchQuery(operatorsQuery()),
  };
}
