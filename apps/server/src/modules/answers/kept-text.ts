import { setImmediate as nextTurn } from 'node:timers/promises';
import { liveChangesAt, MARK_OPEN, renderLive, withMarks, type LiveValue } from './live.js';

/** An answer as kept: its UTF-8 text without its live values, and where each goes. */
export interface KeptText {
  body: Uint8Array;
  /** Where each live value goes in `body` (byte offsets, ascending). */
  at: number[];
  lives: LiveValue[];
}

/** The answer as kept text, the live values cut out. */
export function keptText(value: unknown): KeptText {
  const lives: LiveValue[] = [];
  const utf8 = Buffer.from(withMarks(JSON.stringify, value, lives) ?? 'null');
  if (!lives.length) return { body: utf8, at: [], lives };
  // The marks come in order ("<MARK>0", "<MARK>1", …): each is cut out of the bytes (searched natively, copied once).
  const body = Buffer.allocUnsafe(utf8.length);
  const at: number[] = [];
  let from = 0;
  let size = 0;
  for (let i = 0; i < lives.length; i++) {
    const mark = utf8.indexOf(MARK_OPEN, from);
    size += utf8.copy(body, size, from, mark);
    at.push(size);
    from = utf8.indexOf(0x22, mark + MARK_OPEN.length) + 1;
  }
  size += utf8.copy(body, size, from);
  // A buffer of its own (not a slice of a larger one), so that it can be handed to another thread.
  const kept = new Uint8Array(size);
  kept.set(body.subarray(0, size));
  return { body: kept, at, lives };
}

/** Live values written between two turns of the event loop while a kept answer is rendered. */
const RENDER_BATCH = 5000;

/** The kept text with the live values written in as of `now`: one buffer, the kept bytes copied once, a batch of values per turn. */
export async function renderKept(kept: KeptText, now = new Date()): Promise<Buffer> {
  const body = Buffer.from(kept.body.buffer, kept.body.byteOffset, kept.body.byteLength);
  if (!kept.lives.length) return body;
  const values = kept.lives.map((l) => renderLive(l, now));
  let size = body.length;
  for (const v of values) size += Buffer.byteLength(v);
  const out = Buffer.allocUnsafe(size);
  let from = 0;
  let to = 0;
  for (let i = 0; i < values.length; i++) {
    if (i % RENDER_BATCH === RENDER_BATCH - 1) await nextTurn();
    to += body.copy(out, to, from, kept.at[i]);
    to += out.write(values[i]!, to);
    from = kept.at[i]!;
  }
  body.copy(out, to, from);
  return out;
}

/** When the first live value of the kept text changes after `now` (ms; Infinity without any). */
export function keptChangesAt(kept: KeptText, now: Date): number {
  let min = Infinity;
  for (const l of kept.lives) min = Math.min(min, liveChangesAt(l, now));
  return min;
}
