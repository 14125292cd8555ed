import {
  ATTEMPT_MEDIUM_LABELS,
  dayRangeText,
  fileSlug,
  formatDate,
  sortGroups,
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
      `Efectividad de los contactos, ${formatDate(r.from)} a ${formatDate(r.countedTo)} (días contados)`,
    header: [
      'Dimensión',
      'Grupo',
      'Estudiantes-semana',
      'Ingresaron a Moodle en 7 días',
      'Tasa',
      'Rango probable (95 %) desde',
      'Rango probable (95 %) hasta',
      'Progreso ganado (puntos)',
      'Línea base comparable: estudiantes-día',
      'Línea base comparable: tasa',
      'Línea base: rango desde',
      'Línea base: rango hasta',
      'Línea base: progreso ganado',
      'Diferencia con la línea base',
      'Diferencia: rango desde',
      'Diferencia: rango hasta',
      'Contactos (intentos)',
      'Sin datos de Moodle',
      'Medio deducido del tipo de ticket',
      'Muestra pequeña',
    ],
    dims: {
      all: 'Total',
      medium: 'Medio de contacto',
      type: 'Tipo de ticket',
      source: 'Origen',
      motive: 'Motivo',
      operator: 'Operador',
      hour: 'Hora del día',
      weekday: 'Día de la semana',
      idle: 'Días sin acceso',
    },
    days: ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'],
    // As the screen names them (outcomes.es.json).
    idle: {
      never: 'Nunca ingresó',
      '0-2': '0–2 días',
      '3-6': '3–6 días',
      '7-13': '7–13 días',
      '14-29': '14–29 días',
      '30+': '30 días o más',
      unknown: 'Sin datos previos',
      all: 'Todos',
    } as Record<string, string>,
    yes: 'sí',
    media: ATTEMPT_MEDIUM_LABELS as Record<string, string>,
  },
  en: {
    sheet: 'Effectiveness',
    title: (r: OutcomeReport) =>
      `Contact effectiveness, ${formatDate(r.from)} to ${formatDate(r.countedTo)} (days counted)`,
    header: [
      'Dimension',
      'Group',
      'Student-weeks',
      'Back in Moodle within 7 days',
      'Rate',
      'Likely range (95 %) from',
      'Likely range (95 %) to',
      'Progress gained (points)',
      'Comparable baseline: student-days',
      'Comparable baseline: rate',
      'Baseline: range from',
      'Baseline: range to',
      'Baseline: progress gained',
      'Difference from baseline',
      'Difference: range from',
      'Difference: range to',
      'Contacts (attempts)',
      'No Moodle data',
      'Medium taken from the ticket type',
      'Small sample',
    ],
    dims: {
      all: 'Total',
      medium: 'Contact medium',
      type: 'Ticket type',
      source: 'Source',
      motive: 'Motive',
      operator: 'Operator',
      hour: 'Hour of day',
      weekday: 'Day of week',
      idle: 'Days without access',
    },
    days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
    idle: {
      never: 'Never accessed',
      '0-2': '0–2 days',
      '3-6': '3–6 days',
      '7-13': '7–13 days',
      '14-29': '14–29 days',
      '30+': '30 days or more',
      unknown: 'No earlier figures',
      all: 'All',
    } as Record<string, string>,
    yes: 'yes',
    media: {
      call: 'Call',
      email: 'E-mail',
      whatsapp: 'WhatsApp',
      sms: 'SMS',
      in_person: 'In person',
      other: 'Other',
    } as Record<string, string>,
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
  'percent',
  'percent',
  'percent',
  'integer',
  'integer',
  'integer',
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
  if (dim === 'medium') return t.media[key] ?? key;
  if (dim === 'hour') return `${key}:00`;
  if (dim === 'weekday') return t.days[Number(key) - 1] ?? key;
  if (dim === 'idle') return t.idle[key] ?? key;
  return t.idle.all!;
}

/** The report as one sheet: a row per group of every dimension in the screen's order, rates in percent. */
export function outcomeWorkbook(report: OutcomeReport, lang: Lang): Promise<Buffer> {
  const t = TEXT[lang];
  const rows: XlsxCell[][] = [];
  for (const [dim, groups] of Object.entries(report.dimensions) as Array<
    [OutcomeDimension, OutcomeReport['dimensions'][OutcomeDimension]]
  >) {
    for (const g of sortGroups(dim, groups, (x) => groupName(dim, x.key, x.label, lang))) {
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
        pct(g.difference?.value ?? null),
        pct(g.difference?.low ?? null),
        pct(g.difference?.high ?? null),
        g.contacts,
        g.unknown,
        g.inferred,
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
    widths: [18, 28, 11, 14, 9, 11, 11, 14, 14, 12, 12, 12, 14, 12, 12, 12, 11, 11, 11, 10],
  });
}

/** The workbook's file name: the course (or the organisation) and the days counted, as every export names them. */
export function outcomeFileName(report: OutcomeReport, course: string | null, lang: Lang): string {
  const to = report.countedTo < report.from ? report.from : report.countedTo;
  const scope = course ? fileSlug(course) : lang === 'en' ? 'organisation' : 'organizacion';
  return `${lang === 'en' ? 'effectiveness' : 'efectividad'}-${scope}-${dayRangeText(report.from, to)}.xlsx`;
}
