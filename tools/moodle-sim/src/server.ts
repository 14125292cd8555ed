import http from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { FUNCTIONS, type CallContext } from './functions.js';
import { sendHostile } from './hostile.js';
import {
  accessException,
  missingRecord,
  moodleException,
  parsePhpFields,
  validateParams,
  WsError,
} from './params.js';
import type { Site } from './site.js';

/**
 * The simulator's HTTP side: Moodle's REST endpoint `/webservice/rest/server.php` (POST form or
 * GET query), JSON or XML answers and error answers like Moodle's, HTTP 403 with an empty body
 * when web services or REST are disabled. Latency and faults can be injected for tests and
 * benchmarks; `/__sim` shows the call log and takes fault rules at run time.
 */

export type FaultKind =
  | 'http500'
  | 'http503'
  | 'timeout'
  | 'reset'
  | 'invalidtoken'
  | 'notjson'
  | 'terminated'
  | 'maintenance'
  | 'wsdisabled'
  | 'gzipbomb'
  | 'hugename'
  | 'hugejson'
  | 'dense'
  | 'denseusers';

export interface FaultRule {
  kind: FaultKind;
  /** Only calls of these functions (all when unset). */
  wsfunction?: string | string[];
  /** Let this many matching calls through first. */
  after?: number;
  /** Fail this many matching calls, then stop (unlimited when unset). */
  times?: number;
  /** Chance (0–1) that a matching call fails: random faults for development and benchmarks. */
  rate?: number;
  /** Decoded size of a hostile answer ('gzipbomb', 'hugename', 'hugejson', 'dense', 'denseusers'; see HOSTILE). */
  bytes?: number;
}

export interface CallRecord {
  wsfunction: string;
  userid: number | null;
  outcome: 'ok' | 'error' | 'fault';
  errorcode?: string;
  ms: number;
}

export interface SimServerOptions {
  site: Site;
  port?: number;
  host?: string;
  /** Added to every call: fixed, or a random value in [min, max]. */
  latencyMs?: number | [number, number];
  faults?: FaultRule[];
  /** How long a 'timeout' fault holds the request before dropping it. */
  hangMs?: number;
  /** Logs one line per call to stderr. */
  log?: boolean;
}

export interface SimServer {
  url: string;
  port: number;
  /** The site served; may be replaced between calls. */
  site: Site;
  /** Active fault rules; push, splice or replace freely. */
  faults: FaultRule[];
  calls: CallRecord[];
  latencyMs: number | [number, number];
  /** Calls of one function so far. */
  count(wsfunction?: string): number;
  close(): Promise<void>;
}

/** PHP's json_encode: slashes and non-ASCII characters escaped. */
export function phpJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Lists longer than this are written in pieces (phpJsonPieces). */
const LONG_LIST = 200;
const isLongList = (v: unknown, size: number) => Array.isArray(v) && v.length > size;
/** A long list, or an object with one among its fields. */
const holdsLongList = (v: unknown, size: number) =>
  isLongList(v, size) ||
  (v !== null &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    Object.values(v).some((field) => isLongList(field, size)));

/**
 * phpJson in pieces for answers with long lists (a course's grade report of every student): the
 * simulator answers other calls between the pieces, as Moodle's other workers would meanwhile,
 * instead of holding its one thread for seconds. The pieces joined are phpJson(value).
 */
export function* phpJsonPieces(value: unknown, size = LONG_LIST): Generator<string> {
  if (Array.isArray(value) && value.length > size) {
    for (let i = 0; i < value.length; i += size)
      yield (
        (i ? ',' : '[') +
        value
          .slice(i, i + size)
          .map((v) => phpJson(v ?? null))
          .join(',')
      );
    yield ']';
    return;
  }
  if (value !== null && typeof value === 'object' && holdsLongList(value, size)) {
    let separator = '{';
    for (const [key, v] of Object.entries(value)) {
      if (v === undefined || typeof v === 'function') continue;
      yield `${separator}${phpJson(key)}:`;
      separator = ',';
      yield* phpJsonPieces(v, size);
    }
    yield '}';
    return;
  }
  yield phpJson(value);
}

/** Writes the answer; one with long lists in pieces, giving other calls their turn between them. */
async function sendJson(res: http.ServerResponse, value: unknown) {
  if (!holdsLongList(value, LONG_LIST)) return res.end(phpJson(value));
  for (const piece of phpJsonPieces(value)) {
    res.write(piece);
    await nextTurn();
    if (res.destroyed) return;
  }
  res.end();
}

const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Moodle's REST XML (webservice/rest/locallib.php xmlize_result). */
function xmlize(value: unknown): string {
  if (value === null || value === undefined) return '<VALUE null="null"/>\n';
  if (Array.isArray(value)) return `<MULTIPLE>\n${value.map(xmlize).join('')}</MULTIPLE>\n`;
  if (typeof value === 'object') {
    const keys = Object.entries(value as Record<string, unknown>).map(
      ([k, v]) => `<KEY name="${k}">${xmlize(v)}</KEY>\n`,
    );
    return `<SINGLE>\n${keys.join('')}</SINGLE>\n`;
  }
  const scalar = typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
  return `<VALUE>${xmlEscape(scalar)}</VALUE>\n`;
}

const JSON_HEADERS = {
  'Content-type': 'application/json',
  'Cache-Control': 'private, must-revalidate, pre-check=0, post-check=0, max-age=0',
  Expires: 'Thu, 01 Jan 1970 00:00:00 GMT',
  Pragma: 'no-cache',
  'Accept-Ranges': 'none',
  'Access-Control-Allow-Origin': '*',
};
const XML_HEADERS = {
  ...JSON_HEADERS,
  'Content-type': 'application/xml; charset=utf-8',
  'Content-Disposition': 'inline; filename="response.xml"',
};

const invalidToken = () => moodleException('invalidtoken', 'Invalid token - token not found');

const NOT_IN_SERVICE = (fn: string) =>
  `Access to the function ${fn}() is not allowed.
                     There could be multiple reasons for this:
                     1. The service linked to the user token does not contain the function.
                     2. The service is user-restricted and the user is not listed.
                     3. The service is IP-restricted and the user IP is not listed.
                     4. The service is time-restricted and the time has expired.
                     5. The token is time-restricted and the time has expired.
                     6. The service requires a specific capability which the user does not have.
                     7. The function is called with username/password (no user token is sent)
                     and none of the services has the function to allow the user.
                     These settings can be found in Administration > Site administration
                     > Server > Web services > External services and Manage tokens.`;

function errorBody(site: Site, e: WsError, format: 'json' | 'xml'): string {
  const debug = site.settings.debug;
  const errorcode = debug && e.debugVariant ? e.debugVariant.errorcode : e.errorcode;
  const message = debug && e.debugVariant ? e.debugVariant.message : e.message;
  if (format === 'xml') {
    return (
      '<?xml version="1.0" encoding="UTF-8" ?>\n' +
      `<EXCEPTION class="${e.exception}">\n<ERRORCODE>${xmlEscape(errorcode)}</ERRORCODE>\n<MESSAGE>${xmlEscape(message)}</MESSAGE>\n` +
      (debug && e.debuginfo ? `<DEBUGINFO>${xmlEscape(e.debuginfo)}</DEBUGINFO>\n` : '') +
      '</EXCEPTION>\n'
    );
  }
  return phpJson({
    exception: e.exception,
    errorcode,
    message,
    ...(debug && e.debuginfo ? { debuginfo: e.debuginfo } : {}),
  });
}

/** One web-service call, as Moodle's REST server runs it: token, function, service, parameters. */
export function dispatch(
  site: Site,
  base: string,
  fields: Map<string, unknown>,
): { result?: unknown; error?: WsError; wsfunction: string; userid: number | null } {
  const wsfunction =
    typeof fields.get('wsfunction') === 'string' ? (fields.get('wsfunction') as string) : '';
  const tokenValue = fields.get('wstoken');
  const token =
    typeof tokenValue === 'string' ? site.tokens.find((t) => t.token === tokenValue) : undefined;
  const caller = token ? site.user(token.userid) : undefined;
  if (!token || !caller || caller.suspended)
    return { error: invalidToken(), wsfunction, userid: null };
  const userid = caller.id;
  if (!caller.restuse && !caller.siteadmin) {
    return {
      error: accessException(
        'You are not allowed to use the rest protocol (missing capability: webservice/rest:use)',
      ),
      wsfunction,
      userid,
    };
  }
  const def = FUNCTIONS[wsfunction];
  if (!def)
    return { error: missingRecord('external_functions', 'name', wsfunction), wsfunction, userid };
  if (!token.functions.includes(wsfunction))
    return { error: accessException(NOT_IN_SERVICE(wsfunction)), wsfunction, userid };
  const params = new Map(fields as Map<string, never>);
  for (const control of ['wstoken', 'wsfunction', 'moodlewsrestformat']) params.delete(control);
  try {
    const validated = validateParams(def.params, params);
    const ctx: CallContext = { site, caller, token, base };
    return { result: def.run(ctx, validated), wsfunction, userid };
  } catch (e) {
    if (e instanceof WsError) return { error: e, wsfunction, userid };
    throw e;
  }
}

function matches(rule: FaultRule, wsfunction: string) {
  if (!rule.wsfunction) return true;
  return Array.isArray(rule.wsfunction)
    ? rule.wsfunction.includes(wsfunction)
    : rule.wsfunction === wsfunction;
}

export async function startMoodleSim(opts: SimServerOptions): Promise<SimServer> {
  const seen = new WeakMap<FaultRule, number>();
  const hanging = new Set<NodeJS.Timeout>();
  const hangMs = opts.hangMs ?? 120_000;

  const pickFault = (wsfunction: string): FaultRule | undefined => {
    for (const rule of sim.faults) {
      if (!matches(rule, wsfunction)) continue;
      const n = (seen.get(rule) ?? 0) + 1;
      seen.set(rule, n);
      const after = rule.after ?? 0;
      if (n <= after) continue;
      if (rule.times !== undefined && n > after + rule.times) continue;
      if (rule.rate !== undefined && Math.random() >= rule.rate) continue;
      return rule;
    }
    return undefined;
  };

  const latency = () => {
    const l = sim.latencyMs;
    const ms = Array.isArray(l) ? l[0] + Math.random() * (l[1] - l[0]) : l;
    return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, body: string) => {
    const started = Date.now();
    const site = sim.site;
    const url = new URL(req.url ?? '/', 'http://sim');
    if (url.pathname === '/__sim') return control(req, res, body);
    if (url.pathname !== '/webservice/rest/server.php') {
      res.writeHead(404, { 'Content-type': 'text/html; charset=utf-8' });
      return res.end('<html><body><h1>404 Not Found</h1></body></html>');
    }
    const pairs: Array<[string, string]> = [...url.searchParams.entries()];
    if (
      req.method === 'POST' &&
      /x-www-form-urlencoded/i.test(
        req.headers['content-type'] ?? 'application/x-www-form-urlencoded',
      )
    ) {
      pairs.push(...new URLSearchParams(body).entries());
    }
    const fields = parsePhpFields(pairs);
    const wsfunction =
      typeof fields.get('wsfunction') === 'string' ? (fields.get('wsfunction') as string) : '';
    const format = fields.get('moodlewsrestformat') === 'json' ? 'json' : 'xml';
    const record = (r: Omit<CallRecord, 'ms' | 'wsfunction'>) => {
      const call = { wsfunction, ...r, ms: Date.now() - started };
      sim.calls.push(call);
      if (opts.log)
        process.stderr.write(
          `[moodle-sim] ${wsfunction || '-'} ${call.outcome}${call.errorcode ? ` ${call.errorcode}` : ''} ${call.ms}ms\n`,
        );
    };

    await latency();
    const fault = pickFault(wsfunction);
    if (!site.settings.wsEnabled || !site.settings.restEnabled || fault?.kind === 'wsdisabled') {
      record({ userid: null, outcome: fault ? 'fault' : 'error', errorcode: 'wsdisabled' });
      res.writeHead(403, 'Forbidden', { 'Content-type': 'text/html; charset=utf-8' });
      return res.end();
    }
    if (fault) {
      record({ userid: null, outcome: 'fault', errorcode: fault.kind });
      switch (fault.kind) {
        case 'http500':
        case 'http503':
          res.writeHead(fault.kind === 'http500' ? 500 : 503, {
            'Content-type': 'text/html; charset=utf-8',
          });
          return res.end('<html><body>Error</body></html>');
        case 'timeout': {
          const timer = setTimeout(() => {
            hanging.delete(timer);
            req.socket.destroy();
          }, hangMs);
          hanging.add(timer);
          return;
        }
        case 'reset':
          return req.socket.destroy();
        case 'notjson':
          res.writeHead(200, { 'Content-type': 'text/html; charset=utf-8' });
          return res.end('<!DOCTYPE html><html><body>Moodle login</body></html>');
        case 'terminated':
          // The web server stopped mid-request (a restart): a 200 whose body is not Moodle's answer.
          res.writeHead(200, { 'Content-type': 'text/html; charset=utf-8' });
          return res.end('Terminated: 15\n');
        case 'invalidtoken':
          res.writeHead(200, format === 'json' ? JSON_HEADERS : XML_HEADERS);
          return res.end(errorBody(site, invalidToken(), format));
        case 'maintenance':
          res.writeHead(200, format === 'json' ? JSON_HEADERS : XML_HEADERS);
          return res.end(
            errorBody(
              site,
              moodleException(
                'sitemaintenance',
                'Site is undergoing maintenance and is currently not available',
              ),
              format,
            ),
          );
        case 'gzipbomb':
        case 'hugename':
        case 'hugejson':
        case 'dense':
        case 'denseusers':
          return sendHostile(res, JSON_HEADERS, fault.kind, fault.bytes);
      }
    }
    const base = site.settings.wwwroot ?? sim.url;
    const out = dispatch(site, base, fields);
    if (out.error) {
      record({ userid: out.userid, outcome: 'error', errorcode: out.error.errorcode });
      res.writeHead(200, format === 'json' ? JSON_HEADERS : XML_HEADERS);
      return res.end(errorBody(site, out.error, format));
    }
    record({ userid: out.userid, outcome: 'ok' });
    res.writeHead(200, format === 'json' ? JSON_HEADERS : XML_HEADERS);
    if (format === 'json') return sendJson(res, out.result ?? null);
    const xml = out.result === null || out.result === undefined ? '' : xmlize(out.result);
    return res.end(`<?xml version="1.0" encoding="UTF-8" ?>\n<RESPONSE>\n${xml}</RESPONSE>\n`);
  };

  /** GET: the call log summary; PUT: replace the fault rules (JSON array); DELETE: clear them. */
  const control = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => {
    if (req.method === 'PUT' || req.method === 'POST') {
      try {
        const rules = JSON.parse(body) as FaultRule[];
        sim.faults.splice(0, sim.faults.length, ...(Array.isArray(rules) ? rules : [rules]));
      } catch {
        res.writeHead(400, { 'Content-type': 'application/json' });
        return res.end('{"error":"JSON array of fault rules expected"}');
      }
    } else if (req.method === 'DELETE') {
      sim.faults.splice(0, sim.faults.length);
    }
    const counts: Record<string, number> = {};
    for (const c of sim.calls) counts[c.wsfunction] = (counts[c.wsfunction] ?? 0) + 1;
    res.writeHead(200, { 'Content-type': 'application/json' });
    res.end(
      JSON.stringify(
        {
          url: sim.url,
          calls: sim.calls.length,
          counts,
          faults: sim.faults,
          latencyMs: sim.latencyMs,
        },
        null,
        2,
      ),
    );
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((e: unknown) => {
        process.stderr.write(`[moodle-sim] internal error: ${(e as Error).stack ?? String(e)}\n`);
        if (!res.headersSent) res.writeHead(500, { 'Content-type': 'text/html; charset=utf-8' });
        res.end();
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host && opts.host !== '0.0.0.0' && opts.host !== '::' ? opts.host : '127.0.0.1';

  const sim: SimServer = {
    url: `http://${host}:${port}`,
    port,
    site: opts.site,
    faults: [...(opts.faults ?? [])],
    calls: [],
    latencyMs: opts.latencyMs ?? 0,
    count: (wsfunction) =>
      wsfunction ? sim.calls.filter((c) => c.wsfunction === wsfunction).length : sim.calls.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of hanging) clearTimeout(t);
        hanging.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return sim;
}
