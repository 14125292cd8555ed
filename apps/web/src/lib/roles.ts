import { ROLE_DESCRIPTIONS, ROLE_KEYS, type RoleKey } from '@sigaf/contract';
import type { TFunction } from 'i18next';

/**
 * A role's name on this product's screens. The stored descriptions are the original client's
 * ("Developer" included, which it compares with), so they are not renamed; a role still named
 * as shipped reads in the screen's language, one an administrator renamed reads as renamed.
 */
export function roleLabel(t: TFunction, role: object | null | undefined): string {
  const { key, description = '' } = (role ?? {}) as { key?: RoleKey; description?: string };
  return key && ROLE_KEYS.includes(key) && ROLE_DESCRIPTIONS[key] === description
    ? t(`roles.${key}`)
    : String(description);
}
