import { AUTH_MSG, MIN_PASSWORD_LENGTH } from '@sigaf/contract';
import { COMMON_PASSWORDS } from './common-passwords.js';

const letters = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-zñ]/g, '');

/**
 * Why a new password is refused, or null (SECURITY.md, Sign-in): shorter than 8 characters, one
 * of the 1,000 most common passwords, or the person's own e-mail or name (its letters, without
 * the digits and symbols around them: "Olga2026!" for olga@…, "Perez.123" for Juan Pérez).
 */
export function passwordProblem(
  password: string,
  who: { email?: string | null; name?: string | null },
): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return AUTH_MSG.newPasswordMin;
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return AUTH_MSG.passwordTooCommon;
  const plain = letters(password);
  const email = (who.email ?? '').toLowerCase();
  const identities = [
    letters(email),
    letters(email.split('@')[0] ?? ''),
    letters(who.name ?? ''),
    ...(who.name ?? '').split(/\s+/).map(letters),
  ].filter((v) => v.length >= 3);
  if (plain && identities.includes(plain)) return AUTH_MSG.passwordLikeIdentity;
  return null;
}
