import type { ChartData } from '@sigaf/contract';
import type { TFunction } from 'i18next';
import { serverText } from '../../lib/serverText';

/** The chart as shown: same figures and order, labels in the screen's language. */
export function chartInLanguage(t: TFunction, data: ChartData): ChartData {
  return {
    ...data,
    labels: data.labels.map((l) => serverText(t, l)),
    datasets: data.datasets.map((ds) =>
      ds.label === undefined ? ds : { ...ds, label: serverText(t, ds.label) },
    ),
  };
}
