import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireAuth } from '../../http/auth.js';
import { baseUrl } from '../../http/envelope.js';
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
 * `live`: written at serve time. One build per key and version at a time; the kept answers are
 * bounded in bytes (ANSWER_CACHE_MB), the least recently served going first.
 */

const NONCE = crypto.randomBytes(8).toString('hex');
const MARK = `@sigaf-live-${NONCE}-`;
const MARKS = new RegExp(`"${MARK}\\d+"`);
let collecting: Live<unknown>[] | null = null;

/** A value computed at serve time from the clock, inside an answer kept serialised. */
class Live<T> {
  constructor(private readonly value: (now: Date) => T) {}
  toJSON(): unknown {
    if (!collecting) return this.value(new Date());
    collecting.push(this as Live<unknown>);
    return `${MARK}${collecting.length - 1}`;
  }
  render(now: Date): string {
    return JSON.stringify(this.value(now)) ?? 'null';
  }
}

/** A value of the clock (`now`) in an answer: computed when it is serialised, or at each serving of a kept answer. */
export const live = <T>(value: (now: Date) => T): T => new Live(value) as unknown as T;

interface Entry {
  version: string;
  /** The text between the live values (one part when there is none). */
  parts: string[];
  lives: Live<unknown>[];
  /** The whole text, when nothing in it is live. */
  body: Buffer | null;
  bytes: number;
  /** Time (ms) after which the answer must be read again (e.g. an edit lock it shows expires). */
  validUntil: number;
}

/** What a build returns: the answer, and when it stops being true by the clock alone. */
export interface Built {
  value: unknown;
  validUntil?: number;
}

function serialise(value: unknown, version: string, validUntil: number): Entry {
  const lives: Live<unknown>[] = [];
  collecting = lives;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    collecting = null;
  }
  if (!lives.length) {
    const body = Buffer.from(text);
    return { version, parts: [], lives, body, bytes: body.length, validUntil };
  }
  const parts = text.split(MARKS);
  return { version, parts, lives, body: null, bytes: text.length * 2, validUntil };
}

function render(entry: Entry): Buffer | string {
  if (entry.body) return entry.body;
  const now = new Date();
  const out: string[] = new Array(entry.parts.length * 2 - 1);
  for (let i = 0; i < entry.lives.length; i++) {
    out[2 * i] = entry.parts[i]!;
    out[2 * i + 1] = entry.lives[i]!.render(now);
  }
  out[out.length - 1] = entry.parts[entry.parts.length - 1]!;
  return out.join('');
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

  /** The answer under `key` for a course: the kept one while still true, else a new build. */
  async get(key: string, courseId: number, build: () => Promise<Built>): Promise<Buffer | string> {
    const version = await this.versions.versionOf(courseId);
    const kept = this.entries.get(key);
    if (kept && kept.version === version && kept.validUntil > Date.now()) {
      // Most recently served last: the first entries are the first to go.
      this.entries.delete(key);
      this.entries.set(key, kept);
      this.counts.kept++;
      return render(kept);
    }
    const flight = `${key}\n${version}`;
    let pending = this.building.get(flight);
    if (!pending) {
      pending = build().then(({ value, validUntil }) => this.keep(key, serialise(value, version, validUntil ?? Infinity)));
      this.building.set(flight, pending);
      const done = () => this.building.delete(flight);
      pending.then(done, done);
      this.counts.built++;
    }
    return render(await pending);
  }

  private keep(key: string, entry: Entry): Entry {
    this.drop(key);
    if (entry.bytes > this.maxBytes) return entry;
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const [old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(old);
    }
    return entry;
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
 * Sends a whole-course answer through the cache. The caller has checked access already; the key
 * is the caller (role and id: answers are scoped and carry per-user flags), the links' base and
 * the request's path and query.
 */
export async function sendKept(request: FastifyRequest, reply: FastifyReply, cache: AnswerCache, courseId: number, build: () => Promise<Built>) {
  const actor = requireAuth(request);
  const key = `${actor.id}:${actor.roleId}:${actor.role ?? ''}\n${baseUrl(request)}\n${request.url}`;
  const body = await cache.get(key, courseId, build);
  return reply.type('application/json; charset=utf-8').send(body);
}
