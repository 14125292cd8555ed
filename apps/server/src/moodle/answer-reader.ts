/**
 * Reads one Moodle answer as it streams in, within limits, and parses it in slices.
 *
 * A Moodle site is outside our control (a wrong URL, a compromised site): its answer may be a
 * compression bomb, hundreds of megabytes of JSON, or JSON made of nothing but tiny values, whose
 * parse takes seconds of the server's one thread and gigabytes of memory. So the body is never
 * held whole nor parsed in one piece:
 *
 * - the bytes received and the bytes decoded are each counted against `maxBytes`;
 * - a scanner walks the bytes once (strings skipped natively) and counts containers (`{`, `[`)
 *   and separators (`,`) against a density real answers never reach (every recorded answer has
 *   more than 32 bytes per container and 4 per separator: see the test), and the nesting depth;
 * - the answer is parsed by `JSON.parse` in slices: a top-level list (or a list that is a field
 *   of the top-level object, such as the grade report's `usergrades`) about 256 KB of elements at
 *   a time, every other field on its own. One slice may hold at most `maxSliceBytes`.
 *
 * So the time of one synchronous step is bounded by a slice of data of real density, the memory
 * by the limits, and the event loop keeps turning between chunks. Each element of a list is
 * handed to the caller as soon as its slice is parsed (`AnswerHooks.element`: checked, and kept
 * only as far as it is needed), and the memory a slice may build is told before it is parsed
 * (`AnswerHooks.hold`: its bytes, plus 64 per object or list and 8 per value, more than V8 keeps
 * of them), so a caller can bound what all its answers hold together. A body that is not JSON is not
 * parsed: its first bytes are kept to say what it was.
 *
 * Hand-written rather than a streaming JSON library (stream-json and the like): those build every
 * value token by token in JavaScript; this scanner only finds the slices' edges, lets the native
 * JSON.parse build them, and counts the density that refuses a bomb in its first kilobytes.
 */

export interface AnswerLimits {
  /** Bytes of one answer, on the wire and decoded. */
  maxBytes: number;
  /** Bytes of one element of a list, or of one field, parsed at once. */
  maxSliceBytes?: number;
}

/** What the caller does with an answer's values as they are built (see `JsonAnswerReader`). */
export interface AnswerHooks {
  /**
   * Each element of a streamed list as it is parsed (`list`: the member's name, '' for a list
   * answered whole): returns what to keep of it, or DROP; throws to refuse the answer.
   */
  element?: (list: string, value: unknown, index: number) => unknown;
  /** The memory about to be built from a slice (bytes, estimated before parsing); throws to refuse it. */
  hold?: (bytes: number) => void;
}

/** Returned by `AnswerHooks.element`: the element is not kept. */
export const DROP: unique symbol = Symbol('drop');

/** What an answer turned out to be: a parsed JSON value, or the first bytes of something else. */
export type ReadAnswer = { json: { value: unknown } } | { text: string };

/** The answer broke a limit; `detail` says which, in Spanish. */
export class AnswerTooLarge extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'AnswerTooLarge';
  }
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const COMMA = 44;
const COLON = 58;
const isSpace = (b: number) => b === 32 || b === 10 || b === 13 || b === 9;

/** Slices of a list are parsed once they hold this many bytes. */
const SLICE_TARGET = 256 * 1024;
const DEFAULT_MAX_SLICE = 16 * 1024 * 1024;
const MAX_DEPTH = 64;
/** Real answers: more bytes than this per container and per separator (plus a small allowance). */
const BYTES_PER_CONTAINER = 32;
const BYTES_PER_SEPARATOR = 4;
const ALLOWANCE = 2000;
const HEAD_BYTES = 2048;
/** Memory charged per container and per value beyond the slice's bytes (see `AnswerHooks.hold`). */
const HELD_PER_CONTAINER = 64;
const HELD_PER_SEPARATOR = 8;
const BRACKETS = Buffer.from('[]');

/** As JSON.parse sets a member: an own property, even one named __proto__. */
const setField = (target: unknown, name: string, value: unknown) =>
  Object.defineProperty(target, name, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });

const mb = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;

type Top = 'unknown' | 'array' | 'object' | 'scalar' | 'text';
/** In the top-level object: where the scanner is among its members. */
type Member = 'key' | 'colon' | 'value-start' | 'value' | 'list' | 'after-value';

export class JsonAnswerReader {
  private readonly maxSlice: number;
  private wire = 0;
  private bytes = 0;
  private containers = 0;
  private separators = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private top: Top = 'unknown';
  private member: Member = 'key';
  private failed = false;
  private done = false;
  private head = '';
  private result: unknown;
  /** The top-level object's current key (its JSON text while being read). */
  private key = '';
  private keyParts: Buffer[] = [];
  /** No member read yet in the top-level object. */
  private empty = true;
  /** The list that slices are parsed into, while one is open; its name and elements so far. */
  private list: unknown[] | null = null;
  private listName = '';
  private listIndex = 0;
  /** Containers and separators already charged to `hooks.hold`. */
  private heldContainers = 0;
  private heldSeparators = 0;
  /** Parts of the open slice from earlier chunks, and where it starts in the current one. */
  private parts: Buffer[] = [];
  private partsBytes = 0;
  private sliceFrom = -1;

  constructor(
    private readonly limits: AnswerLimits,
    private readonly hooks: AnswerHooks = {},
  ) {
    this.maxSlice = limits.maxSliceBytes ?? DEFAULT_MAX_SLICE;
  }

  /** Bytes as they arrived on the wire (before decompression). */
  received(n: number) {
    this.wire += n;
    if (this.wire > this.limits.maxBytes)
      throw new AnswerTooLarge(`más de ${mb(this.limits.maxBytes)}`);
  }

  /** Decoded bytes, in order. */
  write(chunk: Buffer) {
    let start = 0;
    if (
      this.bytes === 0 &&
      chunk.length >= 3 &&
      chunk[0] === 0xef &&
      chunk[1] === 0xbb &&
      chunk[2] === 0xbf
    )
      start = 3;
    this.bytes += chunk.length;
    if (this.bytes > this.limits.maxBytes)
      throw new AnswerTooLarge(`más de ${mb(this.limits.maxBytes)}`);
    if (this.head.length < HEAD_BYTES)
      this.head += chunk.subarray(start, start + HEAD_BYTES - this.head.length).toString('utf8');
    if (this.failed || this.top === 'text') return;
    if (this.sliceFrom >= 0) this.sliceFrom = start;
    this.scan(chunk, start);
    if (this.sliceFrom >= 0) {
      const rest = chunk.subarray(this.sliceFrom);
      this.parts.push(rest);
      this.partsBytes += rest.length;
      if (this.partsBytes > this.maxSlice + SLICE_TARGET)
        throw new AnswerTooLarge(`un elemento de más de ${mb(this.maxSlice)}`);
      this.sliceFrom = 0;
    }
  }

  /** The whole answer has arrived. */
  end(): ReadAnswer {
    if (this.top === 'scalar' && !this.failed) {
      this.result = this.parse(this.takeSlice(null, 0), false);
      this.done = !this.failed;
    }
    if (this.failed || !this.done || this.top === 'text' || this.top === 'unknown')
      return { text: this.head };
    return { json: { value: this.result } };
  }

  private scan(chunk: Buffer, from: number) {
    const n = chunk.length;
    for (let i = from; i < n; i++) {
      if (this.inString) {
        const close = this.stringEnd(chunk, i);
        const readingKey = this.top === 'object' && this.depth === 1 && this.member === 'key';
        if (readingKey) this.keyParts.push(chunk.subarray(i, close < 0 ? n : close + 1));
        if (close < 0) return;
        i = close;
        this.inString = false;
        if (readingKey) {
          this.key = Buffer.concat(this.keyParts).toString('utf8');
          this.keyParts = [];
          if (this.key.length > 1024) return this.fail();
          this.member = 'colon';
        }
        continue;
      }
      const b = chunk[i]!;
      if (isSpace(b)) continue;
      if (this.done) return this.fail(); // something after the value
      if (this.top === 'unknown') {
        if (!this.begin(b, i)) return;
        continue;
      }
      const atTop = this.top === 'object' && this.depth === 1;
      if (b === QUOTE) {
        this.inString = true;
        if (atTop) {
          if (this.member === 'key') this.keyParts.push(chunk.subarray(i, i + 1));
          else if (this.member === 'value-start') this.startValue(i);
          else return this.fail();
        }
        continue;
      }
      if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
        if (atTop) {
          if (this.member !== 'value-start') return this.fail();
          if (b === OPEN_ARRAY) {
            this.member = 'list';
            const name = this.keyName();
            if (name === undefined) return;
            setField(this.result, name, (this.list = []));
            this.listName = name;
            this.listIndex = 0;
            this.open(2);
            this.sliceFrom = i + 1;
            continue;
          }
          this.startValue(i);
        }
        this.open(this.depth + 1);
        continue;
      }
      if (b === COMMA) this.count('separator');
      if (b === COMMA || b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        if (this.list && this.depth === (this.top === 'array' ? 1 : 2)) {
          // The end of an element of the list being sliced: parse ~256 KB of them at a time.
          const more = b === COMMA;
          if (!more && b !== CLOSE_ARRAY) return this.fail();
          if (more && this.partsBytes + i - this.sliceFrom < SLICE_TARGET) continue;
          this.flushList(chunk, i, more);
          if (this.failed) return;
          if (more) continue;
          this.list = null;
          this.depth--;
          if (this.top === 'array') this.done = true;
          else this.member = 'after-value';
          continue;
        }
        if (atTop) {
          if (this.member === 'value') {
            const name = this.keyName();
            if (name === undefined) return;
            setField(this.result, name, this.parse(this.takeSlice(chunk, i), false));
            if (this.failed) return;
          } else if (!(
            this.member === 'after-value' ||
            (b === CLOSE_OBJECT && this.member === 'key' && this.empty)
          ))
            return this.fail();
          this.empty = false;
          if (b === COMMA) this.member = 'key';
          else if (b === CLOSE_OBJECT) {
            this.depth = 0;
            this.done = true;
          } else return this.fail();
          continue;
        }
        if (b !== COMMA && --this.depth < 0) return this.fail();
        continue;
      }
      if (atTop) {
        if (b === COLON) {
          if (this.member !== 'colon') return this.fail();
          this.member = 'value-start';
        } else if (this.member === 'value-start')
          this.startValue(i); // a number, true, false or null
        else if (this.member !== 'value') return this.fail();
      }
    }
  }

  /** Where the string being read ends (its closing quote) in `chunk` from `i`, or -1. */
  private stringEnd(chunk: Buffer, i: number): number {
    if (this.escaped) {
      this.escaped = false;
      i++;
    }
    for (;;) {
      const quote = chunk.indexOf(QUOTE, i);
      const stop = quote < 0 ? chunk.length : quote;
      // The backslashes right before the quote (or the chunk's end): an odd run escapes it.
      let run = 0;
      while (stop - run - 1 >= i && chunk[stop - run - 1] === BACKSLASH) run++;
      if (quote < 0) {
        this.escaped = run % 2 === 1;
        return -1;
      }
      if (run % 2 === 0) return quote;
      i = quote + 1;
      if (i >= chunk.length) return -1;
    }
  }

  /** The first byte of the answer says what it is; false when it is not JSON. */
  private begin(b: number, i: number): boolean {
    if (b === OPEN_ARRAY) {
      this.top = 'array';
      this.result = this.list = [];
      this.open(1);
      this.sliceFrom = i + 1;
    } else if (b === OPEN_OBJECT) {
      this.top = 'object';
      this.result = {};
      this.open(1);
    } else if (
      b === QUOTE ||
      b === 45 ||
      (b >= 48 && b <= 57) ||
      b === 116 ||
      b === 102 ||
      b === 110
    ) {
      this.top = 'scalar';
      this.sliceFrom = i;
      this.inString = b === QUOTE;
    } else this.top = 'text';
    return this.top !== 'text';
  }

  private open(depth: number) {
    this.depth = depth;
    if (depth > MAX_DEPTH) throw new AnswerTooLarge(`más de ${MAX_DEPTH} niveles de anidamiento`);
    this.count('container');
  }

  private count(what: 'container' | 'separator') {
    if (what === 'container') {
      if (++this.containers > ALLOWANCE + this.bytes / BYTES_PER_CONTAINER)
        throw new AnswerTooLarge('demasiados objetos y listas para su tamaño');
    } else if (++this.separators > ALLOWANCE + this.bytes / BYTES_PER_SEPARATOR)
      throw new AnswerTooLarge('demasiados valores para su tamaño');
  }

  private startValue(i: number) {
    this.member = 'value';
    this.sliceFrom = i;
  }

  private keyName(): string | undefined {
    try {
      const name = JSON.parse(this.key) as unknown;
      if (typeof name === 'string') return name;
    } catch {
      /* below */
    }
    return this.fail();
  }

  /** Parses the list's elements read so far (up to `end` in this chunk) into the list. */
  private flushList(chunk: Buffer, end: number, more: boolean) {
    const text = this.takeSlice(chunk, end, BRACKETS);
    const values = this.parse(text, true) as unknown[] | undefined;
    if (!values || !this.list) return;
    const { element } = this.hooks;
    for (const v of values) {
      const kept = element ? element(this.listName, v, this.listIndex) : v;
      this.listIndex++;
      if (kept !== DROP) this.list.push(kept);
    }
    if (more) this.sliceFrom = end + 1;
  }

  /** The open slice's bytes up to `end` in `chunk` (or all kept, at the end), wrapped if asked. */
  private takeSlice(chunk: Buffer | null, end: number, wrap?: Buffer): Buffer {
    const last = chunk ? [chunk.subarray(Math.max(this.sliceFrom, 0), end)] : [];
    const pieces = wrap
      ? [wrap.subarray(0, 1), ...this.parts, ...last, wrap.subarray(1)]
      : [...this.parts, ...last];
    this.parts = [];
    this.partsBytes = 0;
    this.sliceFrom = -1;
    const size = pieces.reduce((s, p) => s + p.length, 0);
    if (size > this.maxSlice + SLICE_TARGET)
      throw new AnswerTooLarge(`un elemento de más de ${mb(this.maxSlice)}`);
    const held =
      size +
      HELD_PER_CONTAINER * (this.containers - this.heldContainers) +
      HELD_PER_SEPARATOR * (this.separators - this.heldSeparators);
    this.heldContainers = this.containers;
    this.heldSeparators = this.separators;
    this.hooks.hold?.(held);
    return Buffer.concat(pieces, size);
  }

  private parse(bytes: Buffer, list: boolean): unknown {
    try {
      const value = JSON.parse(bytes.toString('utf8')) as unknown;
      if (list && !Array.isArray(value)) return this.fail();
      return value;
    } catch {
      return this.fail();
    }
  }

  /** Not JSON after all: the answer is reported by its first bytes. */
  private fail(): undefined {
    this.failed = true;
    this.parts = [];
    this.list = null;
    return undefined;
  }
}
