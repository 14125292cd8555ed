import { describe, expect, it } from 'vitest';
import { prng } from '../../../tools/moodle-sim/src/generator.js';
import { idleFactor, responseProbability, simulateStudent } from '../src/demo/responses.js';

/** The demo's SIMULATED answers to contacts: the probabilities stated in responses.ts, and a student's days. */
const H = 3_600_000;
const DAY = 24 * H;

/** A generator whose every draw is `v` (0: everything happens; just under 1: nothing does). */
const fixed = (v: number) => ({ ...prng(1), next: () => v, int: (min: number) => min });

describe('simulated answers to contacts', () => {
  it('depend on the channel and on the days without access', () => {
    expect(responseProbability('phone', 2)).toBeCloseTo(0.55, 10);
    expect(responseProbability('email', 2)).toBeCloseTo(0.25, 10);
    expect(responseProbability('phone', 10)).toBeCloseTo(0.55 * 0.75, 10);
    expect(responseProbability('email', 20)).toBeCloseTo(0.125, 10);
    expect(responseProbability('whatsapp', null)).toBeCloseTo(0.35 * 0.4, 10);
    expect([3, 7, 13, 14, null].map(idleFactor)).toEqual([1, 0.75, 0.75, 0.5, 0.4]);
  });

  it('a student who always answers: the next daily sync sees the answer, 4 points up (a return on their own: 0 points)', () => {
    const from = Date.UTC(2026, 0, 1);
    const contact = from + 3 * DAY + 10 * H;
    const rows = simulateStudent(fixed(0), from, from + 10 * DAY, [
      { at: contact, channel: 'phone' },
    ]);
    // Every draw is 0: a return on their own each day at day − 1 h (0 points), and the answer to the contact 2 hours after it.
    const gains = rows
      .slice(1)
      .map((r, i): [number, number] => [r.at, r.progress - rows[i]!.progress]);
    expect(gains.filter(([, g]) => g > 0)).toEqual([[from + 4 * DAY, 4]]);
    expect(rows.find((r) => r.at === from + 4 * DAY)!.lastAccess).toBe(from + 4 * DAY - H);
  });

  it('a student who never answers nor comes back keeps their first point only', () => {
    const from = Date.UTC(2026, 0, 1);
    const rows = simulateStudent(fixed(0.999), from, from + 20 * DAY, [
      { at: from + DAY, channel: 'phone' },
    ]);
    expect(rows).toHaveLength(1);
  });

  it('over many students, phone contacts bring back more than mail', () => {
    const rnd = prng(7);
    const from = Date.UTC(2026, 0, 1);
    const back = { phone: 0, email: 0 };
    for (let i = 0; i < 400; i++) {
      const channel = i % 2 ? 'phone' : 'email';
      const at = from + 5 * DAY;
      const rows = simulateStudent(rnd, from, from + 20 * DAY, [{ at, channel }]);
      if (
        rows.some((r) => r.lastAccess !== null && r.lastAccess > at && r.lastAccess <= at + 7 * DAY)
      )
        back[channel as 'phone' | 'email']++;
    }
    expect(back.phone).toBeGreaterThan(back.email);
  });
});
