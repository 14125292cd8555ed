import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { isAdminLike, type RoleKey } from '@sigaf/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireAuth } from '../../http/auth.js';
import { baseUrl } from '../../http/envelope.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { utf8InTurns } from '../../lib/turns.js';
import type { AnswerVersionRepository } from './repository.js';

/**
 * Whole-course answers kept serialised (docs/development/performance.md, "Whole-course answers").
 *
 * The original client asks for a course's every ticket, every enrolment and every student's
 * results on chosen activities in one answer each (11–28 MB at the largest course). Building one
 * takes a few hundred milliseconds of the server's only thread, most of it presenting and
 * serialising; the answer is the same until a row it shows changes. Each answer is kept as its
 * JSON text under the course's answer version (migration 0024: statement triggers give a course a
 * new version in the transaction of every write to a table its answers read), read before the
 * data: a kept answer is served only while the version is the one it was read at, so it is never
 * staler than the last committed change. Values that change with the clock (a ticket's age) are
 * `live`: written at serve time, and a compressed copy holds until the first of them changes. One build per key and version at a time; the kept answers are
 * bounded in bytes (ANSWER_CACHE_MB), the least recently served going first.
 */

const NONCE = crypto.randomBytes(8).toString('hex');
const MARK = `@sigaf-live-${NONCE}-`;
const MARKS = new RegExp(`"${MARK}\\d+"`);
let collecting: Live<unknown>[] | null = null;

/** A value computed at serve time from the clock, inside an answer kept serialised. */
class Live<T> {
  constructor(
    private readonly value: (now: Date) => T,
    /** When the value next changes after `now` (ms). */
    readonly changesAt: (now: Date) => number,
  ) {}
  toJSON(): unknown {
    if (!collecting) return this.value(new Date());
    collecting.push(this as Live<unknown>);
    return `${MARK}${collecting.length - 1}`;
  }
  render(now: Date): string {
    return JSON.stringify(this.value(now)) ?? 'null';
  }
}

/**
 * A value of the clock (`now`) in an answer: computed when it is serialised, or at each serving
 * of a kept answer; `changesAt` says when it next changes, for how long a compressed copy holds.
 */
export const live = <T>(value: (now: Date) => T, changesAt: (now: Date) => number): T => new Live(value, changesAt) as unknown as T;

interface Entry {
  version: string;
  /** The answer's text in UTF-8, live values left out. */
  body: Buffer;
  /** Where each live value goes in `body` (byte offsets, ascending). */
  at: number[];
  lives: Live<unknown>[];
  bytes: number;
  /** The same text compressed, each encoding made on its first asking; with live values, as written until the first of them changes. */
  encoded: Partial<Record<Encoding, { body: Promise<Buffer>; until: number }>>;
  /** Time (ms) after which the answer must be read again (e.g. an edit lock it shows expires). */
  validUntil: number;
}

export type Encoding = 'br' | 'gzip';
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/**
 * Compressed once per kept answer, so harder than per request: 11.4 MB of results are 0.58 MB
 * gzipped, 0.38 MB in Brotli at quality 9 (0.3 s once). An answer with live values is compressed
 * again when one of them changes (28 MB of tickets: 0.9 MB at quality 5 in 0.26 s).
 */
const ENCODERS: Record<Encoding, (body: Buffer, again: boolean) => Promise<Buffer>> = {
  br: (body, again) => brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: again ? 5 : 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => gzip(body, { level: 6 }),
};

/** An answer to send, compressed when the client accepts it. */
export interface Served {
  body: Buffer;
  encoding: Encoding | null;
}

/** What a build returns: the answer, and when it stops being true by the clock alone. */
export interface Built {
  value: unknown;
  validUntil?: number;
}

/** The answer as kept text: written a batch per turn (lib/turns.ts), live values collected in each synchronous batch. */
async function serialise(value: unknown, version: string, validUntil: number): Promise<Entry> {
  const lives: Live<unknown>[] = [];
  const utf8 = await utf8InTurns(value, (v) => {
    collecting = lives;
    try {
      return JSON.stringify(v);
    } finally {
      collecting = null;
    }
  });
  if (!lives.length) return { version, body: utf8, at: [], lives, bytes: utf8.length, encoded: {}, validUntil };
  // The marks come in order ("<MARK>0", "<MARK>1", …): each is cut out of the bytes (searched natively, copied once).
  const body = Buffer.allocUnsafe(utf8.length);
  const open = Buffer.from(`"${MARK}`);
  const at: number[] = [];
  let from = 0;
  let size = 0;
  for (let i = 0; i < lives.length; i++) {
    const mark = utf8.indexOf(open, from);
    size += utf8.copy(body, size, from, mark);
    at.push(size);
    from = utf8.indexOf(0x22, mark + open.length) + 1;
  }
  size += utf8.copy(body, size, from);
  const kept = Buffer.from(body.subarray(0, size));
  return { version, body: kept, at, lives, bytes: kept.length + lives.length * 64, encoded: {}, validUntil };
}

/** Live values written between two turns of the event loop while a kept answer is rendered. */
const RENDER_BATCH = 5000;

/** The kept text with the live values written in: one buffer, the kept bytes copied once, a batch of values per turn. */
async function render(entry: Entry, now = new Date()): Promise<Buffer> {
  if (!entry.lives.length) return entry.body;
  const values = entry.lives.map((l) => l.render(now));
  let size = entry.body.length;
  for (const v of values) size += Buffer.byteLength(v);
  const out = Buffer.allocUnsafe(size);
  let from = 0;
  let to = 0;
  for (let i = 0; i < values.length; i++) {
    if (i % RENDER_BATCH === RENDER_BATCH - 1) await nextTurn();
    to += entry.body.copy(out, to, from, entry.at[i]);
    to += out.write(values[i]!, to);
    from = entry.at[i]!;
  }
  entry.body.copy(out, to, from);
  return out;
}

export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<Entry>>();
  private bytes = 0;
  /** Answers served from what was kept, and answers built. */
  readonly counts = { kept: 0, built: 0 };

  constructor(
    private readonly versions: AnswerVersionRepository,
    private readonly maxBytes: number,
  ) {}

  /**
   * The answer under `key` for a course (its version read here, before the data): the kept one
   * while still true, else a new build.
   */
  async get(key: string, courseId: number, build: () => Promise<Built>, encoding: Encoding | null = null): Promise<Served> {
    const version = await this.versions.versionOf(courseId);
    const kept = this.entries.get(key);
    if (kept && kept.version === version && kept.validUntil > Date.now()) {
      // Most recently served last: the first entries are the first to go.
      this.entries.delete(key);
      this.entries.set(key, kept);
      this.counts.kept++;
      return this.serve(key, kept, encoding);
    }
    const flight = `${key}\n${version}`;
    let pending = this.building.get(flight);
    if (!pending) {
      pending = build().then(async ({ value, validUntil }) => this.keep(key, await serialise(value, version, validUntil ?? Infinity)));
      this.building.set(flight, pending);
      const done = () => this.building.delete(flight);
      pending.then(done, done);
      this.counts.built++;
    }
    return this.serve(key, await pending, encoding);
  }

  /**
   * The kept text, or the same compressed (once, off the main thread: what the browser's network
   * and the server's socket carry is then a twentieth to a thirtieth of it).
   */
  private async serve(key: string, entry: Entry, encoding: Encoding | null): Promise<Served> {
    if (!encoding) return { body: await render(entry), encoding: null };
    const now = new Date();
    let encoded = entry.encoded[encoding];
    if (!encoded || encoded.until <= now.getTime()) {
      const previous = encoded;
      const until = entry.lives.reduce((min, l) => Math.min(min, l.changesAt(now)), Infinity);
      encoded = entry.encoded[encoding] = { body: render(entry, now).then((text) => ENCODERS[encoding](text, entry.lives.length > 0)), until };
      encoded.body.then(
        async (z) => {
          const replaced = previous ? (await previous.body.catch(() => null))?.length ?? 0 : 0;
          if (this.entries.get(key) !== entry) return;
          entry.bytes += z.length - replaced;
          this.bytes += z.length - replaced;
          this.evict();
        },
        () => {
          // A failed compression is not kept: the next asking tries again.
          if (entry.encoded[encoding] === encoded) delete entry.encoded[encoding];
        },
      );
    }
    return { body: await encoded.body, encoding };
  }

  private keep(key: string, entry: Entry): Entry {
    this.drop(key);
    if (entry.bytes > this.maxBytes) return entry;
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    this.evict();
    return entry;
  }

  private evict() {
    for (const [old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(old);
    }
  }

  private drop(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  /** Bytes kept now. */
  get size(): number {
    return this.bytes;
  }
}

/**
 * What a caller may see of a kept answer: administrators (and developers) all the same, so one
 * kept answer serves them all; anyone else their own (an operator's tickets and delete flags, a
 * tutor's classrooms).
 */
export function keptScope(actor: { id: number; role: RoleKey | null | undefined }): string {
  return isAdminLike(actor.role) ? 'admin' : `user ${actor.id}`;
}

/**
 * Sends a whole-course answer through the cache. The caller has checked access already; the key
 * is the caller's scope (keptScope), the links' base and the request's path and query.
 */
export async function sendKept(request: FastifyRequest, reply: FastifyReply, cache: AnswerCache, courseId: number, build: () => Promise<Built>) {
  const key = `${keptScope(requireAuth(request))}\n${baseUrl(request)}\n${request.url}`;
  const { body, encoding } = await cache.get(key, courseId, build, preferredEncoding(request.headers['accept-encoding']));
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(body);
}

/** The encoding to send for an Accept-Encoding header: Brotli, else gzip, when taken (not at q=0); else none. */
export function preferredEncoding(header: string | string[] | undefined): Encoding | null {
  const taken = new Set<string>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (!q || Number(q.slice(2)) > 0) taken.add(name === 'x-gzip' ? 'gzip' : name);
  }
  if (taken.has('br')) return 'br';
  return taken.has('gzip') || taken.has('*') ? 'gzip' : null;
}
