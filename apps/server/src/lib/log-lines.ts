/** Where the log goes, by LOG_FORMAT: `json` (pino's lines), `lines` (read by people), `auto` (lines on a terminal). */
export type LogFormat = 'auto' | 'json' | 'lines';

interface Output {
  write(text: string): unknown;
}

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** Fields every line has, or that are written in a shorter way. */
const OMIT = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'msg',
  'err',
  'req',
  'res',
  'responseTime',
]);

const value = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * One pino JSON line as a line people read: `14:03:07 INFO  Server listening at …  key=value`, a
 * request as `GET /path` and `200 12ms`, an error's stack indented below. Any other text (the
 * startup banner) is left as it is.
 */
export function readableLine(chunk: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(chunk) as Record<string, unknown>;
  } catch {
    return chunk;
  }
  if (!entry || typeof entry !== 'object' || typeof entry.level !== 'number') return chunk;
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now());
  const parts = [
    time.toTimeString().slice(0, 8),
    (LEVELS[entry.level] ?? String(entry.level)).padEnd(5),
    typeof entry.msg === 'string' ? entry.msg : '',
  ];
  const req = entry.req as { method?: string; url?: string } | undefined;
  if (req?.method) parts.push(`${req.method} ${req.url ?? ''}`);
  const res = entry.res as { statusCode?: number } | undefined;
  if (res?.statusCode) parts.push(String(res.statusCode));
  if (typeof entry.responseTime === 'number') parts.push(`${Math.round(entry.responseTime)}ms`);
  for (const [k, v] of Object.entries(entry)) if (!OMIT.has(k)) parts.push(`${k}=${value(v)}`);
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const below = err
    ? `\n    ${(err.stack ?? err.message ?? value(err)).split('\n').join('\n    ')}`
    : '';
  return `${parts.filter(Boolean).join(' ')}${below}\n`;
}

/** The pino destination of LOG_FORMAT: none (pino's JSON on stdout), or readable lines on `out`. */
export function logDestination(
  format: LogFormat,
  out: Output & { isTTY?: boolean } = process.stdout,
): { stream: Output } | undefined {
  const lines = format === 'lines' || (format === 'auto' && out.isTTY === true);
  return lines
    ? { stream: { write: (chunk: string) => out.write(readableLine(chunk)) } }
    : undefined;
}
