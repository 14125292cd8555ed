import { useQuery } from '@tanstack/react-query';
import type { ChartData } from '@sigaf/contract';
import { getData } from '../../lib/api';

/** A chart call (`_data.chartData`), cached per path. */
export const chartQuery = (path: string) => ({
  queryKey: ['chart', path],
  queryFn: async ({ signal }: { signal: AbortSignal }) =>
    (await getData<{ chartData: ChartData }>(path, { signal })).chartData,
  staleTime: 30_000,
});

/** A chart's data; `enabled` false waits (no course chosen yet). */
export function useChart(path: string, enabled = true) {
  return useQuery({ ...chartQuery(path), enabled });
}
