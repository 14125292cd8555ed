import type { Collection } from '@sigaf/contract';
import { useQuery } from '@tanstack/react-query';
import { getData } from './api';
import { props } from './collection';

export interface Operator {
  id: number;
  name: string;
}

/** Everyone a ticket can be assigned to (tutors excluded by the server), by name. */
export function useOperators() {
  return useQuery({
    queryKey: ['ticket-options', 'operators'],
    queryFn: async () =>
      props(await getData<Collection<Operator>>('/api/v2/users', { query: { view: 'operators' } }))
        .map(({ id, name }) => ({ id, name }))
        .sort((a, b) => a.name.localeCompare(b.name, 'es')),
    staleTime: 5 * 60_000,
  });
}
