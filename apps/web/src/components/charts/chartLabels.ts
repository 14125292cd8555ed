import {
  LOGGED_TIME_LABELS,
  MOODLE_ACTIVITY_STATUS,
  PROGRESS_LABELS,
  STATUS_DATASETS,
  STUDENT_STATES,
  type ChartData,
} from '@sigaf/contract';
import type { TFunction } from 'i18next';
import { catalogueText } from '../../lib/catalogue';

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

/** One chart label in the screen's language: the fixed ones, ticket ages ("3 días") and seeded catalogue names; staff's own names as sent. */
export function chartLabel(t: TFunction, label: string): string {
  const key = FIXED.get(label);
  if (key) return t(key);
  const days = /^(\d+) días?$/.exec(label);
  return days ? t('charts.labels.days', { count: Number(days[1]) }) : catalogueText(t, label);
}

/** The chart as shown: same figures and order, labels in the screen's language. */
export function chartInLanguage(t: TFunction, data: ChartData): ChartData {
  return {
    ...data,
    labels: data.labels.map((l) => chartLabel(t, l)),
    datasets: data.datasets.map((ds) =>
      ds.label === undefined ? ds : { ...ds, label: chartLabel(t, ds.label) },
    ),
  };
}
