import type { RoleKey } from '@sigaf/contract';
import { AUTH_MSG, FIRST_LOGIN_PENDING, MSG } from '@sigaf/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, forbidden, unauthorized } from './errors.js';

export interface AuthUser {
  id: number;
  roleId: number;
  role: RoleKey | null;
  tokenId: number;
}

/**
 * Who may call a route: 'public' (no token), 'authenticated' (any signed-in user) or a list of
 * roles. Every /api/v2 route must declare it; the server refuses to start otherwise.
 */
export type Access = 'public' | 'authenticated' | readonly RoleKey[];

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    auth: AuthUser | null;
  }
  interface FastifyInstance {
    /** Every API route with who may call it: the permission matrix, as the server enforces it. */
    routeTable: Array<{ method: string; url: string; access: Access }>;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

export function requireAuth(request: Pick<FastifyRequest, 'auth'>): AuthUser {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/**
 * Until the temporary password is replaced, a session reaches only these: who am I, sign out,
 * and the change of the own record (PUT /api/v2/users/{own id}).
 */
function allowedBeforePasswordChange(request: FastifyRequest, userId: number): boolean {
  const route = `${request.method} ${request.routeOptions.url}`;
  if (route === 'GET /api/auth/user' || route === 'GET /api/auth/logout') return true;
  return (
    route === 'PUT /api/v2/users/:id' &&
    String((request.params as { id?: unknown }).id) === String(userId)
  );
}

/** A signed-in session, as a bearer token finds it. */
export interface ActiveToken {
  tokenId: number;
  userId: number;
  roleId: number;
  roleKey: string | null;
  /** FIRST_LOGIN_PENDING until the user has replaced the temporary password. */
  firstLogin: number;
}

/**
 * Finds the session of a bearer token (modules/auth: TokenRepository), handed in by app.ts: the
 * auth module uses this file's guards, so this file imports nothing of it.
 */
export interface TokenLookup {
  findActive(token: string): Promise<ActiveToken | null>;
}

export function registerAuth(app: FastifyInstance, tokens: TokenLookup): void {
  app.decorateRequest('auth', null);
  const table: FastifyInstance['routeTable'] = [];
  app.decorate('routeTable', table);

  app.addHook('onRoute', (route) => {
    const url = route.url;
    if (!url.startsWith('/api/v2') && !url.startsWith('/api/auth')) return;
    const access = route.config?.access;
    if (!access)
      throw new Error(
        `Route ${route.method} ${url} does not declare who may call it (config.access)`,
      );
    for (const method of [route.method].flat())
      if (method !== 'HEAD') table.push({ method, url, access });
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access || access === 'public') return;
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    const found = await tokens.findActive(token);
    if (!found) throw new AppError(401, MSG.tokenExpired);
    request.auth = {
      id: found.userId,
      roleId: found.roleId,
      role: found.roleKey as RoleKey | null,
      tokenId: found.tokenId,
    };
    if (
      found.firstLogin === FIRST_LOGIN_PENDING &&
      !allowedBeforePasswordChange(request, found.userId)
    )
      throw forbidden(AUTH_MSG.firstLoginRequired);
    if (access === 'authenticated') return;
    if (!found.roleKey || !access.includes(found.roleKey as RoleKey)) throw forbidden();
  });
}
