import { chileParts, OUTCOME_DEFAULT_DAYS, OUTCOME_MAX_DAYS } from '@sigaf/contract';
import type { Database } from '../db/database.js';
import { MinuteClock, type ClockLogger } from '../jobs/clock.js';
import { OutcomeRepository } from '../modules/outcomes/repository.js';
import { lastSettledDay } from '../modules/outcomes/service.js';

const DAY_MS = 86_400_000;

/** How far back days are kept: the longest period a report may cover, and a day. */
export const KEEP_HORIZON_DAYS = OUTCOME_MAX_DAYS + 1;
/** Days kept in one transaction. */
const CHUNK_DAYS = 7;

const shift = (day: string, days: number) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The first day whose similar students' groups are kept (Mi agenda reads the last OUTCOME_DEFAULT_DAYS days; one more for the clock's edges). */
export const similarFrom = (now: Date) => shift(chileParts(now).day, -OUTCOME_DEFAULT_DAYS - 1);

export interface KeepOptions {
  now?: Date;
  /** Keep at most this many days (a clock's look keeps a few, the next look the rest). */
  limit?: number;
  /** Keep only days from this one (default: KEEP_HORIZON_DAYS back). */
  fromDay?: string;
}

/**
 * Keeps the effectiveness report's figures of the settled days not kept yet, or made stale by a
 * write since they were kept (outcome_kept_days, outcome_kept_groups and outcome_stale_days,
 * migrations 0037 and 0043; docs/usage/efectividad.md), newest first, a chunk of days per
 * transaction. Returns the days kept.
 */
export async function keepOutcomes(db: Database, o: KeepOptions = {}): Promise<string[]> {
  const now = o.now ?? new Date();
  const repo = new OutcomeRepository(db);
  const today = chileParts(now).day;
  const first = o.fromDay ?? shift(today, -KEEP_HORIZON_DAYS);
  const days = await repo.daysToKeep(first, lastSettledDay(now), o.limit ?? KEEP_HORIZON_DAYS);
  const kept: string[] = [];
  for (let i = 0; i < days.length; i += CHUNK_DAYS)
    kept.push(...(await repo.keep(days.slice(i, i + CHUNK_DAYS), now, similarFrom(now))));
  return kept;
}

/**
 * The nightly keeping of the effectiveness report's figures: every server process looks every
 * minute; a look keeps up to two weeks of days that need it (one day just after midnight, and
 * through the day those a late sync or an edit made stale), so a first run over a year of contacts spreads
 * over a few minutes instead of holding one look for long.
 */
export class OutcomeKeeper extends MinuteClock {
  constructor(
    private readonly db: Database,
    log?: ClockLogger,
  ) {
    super('effectiveness figures could not be kept', log);
  }

  async tick(now: Date = new Date()): Promise<string[]> {
    const kept = await keepOutcomes(this.db, { now, limit: 2 * CHUNK_DAYS });
    const sorted = [...kept].sort();
    // Routine (it runs at every start too): at debug level, so that nothing comes after the first start's one-time password.
    if (kept.length)
      this.log?.debug?.(
        { days: kept.length, first: sorted[0], last: sorted.at(-1) },
        'effectiveness figures kept',
      );
    return kept;
  }
}
