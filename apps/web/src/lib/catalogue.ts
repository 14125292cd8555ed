import { CATALOGUE_SEED } from '@sigaf/contract';
import type { TFunction } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** Each seeded catalogue value's description (the Spanish the database holds) → its i18n key. */
const SEEDED = new Map<string, string>(
  Object.entries(CATALOGUE_SEED).flatMap(([table, rows]) =>
    rows.flatMap((r) => (r.key ? [[r.description, `catalogue.${table}.${r.key}`] as const] : [])),
  ),
);

/**
 * A catalogue value as the screen names it: a seeded value whose description staff have not
 * changed in the screen's language ("Abierto" → "Open"); any other value as staff wrote it.
 */
export function catalogueText(t: TFunction, text: string): string;
export function catalogueText(
  t: TFunction,
  text: string | null | undefined,
): string | null | undefined;
export function catalogueText(t: TFunction, text: string | null | undefined) {
  const key = text ? SEEDED.get(text) : undefined;
  return key ? t(key) : text;
}

/** catalogueText in the current language. */
export function useCatalogueText() {
  const { t } = useTranslation();
  return useCallback(
    <T extends string | null | undefined>(text: T): T => catalogueText(t, text) as T,
    [t],
  );
}
