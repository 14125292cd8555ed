import type { ChartData } from '@sigaf/contract';
import { AA_NON_TEXT, withContrast } from '../../lib/contrast';

/** The chart shapes ChartCard draws. `horizontalBar` stacks its datasets (Abierto/Cerrado, Realizado/No realizado). */
export type ChartKind = 'pie' | 'doughnut' | 'bar' | 'stackedBar' | 'horizontalBar';

/** Fallback colour when a dataset carries fewer colours than labels. */
const FALLBACK_COLOR = '#9E9E9E';

/** True when there is nothing to draw: no labels, no datasets, or every value is zero. */
export function isEmptyChart(data: ChartData | undefined | null): boolean {
  if (!data || data.labels.length === 0 || data.datasets.length === 0) return true;
  return data.datasets.every((d) => d.data.every((v) => !v));
}

export interface PieItem {
  id: number;
  label: string;
  value: number;
  color: string;
}

/** Slices of the first dataset, each with its own colour; zero slices are kept so indexes match the labels. */
export function toPieItems(data: ChartData): PieItem[] {
  const ds = data.datasets[0];
  if (!ds) return [];
  return data.labels.map((label, i) => ({
    id: i,
    label,
    value: ds.data[i] ?? 0,
    color: ds.backgroundColor[i] ?? ds.backgroundColor[0] ?? FALLBACK_COLOR,
  }));
}

export interface BarSeriesModel {
  id: string;
  label?: string;
  data: number[];
  color: string;
  stack?: string;
}

export const seriesId = (index: number) => `ds-${index}`;
export const seriesIndex = (id: string | number) => Number(String(id).replace(/^ds-/, ''));

/** One bar series per dataset; stacked kinds put every dataset on one stack. */
export function toBarSeries(data: ChartData, kind: ChartKind): BarSeriesModel[] {
  const stacked = kind === 'stackedBar' || kind === 'horizontalBar';
  return data.datasets.map((ds, i) => ({
    id: seriesId(i),
    ...(ds.label !== undefined ? { label: ds.label } : {}),
    data: data.labels.map((_, j) => ds.data[j] ?? 0),
    color: ds.backgroundColor[0] ?? FALLBACK_COLOR,
    ...(stacked ? { stack: 'total' } : {}),
  }));
}

/**
 * A single dataset whose bars have their own colours (the age chart, the catalogue charts drawn as
 * bars): the colours go on the category axis, one per label.
 */
export function perLabelColors(data: ChartData): string[] | null {
  if (data.datasets.length !== 1) return null;
  const colors = data.datasets[0]!.backgroundColor;
  if (colors.length < 2 || colors.every((c) => c === colors[0])) return null;
  return data.labels.map((_, i) => colors[i] ?? colors[colors.length - 1] ?? FALLBACK_COLOR);
}

/** The label and dataset label behind a clicked bar or slice. */
export function selection(
  data: ChartData,
  dataIndex: number,
  series?: string | number,
): { label: string; datasetLabel?: string } | null {
  const label = data.labels[dataIndex];
  if (label === undefined) return null;
  if (series === undefined) return { label };
  const datasetLabel = data.datasets[seriesIndex(series)]?.label;
  return datasetLabel === undefined ? { label } : { label, datasetLabel };
}

/**
 * The data with every slice and bar colour reaching 3:1 against the card (WCAG AA for graphics):
 * light colours the server sends (green, amber, grey) are drawn a shade darker.
 */
export function withReadableColors(data: ChartData, background = '#ffffff'): ChartData {
  return {
    ...data,
    datasets: data.datasets.map((ds) => ({
      ...ds,
      backgroundColor: ds.backgroundColor.map((c) => withContrast(c, background, AA_NON_TEXT)),
    })),
  };
}
