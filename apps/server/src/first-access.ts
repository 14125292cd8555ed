import fs from 'node:fs';
import path from 'node:path';
import { verifyPassword } from './lib/passwords.js';

/**
 * The first administrator's one-time password, kept beside the console banner in a file only the
 * server's user can read (DATA_DIR/primer-acceso.txt), until that administrator has chosen a new
 * password at first sign-in.
 */
export const FIRST_ACCESS_FILE = 'primer-acceso.txt';

export const firstAccessPath = (dataDir: string) => path.join(dataDir, FIRST_ACCESS_FILE);

/** Writes the file (mode 0600) and answers its path. */
export function writeFirstAccessFile(
  dataDir: string,
  admin: { email: string; password: string },
): string {
  const file = firstAccessPath(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  // A file left by an earlier installation in the same folder is replaced, never read by others.
  fs.rmSync(file, { force: true });
  const text = [
    'SIGAF: first administrator',
    `E-mail: ${admin.email}`,
    `Password: ${admin.password}`,
    '',
    'A one-time password: a new one is asked at first sign-in.',
    'This file is deleted once that new password is chosen.',
    '',
  ].join('\n');
  fs.writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
  fs.chmodSync(file, 0o600); // the mode above is narrowed by the umask only, never widened; made exact
  return file;
}

/** The e-mail and password the file holds, or null when there is no file (or it cannot be read). */
export function readFirstAccessFile(dataDir: string): { email: string; password: string } | null {
  let text: string;
  try {
    text = fs.readFileSync(firstAccessPath(dataDir), 'utf8');
  } catch {
    return null;
  }
  const field = (name: string) => new RegExp(`^${name}: (.+)$`, 'm').exec(text)?.[1]?.trim() ?? '';
  return { email: field('E-mail').toLowerCase(), password: field('Password') };
}

/**
 * Deletes the file once the administrator it was written for has chosen their own password: when
 * it names them and holds the very password being replaced (`replacedHash`), so that another
 * database using the same DATA_DIR (a test run beside a developer's installation) never takes it.
 * The password change stands whatever happens here: a file left behind holds a password that no
 * longer works.
 */
export async function removeFirstAccessFile(
  dataDir: string,
  email: string,
  replacedHash: string,
): Promise<void> {
  try {
    const kept = readFirstAccessFile(dataDir);
    if (!kept?.password || kept.email !== email.toLowerCase()) return;
    if (await verifyPassword(replacedHash, kept.password))
      fs.rmSync(firstAccessPath(dataDir), { force: true });
  } catch {
    /* see above */
  }
}
