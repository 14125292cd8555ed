import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Work on the server's only thread a batch at a time, letting other requests run between batches:
 * a whole-course answer (30,000 tickets, 28 MB) is about a second of presenting and serialising,
 * and every request arriving meanwhile would wait for all of it (docs/development/performance.md,
 * "Staffed day").
 */
export const BATCH = 500;

/** `items.map(fn)`, a batch per turn of the event loop. */
export async function mapInTurns<T, U>(items: readonly T[], fn: (item: T) => U): Promise<U[]> {
  if (items.length <= BATCH) return items.map(fn);
  const out: U[] = [];
  for (let i = 0; i < items.length; i += BATCH) {
    if (i) await nextTurn();
    for (const item of items.slice(i, i + BATCH)) out.push(fn(item));
  }
  return out;
}

/** A synchronous JSON writer: `JSON.stringify`, or one that sets something up around it. */
type Stringify = (value: unknown) => string | undefined;

/**
 * `JSON.stringify(value)`, a batch of a long array's elements per turn: each batch is written by
 * `stringify` in one synchronous call (`toJSON` calls run in order, as in one call); the objects
 * around a long array are written key by key.
 */
export async function stringifyInTurns(value: unknown, stringify: Stringify = JSON.stringify): Promise<string> {
  const out: string[] = [];
  await write(value, out, stringify);
  return out.join('');
}

/** The same text as UTF-8 bytes, each batch encoded in its own turn (a megabyte at most between two turns). */
export async function utf8InTurns(value: unknown, stringify: Stringify = JSON.stringify): Promise<Buffer> {
  const out: string[] = [];
  await write(value, out, stringify);
  const bytes: Buffer[] = [];
  let since = 0;
  for (const piece of out) {
    if (since > 1 << 20) {
      await nextTurn();
      since = 0;
    }
    bytes.push(Buffer.from(piece));
    since += piece.length;
  }
  return Buffer.concat(bytes);
}

async function write(value: unknown, out: string[], stringify: Stringify): Promise<void> {
  if (Array.isArray(value) && value.length > BATCH) {
    out.push('[');
    for (let i = 0; i < value.length; i += BATCH) {
      if (i) await nextTurn();
      out.push((i ? ',' : '') + (stringify(value.slice(i, i + BATCH)) ?? '[]').slice(1, -1));
    }
    out.push(']');
    return;
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function' && holdsLongArray(value)) {
    out.push('{');
    let first = true;
    for (const [key, v] of Object.entries(value)) {
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      out.push(`${first ? '' : ','}${JSON.stringify(key)}:`);
      first = false;
      await write(v, out, stringify);
    }
    out.push('}');
    return;
  }
  out.push(stringify(value) ?? 'null');
}

/** Whether a long array sits in this object, at any depth through plain objects. */
function holdsLongArray(value: object): boolean {
  for (const v of Object.values(value)) {
    if (Array.isArray(v) ? v.length > BATCH : v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON !== 'function' && holdsLongArray(v)) return true;
  }
  return false;
}
