import fs from 'node:fs';
import path from 'node:path';

/**
 * The first administrator's one-time password, kept beside the console banner in a file only the
 * server's user can read (DATA_DIR/primer-acceso.txt), until that administrator has chosen a new
 * password at first sign-in.
 */
export const FIRST_ACCESS_FILE = 'primer-acceso.txt';

export const firstAccessPath = (dataDir: string) => path.join(dataDir, FIRST_ACCESS_FILE);

/** Writes the file (mode 0600) and answers its path. */
export function writeFirstAccessFile(dataDir: string, admin: { email: string; password: string }): string {
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

/** The e-mail the file was written for, or null when there is no file. */
export function firstAccessEmail(dataDir: string): string | null {
  let text: string;
  try {
    text = fs.readFileSync(firstAccessPath(dataDir), 'utf8');
  } catch {
    return null;
  }
  return /^E-mail: (.+)$/m.exec(text)?.[1]?.trim().toLowerCase() ?? '';
}

/**
 * Deletes the file once the administrator it was written for has chosen their own password. The
 * password change stands whatever happens here: a file that cannot be deleted holds a password
 * that no longer works.
 */
export function removeFirstAccessFile(dataDir: string, email: string): void {
  try {
    if (firstAccessEmail(dataDir) === email.toLowerCase()) fs.rmSync(firstAccessPath(dataDir), { force: true });
  } catch {
    /* see above */
  }
}
