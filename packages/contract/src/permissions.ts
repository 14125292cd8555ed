import { ALL_ROLES, STAFF_ADMINS, TICKET_WORKERS, type RoleKey } from './roles.js';

/**
 * The permission matrix (docs/development/permissions.md), one table: every API route declares one of these
 * capabilities and the server enforces it. docs/development/permissions.md shows the same table.
 *   Administrador, Developer: everything.
 *   Operador: tickets, dashboards and follow-up; reads catalogues; changes no catalogue, user or setting.
 *   Tutor: follow-up of their classrooms; reads catalogues and courses.
 */
export const PERMISSIONS = {
  /** Read catalogues, categories, courses and activities (selectors on every screen). */
  catalogueRead: ALL_ROLES,
  /** Create, change or delete catalogue values, categories, courses, activities. */
  catalogueWrite: STAFF_ADMINS,
  /** The staff list (operator pickers). */
  userRead: TICKET_WORKERS,
  /** Create, delete users, reset passwords, change roles. */
  userWrite: STAFF_ADMINS,
  /**
   * Tickets, contact attempts, mail to students; also Administración ticket's searches by code,
   * operator and dates (an operator gets only the tickets assigned to them, as in their list).
   */
  ticketWork: TICKET_WORKERS,
  /** Dashboard (Estadística). */
  dashboardRead: TICKET_WORKERS,
  /** Student follow-up (Seguimiento). */
  followUpRead: ALL_ROLES,
  /** Reports; Administración ticket's bulk delete and an attempt's deletion; unlocking. */
  reportRead: STAFF_ADMINS,
  /** Reminders on tickets (Recordatorios): the same rule as tickets. */
  reminderWork: TICKET_WORKERS,
  /** Mi agenda: operators their own, administrators any operator's, tutors the at-risk students of their classrooms. */
  agendaRead: ALL_ROLES,
  /** The agenda's workload table, reassignment and course settings. */
  agendaAdmin: STAFF_ADMINS,
  /** Configuration: students, enrolments, classrooms, Moodle synchronisation. */
  configurationWrite: STAFF_ADMINS,
} as const satisfies Record<string, readonly RoleKey[]>;

export type Capability = keyof typeof PERMISSIONS;
