import { z } from 'zod';
import { FORM_MSG } from './resources.js';
import { normalizeRut } from './rut.js';

const blank = (v: unknown) =>
  typeof v === 'string'
    ? v.trim() === ''
      ? undefined
      : v.trim().replace(/\s+/g, ' ')
    : v === null
      ? undefined
      : v;
const text = (max: number) =>
  z.preprocess(blank, z.string().max(max, FORM_MSG.max(max)).optional());
const requiredText = (max: number, message: string) =>
  z.preprocess(blank, z.string({ error: message }).min(1, message).max(max, FORM_MSG.max(max)));

export const STUDENT_MSG = {
  identityAdminOnly:
    'Solo un administrador puede cambiar el RUT y los nombres del alumno (el RUT es la clave con Moodle). Usted puede corregir sus datos de contacto.',
  rutInvalid: 'RUT no válido',
  rutRequired: 'El RUT es requerido.',
  nameRequired: 'El nombre es requerido.',
  lastNameRequired: 'El apellido paterno es requerido.',
  emailInvalid: 'Ingrese un E-mail válido.',
  notEnrolled: 'El alumno no pertenece a este curso.',
  notRegistered: 'El alumno no se encuentra registrado.',
  alreadyEnrolled: 'El alumno ya se encuentra matriculado en el curso.',
  enrolmentHasTickets: (n: number) =>
    `No se puede eliminar la matrícula porque tiene ${n} ticket(s) asociado(s).`,
  studentHasEnrolments: (n: number) =>
    `No se puede eliminar el alumno porque tiene ${n} matrícula(s).`,
  classroomBuilt: (classroom: string, n: number) =>
    `Se ha conformado el ${classroom} con ${n} estudiantes`,
  selectStudents: 'Debe seleccionar al menos un alumno.',
} as const;

/** A RUT in any common spelling, validated (módulo 11) and normalised to 12.345.678-9. */
export const rutSchema = z.preprocess(
  blank,
  z.string({ error: STUDENT_MSG.rutRequired }).transform((v, ctx) => {
    const n = normalizeRut(v);
    if (!n) {
      ctx.addIssue({ code: 'custom', message: STUDENT_MSG.rutInvalid });
      return z.NEVER;
    }
    return n;
  }),
);

/** A student (registered user): personal, school and Moodle data (docs/development/domain.md#students). */
export const studentFields = {
  rut: rutSchema,
  name: requiredText(100, STUDENT_MSG.nameRequired),
  last_name: requiredText(100, STUDENT_MSG.lastNameRequired),
  mother_last_name: text(100),
  email: z.preprocess(
    blank,
    z.string().max(255, FORM_MSG.max(255)).email(STUDENT_MSG.emailInvalid).optional(),
  ),
  phone: text(20),
  mobile: text(20),
  address: text(255),
  city: text(100),
  region: text(100),
  rbd_school: text(20),
  name_school: text(255),
  city_school: text(100),
  region_school: text(100),
  phone_school: text(20),
};

/** A student's identity: the RUT (the Moodle matching key) and names, changed by administrators and developers only. */
export const STUDENT_IDENTITY_FIELDS = ['rut', 'name', 'last_name', 'mother_last_name'] as const;

export const studentCreateSchema = z.object(studentFields);
export const studentUpdateSchema = z.object(
  Object.fromEntries(Object.entries(studentFields).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof typeof studentFields]: z.ZodOptional<(typeof studentFields)[K]>;
  },
);
/** view-store: create, or update when `id` (or the RUT) already exists. */
export const studentUpsertSchema = studentCreateSchema.extend({
  id: z.preprocess(blank, z.coerce.number().int().positive().optional()),
});
export type StudentInput = z.infer<typeof studentCreateSchema>;

const id = z.coerce
  .number({ error: FORM_MSG.option })
  .int()
  .positive(FORM_MSG.option)
  .max(2_147_483_647, FORM_MSG.option);
const optionalId = z.preprocess(blank, id.nullable().optional());

export const enrolmentCreateSchema = z.object({
  course_id: id,
  registered_user_id: id,
  profile_id: optionalId,
  classroom_id: optionalId,
});

export const enrolmentClassroomSchema = z.object({
  classroom_id: optionalId,
  profile_id: optionalId,
  final_status_id: optionalId,
});

export const classroomAssignSchema = z.object({
  // Enrolment ids, or the rows themselves (the original client sends its table rows, each with its `id`).
  courseRegisteredUsers: z
    .array(
      z.preprocess(
        (v) =>
          v !== null && typeof v === 'object' && !Array.isArray(v) && 'id' in v
            ? (v as { id: unknown }).id
            : v,
        id,
      ),
    )
    .min(1, STUDENT_MSG.selectStudents)
    .max(20_000),
  profile_id: optionalId,
});

export const autoSplitSchema = z.object({
  course_id: id,
  classroom_ids: z.array(id).min(1, 'Seleccione al menos un aula.').max(200),
  confirm: z.boolean().optional(),
});

/** Columns of the student import file, by position (docs/development/domain.md#student-import). */
export const IMPORT_COLUMNS = [
  'RUT (sin puntos ni dígito verificador)',
  'Dígito verificador',
  'Nombre',
  'Apellido paterno',
  'Apellido materno',
  'Correo electrónico',
  'Dirección',
  'Región',
  'Teléfono',
  'Celular',
  'RBD colegio',
  'Nombre colegio',
  'Región colegio',
  'Ciudad colegio',
  'Teléfono colegio',
] as const;

export const IMPORT_LIMITS = { maxBytes: 10 * 1024 * 1024, maxRows: 20_000 } as const;

export interface ImportRowResult {
  /** Row number in the file (1 = header). */
  row: number;
  /** The RUT normalised, or null when the file's is not valid. */
  rut: string | null;
  /** The RUT as the file has it (what a rejected row shows). */
  rutInFile: string;
  name: string;
  /** What happens to the student: created, updated with the file's data, unchanged, or nothing (rejected). */
  student: 'new' | 'updated' | 'unchanged' | null;
  /** What happens to the enrolment in the chosen course. */
  enrolment: 'enrolled' | 'already_enrolled' | null;
  rejected: boolean;
  reasons: string[];
  /** What was accepted but needs a look (a region that is none of the 16, kept as written). */
  notes: string[];
}
export interface ImportSummary {
  total: number;
  created: number;
  updated: number;
  unchanged: number;
  enrolled: number;
  alreadyEnrolled: number;
  rejected: number;
  applied: boolean;
  /** How a CSV's bytes were read: UTF-8, or Windows-1252 (Excel's "CSV" in Spanish); null for an .xlsx. */
  encoding: 'utf-8' | 'windows-1252' | null;
}

/** A student as lists and cards show them (tickets, dashboards, follow-up). */
export interface StudentSummary {
  id: number;
  rut: string;
  name: string;
  lastName: string;
  motherLastName: string | null;
  email: string | null;
}

/** Finding a student by name or RUT to open a ticket (GET /api/v2/course-registered-users/find). */
export const STUDENT_FIND_MSG = {
  tooShort: 'Escriba al menos 3 letras del nombre o dígitos del RUT.',
} as const;

export const studentFindQuerySchema = z.object({
  search: z.preprocess(
    blank,
    z
      .string({ error: STUDENT_FIND_MSG.tooShort })
      .min(3, STUDENT_FIND_MSG.tooShort)
      .max(100, FORM_MSG.max(100)),
  ),
  /** The course shown: its students come first. */
  course_id: z.preprocess(blank, id.optional()),
});

/** One enrolment of a student found by name or RUT, with its course. */
export interface StudentMatch {
  enrolmentId: number;
  studentId: number;
  rut: string;
  fullName: string;
  courseId: number;
  course: string;
  category: string;
}
