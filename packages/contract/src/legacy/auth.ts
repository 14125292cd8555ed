import { z } from 'zod';
import { legacyId, legacyLinks } from './common.js';

/**
 * docs/development/original-api.md §2.1 Authentication (`/api/auth`, no envelope) and §1.9, the sign-in flow of the original client.
 */

/** The role names the client's menus and row filters compare with (§4). */
export const legacyRoleDescription = z.enum(['Administrador', 'Tutor', 'Operador', 'Developer']);

/** §2.1 POST /api/auth/login: only `access_token` is read. */
export const authLogin = z.looseObject({ access_token: z.string().min(1) });

/** The session user's `properties` (§2.1 GET /api/auth/user): the fields read and copied into the first-login PUT. */
export const legacySessionUserProperties = z.looseObject({
  id: legacyId,
  // The drawer's avatar takes the first letter of the second word (NavigationDrawer.vue:326-330).
  name: z.string().min(1),
  rut: z.string().nullable(),
  phone: z.string().nullable(),
  mobile: z.string().nullable(),
  email: z.string(),
  role: z.looseObject({ id: legacyId, description: legacyRoleDescription }),
  /** `=== 0` (a number) opens the password dialog. */
  isFirstLogin: z.union([z.literal(0), z.literal(1)]),
});

/** §2.1 GET /api/auth/user: `user.properties` becomes the session user. */
export const authUser = z.looseObject({
  user: z.looseObject({ links: legacyLinks.optional(), properties: legacySessionUserProperties }),
});

/** §2.1 GET /api/auth/logout: any 2xx; `message` is returned to the caller. */
export const authLogout = z.looseObject({ message: z.string() });
