import { describe, expect, it } from 'vitest';
import { daysBetween } from './days';

describe('report day chips', () => {
  it('lists every day of the range, across a month end', () => {
    expect(daysBetween('2024-02-27', '2024-03-02')).toEqual([
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
      '2024-03-02',
    ]);
  });
  it('accepts a range picked backwards', () => {
    expect(daysBetween('2024-03-03', '2024-03-01')).toEqual([
      '2024-03-01',
      '2024-03-02',
      '2024-03-03',
    ]);
  });
  it('caps long ranges and ignores bad input', () => {
    expect(daysBetween('2024-01-01', '2024-12-31', 10)).toHaveLength(10);
    expect(daysBetween('', '2024-01-01')).toEqual([]);
  });
});
