import { describe, expect, it } from 'vitest';
import { ticketAgeChangesAt, ticketAgeDays, ticketAgeText } from './dates.js';

describe("an open ticket's age", () => {
  const created = new Date('2026-11-20T13:30:00Z');
  it('changes one whole day after its creation, and not before', () => {
    const now = new Date('2026-11-22T10:00:00Z');
    const next = ticketAgeChangesAt(created, now);
    expect(new Date(next).toISOString()).toBe('2026-11-22T13:30:00.000Z');
    expect(ticketAgeDays(created, null, new Date(next - 1))).toBe(
      ticketAgeDays(created, null, now),
    );
    expect(ticketAgeDays(created, null, new Date(next))).toBe(
      ticketAgeDays(created, null, now) + 1,
    );
  });
  it('reads "< 24h", "1 día", "N días"', () => {
    expect([0, 1, 3].map(ticketAgeText)).toEqual(['< 24h', '1 día', '3 días']);
  });
});
