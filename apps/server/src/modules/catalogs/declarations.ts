import { RESOURCES, type ResourceDecl } from '@sigaf/contract';
import type { DB } from '../../db/schema.js';

export type CatalogueTable =
  | 'roles'
  | 'profiles'
  | 'classrooms'
  | 'final_statuses'
  | 'status_tickets'
  | 'priority_tickets'
  | 'motive_tickets'
  | 'status_detail_tickets'
  | 'source_tickets'
  | 'type_tickets'
  | 'sections'
  | 'platforms';

export interface Usage {
  table: keyof DB;
  column: string;
  /** Spanish noun for the message "está en uso por N {noun}". */
  noun: string;
}

/** Server-side facts of each catalogue: its table and what refers to it (so a value in use is never deleted). */
/** Rows of another table that belong to a catalogue value (a section's activities, a platform's categories). */
export interface Children {
  table: 'activities' | 'categories';
  column: 'section_id' | 'platform_id';
  /** Where they are listed (the value's relationship link). */
  href: (id: number) => string;
}

export const CATALOGUE_TABLES: Record<
  string,
  { table: CatalogueTable; usedBy: Usage[]; children?: Children }
> = {
  classrooms: {
    table: 'classrooms',
    usedBy: [
      { table: 'course_registered_users', column: 'classroom_id', noun: 'matrículas' },
      // Its tutors would silently lose their students: unassign them first (Aula › Tutores).
      { table: 'classroom_tutors', column: 'classroom_id', noun: 'asignaciones de tutor' },
    ],
  },
  'status-tickets': {
    table: 'status_tickets',
    usedBy: [{ table: 'tickets', column: 'status_ticket_id', noun: 'tickets' }],
  },
  'final-statuses': {
    table: 'final_statuses',
    usedBy: [{ table: 'course_registered_users', column: 'final_status_id', noun: 'matrículas' }],
  },
  'type-tickets': {
    table: 'type_tickets',
    usedBy: [{ table: 'tickets', column: 'type_ticket_id', noun: 'tickets' }],
  },
  'motive-tickets': {
    table: 'motive_tickets',
    usedBy: [{ table: 'tickets', column: 'motive_ticket_id', noun: 'tickets' }],
  },
  'priority-tickets': {
    table: 'priority_tickets',
    usedBy: [{ table: 'tickets', column: 'priority_ticket_id', noun: 'tickets' }],
  },
  'source-tickets': {
    table: 'source_tickets',
    usedBy: [{ table: 'tickets', column: 'source_ticket_id', noun: 'tickets' }],
  },
  'status-detail-tickets': {
    table: 'status_detail_tickets',
    usedBy: [
      { table: 'ticket_details', column: 'status_detail_ticket_id', noun: 'intentos de contacto' },
    ],
  },
  sections: {
    table: 'sections',
    usedBy: [{ table: 'activities', column: 'section_id', noun: 'actividades' }],
    children: {
      table: 'activities',
      column: 'section_id',
      href: (id) => `/api/v2/activities?section_id=${id}`,
    },
  },
  roles: { table: 'roles', usedBy: [{ table: 'users', column: 'role_id', noun: 'usuarios' }] },
  profiles: {
    table: 'profiles',
    usedBy: [{ table: 'course_registered_users', column: 'profile_id', noun: 'matrículas' }],
  },
  platforms: {
    table: 'platforms',
    usedBy: [{ table: 'categories', column: 'platform_id', noun: 'categorías' }],
    children: {
      table: 'categories',
      column: 'platform_id',
      href: (id) => `/api/v2/categories?platform_id=${id}`,
    },
  },
};

export const CATALOGUES: ResourceDecl[] = RESOURCES.filter((r) => r.catalogue);

for (const c of CATALOGUES) {
  if (!CATALOGUE_TABLES[c.path]) throw new Error(`Catalogue ${c.path} has no table declaration`);
}
