import type { RoleKey } from './roles.js';

/**
 * Every screen route (docs/development/screens.md#routes), declared once. The web app builds its router and its drawer
 * from this list; the roles are those of the permission matrix (docs/development/permissions.md) and the server enforces
 * the same roles on the API the screen uses.
 */
export interface ScreenRoute {
  /** Stable key; also the i18n key under `nav.` and the screen component name in the web app. */
  key: string;
  /** Path relative to /my. */
  path: string;
  group?: 'reportes' | 'mantenedor' | 'configuracion';
  roles: readonly RoleKey[];
  /** Shown in the drawer (some routes exist only by URL, as in the original). */
  menu: boolean;
}

const A: readonly RoleKey[] = ['admin', 'developer'];
const W: readonly RoleKey[] = ['admin', 'developer', 'operator'];
const ALL: readonly RoleKey[] = ['admin', 'developer', 'operator', 'tutor'];

export const NAV_GROUPS = ['reportes', 'mantenedor', 'configuracion'] as const;
export type NavGroup = (typeof NAV_GROUPS)[number];

export const SCREEN_ROUTES: readonly ScreenRoute[] = [
  { key: 'agenda', path: 'agenda', roles: ALL, menu: true },
  { key: 'dashboard', path: 'estadistica', roles: W, menu: true },
  { key: 'effectiveness', path: 'efectividad', roles: W, menu: true },
  { key: 'followUp', path: 'seguimiento-alumnos', roles: ALL, menu: true },
  { key: 'ticket', path: 'ticket', roles: W, menu: true },
  { key: 'ticketReport', path: 'reportes/reporte-ticket', group: 'reportes', roles: A, menu: true },
  {
    key: 'ticketReportStudent',
    path: 'reportes/reporte-ticket-alumno',
    group: 'reportes',
    roles: A,
    menu: true,
  },
  {
    key: 'followStudentReport',
    path: 'reportes/reporte-seguimiento-alumnos',
    group: 'reportes',
    roles: A,
    menu: true,
  },
  {
    key: 'blockingTicket',
    path: 'mantenedor/desbloqueo-ticket',
    group: 'mantenedor',
    roles: A,
    menu: true,
  },
  {
    key: 'manageTicket',
    path: 'mantenedor/administracion-ticket',
    group: 'mantenedor',
    roles: A,
    menu: true,
  },
  { key: 'classroom', path: 'mantenedor/aula', group: 'mantenedor', roles: A, menu: true },
  {
    key: 'statusTicket',
    path: 'mantenedor/estado-ticket',
    group: 'mantenedor',
    roles: A,
    menu: true,
  },
  {
    key: 'finalStatus',
    path: 'mantenedor/estado-final',
    group: 'mantenedor',
    roles: A,
    menu: true,
  },
  { key: 'typeTicket', path: 'mantenedor/tipo-ticket', group: 'mantenedor', roles: A, menu: true },
  {
    key: 'motiveTicket',
    path: 'mantenedor/motivo-ticket',
    group: 'mantenedor',
    roles: A,
    menu: true,
  },
  {
    key: 'priorityTicket',
    path: 'mantenedor/prioridad-ticket',
    group: 'mantenedor',
    roles: A,
    menu: true,
  },
  { key: 'section', path: 'mantenedor/seccion', group: 'mantenedor', roles: A, menu: true },
  {
    key: 'sourceTicket',
    path: 'mantenedor/origen-ticket',
    group: 'mantenedor',
    roles: A,
    menu: true,
  },
  {
    key: 'statusDetailTicket',
    path: 'mantenedor/estado-detalle-ticket',
    group: 'mantenedor',
    roles: A,
    menu: true,
  },
  { key: 'role', path: 'mantenedor/rol', group: 'mantenedor', roles: A, menu: true },
  { key: 'profile', path: 'mantenedor/perfil', group: 'mantenedor', roles: A, menu: true },
  { key: 'category', path: 'mantenedor/categoria', group: 'mantenedor', roles: A, menu: true },
  { key: 'course', path: 'mantenedor/Curso', group: 'mantenedor', roles: A, menu: true },
  { key: 'user', path: 'mantenedor/Usuario', group: 'mantenedor', roles: A, menu: true },
  {
    key: 'loadStudents',
    path: 'configuracion/cargar-estudiantes',
    group: 'configuracion',
    roles: A,
    menu: true,
  },
  {
    key: 'buildClassrooms',
    path: 'configuracion/conformar-aulas',
    group: 'configuracion',
    roles: A,
    menu: true,
  },
  {
    key: 'activity',
    path: 'configuracion/actividad',
    group: 'configuracion',
    roles: A,
    menu: true,
  },
  {
    key: 'managementStudent',
    path: 'configuracion/gestion-estudiantes',
    group: 'configuracion',
    roles: A,
    menu: true,
  },
];

export function screensFor(role: RoleKey | null | undefined): ScreenRoute[] {
  if (!role) return [];
  return SCREEN_ROUTES.filter((s) => s.roles.includes(role));
}
