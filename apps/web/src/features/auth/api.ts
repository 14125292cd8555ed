import type { LoginResult } from '@sigaf/contract';
import { request } from '../../lib/api';
import type { SessionUser } from '../../lib/session';

export async function login(email: string, password: string): Promise<LoginResult> {
  return request<LoginResult>('/api/auth/login', {
    method: 'POST',
    body: { email, password },
    token: null,
    skipAuthRedirect: true,
  });
}

/** The first-login change, with the body the original client sends (its own user record). */
export async function changeOwnPassword(user: SessionUser, password: string, token: string) {
  await request(`/api/v2/users/${user.id}`, {
    method: 'PUT',
    token,
    skipAuthRedirect: true,
    body: {
      id: user.id,
      rut: user.rut,
      name: user.name,
      phone: user.phone ?? '',
      mobile: user.mobile ?? '',
      email: user.email,
      role: null,
      password,
      isFirstLogin: 1,
      role_id: user.role.id,
    },
  });
}
