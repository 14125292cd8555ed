import { Grid } from '@mui/material';
import type { ReactNode } from 'react';
import { ChartCard } from './ChartCard';
import type { ChartKind } from './chartModel';
import { useChart } from './useChart';

export interface PathChartProps {
  /** The API path whose `_data.chartData` the chart draws. */
  path: string;
  title: string;
  kind: ChartKind;
  onSelect?: (label: string, dataset?: string) => void;
  suffix?: string;
  hint?: string;
  /** What an empty chart means here (ChartCard's `empty`). */
  empty?: ReactNode;
  /** Grid columns from md up (of 12). */
  size?: number;
  /** Grid columns from lg up; `size` when not given. */
  lgSize?: number;
}

/** A chart card in a grid cell that loads its data from an API path. */
export function PathChart({
  path,
  title,
  kind,
  onSelect,
  suffix,
  hint,
  empty,
  size = 6,
  lgSize,
}: PathChartProps) {
  const q = useChart(path);
  return (
    <Grid size={{ xs: 12, md: size, lg: lgSize ?? size }}>
      <ChartCard
        title={title}
        kind={kind}
        data={q.data}
        loading={q.isPending}
        error={q.error ?? undefined}
        onSelect={onSelect}
        valueSuffix={suffix}
        subtitle={hint}
        empty={empty}
      />
    </Grid>
  );
}
