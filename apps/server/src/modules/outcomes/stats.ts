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
