import { z } from 'zod';
import type { RoleKey } from './roles.js';
import { PERMISSIONS } from './permissions.js';
import { isValidRut } from './rut.js';

/**
 * Maintained resources, declared once. A declaration drives the server's routes and validation
 * AND the maintenance screen (columns, form, dialogs, export). Adding a catalogue is one entry.
 */
/** `syncedAt`: a read-only date of the last Moodle synchronisation (never in a form). */
export type FieldKind =
  'text' | 'email' | 'password' | 'number' | 'rut' | 'select' | 'status' | 'syncedAt';

export interface FieldDecl {
  /** Name in request bodies (snake_case, as the original API takes it). */
  name: string;
  /** Name in response properties (camelCase). For selects, the property holding `{id, description}`. */
  prop: string;
  /** i18n key under `fields.` */
  label: string;
  kind: FieldKind;
  required?: boolean;
  /** Text length or number range. */
  min?: number;
  max?: number;
  /** Select options: the resource path whose list gives `{id, description}` items. */
  options?: string;
  /** Stable keys of options the form does not offer (a value already held is still shown). */
  hiddenOptionKeys?: readonly string[];
  /** Shown as a table column (default true). */
  column?: boolean;
  /** Shown in the create/edit form (default true). */
  form?: boolean;
  /** Stored upper case (codes). */
  uppercase?: boolean;
  /** Write-only (never returned); blank on update keeps the stored value. */
  secret?: boolean;
  /** Server-side sort key for this column (default: the prop, when sortable). */
  sortable?: boolean;
}

export interface ResourceDecl {
  /** Screen key in SCREEN_ROUTES; also the i18n key base `resources.<key>`. */
  key: string;
  /** API path under /api/v2. */
  path: string;
  read: readonly RoleKey[];
  write: readonly RoleKey[];
  listOnly?: boolean;
  fields: FieldDecl[];
  /** The original's non-standard create/update paths, kept for compatibility. */
  createPath?: string;
  updatePath?: string;
  /** Items carry the number of tickets that use them, and a link to them. */
  ticketColumn?: string;
  /** Is a simple catalogue (id + description) handled by the generic catalogue module. */
  catalogue?: boolean;
}

export const CATALOGUE_MAX = 25;

const description = (min: number, max = CATALOGUE_MAX): FieldDecl => ({
  name: 'description',
  prop: 'description',
  label: 'name',
  kind: 'text',
  required: true,
  min,
  max,
  sortable: true,
});

const catalogue = (
  key: string,
  path: string,
  write: readonly RoleKey[],
  min: number,
  ticketColumn?: string,
): ResourceDecl => ({
  key,
  path,
  read: PERMISSIONS.catalogueRead,
  write,
  fields: [description(min)],
  catalogue: true,
  ...(ticketColumn ? { ticketColumn } : {}),
});

const status: FieldDecl = {
  name: 'status',
  prop: 'status',
  label: 'status',
  kind: 'status',
  column: true,
};

export const RESOURCES: readonly ResourceDecl[] = [
  catalogue('classroom', 'classrooms', PERMISSIONS.catalogueWrite, 3),
  catalogue('statusTicket', 'status-tickets', PERMISSIONS.catalogueWrite, 4, 'status_ticket_id'),
  catalogue('finalStatus', 'final-statuses', PERMISSIONS.catalogueWrite, 4),
  catalogue('typeTicket', 'type-tickets', PERMISSIONS.catalogueWrite, 4, 'type_ticket_id'),
  catalogue('motiveTicket', 'motive-tickets', PERMISSIONS.catalogueWrite, 4, 'motive_ticket_id'),
  catalogue(
    'priorityTicket',
    'priority-tickets',
    PERMISSIONS.catalogueWrite,
    4,
    'priority_ticket_id',
  ),
  catalogue('sourceTicket', 'source-tickets', PERMISSIONS.catalogueWrite, 4, 'source_ticket_id'),
  catalogue('statusDetailTicket', 'status-detail-tickets', PERMISSIONS.catalogueWrite, 4),
  catalogue('section', 'sections', PERMISSIONS.catalogueWrite, 4),
  catalogue('role', 'roles', PERMISSIONS.catalogueWrite, 4),
  catalogue('profile', 'profiles', PERMISSIONS.catalogueWrite, 4),
  { ...catalogue('platform', 'platforms', PERMISSIONS.catalogueWrite, 3), listOnly: true },
  {
    key: 'category',
    path: 'categories',
    read: PERMISSIONS.catalogueRead,
    write: PERMISSIONS.catalogueWrite,
    createPath: 'categories/post',
    updatePath: 'categories/put/:id',
    fields: [
      description(3, 150),
      {
        name: 'category_code',
        prop: 'categoryCode',
        label: 'code',
        kind: 'text',
        required: true,
        min: 1,
        max: 4,
        uppercase: true,
        sortable: true,
      },
      {
        name: 'id_category_moodle',
        prop: 'idCategoryMoodle',
        label: 'idMoodle',
        kind: 'number',
        min: 1,
        max: 99_999_999,
        sortable: true,
      },
      {
        name: 'platform_id',
        prop: 'platform',
        label: 'platform',
        kind: 'select',
        required: true,
        options: 'platforms',
      },
      status,
    ],
  },
  {
    key: 'course',
    path: 'courses',
    read: PERMISSIONS.catalogueRead,
    write: PERMISSIONS.catalogueWrite,
    createPath: 'courses/post',
    fields: [
      description(3, 150),
      { name: 'email', prop: 'email', label: 'email', kind: 'email', max: 255, sortable: true },
      {
        name: 'password',
        prop: 'hasPassword',
        label: 'mailPassword',
        kind: 'password',
        secret: true,
        max: 200,
        column: false,
      },
      {
        name: 'id_course_moodle',
        prop: 'idCourseMoodle',
        label: 'idMoodle',
        kind: 'number',
        min: 1,
        max: 99_999_999,
        sortable: true,
      },
      {
        name: 'category_id',
        prop: 'category',
        label: 'category',
        kind: 'select',
        required: true,
        options: 'categories',
      },
      status,
      {
        name: 'last_sync_at',
        prop: 'lastSyncAt',
        label: 'lastSync',
        kind: 'syncedAt',
        form: false,
      },
    ],
  },
  {
    key: 'user',
    path: 'users',
    read: PERMISSIONS.userRead,
    write: PERMISSIONS.userWrite,
    createPath: 'users/signup',
    fields: [
      {
        name: 'rut',
        prop: 'rut',
        label: 'rut',
        kind: 'rut',
        required: true,
        max: 12,
        sortable: true,
      },
      {
        name: 'name',
        prop: 'name',
        label: 'fullName',
        kind: 'text',
        required: true,
        min: 3,
        max: 200,
        sortable: true,
      },
      { name: 'phone', prop: 'phone', label: 'phone', kind: 'text', max: 20, column: false },
      { name: 'mobile', prop: 'mobile', label: 'mobile', kind: 'text', max: 20 },
      {
        name: 'email',
        prop: 'email',
        label: 'email',
        kind: 'email',
        required: true,
        max: 255,
        sortable: true,
      },
      // Developer is a technical role: not offered to staff creating or editing a user.
      {
        name: 'role_id',
        prop: 'role',
        label: 'role',
        kind: 'select',
        required: true,
        options: 'roles',
        hiddenOptionKeys: ['developer'],
      },
    ],
  },
  {
    key: 'activity',
    path: 'activities',
    read: PERMISSIONS.catalogueRead,
    write: PERMISSIONS.catalogueWrite,
    fields: [
      {
        name: 'description',
        prop: 'description',
        label: 'name',
        kind: 'text',
        required: true,
        min: 1,
        max: 255,
        sortable: true,
      },
      {
        name: 'course_id',
        prop: 'course',
        label: 'course',
        kind: 'select',
        required: true,
        options: 'courses',
      },
      {
        name: 'section_id',
        prop: 'section',
        label: 'section',
        kind: 'select',
        options: 'sections',
      },
      {
        name: 'weighing',
        prop: 'weighing',
        label: 'weighing',
        kind: 'number',
        min: 0,
        max: 100,
        sortable: true,
      },
      {
        name: 'id_activity_moodle',
        prop: 'idActivityMoodle',
        label: 'idMoodle',
        kind: 'number',
        min: 1,
        max: 99_999_999,
        sortable: true,
      },
      { name: 'type', prop: 'type', label: 'activityType', kind: 'text', max: 60 },
    ],
  },
];

export function resourceByKey(key: string): ResourceDecl | undefined {
  return RESOURCES.find((r) => r.key === key);
}

export function resourceByPath(path: string): ResourceDecl | undefined {
  return RESOURCES.find((r) => r.path === path);
}

/** Validation messages of the maintenance forms (docs/development/screens.md#catalogue-screens, with the original's wrong counts fixed). */
export const FORM_MSG = {
  required: 'Es obligatorio.',
  min: (n: number) => `Debe contener al menos ${n} caracteres.`,
  max: (n: number) => `Debe contener máximo ${n} caracteres.`,
  number: 'Debe ser un número válido.',
  numberMin: (n: number) => `Debe ser mayor o igual a ${n}.`,
  numberMax: (n: number) => `Debe ser menor o igual a ${n}.`,
  email: 'Correo electrónico inválido.',
  rut: 'RUT no válido',
  option: 'Seleccione una opción válida.',
} as const;

/** A yes/no query parameter: true, 1, false or 0 (blank is absent). */
export const queryFlag = z.preprocess(
  (v) =>
    v === '' || v === null
      ? undefined
      : v === 'true' || v === '1' || v === true
        ? true
        : v === 'false' || v === '0' || v === false
          ? false
          : v,
  z.boolean({ error: FORM_MSG.option }).optional(),
);

const blankToUndefined = (v: unknown) =>
  typeof v === 'string' && v.trim() === '' ? undefined : v === null ? undefined : v;

function fieldSchema(f: FieldDecl): z.ZodTypeAny {
  let s: z.ZodTypeAny;
  switch (f.kind) {
    case 'number':
    case 'select': {
      let n = z.coerce
        .number({ error: f.kind === 'select' ? FORM_MSG.option : FORM_MSG.number })
        .int(FORM_MSG.number);
      if (f.kind === 'select') n = n.positive(FORM_MSG.option).max(2_147_483_647, FORM_MSG.option);
      if (f.min !== undefined) n = n.min(f.min, FORM_MSG.numberMin(f.min));
      if (f.max !== undefined) n = n.max(f.max, FORM_MSG.numberMax(f.max));
      s = n;
      break;
    }
    case 'status':
      s = z.coerce
        .number({ error: FORM_MSG.option })
        .int()
        .min(0, FORM_MSG.option)
        .max(1, FORM_MSG.option);
      break;
    default: {
      let t = z.string({ error: FORM_MSG.required }).trim();
      if (f.required) t = t.min(1, FORM_MSG.required);
      if (f.min !== undefined) t = t.min(f.min, FORM_MSG.min(f.min));
      if (f.max !== undefined) t = t.max(f.max, FORM_MSG.max(f.max));
      if (f.kind === 'email') t = t.email(FORM_MSG.email);
      s = f.kind === 'rut' ? t.refine(isValidRut, FORM_MSG.rut) : t;
      if (f.uppercase) s = (s as z.ZodString).transform((v) => v.toUpperCase());
    }
  }
  const optional = !f.required || f.secret;
  return z.preprocess(blankToUndefined, optional ? s.optional() : s);
}

/**
 * The body schema of a resource: for 'create' required fields must be present; for 'update'
 * every field is optional (fields left out are not changed). Unknown fields are dropped.
 */
export function resourceBodySchema(decl: ResourceDecl, mode: 'create' | 'update') {
  const shape: Record<string, z.ZodTypeAny> = {};
  for (const f of decl.fields) {
    if (f.form === false) continue;
    const s = fieldSchema(f);
    shape[f.name] = mode === 'update' ? s.optional() : s;
  }
  return z.object(shape);
}
