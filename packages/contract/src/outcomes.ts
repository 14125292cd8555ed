import { z } from 'zod';
import { parseDay } from './dates.js';
import { FORM_MSG } from './resources.js';

/**
 * What followed each contact: from the students' Moodle figures over time, the outcome of every
 * contact attempt (access within 3 and 7 days, progress after 7 and 14 days) and the
 * effectiveness report (re-engagement within 7 days and progress gained, per dimension, with a
 * 95 % Wilson interval and the baseline of students not contacted). See docs/usage/efectividad.md.
 */

export const OUTCOME_DIMENSIONS = [
  'all',
  'medium',
  'type',
  'source',
  'motive',
  'operator',
  'hour',
  'weekday',
  'idle',
] as const;
export type OutcomeDimension = (typeof OUTCOME_DIMENSIONS)[number];
/** How a contact attempt was made (its medium), apart from its direction. */
export const ATTEMPT_MEDIA = ['call', 'email', 'whatsapp', 'sms', 'in_person', 'other'] as const;
export type AttemptMedium = (typeof ATTEMPT_MEDIA)[number];
export const ATTEMPT_DIRECTIONS = ['outgoing', 'incoming'] as const;
export type AttemptDirection = (typeof ATTEMPT_DIRECTIONS)[number];
/** The media's names for users (Spanish; the web translates them too). */
export const ATTEMPT_MEDIUM_LABELS: Record<AttemptMedium, string> = {
  call: 'Llamada',
  email: 'Correo',
  whatsapp: 'WhatsApp',
  sms: 'SMS',
  in_person: 'Presencial',
  other: 'Otro',
};

export const IDLE_GROUPS = ['never', '0-2', '3-6', '7-13', '14-29', '30+', 'unknown'] as const;

/** Student-weeks a group needs not to be a small sample; and a suggestion in Mi agenda. */
export const OUTCOME_SMALL_SAMPLE = 20;
export const OUTCOME_SUGGESTION_MIN = 30;
/** The report's default period: the last N days. */
export const OUTCOME_DEFAULT_DAYS = 90;
/** The longest period a report may cover. */
export const OUTCOME_MAX_DAYS = 366;

export const OUTCOME_MSG = {
  invalidRange: 'Ingrese un rango de fechas válido (aaaa-mm-dd).',
  rangeOrder: 'La fecha de inicio debe ser anterior a la de término.',
  rangeTooLong: `El período no puede superar ${OUTCOME_MAX_DAYS} días.`,
  courseNotFound: 'El curso no existe.',
  operatorOnlySelf: 'Un operador solo puede ver la efectividad de sus propios contactos.',
  suggestionOwnCourses: 'Solo puede ver sugerencias de los cursos donde tiene tickets asignados.',
} as const;

const blank = (v: unknown) =>
  typeof v === 'string' && v.trim() === '' ? undefined : v === null ? undefined : v;
const id = z.coerce
  .number({ error: FORM_MSG.option })
  .int(FORM_MSG.option)
  .positive(FORM_MSG.option)
  .max(2_147_483_647, FORM_MSG.option);
const day = z.preprocess(
  blank,
  z
    .string({ error: OUTCOME_MSG.invalidRange })
    .max(20, OUTCOME_MSG.invalidRange)
    .refine((v) => parseDay(v) !== null, OUTCOME_MSG.invalidRange)
    .transform((v) => parseDay(v)!)
    .optional(),
);

export const outcomeReportQuerySchema = z.object({
  /** One course; the whole organisation when absent. */
  course_id: z.preprocess(blank, id.optional()),
  /** One operator's contacts (administrators); an operator always gets their own. */
  user_id: z.preprocess(blank, id.optional()),
  /** Chilean days, both included; the last OUTCOME_DEFAULT_DAYS days by default. */
  from: day,
  to: day,
});
export type OutcomeReportQuery = z.infer<typeof outcomeReportQuerySchema>;

/** A rate with its sample and 95 % Wilson interval (null when n is 0). */
export interface OutcomeRate {
  rate: number | null;
  n: number;
  low: number | null;
  high: number | null;
}

export interface OutcomeGroup {
  key: string;
  /** The catalogue value or operator's name; null for hours, weekdays and idle groups (the client names them). */
  label: string | null;
  /** Student-weeks back in Moodle within 7 days of the first contact; n: student-weeks; the interval allows for repeated weeks of one student (designEffect). */
  reengaged: OutcomeRate;
  /** Mean progress gained within 7 days, in percentage points, and of how many contacts it is known. */
  gain: number | null;
  gainN: number;
  /**
   * The students not contacted, standardised to the row's contacts: each stratum (course, day,
   * days-without-access group) weighted by the row's student-weeks in it; n: the student-days
   * behind it.
   */
  baseline: OutcomeRate;
  baselineGain: number | null;
  /** Fewer than OUTCOME_SMALL_SAMPLE student-weeks. */
  small: boolean;
  /** Every attempt of the row's student-weeks (the unit is the student-week: its first contact). */
  contacts: number;
  /** Student-weeks "sin datos" (no Moodle figures before the contact nor within its 7 days): out of every rate. */
  unknown: number;
  /** Student-weeks whose medium was taken from the ticket's type (the attempt did not say it). */
  inferred: number;
  /** The re-engaged rate minus the standardised baseline's, in proportion, with its 95 % interval. */
  difference: { value: number; low: number; high: number } | null;
}

export interface OutcomeReport {
  courseId: number | null;
  userId: number | null;
  from: string;
  to: string;
  dimensions: Record<OutcomeDimension, OutcomeGroup[]>;
  /** The last day counted (settled: 8 days ago at most); the report counts from `from` to this day. */
  countedTo: string;
  /** The demo's data: the students' responses are simulated. */
  simulated: boolean;
  /** Distinct students and student-weeks counted (with known outcome), and the design effect applied to every interval (≥ 1). */
  students: number;
  studentWeeks: number;
  designEffect: number;
}

/** One contact attempt's outcome (null figures: not known from the history). */
export interface AttemptOutcome {
  attemptId: number;
  ticketId: number;
  /** Calendar days in Chile from the attempt to the first Moodle access seen after it (0: the same day); null when none yet. */
  accessDays: number | null;
  /** Whether the 3 / 7 / 14 days after the attempt have passed. */
  settled3: boolean;
  settled7: boolean;
  settled14: boolean;
  progressBefore: number | null;
  progress7: number | null;
  progress14: number | null;
}

/** The idle group (IDLE_GROUPS) of a student without Moodle access for this many whole days (null: never accessed). */
export function idleGroupOf(daysWithoutAccess: number | null): (typeof IDLE_GROUPS)[number] {
  if (daysWithoutAccess === null) return 'never';
  if (daysWithoutAccess < 3) return '0-2';
  if (daysWithoutAccess < 7) return '3-6';
  if (daysWithoutAccess < 14) return '7-13';
  if (daysWithoutAccess < 30) return '14-29';
  return '30+';
}

/** A suggested channel (the attempts' medium) or hour: its student-weeks (n), how many were back in Moodle within 7 days, the rate. */
export interface SuggestedGroup {
  key: string;
  label: string;
  n: number;
  accessed: number;
  rate: number;
}

/**
 * Mi agenda's suggestion for the students of a course in one idle group: the channel and the hour
 * with the best re-engagement among that course's contacts to students in the same idle group,
 * each with n ≥ OUTCOME_SUGGESTION_MIN (null when none has that many).
 */
export interface SimilarSuggestion {
  idle: (typeof IDLE_GROUPS)[number];
  channel: SuggestedGroup | null;
  hour: SuggestedGroup | null;
}

/**
 * The suggestions for similar students of a course: the idle groups with a channel or an hour to
 * suggest, and the course's own over all its contacts (`course`, the same rule) for the students
 * at risk whose group has none.
 */
/**
 * What a suggestion's figures are: always the whole course's contacts (every staff member's, not
 * only the caller's), each group of at least `minContacts` student-weeks (a student contacted in a
 * week counts once, however many attempts); never one person's figures.
 */
export interface SuggestionScope {
  scope: 'course';
  minContacts: number;
}

export interface OutcomeSimilarSuggestions extends SuggestionScope {
  courseId: number;
  groups: SimilarSuggestion[];
  course: Omit<SimilarSuggestion, 'idle'> | null;
}

/** Mi agenda's suggestion for a course: the channel (medium) and hour with the best re-engagement, each with n ≥ OUTCOME_SUGGESTION_MIN. */
export interface OutcomeSuggestion extends SuggestionScope {
  courseId: number;
  channel: { key: string; label: string; rate: number; n: number } | null;
  hour: { key: string; rate: number; n: number } | null;
}

/** The position of a group in its dimension's natural order (idle groups and media by their lists, hours and weekdays by number). */
function groupRank(dim: OutcomeDimension, key: string): number {
  if (dim === 'idle') return (IDLE_GROUPS as readonly string[]).indexOf(key);
  if (dim === 'medium') return (ATTEMPT_MEDIA as readonly string[]).indexOf(key);
  if (dim === 'hour' || dim === 'weekday') return Number(key);
  return 0;
}

/** A dimension's groups in their natural order (0–2, 3–6, 7–13… not as text), the others by name: the screen's and the workbook's order. */
export function sortGroups<G extends { key: string }>(
  dim: OutcomeDimension,
  groups: readonly G[],
  name: (g: G) => string,
): G[] {
  return [...groups].sort(
    (a, b) => groupRank(dim, a.key) - groupRank(dim, b.key) || name(a).localeCompare(name(b), 'es'),
  );
}
