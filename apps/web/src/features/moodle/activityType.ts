import type { TFunction } from 'i18next';

/**
 * The name of a Moodle module type (`assign`, `forum`, …) in the screen's language; a type
 * without a translation shows its key. The key itself stays the stored value.
 */
export const activityTypeLabel = (t: TFunction, type: string) =>
  /^[a-z0-9_]+$/.test(type) ? t(`moodle.activityTypes.${type}`, { defaultValue: type }) : type;
