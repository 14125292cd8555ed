/**
 * The effectiveness report's statistics, pure: a proportion with its 95 % Wilson score interval
 * (Wilson, 1927; better than the normal approximation for small samples and rates near 0 or 1).
 */

/** z for a two-sided 95 % interval. */
export const Z95 = 1.959963984540054;

export interface Proportion {
  /** successes / n, or null when n is 0. */
  rate: number | null;
  n: number;
  low: number | null;
  high: number | null;
}

/**
 * The Wilson score interval of `successes` in `n`:
 *   centre = (p + z²/2n) / (1 + z²/n),  half = z √(p(1−p)/n + z²/4n²) / (1 + z²/n).
 */
export function wilson(successes: number, n: number, z = Z95): Proportion {
  if (
    !Number.isInteger(n) ||
    n < 0 ||
    !Number.isInteger(successes) ||
    successes < 0 ||
    successes > n
  )
    throw new RangeError(`invalid proportion ${successes}/${n}`);
  if (n === 0) return { rate: null, n: 0, low: null, high: null };
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return { rate: p, n, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** A rate's difference from its baseline, in percentage points (null when either is unknown). */
export const pointsOver = (rate: number | null, baseline: number | null): number | null =>
  rate === null || baseline === null ? null : Math.round((rate - baseline) * 1000) / 10;

/**
 * Sums over the students with student-weeks: G students, M = Σm student-weeks, Y = Σy re-engaged,
 * and Σy², Σym, Σm² (the database sums them: a report need not hold a row per student).
 */
export interface StudentMoments {
  g: number;
  m: number;
  y: number;
  yy: number;
  ym: number;
  mm: number;
}
export const NO_MOMENTS: StudentMoments = { g: 0, m: 0, y: 0, yy: 0, ym: 0, mm: 0 };

/**
 * The design effect of repeated student-weeks of one student (Kish): the cluster-robust variance
 * of the overall rate over its simple-random-sampling variance, ≥ 1. With p = Y / M:
 *   V_cluster = G/(G−1) · Σ (y − p·m)² / M²,  V_srs = p(1−p) / (M−1),  deff = max(1, V_cluster / V_srs)
 * where Σ (y − p·m)² = Σy² − 2p·Σym + p²·Σm² (both variances unbiased: one week per student
 * gives 1). 1 when it cannot be estimated (fewer than two students, p of 0 or 1).
 */
export function designEffect(s: StudentMoments): number {
  const { g, m, y } = s;
  if (g < 2 || m === 0 || y === 0 || y === m) return 1;
  const p = y / m;
  const squares = s.yy - 2 * p * s.ym + p * p * s.mm;
  const vCluster = ((g / (g - 1)) * squares) / (m * m);
  return Math.max(1, vCluster / ((p * (1 - p)) / (m - 1)));
}

/** The Wilson interval of `successes` in `n` with the effective sample n / deff (the rate and n stay those observed). */
export function wilsonClustered(successes: number, n: number, deff: number, z = Z95): Proportion {
  const base = wilson(successes, n, z);
  if (n === 0 || deff <= 1) return base;
  const ne = n / deff;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / ne;
  const centre = (p + z2 / (2 * ne)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / ne + z2 / (4 * ne * ne))) / denominator;
  return { rate: p, n, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * A rate's difference from its standardised baseline over the same student-weeks: `accessed` of
 * `n` against `expected` (the re-engaged the baseline predicts, variance `expectedVar`), with a
 * 95 % normal interval: (accessed − expected) / n ± z √(deff·p(1−p)/n + expectedVar/n²).
 */
export function differenceFrom(
  accessed: number,
  n: number,
  expected: number,
  expectedVar: number,
  deff: number,
  z = Z95,
): { value: number; low: number; high: number } | null {
  if (n === 0) return null;
  const p = accessed / n;
  const value = (accessed - expected) / n;
  const half = z * Math.sqrt((deff * p * (1 - p)) / n + expectedVar / (n * n));
  return { value, low: Math.max(-1, value - half), high: Math.min(1, value + half) };
}

/** The standardised baseline's rate (expected / n) with its 95 % normal interval. */
export function standardised(expected: number, expectedVar: number, n: number, z = Z95) {
  if (n === 0) return { rate: null, low: null, high: null };
  const rate = expected / n;
  const half = (z * Math.sqrt(expectedVar)) / n;
  return { rate, low: Math.max(0, rate - half), high: Math.min(1, rate + half) };
}
