import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { isAdminLike } from '@sigaf/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { requireAuth } from '../../http/auth.js';
import { baseUrl } from '../../http/envelope.js';
import type { Builder, BuildJob } from './build.js';
import type { AnswerVersionRepository } from './repository.js';

/**
 * Whole-course answers kept serialised (docs/development/performance.md, "Whole-course answers").
 *
 * The original client asks for a course's every ticket, every enrolment and every student's
 * results on chosen activities in one answer each (11–28 MB at the largest course, a second or so
 * to build: builders.ts). Each answer is kept gzipped under the course's answer version (migration
 * 0024: statement triggers give a course a new version in the transaction of every write to a
 * table its answers read), read before the data: a kept answer is served only while the version is
 * the one it was read at, so it is never staler than the last committed change; nor past the time
 * its build says the clock makes it untrue (an open ticket's age, an edit lock's expiry). One build
 * per key and version at a time; the kept bytes are bounded (ANSWER_CACHE_MB), the least recently
 * served going first.
 */

interface Entry {
  version: string;
  /** The answer's JSON text, gzipped. */
  body: Buffer;
  /** Time (ms) after which the answer must be read again (an open ticket's age or an edit lock it shows changes). */
  validUntil: number;
}

const gunzip = promisify(zlib.gunzip);

export class AnswerCache {
  /** The least recently served go first once the bytes kept would pass the bound. */
  private readonly entries: LRUCache<string, Entry>;
  private readonly building = new Map<string, Promise<Entry>>();
  /** Answers served from what was kept, and answers built. */
  readonly counts = { kept: 0, built: 0 };

  /** Where builds run (set when the server is composed: app.ts). */
  builder: Builder | null = null;

  constructor(
    private readonly versions: AnswerVersionRepository,
    maxBytes: number,
  ) {
    // 0 keeps nothing: lru-cache wants a positive bound, and no gzipped answer fits in 1 byte.
    this.entries = new LRUCache({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (entry) => entry.body.length,
    });
  }

  /**
   * The answer under `key` for a course (its version read here, before the data): the kept one
   * while still true, else a new build; decompressed for a client that does not take gzip.
   */
  async get(key: string, courseId: number, job: BuildJob, gzipped: boolean): Promise<Buffer> {
    const { body } = await this.entry(key, courseId, job);
    return gzipped ? body : gunzip(body);
  }

  private async entry(key: string, courseId: number, job: BuildJob): Promise<Entry> {
    const version = await this.versions.versionOf(courseId);
    // Looked at without counting as served; served (get) only while still true.
    const kept = this.entries.peek(key);
    if (kept && kept.version === version && kept.validUntil > Date.now()) {
      this.entries.get(key);
      this.counts.kept++;
      return kept;
    }
    const flight = `${key}\n${version}`;
    let pending = this.building.get(flight);
    if (!pending) {
      if (!this.builder) throw new Error('No builder for kept answers');
      pending = this.builder.build(job).then(({ body, validUntil }) => {
        const entry = {
          version,
          body: Buffer.from(body.buffer, body.byteOffset, body.byteLength),
          validUntil,
        };
        // An answer larger than the bound is served and not kept (and the stale one it replaces goes).
        this.entries.set(key, entry);
        return entry;
      });
      this.building.set(flight, pending);
      const done = () => this.building.delete(flight);
      pending.then(done, done);
      this.counts.built++;
    }
    return pending;
  }

  /** Bytes kept now. */
  get size(): number {
    return this.entries.calculatedSize;
  }
}

/**
 * Sends a whole-course answer through the cache, built by its name (answer-builds.ts). The caller has
 * checked access already. The key is what the caller may see (administrators and developers all
 * the same, so one kept answer serves them all; anyone else their own: an operator's tickets and
 * delete flags, a tutor's classrooms), the links' base and the request's path and query.
 */
export async function sendKept(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: AnswerCache,
  courseId: number,
  name: string,
) {
  const actor = requireAuth(request);
  const key = `${isAdminLike(actor.role) ? 'admin' : `user ${actor.id}`}\n${baseUrl(request)}\n${request.url}`;
  // The request as the build reads it, as data (it may be built on another thread).
  const job: BuildJob = {
    name,
    request: {
      url: request.url,
      auth: request.auth,
      query: request.query,
      params: request.params,
      server: { config: { PUBLIC_URL: request.server.config.PUBLIC_URL } },
    },
  };
  const gzipped = takesGzip(request.headers['accept-encoding']);
  const body = await cache.get(key, courseId, job, gzipped);
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  if (gzipped) reply.header('content-encoding', 'gzip');
  return reply.send(body);
}

/** Whether an Accept-Encoding header takes gzip (not at q=0; also as `*` or `x-gzip`). */
export function takesGzip(header: string | string[] | undefined): boolean {
  const codings = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .toLowerCase()
    .split(',');
  return codings.some(
    (c) => /^\s*(x-gzip|gzip|\*)\s*(;|$)/.test(c) && !/;\s*q=0(\.0*)?\s*(;|$)/.test(c),
  );
}
