import type { Database } from '../../db/database.js';
import { LegacyImportRepository } from './repository.js';
import { Run } from './run.js';
import { restoreSequences, snapshotSequences } from './sequences.js';
import { LegacySource } from './source.js';
import { LegacyImportRefused, type ImportOptions, type ImportReport } from './types.js';

export * from './types.js';

/**
 * Imports a SIGAF 1.x database into this one, in one transaction: a failure anywhere (or a dry
 * run) rolls everything back. Stated rules for what the original allowed are in
 * docs/operations/migration-from-sigaf-1.md; every case is listed in the report with source ids.
 */
export async function importLegacy(db: Database, opts: ImportOptions): Promise<ImportReport> {
  const report: ImportReport = {
    dryRun: !!opts.dryRun,
    startedAt: new Date().toISOString(),
    tables: {},
    catalogues: {},
    anomalies: [],
    anomalyCounts: {},
    notes: [],
    legacyPasswordKept: [],
  };
  // The source first (reachable, the tables SIGAF 1.x always had): nothing is written before.
  const source = opts.source ?? (await LegacySource.openChecked(opts.from));
  const size = opts.batchSize ?? 5000;
  try {
    const present = await source.tables();
    const sequences = await snapshotSequences(db);
    try {
      await db.transaction().execute(async (trx) => {
        if (opts.prepare) await opts.prepare(trx);
        const repo = new LegacyImportRepository(trx);
        if (await repo.hasData()) {
          throw new LegacyImportRefused(
            'La base de datos de destino ya tiene datos (categorías, cursos, estudiantes o tickets): importe en una base nueva.',
          );
        }
        await new Run(source, repo, report, opts, size, present).all();
        if (opts.dryRun) throw new DryRunDone();
      });
    } catch (e) {
      // Undone: the ids it used are given again by the next run.
      if (e instanceof DryRunDone) await restoreSequences(db, sequences);
      else await restoreSequences(db, sequences).catch(() => undefined);
      throw e;
    }
  } catch (e) {
    if (!(e instanceof DryRunDone)) throw e;
  } finally {
    await source.close();
  }
  for (const a of report.anomalies)
    report.anomalyCounts[a.kind] = (report.anomalyCounts[a.kind] ?? 0) + 1;
  report.finishedAt = new Date().toISOString();
  return report;
}

class DryRunDone extends Error {}
