/**
 * Dates the way Chilean staff read them: days, times and ticket ages in Chilean time. The one
 * place the web client formats a date for display: `dd-mm-yyyy`, `dd-mm-yyyy HH:mm` (24 h) in
 * America/Santiago, whatever the browser's zone.
 */

/** Dates and times are shown in Chilean time, whatever the server's zone. */
export const APP_TIME_ZONE = 'America/Santiago';

const pad = (n: number) => String(n).padStart(2, '0');

/** A calendar day written `yyyy-mm-dd` or `dd-mm-yyyy` (also with `/`), as `yyyy-mm-dd`; null when not a real day. */
export function parseDay(input: string | null | undefined): string | null {
  if (typeof input !== 'string') return null;
  const s = input.trim();
  let y: number, m: number, d: number;
  let match = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(s);
  if (match) [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else if ((match = /^(\d{1,2})[-/](\d{1,2})[-/](\d{4})$/.exec(s)))
    [d, m, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else return null;
  if (y < 1900 || y > 2999 || m < 1 || m > 12 || d < 1) return null;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > last) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** A moment's calendar day (`dd-mm-yyyy`), time (`HH:mm`) and ISO day (`yyyy-mm-dd`) in a time zone. */
export interface ZonedParts {
  date: string;
  time: string;
  day: string;
}

interface Zone {
  format: Intl.DateTimeFormat;
  byMinute: Map<number, ZonedParts>;
}
const zones = new Map<string, Zone>();

/** Whether `name` is a time zone this runtime knows (an IANA name such as America/Santiago). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A moment as calendar day, time and ISO day in the time zone `timeZone`. */
export function zonedParts(value: Date | string, timeZone: string): ZonedParts {
  let zone = zones.get(timeZone);
  if (!zone) {
    const format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    zones.set(timeZone, (zone = { format, byMinute: new Map() }));
  }
  // Time zone offsets change on whole minutes, so every moment of a minute has the same parts:
  // formatting is remembered per minute (formatToParts is slow and lists format many dates).
  const minute = Math.floor(new Date(value).getTime() / 60_000);
  const known = zone.byMinute.get(minute);
  if (known) return known;
  const parts = Object.fromEntries(
    zone.format.formatToParts(new Date(minute * 60_000)).map((p) => [p.type, p.value]),
  );
  const result = {
    date: `${parts.day}-${parts.month}-${parts.year}`,
    time: `${parts.hour}:${parts.minute}`,
    day: `${parts.year}-${parts.month}-${parts.day}`,
  };
  if (zone.byMinute.size >= 50_000) zone.byMinute.clear();
  zone.byMinute.set(minute, result);
  return result;
}

/** A moment as Chilean calendar day (`dd-mm-yyyy`), time (`HH:mm`) and ISO day (`yyyy-mm-dd`). */
export const chileParts = (value: Date | string): ZonedParts => zonedParts(value, APP_TIME_ZONE);

/** `dd-mm-yyyy HH:mm` in Chilean time, or '' for no date. */
export function chileDateTime(value: Date | string | null | undefined): string {
  if (!value) return '';
  const p = chileParts(value);
  return `${p.date} ${p.time}`;
}

/** A calendar day (`yyyy-mm-dd`, as the API and date inputs carry it) as `dd-mm-yyyy`; other text unchanged. */
export function dayText(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? `${m[3]}-${m[2]}-${m[1]}` : day;
}

const DAY_MS = 86_400_000;

/**
 * Calendar days in Chile's time zone from `from` to `to`: 0 on the same Chilean day (even across
 * UTC midnight), 1 from 23:30 to 00:30 the next day; not 24-hour blocks.
 */
export function chileDaysBetween(from: Date | string | number, to: Date | string | number): number {
  const day = (v: Date | string | number) => Date.parse(`${chileParts(new Date(v)).day}T00:00:00Z`);
  return Math.round((day(to) - day(from)) / DAY_MS);
}

/** Whole days from creation to closing (or to now while open). */
export function ticketAgeDays(
  createdAt: Date | string | number,
  closingDate: Date | string | null | undefined,
  now: Date = new Date(),
): number {
  const end = closingDate ? new Date(closingDate) : now;
  return Math.max(0, Math.floor((end.getTime() - new Date(createdAt).getTime()) / DAY_MS));
}

/** When an open ticket's age in days next changes after `now` (ms): one more whole day after its creation. */
export function ticketAgeChangesAt(
  createdAt: Date | string | number,
  now: Date = new Date(),
): number {
  return new Date(createdAt).getTime() + (ticketAgeDays(createdAt, null, now) + 1) * DAY_MS;
}

/** "< 24h", "1 día", "N días" (the original's "1 días" fixed). */
export function ticketAgeText(days: number): string {
  if (days < 1) return '< 24h';
  return days === 1 ? '1 día' : `${days} días`;
}
