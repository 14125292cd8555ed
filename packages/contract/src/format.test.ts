import { describe, expect, it } from 'vitest';
import {
  fileDay,
  formatDate,
  formatDateTime,
  formatGrade,
  formatNumber,
  formatPercent,
  formatTime,
  workbookDate,
} from './format.js';

// 2026-07-07 02:30 UTC is still the 6th, 22:30 in Chile (UTC-4 in winter).
const LATE = new Date('2026-07-07T02:30:00Z');

describe('dates and times', () => {
  it('write a day dd-mm-yyyy in the organisation’s zone, whatever the machine’s', () => {
    expect(formatDate(LATE)).toBe('06-07-2026');
    expect(formatDate('2026-09-07')).toBe('07-09-2026');
    expect(formatDate(null)).toBe('');
    expect(fileDay(LATE)).toBe('06-07-2026');
  });
  it('write times on 24 hours', () => {
    expect(formatDateTime(LATE)).toBe('06-07-2026 22:30');
    expect(formatTime('2026-07-07T18:05:00Z')).toBe('14:05');
  });
  it('hold the local wall clock in a workbook date', () => {
    expect(workbookDate(LATE).toISOString()).toBe('2026-07-06T22:30:00.000Z');
    expect(workbookDate('2026-09-07').toISOString()).toBe('2026-09-07T00:00:00.000Z');
  });
});

describe('numbers', () => {
  it('a decimal comma in Spanish, a point in English', () => {
    expect(formatNumber(87.25, 'es')).toBe('87,3');
    expect(formatNumber(87.25, 'en')).toBe('87.3');
    expect(formatNumber(12_345, 'es')).toBe('12.345');
    expect(formatNumber(12_345, 'en')).toBe('12,345');
    expect(formatNumber(null, 'es')).toBe('—');
  });
  it('percentages in points, one decimal', () => {
    expect(formatPercent(41.666, 'es')).toBe('41,7\u00a0%');
    expect(formatPercent(41.666, 'en')).toBe('41.7%');
    expect(formatPercent(100, 'es')).toBe('100\u00a0%');
    expect(formatPercent(undefined, 'en')).toBe('—');
  });
  it('grades with one or two decimals', () => {
    expect(formatGrade(87.5, 'es')).toBe('87,5');
    expect(formatGrade(87.5, 'en')).toBe('87.5');
    expect(formatGrade(6, 'es')).toBe('6,0');
    expect(formatGrade(6.255, 'es')).toBe('6,26');
  });
});
