import { chileDateTime, type FieldDecl } from '@sigaf/contract';
import type { Row } from './api';

export interface StatusLabels {
  active: string;
  inactive: string;
  activeNeverSynced: string;
  neverSynced: string;
}

/** The status labels, translated. */
export const statusLabels = (t: (key: string) => string): StatusLabels => ({
  active: t('common.active'),
  inactive: t('common.inactive'),
  activeNeverSynced: t('common.activeNeverSynced'),
  neverSynced: t('common.neverSynced'),
});

/** An active row of a synchronised resource (a course) that Moodle has never filled yet. */
export const neverSynced = (row: Row) =>
  'lastSyncAt' in row && row.lastSyncAt === null && Number(row.status) === 1;

/** What a cell shows for a declared field. */
export function displayValue(f: FieldDecl, row: Row, labels: StatusLabels): string {
  const v = row[f.prop];
  if (f.kind === 'syncedAt') return v ? chileDateTime(v as string) : labels.neverSynced;
  if (v === null || v === undefined) return '';
  if (f.kind === 'select') return (v as { description?: string }).description ?? '';
  if (f.kind === 'status')
    return Number(v) === 1
      ? neverSynced(row)
        ? labels.activeNeverSynced
        : labels.active
      : labels.inactive;
  return String(v);
}

/** The form's starting values: from the row when editing, blank when creating. */
export function initialValues(fields: FieldDecl[], row: Row | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.form === false) continue;
    const v = row?.[f.prop];
    if (f.secret) out[f.name] = '';
    else if (f.kind === 'select') out[f.name] = (v as { id?: number } | null)?.id ?? '';
    else if (f.kind === 'status') out[f.name] = v === undefined || v === null ? 1 : Number(v);
    else out[f.name] = v === null || v === undefined ? '' : String(v);
  }
  return out;
}
