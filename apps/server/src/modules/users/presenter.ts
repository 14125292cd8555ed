import type { UserProperties } from '@sigaf/contract';
import { resource, type Asker } from '../../http/envelope.js';
import type { UserRow } from './repository.js';

/** The user resource (docs/development/original-api.md#users; never the password). */
export function userResource(request: Asker, u: UserRow) {
  const properties: UserProperties = {
    id: u.id,
    name: u.name,
    rut: u.rut ?? '',
    mobile: u.mobile,
    phone: u.phone,
    email: u.email,
    role: { id: u.role_id, description: u.role_description, key: u.role_key },
    isFirstLogin: u.is_first_login,
    createdAt: u.created_at ? new Date(u.created_at).toISOString() : null,
    updatedAt: u.updated_at ? new Date(u.updated_at).toISOString() : null,
  };
  return resource(request, `/api/v2/users/${u.id}`, properties);
}
