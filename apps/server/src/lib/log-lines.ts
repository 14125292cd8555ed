import { prettyFactory } from 'pino-pretty';

/** Where the log goes, by LOG_FORMAT: `json` (pino's lines), `lines` (read by people), `auto` (lines on a terminal). */
export type LogFormat = 'auto' | 'json' | 'lines';

interface Output {
  write(text: string): unknown;
}

/** `14:03:07 INFO: request completed GET /path 200 12ms {"reqId":"r1"}`, an error's stack below. */
const readable = prettyFactory({
  colorize: false,
  singleLine: true,
  translateTime: 'SYS:HH:MM:ss',
  ignore: 'pid,hostname,req,res,responseTime',
  messageFormat:
    '{msg}{if req.method} {req.method} {req.url}{end}{if res.statusCode} {res.statusCode}{end}{if responseTime} {responseTime}ms{end}',
});

/** The pino destination of LOG_FORMAT: none (pino's JSON on stdout), or readable lines on `out`. */
export function logDestination(
  format: LogFormat,
  out: Output & { isTTY?: boolean } = process.stdout,
): { stream: Output } | undefined {
  const lines = format === 'lines' || (format === 'auto' && out.isTTY === true);
  return lines ? { stream: { write: (chunk: string) => out.write(readable(chunk)) } } : undefined;
}
