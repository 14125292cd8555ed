import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { isAdminLike, type RoleKey } from '@sigaf/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireAuth } from '../../http/auth.js';
import { baseUrl } from '../../http/envelope.js';
import type { Builder, BuildJob } from './build.js';
import type { AnswerVersionRepository } from './repository.js';

/**
 * Whole-course answers kept serialised (docs/development/performance.md, "Whole-course answers").
 *
 * The original client asks for a course's every ticket, every enrolment and every student's
 * results on chosen activities in one answer each (11–28 MB at the largest course). Building one
 * takes about a second of presenting and serialising (on PostgreSQL in a thread of its own:
 * builders.ts); the answer is the same until a row it shows changes. Each answer is kept as its
 * JSON text under the course's answer version (migration 0024: statement triggers give a course a
 * new version in the transaction of every write to a table its answers read), read before the
 * data: a kept answer is served only while the version is the one it was read at, so it is never
 * staler than the last committed change; nor past the time its build says the clock makes it
 * untrue (an open ticket's age, an edit lock's expiry). One build per key and version at a time;
 * the kept answers are bounded in bytes (ANSWER_CACHE_MB), the least recently served going first.
 */

interface Entry {
  version: string;
  /** The answer's UTF-8 JSON text. */
  body: Buffer;
  /** The memory it holds: its text and its compressed copies. */
  bytes: number;
  /** The same text compressed, each encoding made on its first asking. */
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
  /** Time (ms) after which the answer must be read again (an open ticket's age or an edit lock it shows changes). */
  validUntil: number;
}

export type Encoding = 'gzip';
const gzip = promisify(zlib.gzip);
/**
 * Compressed once per kept answer, off the main thread: 11.4 MB of results are 0.58 MB gzipped.
 * Brotli makes them a third smaller at about ten times the CPU (0.3 s at quality 9, 0.26 s for
 * 28 MB at quality 5, against tens of milliseconds): on a staffed day every write makes a new
 * build and a new compression, and the server's CPU is what staff wait for; half a megabyte more
 * on the network is a few milliseconds on a LAN. Gzip alone, then.
 */
const compress = (body: Buffer) => gzip(body, { level: 6 });

/** An answer to send, compressed when the client accepts it. */
export interface Served {
  body: Buffer;
  encoding: Encoding | null;
}

export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<Entry>>();
  private bytes = 0;
  /** Answers served from what was kept, and answers built. */
  readonly counts = { kept: 0, built: 0 };

  /** Where builds run (set when the server is composed: app.ts). */
  builder: Builder | null = null;

  constructor(
    private readonly versions: AnswerVersionRepository,
    private readonly maxBytes: number,
  ) {}

  /**
   * The answer under `key` for a course (its version read here, before the data): the kept one
   * while still true, else a new build.
   */
  async get(key: string, courseId: number, job: BuildJob, encoding: Encoding | null = null): Promise<Served> {
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
      if (!this.builder) throw new Error('No builder for kept answers');
      pending = this.builder.build(job).then(({ body, validUntil }) => {
        const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
        return this.keep(key, { version, body: text, bytes: text.length, encoded: {}, validUntil });
      });
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
    if (!encoding) return { body: entry.body, encoding: null };
    let encoded = entry.encoded[encoding];
    if (!encoded) {
      const made = compress(entry.body);
      encoded = entry.encoded[encoding] = made;
      made.then(
        (z) => {
          if (this.entries.get(key) !== entry) return;
          entry.bytes += z.length;
          this.bytes += z.length;
          this.evict();
        },
        () => {
          // A failed compression is not kept: the next asking tries again.
          if (entry.encoded[encoding] === made) delete entry.encoded[encoding];
        },
      );
    }
    return { body: await encoded, encoding };
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
 * Sends a whole-course answer through the cache, built by its name (builds.ts). The caller has
 * checked access already; the key is the caller's scope (keptScope), the links' base and the
 * request's path and query.
 */
export async function sendKept(request: FastifyRequest, reply: FastifyReply, cache: AnswerCache, courseId: number, name: string) {
  const key = `${keptScope(requireAuth(request))}\n${baseUrl(request)}\n${request.url}`;
  // The request as the build reads it, as data (it may be built on another thread).
  const job: BuildJob = { name, request: { url: request.url, auth: request.auth, query: request.query, params: request.params, server: { config: { PUBLIC_URL: request.server.config.PUBLIC_URL } } } };
  const { body, encoding } = await cache.get(key, courseId, job, preferredEncoding(request.headers['accept-encoding']));
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(body);
}

/** The encoding to send for an Accept-Encoding header: gzip when taken (not at q=0; also as `*` or `x-gzip`); else none. */
export function preferredEncoding(header: string | string[] | undefined): Encoding | null {
  const taken = new Set<string>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (!q || Number(q.slice(2)) > 0) taken.add(name === 'x-gzip' ? 'gzip' : name);
  }
  return taken.has('gzip') || taken.has('*') ? 'gzip' : null;
}
