/** What an import is asked and what it reports. */
import type { Database } from '../../db/database.js';
import type { LegacySource } from './source.js';

export interface Anomaly {
  table: string;
  /** Source ids (the row's own id first). */
  ids: number[];
  kind: string;
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
  anomalyCounts: Record<string, number>;
  notes: string[];
  /** E-mails of accounts that existed here (the initial administrator) and take their SIGAF 1.x password. */
  legacyPasswordKept: string[];
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
