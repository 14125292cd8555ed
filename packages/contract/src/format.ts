/**
 * One formatter per kind of value, for every screen, PDF, workbook and file name
 * (docs/development/figures-and-formats.md): dates `dd-mm-yyyy` and 24 h times in the
 * organisation's time zone (APP_TIME_ZONE); numbers with a decimal comma in Spanish and a point
 * in English. The original client's API answers keep their own formats (docs/development/original-api.md).
 */
import { chileDateTime, chileParts, dayText } from './dates.js';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const NONE = '—';

/** The locale of a UI language: Spanish (Chile) unless it is English. */
export const numberLocale = (language?: string | null) =>
  language?.startsWith('en') ? 'en-US' : 'es-CL';

const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(
  language: string | null | undefined,
  options: Intl.NumberFormatOptions,
): Intl.NumberFormat {
  const locale = numberLocale(language);
  const id = `${locale}|${JSON.stringify(options)}`;
  let f = formats.get(id);
  if (!f) formats.set(id, (f = new Intl.NumberFormat(locale, options)));
  return f;
}

/** A moment's day, or a calendar day written `yyyy-mm-dd`, as `dd-mm-yyyy`; '' for none. */
export function formatDate(value: Date | string | null | undefined): string {
  if (!value) return '';
  if (typeof value === 'string' && ISO_DAY.test(value)) return dayText(value);
  return chileParts(value).date;
}

/** A moment as `dd-mm-yyyy HH:mm` (24 h); '' for none. */
export const formatDateTime = (value: Date | string | null | undefined): string =>
  chileDateTime(value);

/** A moment's time, `HH:mm` (24 h); '' for none. */
export const formatTime = (value: Date | string | null | undefined): string =>
  value ? chileParts(value).time : '';

/** A count or a figure with at most `digits` decimals (thousands grouped); a dash for none. */
export function formatNumber(
  value: number | null | undefined,
  language?: string | null,
  digits = 1,
): string {
  if (value === null || value === undefined || Number.isNaN(value)) return NONE;
  return numberFormat(language, { maximumFractionDigits: digits }).format(value);
}

/** A percentage given in points (41.7 for 41,7 %), one decimal at most: "41,7 %" (a fixed space, as Spanish writes it) / "41.7%"; a dash for none. */
export function formatPercent(
  points: number | null | undefined,
  language?: string | null,
  digits = 1,
): string {
  const n = formatNumber(points, language, digits);
  if (n === NONE) return n;
  return numberLocale(language) === 'en-US' ? `${n}%` : `${n}\u00a0%`;
}

/** A grade, with one or two decimals: "87,5" / "87.5"; a dash for none. */
export function formatGrade(value: number | null | undefined, language?: string | null): string {
  if (value === null || value === undefined || Number.isNaN(value)) return NONE;
  return numberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 2 }).format(
    value,
  );
}

/** The day part of an export's file name: today (or `at`) in the organisation's zone, `dd-mm-yyyy`. */
export const fileDay = (at: Date = new Date()): string => chileParts(at).date;

/** A range of calendar days (`yyyy-mm-dd`, both included) in a file name or a title: `dd-mm-yyyy`, or `dd-mm-yyyy-al-dd-mm-yyyy` (`sep` between the two). */
/** A file name's part from free text (a course, a classroom): no accents, lower case, dashes. */
export const fileSlug = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()
    .slice(0, 60) || 'curso';

export const dayRangeText = (from: string, to: string, sep = '-al-'): string =>
  from === to ? dayText(from) : `${dayText(from)}${sep}${dayText(to)}`;

/** Number formats of workbook cells (Excel shows the decimal separator of the reader's locale). */
export const XLSX_FORMATS = {
  date: 'dd-mm-yyyy',
  dateTime: 'dd-mm-yyyy hh:mm',
  integer: '0',
  decimal: '0.0',
  percent: '0.0%',
  grade: '0.0#',
} as const;
export type XlsxFormat = keyof typeof XLSX_FORMATS;

/**
 * A moment as a workbook date: Excel dates have no zone, so the cell holds the organisation's
 * wall-clock time (its UTC fields are the local day and time). A `yyyy-mm-dd` day is that day.
 */
export function workbookDate(value: Date | string): Date {
  if (typeof value === 'string' && ISO_DAY.test(value)) return new Date(`${value}T00:00:00Z`);
  const p = chileParts(value);
  const [d, m, y] = p.date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = p.time.split(':').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1, d, hh, mm));
}
