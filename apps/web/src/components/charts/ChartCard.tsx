import { Alert, Box, Card, CardContent, Skeleton, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { PieChart } from '@mui/x-charts/PieChart';
import type { ChartData } from '@sigaf/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { useFormat, type Format } from '../../lib/format';
import { chartInLanguage } from './chartLabels';
import {
  isEmptyChart,
  perLabelColors,
  selection,
  toBarSeries,
  toPieItems,
  withReadableColors,
  type ChartKind,
} from './chartModel';

export type { ChartKind } from './chartModel';

export interface ChartCardProps {
  title: string;
  kind: ChartKind;
  data?: ChartData;
  loading: boolean;
  error?: unknown;
  /** Called with the clicked slice's or bar's label (and its dataset's label for multi-dataset bars). */
  onSelect?: (label: string, datasetLabel?: string) => void;
  /** Height of the drawing area in px (default 280). */
  height?: number;
  /** Appended to values in tooltips and bar labels, e.g. "%". */
  valueSuffix?: string;
  /** Hint under the title, e.g. "Haga clic en un sector para ver sus tickets". */
  subtitle?: string;
  /** What "Sin datos" means here and what to do about it (replaces the bare text). */
  empty?: ReactNode;
}

/** Hidden on screen, read by screen readers (the chart's figures as a table). */
const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

/** A chart's value in the current language: a percentage ("%" suffix) or a figure with its suffix. */
const valueText = (f: Format, v: number | null, suffix?: string) =>
  v === null ? '' : suffix?.trim() === '%' ? f.percent(v) : `${f.number(v)}${suffix ?? ''}`;

/** The chart's numbers as a table: its text alternative (one row per label, one column per dataset). */
function FiguresTable({
  title,
  data,
  valueSuffix,
}: {
  title: string;
  data: ChartData;
  valueSuffix?: string;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const columns = data.datasets.map(
    (ds, i) =>
      ds.label ?? (data.datasets.length > 1 ? `${t('charts.value')} ${i + 1}` : t('charts.value')),
  );
  // The table inside a hidden box: a table is never narrower than its text, and would widen a phone's page.
  return (
    <Box sx={visuallyHidden}>
      <table>
        <caption>{t('charts.tableCaption', { title })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('charts.category')}</th>
            {columns.map((c, i) => (
              <th scope="col" key={i}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.labels.map((label, row) => (
            <tr key={row}>
              <th scope="row">{label}</th>
              {data.datasets.map((ds, col) => (
                <td key={col}>{valueText(f, ds.data[row] ?? 0, valueSuffix)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </Box>
  );
}

/** Reads the user-facing message of a failed load. */
function errorText(error: unknown): string | null {
  if (error instanceof ApiError || error instanceof Error) return error.message || null;
  return null;
}

function Drawing({
  kind,
  data,
  onSelect,
  height,
  valueSuffix,
}: Required<Pick<ChartCardProps, 'kind' | 'data' | 'height'>> &
  Pick<ChartCardProps, 'onSelect' | 'valueSuffix'>) {
  const f = useFormat();
  const format = (v: number | null) => valueText(f, v, valueSuffix);
  const legend = {
    legend: {
      direction: 'horizontal' as const,
      position: { vertical: 'bottom' as const, horizontal: 'center' as const },
    },
  };

  if (kind === 'pie' || kind === 'doughnut') {
    const items = toPieItems(data);
    // A gap between slices only reads well on a ring with several slices; on a full pie or a lone
    // slice it cuts a notch.
    const gapped = kind === 'doughnut' && items.filter((i) => i.value > 0).length > 1;
    return (
      <PieChart
        height={height}
        series={[
          {
            data: items,
            innerRadius: kind === 'doughnut' ? '45%' : 0,
            paddingAngle: gapped ? 1 : 0,
            cornerRadius: 2,
            valueFormatter: (item) => format(item.value),
            highlightScope: { fade: 'global', highlight: 'item' },
          },
        ]}
        slotProps={
          onSelect
            ? {
                legend: {
                  ...legend.legend,
                  // Legend entries become buttons: the keyboard way to pick a slice.
                  onItemClick: (_event: unknown, item: { dataIndex?: number }, index: number) => {
                    const picked = selection(data, item.dataIndex ?? index);
                    if (picked) onSelect(picked.label);
                  },
                },
              }
            : legend
        }
        onItemClick={
          onSelect
            ? (_event, item) => {
                const picked = selection(data, item.dataIndex);
                if (picked) onSelect(picked.label);
              }
            : undefined
        }
        sx={onSelect ? { '& .MuiPieChart-arc': { cursor: 'pointer' } } : undefined}
      />
    );
  }

  const horizontal = kind === 'horizontalBar';
  const colors = perLabelColors(data);
  const band = {
    scaleType: 'band' as const,
    data: data.labels,
    ...(colors ? { colorMap: { type: 'ordinal' as const, values: data.labels, colors } } : {}),
  };
  const longest = Math.max(0, ...data.labels.map((l) => l.length));
  // Counts step by whole units; percentages run 0–100.
  const value = {
    valueFormatter: (v: number) => format(v),
    ...(valueSuffix === '%' ? { min: 0, max: 100 } : { tickMinStep: 1 }),
  };
  const series = toBarSeries(data, kind).map((s) => ({ ...s, valueFormatter: format }));
  return (
    <BarChart
      height={height}
      layout={horizontal ? 'horizontal' : 'vertical'}
      series={series}
      xAxis={horizontal ? [value] : [band]}
      yAxis={horizontal ? [{ ...band, width: Math.min(180, 20 + longest * 6.5) }] : [value]}
      hideLegend={series.length < 2 || series.every((s) => s.label === undefined)}
      slotProps={legend}
      grid={horizontal ? { vertical: true } : { horizontal: true }}
      onItemClick={
        onSelect
          ? (_event, item) => {
              const picked = selection(data, item.dataIndex, item.seriesId);
              if (picked) onSelect(picked.label, picked.datasetLabel);
            }
          : undefined
      }
      sx={onSelect ? { '& .MuiBarChart-element': { cursor: 'pointer' } } : undefined}
    />
  );
}

/**
 * One chart in a card: a skeleton while loading, "Sin datos" when there is nothing to draw, a
 * Spanish error otherwise; pie, doughnut, vertical (grouped or stacked) or stacked horizontal
 * bars, drawn with the colours the server sends (Chart.js-shaped ChartData).
 */
export function ChartCard({
  title,
  kind,
  data,
  loading,
  error,
  onSelect,
  height = 280,
  valueSuffix,
  subtitle,
  empty,
}: ChartCardProps) {
  const { t } = useTranslation();
  let body;
  if (loading) {
    body = (
      <Skeleton
        variant="rounded"
        height={height}
        aria-label={t('charts.loading')}
        data-state="loading"
      />
    );
  } else if (error) {
    body = (
      <Alert severity="error" data-state="error" sx={{ minHeight: 80 }}>
        {t('charts.error')}
        {errorText(error) ? ` ${errorText(error)}` : ''}
      </Alert>
    );
  } else if (!data || isEmptyChart(data)) {
    body = (
      <Box
        data-state="empty"
        sx={{
          height,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          color: 'text.secondary',
        }}
      >
        {empty ?? <Typography>{t('charts.empty')}</Typography>}
      </Box>
    );
  } else {
    // Drawn in the screen's language; a click still hands back the server's label (the filter value).
    const shown = chartInLanguage(t, data);
    const pick =
      onSelect &&
      ((label: string, datasetLabel?: string) => {
        const ds = shown.datasets.findIndex((d) => d.label === datasetLabel);
        onSelect(
          data.labels[shown.labels.indexOf(label)] ?? label,
          datasetLabel === undefined ? undefined : (data.datasets[ds]?.label ?? datasetLabel),
        );
      });
    body = (
      <Box data-state="ready">
        <Drawing
          kind={kind}
          data={withReadableColors(shown)}
          onSelect={pick}
          height={height}
          valueSuffix={valueSuffix}
        />
        <FiguresTable title={title} data={shown} valueSuffix={valueSuffix} />
      </Box>
    );
  }
  return (
    <Card
      variant="outlined"
      role="figure"
      aria-label={title}
      data-chart={kind}
      sx={{ height: '100%' }}
    >
      <CardContent>
        <Typography
          component="h3"
          variant="subtitle1"
          sx={{ fontWeight: 600, mb: subtitle ? 0 : 1 }}
        >
          {title}
        </Typography>
        {subtitle && !loading && !error && !isEmptyChart(data) && onSelect && (
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mb: 1 }}>
            {subtitle}
          </Typography>
        )}
        {body}
      </CardContent>
    </Card>
  );
}
