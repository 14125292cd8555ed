import type { TFunction } from 'i18next';

/** The import's confirmation: the rows to be saved, and the rejected ones only when there are any. */
export function importConfirmation(
  t: TFunction,
  { valid, rejected, course }: { valid: number; rejected: number; course: string },
) {
  const saved = t('students.confirmImport', { count: valid, course });
  return rejected ? `${saved} ${t('students.confirmRejected', { count: rejected })}` : saved;
}
