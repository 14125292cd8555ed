import { hash, verify, Algorithm } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';

const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(plain: string): Promise<string> {
  return hash(plain, OPTIONS);
}

/** A bcrypt hash as SIGAF 1.x (Laravel) stored it: accepted at sign-in once, then replaced. */
export function isLegacyHash(stored: string): boolean {
  return /^\$2[aby]\$\d{2}\$/.test(stored);
}

export async function verifyPassword(stored: string, plain: string): Promise<boolean> {
  try {
    // bcryptjs reads $2y$ (PHP's name for the same algorithm) as $2b$.
    if (isLegacyHash(stored)) return await bcrypt.compare(plain, stored.replace(/^\$2y\$/, '$2b$'));
    return await verify(stored, plain);
  } catch {
    return false;
  }
}

/** A readable one-time password: 12 characters without look-alikes. */
export function generatePassword(length = 12): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}
