import {
  formatDate,
  type OutcomeDimension,
  type OutcomeReport,
  type XlsxFormat,
} from '@sigaf/contract';
import { reportWorkbook, type XlsxCell } from '../../lib/workbook.js';

type Lang = 'es' | 'en';

const TEXT = {
  es: {
    sheet: 'Efectividad',
    title: (r: OutcomeReport) =>
      `Efectividad de los contactos, ${formatDate(r.from)} a ${formatDate(r.to)}`,
    header: [
      'Dimensión',
      'Grupo',
      'Contactos',
      'Reingresaron en 7 días',
      'Tasa',
      'IC 95 % desde',
      'IC 95 % hasta',
      'Progreso ganado (puntos)',
      'Línea base: alumnos',
      'Línea base: tasa',
      'Línea base: IC desde',
      'Línea base: IC hasta',
      'Línea base: progreso ganado',
      'Muestra pequeña',
    ],
    dims: {
      all: 'Total',
      type: 'Canal (tipo)',
      source: 'Origen',
      motive: 'Motivo',
      operator: 'Operador',
      hour: 'Hora del día',
      weekday: 'Día de la semana',
      idle: 'Días sin acceso',
    },
    days: ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'],
    idle: { never: 'Nunca ingresó', unknown: 'Sin datos previos', all: 'Todos' } as Record<
      string,
      string
    >,
    yes: 'sí',
  },
  en: {
    sheet: 'Effectiveness',
    title: (r: OutcomeReport) =>
      `Contact effectiveness, ${formatDate(r.from)} to ${formatDate(r.to)}`,
    header: [
      'Dimension',
      'Group',
      'Contacts',
      'Back within 7 days',
      'Rate',
      '95 % CI from',
      '95 % CI to',
      'Progress gained (points)',
      'Baseline: students',
      'Baseline: rate',
      'Baseline: CI from',
      'Baseline: CI to',
      'Baseline: progress gained',
      'Small sample',
    ],
    dims: {
      all: 'Total',
      type: 'Channel (type)',
      source: 'Source',
      motive: 'Motive',
      operator: 'Operator',
      hour: 'Hour of day',
      weekday: 'Day of week',
      idle: 'Days without access',
    },
    days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
    idle: { never: 'Never accessed', unknown: 'No earlier figures', all: 'All' } as Record<
      string,
      string
    >,
    yes: 'yes',
  },
} as const;

/** A rate as a percentage cell (the fraction, shown with one decimal). */
const pct = (v: number | null): XlsxCell => (v === null ? null : Math.round(v * 1000) / 1000);
const FORMATS: Array<XlsxFormat | null> = [
  null,
  null,
  'integer',
  'integer',
  'percent',
  'percent',
  'percent',
  'decimal',
  'integer',
  'percent',
  'percent',
  'percent',
  'decimal',
];

/** A group's name in the report's language: the catalogue value or operator, else the hour, weekday or idle group. */
export function groupName(
  dim: OutcomeDimension,
  key: string,
  label: string | null,
  lang: Lang,
): string {
  const t = TEXT[lang];
  if (label) return label;
  if (dim === 'hour') return `${key}:00`;
  if (dim === 'weekday') return t.days[Number(key) - 1] ?? key;
  if (dim === 'idle') return t.idle[key] ?? `${key} ${lang === 'es' ? 'días' : 'days'}`;
  return t.idle.all!;
}

/** The report as one sheet: a row per group of every dimension, rates in percent. */
export function outcomeWorkbook(report: OutcomeReport, lang: Lang): Promise<Buffer> {
  const t = TEXT[lang];
  const rows: XlsxCell[][] = [];
  for (const [dim, groups] of Object.entries(report.dimensions) as Array<
    [OutcomeDimension, OutcomeReport['dimensions'][OutcomeDimension]]
  >) {
    for (const g of groups) {
      rows.push([
        t.dims[dim],
        groupName(dim, g.key, g.label, lang),
        g.reengaged.n,
        Math.round((g.reengaged.rate ?? 0) * g.reengaged.n),
        pct(g.reengaged.rate),
        pct(g.reengaged.low),
        pct(g.reengaged.high),
        g.gain,
        g.baseline.n,
        pct(g.baseline.rate),
        pct(g.baseline.low),
        pct(g.baseline.high),
        g.baselineGain,
        g.small ? t.yes : null,
      ]);
    }
  }
  return reportWorkbook({
    sheet: t.sheet,
    title: t.title(report),
    header: t.header,
    rows,
    formats: FORMATS,
    widths: [18, 28, 11, 14, 9, 11, 11, 14, 14, 12, 12, 12, 14, 10],
  });
}
