import path from 'node:path';
import { loadConfig } from '../config.js';
import { keepDataDirPrivate } from '../data-dir.js';
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
Usa DATABASE_URL, o la base embebida en DATA_DIR (detenga antes el servidor).`;

async function main() {
  const [command, fileArg] = process.argv.slice(2);
  if (fileArg === '--help' || fileArg === '-h' || command === '--help' || command === '-h') {
    console.log(USAGE);
    process.exit(0);
  }
  if (command !== 'backup' && command !== 'restore') {
    console.error(USAGE);
    process.exit(2);
  }
  if (command === 'restore' && !fileArg) {
    console.error('Indique el archivo de respaldo: npm run restore -- <archivo>');
    process.exit(2);
  }
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
