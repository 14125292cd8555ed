import { loginSchema, MSG } from '@sigaf/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { notFound } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { userResource } from '../users/presenter.js';

/** /api/auth: login, current user, logout (docs/development/domain.md#sign-in). */
export const authRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  app.post(
    '/login',
    { config: { access: 'public' }, schema: { tags: ['auth'], body: loginSchema } },
    async (request) =>
      services.auth.login(request.body, request.ip, request.headers['user-agent'] ?? null),
  );

  app.get(
    '/user',
    { config: { access: 'authenticated' }, schema: { tags: ['auth'] } },
    async (request) => {
      const user = await services.repos.users.findById(requireAuth(request).id);
      if (!user) throw notFound();
      return { user: userResource(request, user) };
    },
  );

  app.get(
    '/logout',
    { config: { access: 'authenticated' }, schema: { tags: ['auth'] } },
    async (request) => {
      const auth = requireAuth(request);
      await services.auth.logout(auth.tokenId, auth.id, request.ip);
      return ok(null, MSG.logout);
    },
  );
};
