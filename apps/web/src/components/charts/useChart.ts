import { useQuery } from '@tanstack/react-query';
import type { ChartData } from '@sigaf/contract';
import { getData } from '../../lib/api';

/** A chart call (`_data.chartData`), cached per path; `enabled` false waits (no course chosen yet). */
export function useChart(path: string, enabled = true) {
  return useQuery({
    queryKey: ['chart', path],
    queryFn: async ({ signal }) => (await getData<{ chartData: ChartData }>(path, { signal })).chartData,
    enabled,
    staleTime: 30_000,
  });
}
