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
