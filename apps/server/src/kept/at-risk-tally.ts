import type { ClockLogger } from '../jobs/clock.js';

/** A count of at-risk students per operator (user id → students), and when it began. */
export interface AtRiskCount {
  at: number;
  counts: Map<number, number>;
}

/**
 * The workload table's at-risk column, counted once for every administrator (AgendaRepository.
 * atRiskByOperator: 20–45 ms beside a staffed day, more when a marked course is recomputed first:
 * docs/development/performance.md#the-workload-table). Counted when the server starts (`warm`),
 * served as counted for `seconds` (WORKLOAD_AT_RISK_SECONDS), then while one recount runs behind
 * it; once ten times as old, after `forget` (a reassignment, a course's thresholds changed), or
 * once `changedAt` (a Moodle sync finished, in any process) is later than the count, the request
 * waits for a new count. With `seconds` 0 every request counts.
 */
export class AtRiskTally {
  private kept: AtRiskCount | null = null;
  /** The count running now (one at a time); `forget` disowns it. */
  private counting: Promise<AtRiskCount> | null = null;

  constructor(
    private readonly count: () => Promise<Array<{ userId: number; n: number }>>,
    private readonly seconds: number,
    private readonly log?: ClockLogger,
    private readonly now: () => number = Date.now,
    private readonly changedAt?: () => Promise<number | null>,
  ) {}

  async read(): Promise<AtRiskCount> {
    if (this.kept && this.seconds > 0 && this.changedAt) {
      const changed = await this.changedAt();
      if (changed !== null && changed > this.kept.at) return this.recount();
    }
    const age = this.kept && this.seconds > 0 ? this.now() - this.kept.at : Infinity;
    if (age <= this.seconds * 1000) return this.kept!;
    if (age <= this.seconds * 10_000) {
      this.behind();
      return this.kept!;
    }
    return this.recount();
  }

  /** Counts now, in the background (the server's start: the first administrator does not wait). */
  warm(): void {
    if (this.seconds > 0) this.behind();
  }

  /** A count that nobody waits for: a failure is logged, and the next read tries again. */
  private behind(): void {
    this.recount().catch((err) =>
      this.log?.error({ err }, 'the workload table could not count at-risk students'),
    );
  }

  /** Drops the kept count (a reassignment moved students between operators): the next read counts again. */
  forget(): void {
    this.kept = null;
    this.counting = null;
  }

  /** One count at a time; a count that `forget` disowned while it ran is not kept. */
  private recount(): Promise<AtRiskCount> {
    if (this.counting) return this.counting;
    const at = this.now();
    const counting: Promise<AtRiskCount> = this.count()
      .then((rows) => {
        const result = { at, counts: new Map(rows.map((c) => [c.userId, c.n])) };
        if (this.counting === counting) this.kept = result;
        return result;
      })
      .finally(() => {
        if (this.counting === counting) this.counting = null;
      });
    return (this.counting = counting);
  }
}
