import { MOODLE_MSG, type MoodleSyncRefused } from '@sigaf/contract';
import type { MoodleActivityCompletion, MoodleGradeItem } from '../../moodle/schemas.js';

/**
 * The values from Moodle a sync accepts (docs/usage/moodle.md, "Valores rechazados"). Moodle's
 * answers are typed but not bounded: a value outside these ranges is refused, not stored, and
 * named in the sync's report; the field keeps what it had.
 */
export const MOODLE_RANGES = {
  /** The earliest real time, in Unix seconds: 2000-01-01 00:00 UTC. */
  earliestTime: Date.UTC(2000, 0, 1) / 1000,
  /** How far past the server's clock a time may be (clocks differ a little): one day, in seconds. */
  futureMarginSeconds: 86_400,
  /** The largest grade, either sign: Moodle keeps grades as decimal(10,5), and so do we. */
  maxGrade: 99_999.99999,
  /** Activity completion states: COMPLETION_INCOMPLETE (0) to COMPLETION_COMPLETE_FAIL (3). */
  maxCompletionState: 3,
} as const;

/** Why a value is refused, or null when it is accepted. */
export type RangeCheck = (value: number) => string | null;

/** A Moodle id: a positive safe integer. */
export const checkId: RangeCheck = (v) =>
  Number.isSafeInteger(v) && v > 0 ? null : MOODLE_MSG.refusedId;

/** A grade: finite, within ±maxGrade. */
export const checkGrade: RangeCheck = (v) =>
  Number.isFinite(v) && Math.abs(v) <= MOODLE_RANGES.maxGrade ? null : MOODLE_MSG.refusedGrade;

/** A completion state: an integer from 0 to maxCompletionState. */
export const checkCompletionState: RangeCheck = (v) =>
  Number.isInteger(v) && v >= 0 && v <= MOODLE_RANGES.maxCompletionState
    ? null
    : MOODLE_MSG.refusedState;

/** A time in Unix seconds (0: never, as Moodle says it): from earliestTime to a day past `now`. */
export const checkTime =
  (now: Date): RangeCheck =>
  (v) =>
    v === 0 ||
    (Number.isSafeInteger(v) &&
      v >= MOODLE_RANGES.earliestTime &&
      v <= now.getTime() / 1000 + MOODLE_RANGES.futureMarginSeconds)
      ? null
      : MOODLE_MSG.refusedTime;

/** Checks one value from Moodle: true when it may be used; otherwise it is added to `refused`. */
export function accepted(
  refused: MoodleSyncRefused[],
  check: RangeCheck,
  value: number,
  about: Omit<MoodleSyncRefused, 'value' | 'detail'>,
): boolean {
  const detail = check(value);
  if (detail) refused.push({ ...about, value: String(value), detail });
  return !detail;
}

/** Whether a student's completion and grade of one activity are all in range (each one out of range is added to `refused`). */
export function resultInRange(
  refused: MoodleSyncRefused[],
  time: RangeCheck,
  about: { student: string; activity: string },
  c?: MoodleActivityCompletion,
  g?: MoodleGradeItem,
): boolean {
  return [
    !c || accepted(refused, checkCompletionState, c.state, { ...about, field: 'state' }),
    !c || accepted(refused, time, c.timecompleted, { ...about, field: 'timecompleted' }),
    typeof g?.graderaw !== 'number' ||
      accepted(refused, checkGrade, g.graderaw, { ...about, field: 'graderaw' }),
  ].every(Boolean);
}
