import {
  NAV_GROUPS,
  screensFor,
  type NavGroup,
  type RoleKey,
  type ScreenRoute,
} from '@sigaf/contract';

export interface MenuModel {
  flat: ScreenRoute[];
  groups: Array<{ group: NavGroup; items: ScreenRoute[] }>;
}

/** The drawer menu of a role: flat links first, then the non-empty groups, in declaration order. */
export function buildMenu(role: RoleKey | null | undefined): MenuModel {
  const visible = screensFor(role).filter((s) => s.menu);
  return {
    flat: visible.filter((s) => !s.group),
    groups: NAV_GROUPS.map((group) => ({
      group,
      items: visible.filter((s) => s.group === group),
    })).filter((g) => g.items.length > 0),
  };
}

/** Red avatar initials: first letters of the first two words; a single word gives one letter. */
export function initials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  return (
    words
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('') || '?'
  );
}
