import path from 'node:path';
import { loadConfig } from '../config.js';
import { keepDataDirPrivate } from '../data-dir.js';
import { HELP_OPTION, readCommandLine, usageError } from '../lib/command-line.js';
import { migrate, openDatabase } from '../db/database.js';
import { backupDatabase, BackupError, restoreDatabase } from './backup.js';

/**
 * npm run backup [-- <file>]     writes a backup (default DATA_DIR/backups/sigaf-<time>.json.gz)
 * npm run restore -- <file>      replaces the database's contents with the backup's
 *
 * Uses DATABASE_URL when set, otherwise the embedded database in DATA_DIR. Stop the server first
 * when it uses the embedded database (one process at a time may open it) and before a restore.
 */
const USAGE = `Uso: npm run backup [-- <archivo>]  |  npm run restore -- <archivo>
  npm run backup     escribe un respaldo (por omisión DATA_DIR/backups/sigaf-<fecha>.json.gz)
  npm run restore    reemplaza el contenido de la base de datos por el del respaldo
  -h, --help         esta ayuda
Usa DATABASE_URL, o la base embebida en DATA_DIR (detenga antes el servidor).`;

async function main() {
  const { positionals } = readCommandLine(USAGE, {
    options: HELP_OPTION,
    allowPositionals: true,
  });
  const [command, fileArg, extra] = positionals;
  if (command !== 'backup' && command !== 'restore')
    usageError(USAGE, 'Indique backup o restore: npm run backup, npm run restore -- <archivo>.');
  if (extra !== undefined) usageError(USAGE, `Argumento inesperado: ${extra}`);
  if (command === 'restore' && !fileArg)
    usageError(USAGE, 'Indique el archivo de respaldo: npm run restore -- <archivo>');
  const config = loadConfig();
  // A backup holds everything: written for this user only, like DATA_DIR.
  keepDataDirPrivate(config.DATA_DIR);
  const handle = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const where =
    handle.kind === 'pglite'
      ? `base de datos embebida en ${path.join(config.DATA_DIR, 'pgdata')}`
      : 'PostgreSQL (DATABASE_URL)';
  try {
    if (command === 'backup') {
      const stamp = new Date()
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\..*$/, '')
        .replace('T', '-');
      const file = path.resolve(
        fileArg ?? path.join(config.DATA_DIR, 'backups', `sigaf-${stamp}.json.gz`),
      );
      const head = await backupDatabase(handle.db, file);
      const rows = head.tables.reduce((n, t) => n + t.rows, 0);
      console.log(
        `Respaldo de la ${where} escrito en ${file} (${head.tables.length} tablas, ${rows} filas).`,
      );
    } else {
      // A new, empty database gets the schema first; an existing one must already be at the backup's.
      await migrate(handle.db);
      const file = path.resolve(fileArg!);
      const head = await restoreDatabase(handle.db, file);
      const rows = head.tables.reduce((n, t) => n + t.rows, 0);
      console.log(
        `Restaurado ${file} (del ${head.createdAt}) en la ${where}: ${head.tables.length} tablas, ${rows} filas.`,
      );
    }
  } finally {
    await handle.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof BackupError ? err.message : err);
  process.exit(1);
});
