/**
 * The initial administrator's one-time password file after an import, by the same rules and the
 * same code as the server's first start (first-access.ts): written (0600) when the import created
 * that administrator with a generated password, deleted once it no longer holds a working password.
 */
import type { Database } from '../../db/database.js';
import type { SeedResult } from '../../db/seed.js';
import {
  readFirstAccessFile,
  removeFirstAccessFile,
  writeFirstAccessFile,
} from '../../first-access.js';
import type { ImportReport } from './types.js';

export interface FirstAccessBefore {
  email: string;
  /** The account's password hash before the import. */
  hash: string;
}

/** Before the import: the account the file names and its password hash now (null: no file, or no such account). */
export async function firstAccessBefore(
  db: Database,
  dataDir: string,
): Promise<FirstAccessBefore | null> {
  const kept = readFirstAccessFile(dataDir);
  if (!kept?.email) return null;
  const user = await db
    .selectFrom('users')
    .select('password')
    .where('email', '=', kept.email)
    .executeTakeFirst();
  return user ? { email: kept.email, hash: user.password } : null;
}

/**
 * After a real import: an account that took its SIGAF 1.x password no longer signs in with the
 * file's password, so the file goes; an initial administrator the import created with a
 * generated password gets the file (and the report says where). Answers the file written, if any.
 */
export async function settleFirstAccess(
  dataDir: string,
  seeded: SeedResult,
  report: ImportReport,
  before: FirstAccessBefore | null,
): Promise<string | undefined> {
  if (report.dryRun) return undefined;
  if (before && report.legacyPasswordKept.includes(before.email))
    await removeFirstAccessFile(dataDir, before.email, before.hash);
  const admin = seeded.admin;
  if (!admin || report.legacyPasswordKept.includes(admin.email)) return undefined;
  report.firstAdmin = { email: admin.email };
  if (!admin.generated) return undefined;
  try {
    const file = writeFirstAccessFile(dataDir, admin);
    report.firstAdmin.file = file;
    return file;
  } catch (err) {
    console.error(
      `No se pudo guardar la contraseña del administrador inicial en ${dataDir}: ${(err as Error).message}`,
    );
    return undefined;
  }
}
