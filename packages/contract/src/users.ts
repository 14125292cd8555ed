import { z } from 'zod';
import { AUTH_MSG } from './messages.js';
import { MIN_PASSWORD_LENGTH } from './constants.js';
import { isValidRut } from './rut.js';

const blankToNull = (v: unknown) =>
  typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v;
const optionalText = (max: number) =>
  z.preprocess(
    blankToNull,
    z.string().max(max, `Debe contener máximo ${max} caracteres.`).nullable().optional(),
  );
const id = z.coerce.number({ error: 'Debe ser un número válido.' }).int().positive();

export const USER_MSG = {
  nameRequired: 'Es obligatorio.',
  rutInvalid: 'RUT no válido',
  roleRequired: 'Es obligatorio.',
  emailInvalid: 'Correo electrónico inválido.',
} as const;

export const rutField = z.preprocess(
  blankToNull,
  z.string().refine(isValidRut, USER_MSG.rutInvalid).nullable().optional(),
);

/**
 * The original client's Usuario screen sends this fixed password on every create and edit
 * (docs/development/original-api.md §2.2, §4). It is not a chosen password (and too short to be one): it is
 * read as "no password given", so a new user gets a generated temporary one and an edit keeps the
 * current one. (Its own first-login dialog asks for at least 6 characters, so it never sends it.)
 */
export const ORIGINAL_CLIENT_PLACEHOLDER_PASSWORD = 'sigaf';
const notPlaceholder = (v: unknown) =>
  v === ORIGINAL_CLIENT_PLACEHOLDER_PASSWORD ? null : blankToNull(v);

/** POST /api/v2/users/signup (the Usuario screen). Without a password a temporary one is generated. */
export const userCreateSchema = z.object({
  rut: rutField,
  name: z.preprocess(
    blankToNull,
    z.string({ error: USER_MSG.nameRequired }).min(1, USER_MSG.nameRequired).max(200),
  ),
  phone: optionalText(20),
  mobile: optionalText(20),
  email: z.preprocess(
    blankToNull,
    z.string({ error: AUTH_MSG.emailRequired }).email(USER_MSG.emailInvalid).max(255),
  ),
  password: z.preprocess(
    notPlaceholder,
    z.string().min(MIN_PASSWORD_LENGTH, AUTH_MSG.newPasswordMin).max(200).nullable().optional(),
  ),
  role_id: z.preprocess(blankToNull, id.nullable().optional()),
  role: z.unknown().optional(),
});
export type UserCreateInput = z.infer<typeof userCreateSchema>;

/**
 * PUT /api/v2/users/{id}: as the original client sends it (its whole user record, `role` null,
 * empty strings for blanks). Fields left out are not changed.
 */
export const userUpdateSchema = z.object({
  id: z.unknown().optional(),
  rut: rutField,
  name: z.preprocess(
    blankToNull,
    z.string().min(1, USER_MSG.nameRequired).max(200).optional().nullable(),
  ),
  phone: optionalText(20),
  mobile: optionalText(20),
  email: z.preprocess(
    blankToNull,
    z.string().email(USER_MSG.emailInvalid).max(255).optional().nullable(),
  ),
  password: z.preprocess(
    notPlaceholder,
    z.string().min(MIN_PASSWORD_LENGTH, AUTH_MSG.newPasswordMin).max(200).nullable().optional(),
  ),
  isFirstLogin: z.preprocess(
    blankToNull,
    z.coerce.number().int().min(0).max(1).nullable().optional(),
  ),
  /** Asked for an own password change (not in the first-login change, which has just signed in with it). */
  current_password: z.preprocess(blankToNull, z.string().max(200).nullable().optional()),
  role_id: z.preprocess(blankToNull, id.nullable().optional()),
  role: z.unknown().optional(),
});
export type UserUpdateInput = z.infer<typeof userUpdateSchema>;

/** The current course (PUT /api/v2/me/current-course): a course id, or null to forget it. */
export const currentCourseSchema = z.object({
  course_id: z.coerce
    .number({ error: 'Elija un curso.' })
    .int('Elija un curso.')
    .positive('Elija un curso.')
    .max(2_147_483_647, 'Elija un curso.')
    .nullable(),
});

/**
 * The account id 2 goes to on a new installation: the original client removes the user with id 2
 * from every operator picker (SAutocompleteOperatorTicket.vue), so no staff member may have it.
 * Created deleted, with no usable password: it signs nobody in and no list shows it.
 */
export const RESERVED_USER = {
  id: 2,
  name: 'Cuenta reservada del sistema',
  email: 'cuenta.reservada@sigaf.invalid',
} as const;
