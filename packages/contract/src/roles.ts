/** The four fixed roles (docs/development/domain.md#roles). Descriptions are stored in the roles table; keys are stable. */
export const ROLE_KEYS = ['admin', 'developer', 'operator', 'tutor'] as const;
export type RoleKey = (typeof ROLE_KEYS)[number];

export const ROLE_DESCRIPTIONS: Record<RoleKey, string> = {
  admin: 'Administrador',
  developer: 'Developer',
  operator: 'Operador',
  tutor: 'Tutor',
};

export const ALL_ROLES: readonly RoleKey[] = ROLE_KEYS;
export const STAFF_ADMINS: readonly RoleKey[] = ['admin', 'developer'];
export const TICKET_WORKERS: readonly RoleKey[] = ['admin', 'developer', 'operator'];
export const DEVELOPER_ONLY: readonly RoleKey[] = ['developer'];

export function isAdminLike(role: RoleKey | null | undefined): boolean {
  return role === 'admin' || role === 'developer';
}
