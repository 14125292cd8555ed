import {
  type AttemptOutcome,
  type OutcomeDimension,
  type OutcomeGroup,
  type OutcomeSimilarSuggestions,
  type SimilarSuggestion,
  idleGroupOf,
  OUTCOME_SUGGESTION_MIN,
} from '@sigaf/contract';
import type { TFunction } from 'i18next';

/**
 * The line under a contact attempt: when the student came back to Moodle after it and their
 * progress before and 14 days after (the last known one while 14 days have not passed), e.g.
 * "Ingresó a Moodle 2 días después; progreso 35 % → 48 %". Null when nothing is known.
 */
export function outcomeLine(t: TFunction, o: AttemptOutcome): string | null {
  const known = o.accessDays !== null || o.progressBefore !== null || o.progress14 !== null;
  if (!known) return null;
  const access =
    o.accessDays !== null
      ? o.accessDays === 0
        ? t('outcomes.line.sameDay')
        : t('outcomes.line.accessed', { count: o.accessDays })
      : o.settled7
        ? t('outcomes.line.notIn7')
        : t('outcomes.line.notYet');
  const progress =
    o.progressBefore !== null && o.progress14 !== null
      ? t('outcomes.line.progress', { before: o.progressBefore, after: o.progress14 })
      : null;
  return progress ? `${access}; ${progress}` : access;
}

/** A group's name on the Efectividad screen: the catalogue value or operator, else its hour, weekday or idle group. */
export function groupName(
  t: TFunction,
  dim: OutcomeDimension,
  key: string,
  label: string | null,
): string {
  if (label) return label;
  if (dim === 'medium') return t(`outcomes.medium.${key}`);
  if (dim === 'hour') return `${key}:00`;
  if (dim === 'weekday') return t(`outcomes.weekday.${key}`);
  if (dim === 'idle') return t(`outcomes.idle.${key}`);
  return t('outcomes.dim.all');
}

/**
 * A row's headline, in plain words: "21 de 31 estudiantes ingresaron a Moodle dentro de 7 días
 * después del contacto (línea base comparable: 34 %)". `percent` formats a rate in points.
 */
export function headline(
  t: TFunction,
  g: OutcomeGroup,
  percent: (points: number | null) => string,
): string {
  const n = g.reengaged.n;
  const accessed = Math.round((g.reengaged.rate ?? 0) * n);
  const base = g.baseline.rate === null ? null : percent(ratePoints(g.baseline.rate));
  return t(base === null ? 'outcomes.headline.noBase' : 'outcomes.headline.text', {
    accessed,
    count: n,
    base,
  });
}

/** A rate (0–1) in percentage points, for formatPercent. */
export const ratePoints = (v: number | null) => (v === null ? null : v * 100);

/**
 * Mi agenda's suggestion for a course's students in one idle group, e.g. "Para estudiantes de
 * Curso X con 7–13 días sin ingresar, tras un contacto por «Llamada» ingresaron a Moodle en 7 días
 * 34 de 80; a las 10:00, 20 de 45" (student-weeks). `all`: the course's contacts as a whole.
 */
export function similarLine(
  t: TFunction,
  course: string,
  s: Omit<SimilarSuggestion, 'idle'> & { idle: SimilarSuggestion['idle'] | 'all' },
): string {
  const who = t(`outcomes.suggestion.who.${s.idle}`);
  if (!s.channel)
    return s.hour
      ? t('outcomes.suggestion.hourOnly', {
          course,
          who,
          hour: s.hour.label,
          accessed: s.hour.accessed,
          n: s.hour.n,
        })
      : '';
  const channel = t('outcomes.suggestion.channel', {
    course,
    who,
    channel: t(`outcomes.medium.${s.channel.key}`, { defaultValue: s.channel.label }),
    accessed: s.channel.accessed,
    n: s.channel.n,
  });
  return s.hour
    ? `${channel}${t('outcomes.suggestion.hourAfter', { hour: s.hour.label, accessed: s.hour.accessed, n: s.hour.n })}`
    : channel;
}

/**
 * The suggestion for one student at risk: the line of their own group (their course and days
 * without access) when that group has one (at least OUTCOME_SUGGESTION_MIN student-weeks), else why
 * there is none. Null while the course's figures are not read (or not the caller's to read).
 */
export function studentSuggestion(
  t: TFunction,
  student: { course: string; daysWithoutAccess: number | null },
  similar: OutcomeSimilarSuggestions | undefined,
): string | null {
  if (!similar) return null;
  const idle = idleGroupOf(student.daysWithoutAccess);
  const own = similar.groups.find((g) => g.idle === idle);
  const line = own ? similarLine(t, student.course, own) : '';
  return (
    line ||
    t('outcomes.suggestion.noneForStudent', {
      who: t(`outcomes.suggestion.who.${idle}`),
      min: OUTCOME_SUGGESTION_MIN,
    })
  );
}
