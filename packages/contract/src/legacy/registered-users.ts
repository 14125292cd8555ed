import { z } from 'zod';
import { legacyEnvelope, legacyId } from './common.js';

/** docs/development/original-api.md §2.13 Registered users (students): the RUT lookup and the student saves (also §1.3, §1.6, §5.8). */

const nullableText = z.string().nullable();

/** The RUT as the original client shows and tests it: `12.345.678-9`, `K` upper-case. */
export const legacyRut = z.string().regex(/^\d{1,2}\.\d{3}\.\d{3}-[\dK]$/, 'RUT 12.345.678-9');

/**
 * §1.6 A raw registered user (snake_case): the "Matricular usuario" form model (LoadStudent.vue:155-297),
 * `_data.id` for the enrolment lookup (SigafCreateSingleTicket.vue:616-630).
 */
export const legacyRawStudent = z.looseObject({
  id: legacyId,
  rut: legacyRut,
  name: z.string(),
  last_name: z.string(),
  mother_last_name: z.string(),
  email: nullableText,
  phone: nullableText,
  mobile: nullableText,
  address: nullableText,
  city: nullableText,
  region: nullableText,
  rbd_school: nullableText,
  name_school: nullableText,
  city_school: nullableText,
  region_school: nullableText,
  phone_school: nullableText,
});

/** §2.13 GET /api/v2/registered-user/{rut}, found: HTTP 200, body statusCode 200, `_data` the raw student. */
export const getRegisteredUserByRutFound = legacyEnvelope(legacyRawStudent).extend({
  success: z.literal(true),
  statusCode: z.literal(200),
});

/** §2.13 GET /api/v2/registered-user/{rut}, unknown RUT: HTTP 200, body statusCode 204 ("El alumnno no se encuentra registrado."); `success` false opens the new-student form (LoadStudent.vue:625-649). */
export const getRegisteredUserByRutUnknown = legacyEnvelope(z.null()).extend({
  success: z.literal(false),
  statusCode: z.literal(204),
});

/** §2.13 GET /api/v2/registered-user/{rut}, invalid RUT: HTTP 200, body statusCode 406 ("El RUT no es válido." / "Rut inválido"). */
export const getRegisteredUserByRutInvalid = legacyEnvelope(z.unknown()).extend({
  success: z.literal(false),
  statusCode: z.literal(406),
});

/** §2.13 PUT /api/v2/registered-users/{id}/view-update: nothing read beyond a 2xx. */
export const putRegisteredUserViewUpdate = legacyEnvelope(z.unknown()).extend({
  success: z.literal(true),
});

/** §2.13 POST /api/v2/registered-users/view-store: `success`, `_data.properties.id` (LoadStudent.vue:682). */
export const postRegisteredUserViewStore = legacyEnvelope(
  z.looseObject({ properties: z.looseObject({ id: legacyId }) }),
).extend({ success: z.literal(true) });
