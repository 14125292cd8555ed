import { z } from 'zod';
import { AUTH_MSG } from './messages.js';
import { MIN_PASSWORD_LENGTH } from './constants.js';

const trimmed = (s: unknown) => (typeof s === 'string' ? s.trim() : s);

/** Login form and POST /api/auth/login body. Extra fields (the original posts its whole user form) are ignored. */
export const loginSchema = z.object({
  email: z.preprocess(
    trimmed,
    z
      .string({ error: AUTH_MSG.emailRequired })
      .min(1, AUTH_MSG.emailRequired)
      .email(AUTH_MSG.emailInvalid)
      .max(255),
  ),
  password: z.preprocess(
    trimmed,
    z.string({ error: AUTH_MSG.passwordRequired }).min(1, AUTH_MSG.passwordRequired).max(200),
  ),
  remember_me: z.union([z.boolean(), z.number(), z.string()]).optional().nullable(),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** The "Modificar contraseña" dialog. */
export const newPasswordSchema = z
  .object({
    password: z.preprocess(
      trimmed,
      z
        .string({ error: AUTH_MSG.newPasswordRequired })
        .min(1, AUTH_MSG.newPasswordRequired)
        .min(MIN_PASSWORD_LENGTH, AUTH_MSG.newPasswordMin)
        .max(200),
    ),
    confirm: z.preprocess(trimmed, z.string()),
  })
  .refine((v) => v.password === v.confirm, {
    path: ['confirm'],
    message: AUTH_MSG.passwordsMustMatch,
  });
export type NewPasswordInput = z.infer<typeof newPasswordSchema>;

export interface LoginResult {
  access_token: string;
  token_type: 'Bearer';
  expires_at: string;
}

export interface UserProperties {
  id: number;
  name: string;
  rut: string;
  mobile: string | null;
  phone: string | null;
  email: string;
  role: { id: number; description: string; key: string | null };
  isFirstLogin: number;
  createdAt: string | null;
  updatedAt: string | null;
}
