/** What an import is asked and what it reports. */
import type { Database } from '../../db/database.js';
import type { LegacySource } from './source.js';

/** Every kind of observation, with its name for the report's reader (docs/operations/migration-from-sigaf-1.md). */
export const ANOMALY_KINDS = {
  orphan: 'Fila huérfana (le falta la fila a la que pertenece)',
  duplicate_rut: 'RUT repetido',
  invalid_rut: 'RUT no válido',
  duplicate_enrolment: 'Inscripción repetida',
  duplicate_result: 'Resultado repetido',
  duplicate_code: 'Código de ticket repetido',
  missing_code: 'Ticket sin código',
  zero_date: 'Fecha 0000-00-00',
  unreadable_date: 'Fecha ilegible',
  too_long: 'Texto demasiado largo',
  text_in_number: 'Texto en una nota',
  missing_catalogue_value: 'Valor de catálogo inexistente',
  missing_user: 'Usuario inexistente',
  unknown_role: 'Rol desconocido',
  staff_already_present: 'Cuenta que ya existía aquí',
  missing_drift_column: 'Columna ausente en el origen',
} as const;

export type AnomalyKind = keyof typeof ANOMALY_KINDS;

export interface Anomaly {
  table: string;
  /** Source ids (the row's own id first). */
  ids: number[];
  kind: AnomalyKind;
  /** What was done with the row, in Spanish. */
  rule: string;
  detail?: string;
}

export interface ImportReport {
  dryRun: boolean;
  startedAt: string;
  finishedAt?: string;
  /** Rows read and rows written per source table. */
  tables: Record<string, { read: number; imported: number }>;
  /** Catalogue mapping: source table → description → target id (and whether it was created). */
  catalogues: Record<
    string,
    Array<{ legacyId: number; description: string; targetId: number; created: boolean }>
  >;
  anomalies: Anomaly[];
  anomalyCounts: Partial<Record<AnomalyKind, number>>;
  notes: string[];
  /** E-mails of accounts that existed here (the initial administrator) and take their SIGAF 1.x password. */
  legacyPasswordKept: string[];
  /** The initial administrator the import created, and the file that keeps its one-time password (set by the command line). */
  firstAdmin?: { email: string; file?: string };
}

export interface Progress {
  table: string;
  done: number;
  total: number;
  rowsPerSecond: number;
}

export interface ImportOptions {
  from: string;
  dryRun?: boolean;
  appSecret: string;
  batchSize?: number;
  onProgress?: (p: Progress) => void;
  /** An already opened and checked source (LegacySource.openChecked); the import closes it. */
  source?: LegacySource;
  /** Prepares the target inside the import's transaction (catalogues, first administrator): undone with it. */
  prepare?: (trx: Database) => Promise<void>;
}

export { LegacyImportRefused } from './refused.js';
