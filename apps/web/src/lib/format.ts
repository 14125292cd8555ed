import {
  formatDate,
  formatDateTime,
  formatGrade,
  formatNumber,
  formatPercent,
  formatTime,
} from '@sigaf/contract';
import { useMemo } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

/**
 * The screens' one way to write a value (docs/development/figures-and-formats.md), in the current
 * language: dates dd-mm-yyyy and 24 h times in the organisation's zone, a decimal comma in Spanish.
 * Nothing else in the web app formats a date or a number for display (format.test.ts checks).
 */
export function useFormat() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(
    () => ({
      date: formatDate,
      dateTime: formatDateTime,
      time: formatTime,
      number: (v: number | null | undefined, digits?: number) => formatNumber(v, language, digits),
      percent: (points: number | null | undefined) => formatPercent(points, language),
      grade: (v: number | null | undefined) => formatGrade(v, language),
    }),
    [language],
  );
}
export type Format = ReturnType<typeof useFormat>;

export interface DisplayedRows {
  from: number;
  to: number;
  count: number;
}

/** The rows a page shows, "1–10 de 1.234", and nothing for an empty list (it says so itself). */
export const displayedRows = (
  t: TFunction,
  language: string,
  { from, to, count }: DisplayedRows,
) =>
  count <= 0 ? '' : t('common.displayedRows', { from, to, count: formatNumber(count, language) });
