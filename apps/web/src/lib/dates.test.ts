import { chileDateTime, chileParts, dayText } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The one date format of the screens (@sigaf/contract's dates.ts): `dd-mm-yyyy` and
 * `dd-mm-yyyy HH:mm` (24 h) in the organisation's zone, America/Santiago, whatever the browser's.
 */
describe('dates on screen: one format, in Chilean time, in a browser running in another zone', () => {
  const zone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Asia/Tokyo'; // UTC+9 all year: a browser far from Chile
  });
  afterAll(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('the browser really runs in the other zone', () => {
    // 02:30 UTC on 1 December is 11:30 in Tokyo (same day) and 23:30 on 30 November in Santiago (UTC-3 in summer).
    const at = new Date('2026-12-01T02:30:00Z');
    expect([at.getDate(), at.getHours()]).toEqual([1, 11]);
  });

  it("a UTC instant whose Santiago day differs from its UTC day is shown on Santiago's day and hour, 24 h", () => {
    expect(chileDateTime('2026-12-01T02:30:00Z')).toBe('30-11-2026 23:30');
    expect(chileDateTime(new Date('2026-12-01T02:30:00Z'))).toBe('30-11-2026 23:30');
    expect(chileParts('2026-12-01T02:30:00Z')).toEqual({
      date: '30-11-2026',
      time: '23:30',
      day: '2026-11-30',
    });
    // An afternoon in winter (UTC-4): 24 h, never "p. m.".
    expect(chileDateTime('2026-07-15T19:05:00.000Z')).toBe('15-07-2026 15:05');
    expect(chileDateTime('2026-07-15T19:05:00.000Z')).toMatch(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}$/);
  });

  it('no date is an empty text; a calendar day is written dd-mm-yyyy', () => {
    expect(chileDateTime(null)).toBe('');
    expect(chileDateTime(undefined)).toBe('');
    expect(dayText('2026-03-09')).toBe('09-03-2026');
    expect(dayText('09-03-2026')).toBe('09-03-2026');
  });
});
