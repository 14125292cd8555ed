import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  designEffect,
  NO_MOMENTS,
  pointsOver,
  wilson,
  type StudentMoments,
} from '../src/modules/outcomes/stats.js';

/**
 * Wilson intervals against values computed by hand from the formula
 * (p + z²/2n ± z√(p(1−p)/n + z²/4n²)) / (1 + z²/n), z = 1.96.
 */
describe('Wilson score interval', () => {
  it('8 of 20: 0.2188 – 0.6134', () => {
    // p = 0.4, z² = 3.8415, z²/n = 0.19207, denominator 1.19207; centre (0.4 + 0.09604) / 1.19207 = 0.41612;
    // half = 1.96 √(0.012 + 0.0024010) / 1.19207 = 1.96 × 0.120004 / 1.19207 = 0.19731.
    const r = wilson(8, 20);
    expect(r.rate).toBe(0.4);
    expect(r.low).toBeCloseTo(0.2188, 4);
    expect(r.high).toBeCloseTo(0.6134, 4);
  });

  it('0 of 10: 0 – 0.2775 (never below 0)', () => {
    // centre = 0.19207 / 1.38415 = 0.13877; half = 1.96 × √(0.0096037) / 1.38415 = 0.13877.
    const r = wilson(0, 10);
    expect(r.rate).toBe(0);
    expect(r.low).toBeCloseTo(0, 6);
    expect(r.high).toBeCloseTo(0.2775, 4);
  });

  it('30 of 30: 0.8865 – 1', () => {
    // centre = (1 + 0.064025) / 1.12805 = 0.94325; half = 1.96 × √(0.0010671) / 1.12805 = 0.056756.
    const r = wilson(30, 30);
    expect(r.low).toBeCloseTo(0.8865, 4);
    expect(r.high).toBeCloseTo(1, 6);
  });

  it('50 of 100: 0.4038 – 0.5962 (symmetric around one half)', () => {
    const r = wilson(50, 100);
    expect(r.low).toBeCloseTo(0.4038, 4);
    expect(r.high).toBeCloseTo(0.5962, 4);
    expect(r.low! + r.high!).toBeCloseTo(1, 10);
  });

  it('no sample: no rate and no interval; impossible counts refused', () => {
    expect(wilson(0, 0)).toEqual({ rate: null, n: 0, low: null, high: null });
    expect(() => wilson(3, 2)).toThrow(RangeError);
    expect(() => wilson(-1, 2)).toThrow(RangeError);
    expect(() => wilson(1.5, 2)).toThrow(RangeError);
  });

  it('points over the baseline, rounded to a tenth', () => {
    expect(pointsOver(0.4, 0.25)).toBe(15);
    expect(pointsOver(0.3333, 0.5)).toBe(-16.7);
    expect(pointsOver(null, 0.5)).toBeNull();
  });
});

describe('design effect from moments', () => {
  /** The sums the report's statement makes, over the students with student-weeks. */
  const momentsOf = (students: { m: number; y: number }[]): StudentMoments =>
    students
      .filter((s) => s.m > 0)
      .reduce<StudentMoments>(
        (a, s) => ({
          g: a.g + 1,
          m: a.m + s.m,
          y: a.y + s.y,
          yy: a.yy + s.y * s.y,
          ym: a.ym + s.y * s.m,
          mm: a.mm + s.m * s.m,
        }),
        NO_MOMENTS,
      );

  /** Kish's cluster-robust variance over the simple one, each student's residual summed directly. */
  const direct = (students: { m: number; y: number }[]) => {
    const used = students.filter((s) => s.m > 0);
    const g = used.length;
    const m = used.reduce((a, s) => a + s.m, 0);
    const y = used.reduce((a, s) => a + s.y, 0);
    if (g < 2 || m === 0 || y === 0 || y === m) return 1;
    const p = y / m;
    const v = ((g / (g - 1)) * used.reduce((a, s) => a + (s.y - p * s.m) ** 2, 0)) / (m * m);
    return Math.max(1, v / ((p * (1 - p)) / (m - 1)));
  };

  it('equals the residuals summed student by student', () => {
    const student = fc
      .integer({ min: 0, max: 20 })
      .chain((m) => fc.record({ m: fc.constant(m), y: fc.integer({ min: 0, max: m }) }));
    fc.assert(
      fc.property(fc.array(student, { maxLength: 200 }), (students) => {
        expect(designEffect(momentsOf(students))).toBeCloseTo(direct(students), 9);
      }),
    );
  });

  it('one week per student gives 1; every week of a student alike gives more', () => {
    expect(designEffect(momentsOf([1, 0, 1, 0, 0].map((y) => ({ m: 1, y }))))).toBeCloseTo(1, 9);
    const alike = [4, 0, 4, 0].map((y) => ({ m: 4, y }));
    expect(designEffect(momentsOf(alike))).toBeGreaterThan(3);
  });
});
