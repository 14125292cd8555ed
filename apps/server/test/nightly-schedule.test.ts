import { describe, expect, it } from 'vitest';
import { processInUtc } from './utc-clock.js';
import { loadConfig } from '../src/config.js';
import {
  dueDay,
  localDay,
  nightlySchedule,
  parseSchedule,
  type NightlySchedule,
} from '../src/modules/moodle-sync/schedule.js';

/**
 * The nightly sync runs at its hour in the organisation's time zone whatever the server's clock
 * (here UTC), across America/Santiago's DST changes (2026: back to 23:00 at the end of 4 April,
 * on to 01:00 at the end of 5 September), and the demo's first night is not in its first hour.
 */

const MINUTE = 60_000;
processInUtc();

const santiago = (time: string): NightlySchedule => ({
  at: parseSchedule(time)!,
  timeZone: 'America/Santiago',
});

/** The first minute from `from` at which some day's sync is due, looking minute by minute. */
function firstDue(from: Date | string, schedule: NightlySchedule, days = 3) {
  const start = Math.ceil(new Date(from).getTime() / MINUTE) * MINUTE;
  for (let t = start; t < start + days * 1440 * MINUTE; t += MINUTE) {
    const day = dueDay(new Date(t), schedule);
    if (day) return { at: new Date(t).toISOString(), day };
  }
  return null;
}

describe('the nightly schedule', () => {
  it('reads the setting and the zone', () => {
    expect(parseSchedule('off')).toBeNull();
    expect(parseSchedule('02:00')).toEqual({ hour: 2, minute: 0 });
    expect(loadConfig({}).TIME_ZONE).toBe('America/Santiago');
    expect(loadConfig({ TIME_ZONE: 'Europe/Madrid' }).TIME_ZONE).toBe('Europe/Madrid');
    expect(() => loadConfig({ TIME_ZONE: 'Chile/Somewhere' })).toThrow(/TIME_ZONE/);
  });

  it("runs at the configured hour of the organisation's zone, not the server's", () => {
    // The server's clock is UTC: its 02:00 is 23:00 of the day before in Santiago (UTC-3 in summer).
    expect(new Date(2026, 0, 10, 2, 0).toISOString()).toBe('2026-01-10T02:00:00.000Z');
    expect(dueDay(new Date('2026-01-10T02:00:00Z'), santiago('02:00'))).toBeNull();
    expect(firstDue('2026-01-09T12:00:00Z', santiago('02:00'))).toEqual({
      at: '2026-01-10T05:00:00.000Z',
      day: '2026-01-10',
    });
    // A process that was down catches up for 3 hours, not later.
    expect(dueDay(new Date('2026-01-10T07:59:00Z'), santiago('02:00'))).toBe('2026-01-10');
    expect(dueDay(new Date('2026-01-10T08:00:00Z'), santiago('02:00'))).toBeNull();
    // Another organisation's zone.
    expect(
      firstDue('2026-01-09T12:00:00Z', { at: { hour: 2, minute: 0 }, timeZone: 'Europe/Madrid' }),
    ).toEqual({ at: '2026-01-10T01:00:00.000Z', day: '2026-01-10' });
    expect(localDay(new Date('2026-01-10T02:00:00Z'), 'America/Santiago')).toBe('2026-01-09');
  });

  it('keeps its local hour across both DST changes', () => {
    // April: UTC-3 until the end of the 4th, then UTC-4.
    expect(firstDue('2026-04-03T12:00:00Z', santiago('02:00'))).toEqual({
      at: '2026-04-04T05:00:00.000Z',
      day: '2026-04-04',
    });
    expect(firstDue('2026-04-04T12:00:00Z', santiago('02:00'))).toEqual({
      at: '2026-04-05T06:00:00.000Z',
      day: '2026-04-05',
    });
    // September: UTC-4 until the end of the 5th, then UTC-3.
    expect(firstDue('2026-09-04T12:00:00Z', santiago('02:00'))).toEqual({
      at: '2026-09-05T06:00:00.000Z',
      day: '2026-09-05',
    });
    expect(firstDue('2026-09-05T12:00:00Z', santiago('02:00'))).toEqual({
      at: '2026-09-06T05:00:00.000Z',
      day: '2026-09-06',
    });
    // 00:30 of 6 September does not exist: the sync runs when the clock jumps to 01:00.
    expect(firstDue('2026-09-05T12:00:00Z', santiago('00:30'))).toEqual({
      at: '2026-09-06T04:00:00.000Z',
      day: '2026-09-06',
    });
    // 23:30 of 4 April happens twice: both are the same day, whose claim is taken once.
    expect(dueDay(new Date('2026-04-05T02:30:00Z'), santiago('23:30'))).toBe('2026-04-04');
    expect(dueDay(new Date('2026-04-05T03:30:00Z'), santiago('23:30'))).toBe('2026-04-04');
  });

  it("the demo's first night is not in its first hour", () => {
    const config = { SYNC_SCHEDULE: '23:00', TIME_ZONE: 'America/Santiago' };
    // Started at 22:56 in Santiago (01:56 UTC): without the rule the sync came 4 minutes later.
    const start = new Date('2026-12-08T01:56:00Z');
    expect(firstDue(start, nightlySchedule(config, start, false)!)).toEqual({
      at: '2026-12-08T02:00:00.000Z',
      day: '2026-12-07',
    });
    expect(firstDue(start, nightlySchedule(config, start, true)!)).toEqual({
      at: '2026-12-09T02:00:00.000Z',
      day: '2026-12-08',
    });
    expect(nightlySchedule({ ...config, SYNC_SCHEDULE: 'off' }, start, true)).toBeNull();
    // Any start time, also in the catch-up window and around a DST change: the first night comes
    // an hour or more after the start, and no later than the next night.
    for (const from of ['2026-12-07T00:00:00Z', '2026-04-03T00:00:00Z', '2026-09-04T00:00:00Z'])
      for (let m = 0; m < 2 * 1440; m += 37) {
        const started = new Date(Date.parse(from) + m * MINUTE);
        for (const time of ['02:00', '23:00', '00:30']) {
          const due = firstDue(
            started,
            nightlySchedule({ ...config, SYNC_SCHEDULE: time }, started, true)!,
          );
          const after = (Date.parse(due!.at) - started.getTime()) / MINUTE;
          expect(after, `${started.toISOString()} ${time}`).toBeGreaterThanOrEqual(60);
          expect(after, `${started.toISOString()} ${time}`).toBeLessThanOrEqual(26 * 60);
        }
      }
  });
});
