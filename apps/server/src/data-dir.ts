import fs from 'node:fs';

/** DATA_DIR's mode: its owner only. */
export const DATA_DIR_MODE = 0o700;

/**
 * Keeps DATA_DIR to the server's user (docs/operations/configuration.md): from here on the process
 * creates its files for that user only (umask 077: the embedded database, the outbox, uploads,
 * backups), and DATA_DIR is created with mode 0700, or narrowed to it when it exists, so nothing
 * under it is reachable by another local user, whatever the mode of older files. Called first
 * thing at start, before anything is written. A mode that cannot be set is said on stderr.
 * `create: false` (a command that may end before it writes): an absent DATA_DIR is left absent.
 */
export function keepDataDirPrivate(dataDir: string, o: { create?: boolean } = {}): void {
  process.umask(0o077);
  if (o.create === false && !fs.existsSync(dataDir)) return;
  fs.mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
  try {
    if ((fs.statSync(dataDir).mode & 0o777) !== DATA_DIR_MODE) fs.chmodSync(dataDir, DATA_DIR_MODE);
  } catch (err) {
    console.error(
      `DATA_DIR (${dataDir}) could not be restricted to its owner (mode 0700): ${(err as Error).message}`,
    );
  }
}
