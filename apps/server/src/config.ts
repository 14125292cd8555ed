import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { APP_TIME_ZONE, isTimeZone } from '@sigaf/contract';
import { z } from 'zod';

/** The repository root, so that relative paths do not depend on the directory npm runs in. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

/** A proxy address, a CIDR range, or one of proxy-addr's names for a range. */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', bits, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  return (
    bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128))
  );
}

/**
 * Which peers may tell the client's address in X-Forwarded-For: none (`false`, the default), the
 * number of proxies in front of the server (`1`), or the proxies' addresses and ranges
 * (`10.0.0.2,192.168.0.0/16`). `true` is refused: it would believe any client's header, and the
 * per-IP sign-in limit could be dodged by changing it.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((v, ctx): false | number | string[] => {
    const low = v.toLowerCase();
    if (['false', '0', 'no', 'off', ''].includes(low)) return false;
    if (/^\d{1,2}$/.test(low)) return Number(low);
    const entries = low
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    if (!['true', 'yes', 'on'].includes(low) && entries.length && entries.every(isProxyAddress))
      return entries;
    ctx.addIssue({
      code: 'custom',
      message:
        low === 'true' || low === 'yes' || low === 'on'
          ? "TRUST_PROXY=true would trust any client's X-Forwarded-For; give the number of proxies in front (e.g. 1) or their addresses (e.g. 10.0.0.2,192.168.0.0/16)"
          : 'use false, a number of proxies (e.g. 1), or proxy addresses/CIDRs separated by commas',
    });
    return z.NEVER;
  });

/** Every environment variable the server reads, with its default. docs/operations/configuration.md's table mirrors this. */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /**
   * Interface to listen on: loopback by default, so that a first start (which prints the first
   * administrator's password) is not reachable from the network; a reverse proxy on the same
   * machine reaches it. Set 0.0.0.0 explicitly in a container or behind a proxy elsewhere.
   */
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** postgres://... for a PostgreSQL server; unset means embedded PGlite under DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default(path.join(REPO_ROOT, 'data')),
  /** Key for secrets encrypted at rest (course mailbox passwords, Moodle tokens). */
  APP_SECRET: z.string().min(16).optional(),
  /** Public base URL of the absolute links in answers (links.href); unset, links are paths from the server's root (never built from the request's Host). */
  PUBLIC_URL: z.string().url().optional(),
  TOKEN_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(12),
  REMEMBER_ME_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(24 * 7),
  ADMIN_EMAIL: z.string().email().default('admin@sigaf.cl'),
  ADMIN_PASSWORD: z.string().min(6).optional(),
  ADMIN_NAME: z.string().min(1).default('Administrador SIGAF'),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(30),
  /** Failures of an account from an address it signed in from in the last 30 days, counted on that pair (modules/auth/repository.ts). */
  LOGIN_MAX_FAILURES_KNOWN_ADDRESS: z.coerce.number().int().min(1).default(10),
  LOGIN_WINDOW_MINUTES: z.coerce.number().positive().default(15),
  /** How long a ticket edit lock lasts without being renewed. */
  LOCK_TTL_MINUTES: z.coerce
    .number()
    .positive()
    .max(24 * 60)
    .default(15),
  /** Memory for the whole-course answers kept serialised (modules/answers/cache.ts); 0 keeps none. */
  ANSWER_CACHE_MB: z.coerce.number().int().min(0).max(16_384).default(256),
  /** How long the workload table's at-risk column is served as counted (kept/at-risk-tally.ts); 0 counts at every request. */
  WORKLOAD_AT_RISK_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  CORS_ORIGINS: list.default([]),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The log's form: `auto` (readable lines on a terminal, JSON otherwise), `json` or `lines`. */
  LOG_FORMAT: z.enum(['auto', 'json', 'lines']).default('auto'),
  WEB_DIST: z.string().default(path.join(REPO_ROOT, 'apps/web/dist')),
  SERVE_WEB: bool.default(true),
  TRUST_PROXY: trustProxy.default(false),
  /**
   * The OpenAPI description: `staff` (GET /api/docs/json with a signed-in user's token), `public`
   * (also the interactive page /api/docs, for anyone), or `off`.
   */
  API_DOCS: z.enum(['staff', 'public', 'off']).default('staff'),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  /** smtp://user:pass@host:587 or smtps://...; unset writes each message as a .eml file in DATA_DIR/outbox. */
  SMTP_URL: z.string().url().optional(),
  /** false accepts a self-signed SMTP certificate. */
  SMTP_TLS_REJECT_UNAUTHORIZED: bool.default(true),
  /** Sender when the course has no mailbox of its own (the course address is then the Reply-To). */
  MAIL_FROM: z.string().min(3).default('SIGAF <no-reply@sigaf.local>'),
  MAIL_MAX_ATTACHMENT_MB: z.coerce.number().positive().max(100).default(10),
  /** Background jobs (mail delivery, Moodle sync): idle poll interval, parallel jobs, first retry delay, stale lock timeout. */
  JOBS_POLL_MS: z.coerce.number().int().min(10).default(1000),
  JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  JOBS_RETRY_BASE_MS: z.coerce.number().int().min(0).default(10_000),
  JOBS_STALE_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(5 * 60_000),
  /** Moodle web services: time limit of one call, retries of a failed read (network, 5xx), calls in flight per sync, enrolled users per page. */
  MOODLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  MOODLE_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /** How long a queued sync keeps going back to the queue (with the jobs' backoff) while Moodle is down, restarting or in maintenance, since it was queued. */
  MOODLE_OUTAGE_WAIT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(45 * 60_000),
  MOODLE_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  MOODLE_PAGE_SIZE: z.coerce.number().int().min(1).max(5000).default(500),
  /** Largest Moodle answer read, compressed or decoded, in MB (a whole course's grade report of 10,000 students × 50 activities is 125 MB). */
  MOODLE_MAX_ANSWER_MB: z.coerce.number().int().min(1).max(1024).default(256),
  /** Memory that the Moodle answers of every sync at once may build, in MB (docs/operations/moodle.md#memory). */
  MOODLE_READ_MEMORY_MB: z.coerce.number().int().min(16).max(16384).default(1024),
  /** The organisation's time zone (IANA name): the clock-driven tasks (nightly sync, morning digest) run on its time, not the server's. */
  TIME_ZONE: z
    .string()
    .trim()
    .refine(isTimeZone, 'use an IANA time zone name, e.g. America/Santiago')
    .default(APP_TIME_ZONE),
  /** Nightly Moodle sync of every active linked course: "HH:MM" in TIME_ZONE, or "off". */
  SYNC_SCHEDULE: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^(off|([01]?\d|2[0-3]):[0-5]\d)$/, 'use HH:MM (24 h, in TIME_ZONE) or off')
    .default('02:00'),
  /** Demo mode (also `npm run demo` or `npm start -- --demo`): Moodle simulator in-process and demo data. */
  DEMO: bool.default(false),
  /** Port of the demo's Moodle simulator (0: any free port). */
  DEMO_MOODLE_PORT: z.coerce.number().int().min(0).max(65535).default(0),
});

export type Config = z.infer<typeof configSchema> & { APP_SECRET: string };

/** Parses the environment once. An unset APP_SECRET is generated and kept in DATA_DIR by the caller. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<Config> = {},
): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  return { APP_SECRET: '', ...parsed.data, ...overrides } as Config;
}

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** `npm run demo` / `npm start -- --demo` / DEMO=true: asked for on the command line or in the environment. */
export function demoRequested(
  config: Config,
  argv: readonly string[] = process.argv,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  return config.DEMO || argv.includes('--demo') || env.npm_config_demo === 'true';
}

/** APP_SECRET from the environment, or one generated on first start and kept in DATA_DIR. */
export function resolveSecret(config: Config): string {
  if (config.APP_SECRET) return config.APP_SECRET;
  fs.mkdirSync(config.DATA_DIR, { recursive: true });
  const file = path.join(config.DATA_DIR, 'app-secret');
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomSecret(), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}
