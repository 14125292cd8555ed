import { z } from 'zod';
import { legacyCollection, legacyEnvelope, legacyId, legacyResource } from './common.js';
import { legacyRoleDescription } from './auth.js';

/** docs/development/original-api.md §2.2 Staff users (`/api/v2/users`). */

/** A user row as the getters `users` / `allUsers` read it (user.js:30-67). */
export const legacyUserProperties = z.looseObject({
  id: legacyId,
  rut: z.string().nullable(),
  name: z.string(),
  phone: z.string().nullable(),
  mobile: z.string().nullable(),
  email: z.string(),
  /** `role.description` is read for every row; `role.id` is the select value. */
  role: z.looseObject({ id: legacyId, description: legacyRoleDescription }),
  isFirstLogin: z.union([z.literal(0), z.literal(1)]),
});

export const legacyUser = legacyResource(legacyUserProperties);

/** §2.2 GET /api/v2/users: `_data.collections[]`. */
export const usersList = legacyEnvelope(legacyCollection(legacyUser));

/** §2.2 POST /api/v2/users/signup, created: body `statusCode` 201 and the user pushed into the list. */
export const usersSignupCreated = legacyEnvelope(legacyUser).extend({
  success: z.literal(true),
  statusCode: z.literal(201),
});

/** §2.2 POST /api/v2/users/signup, e-mail taken: a 2xx answer with body `statusCode` 406 ("El email ya existe"). */
export const usersSignupRefused = legacyEnvelope(z.unknown()).extend({
  success: z.literal(false),
  statusCode: z.literal(406),
});

/** §2.2 PUT /api/v2/users/{id} (maintenance edit and first-login password change): `success`, `_data` merged by id. */
export const usersUpdate = legacyEnvelope(legacyUser).extend({ success: z.literal(true) });

/** §2.2 DELETE /api/v2/users/{id}: `success`, `message`. */
export const usersDelete = legacyEnvelope(z.unknown()).extend({ success: z.literal(true) });
