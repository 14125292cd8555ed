import {
  LOGGED_TIME_LABELS,
  MOODLE_ACTIVITY_STATUS,
  PROGRESS_LABELS,
  STATUS_DATASETS,
  STUDENT_STATES,
} from '@sigaf/contract';
import type { TFunction } from 'i18next';
import { catalogueText } from './catalogue';

/** The fixed Spanish texts the server sends in charts and lists (the original API's), by i18n key. */
const FIXED = new Map<string, string>([
  ...LOGGED_TIME_LABELS.map((l, i) => [l, `charts.labels.loggedTime.${i}`] as const),
  ...STUDENT_STATES.map((l, i) => [l, `charts.labels.studentState.${i}`] as const),
  [PROGRESS_LABELS.done, 'charts.labels.done'],
  [PROGRESS_LABELS.notDone, 'charts.labels.notDone'],
  [STATUS_DATASETS.open, 'charts.labels.open'],
  [STATUS_DATASETS.closed, 'charts.labels.closed'],
  ...Object.entries(MOODLE_ACTIVITY_STATUS).map(
    ([key, l]) => [l, `charts.labels.activity.${key}`] as const,
  ),
]);

/**
 * A text the server sends in Spanish, in the screen's language: its fixed labels, ticket ages
 * ("3 días") and seeded catalogue names; names staff wrote as sent.
 */
export function serverText(t: TFunction, text: string): string {
  const key = FIXED.get(text);
  if (key) return t(key);
  const days = /^(\d+) días?$/.exec(text);
  return days ? t('charts.labels.days', { count: Number(days[1]) }) : catalogueText(t, text);
}
