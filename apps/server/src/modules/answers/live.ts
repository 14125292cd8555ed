import crypto from 'node:crypto';
import { ticketAgeChangesAt, ticketAgeDays, ticketAgeText } from '@sigaf/contract';

/**
 * Values of an answer that change with the clock (an open ticket's age), described as data: a kind
 * and its argument. A kept answer holds them apart from its text and writes them at each serving
 * (cache.ts); described as data, they cross to the thread that builds answers and back (builders.ts).
 */
const KINDS = {
  /** An open ticket's age in days; the argument is its creation (ms). */
  ticketAge: { value: (created: number, now: Date) => ticketAgeDays(created, null, now), changesAt: (created: number, now: Date) => ticketAgeChangesAt(created, now) },
  /** The same age in words ("< 24h", "3 días"). */
  ticketAgeText: { value: (created: number, now: Date) => ticketAgeText(ticketAgeDays(created, null, now)), changesAt: (created: number, now: Date) => ticketAgeChangesAt(created, now) },
} satisfies Record<string, { value: (arg: number, now: Date) => unknown; changesAt: (arg: number, now: Date) => number }>;

export type LiveKind = keyof typeof KINDS;
/** A live value as data: its kind and argument. */
export type LiveValue = readonly [LiveKind, number];

const MARK = `@sigaf-live-${crypto.randomBytes(8).toString('hex')}-`;
let collecting: LiveValue[] | null = null;

class Live {
  constructor(readonly value: LiveValue) {}
  toJSON(): unknown {
    if (!collecting) return KINDS[this.value[0]].value(this.value[1], new Date());
    collecting.push(this.value);
    return `${MARK}${collecting.length - 1}`;
  }
}

/**
 * A value of the clock in an answer: written as of now when serialised plainly, or left as a mark
 * while a kept answer is written (`withMarks`) and written at each serving (`renderLive`).
 */
export function live<K extends LiveKind>(kind: K, arg: number): ReturnType<(typeof KINDS)[K]['value']> {
  return new Live([kind, arg]) as never;
}

/** The text of the live value as of `now`. */
export const renderLive = ([kind, arg]: LiveValue, now: Date): string => JSON.stringify(KINDS[kind].value(arg, now)) ?? 'null';

/** When the live value next changes after `now` (ms). */
export const liveChangesAt = ([kind, arg]: LiveValue, now: Date): number => KINDS[kind].changesAt(arg, now);

/** `stringify(value)` with each live value written as a mark (`"<MARK><n>"`, n counting from 0 in order), collected into `into`. */
export function withMarks(stringify: (value: unknown) => string | undefined, value: unknown, into: LiveValue[]): string | undefined {
  collecting = into;
  try {
    return stringify(value);
  } finally {
    collecting = null;
  }
}

/** The bytes that open a mark in the UTF-8 text. */
export const MARK_OPEN = Buffer.from(`"${MARK}`);
