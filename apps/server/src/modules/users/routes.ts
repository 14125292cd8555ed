import { MSG, resourceByKey, userCreateSchema, userUpdateSchema } from '@sigaf/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/auth.js';
import { registerCrud } from '../../http/crud.js';
import { created, ok } from '../../http/envelope.js';
import { idParams } from '../../http/params.js';
import type { Services } from '../../services.js';
import { userResource } from './presenter.js';
import { USERS_MSG } from './service.js';

/** /api/v2/users: the maintenance resource, signup, own-record update and password reset. */
export const userRoutes: FastifyPluginAsync<{ services: Services }> = async (instance, { services }) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const decl = resourceByKey('user')!;
  registerCrud(app, { decl, service: services.users, present: userResource, skip: ['create', 'update'] });

  app.post('/users/signup', { config: { access: decl.write }, schema: { tags: ['users'], body: userCreateSchema } }, async (request, reply) => {
    const { user, temporaryPassword } = await services.users.signup(request.body, requireAuth(request), request.ip);
    reply.status(201);
    return created({ ...userResource(request, user), temporaryPassword });
  });

  app.put(
    '/users/:id',
    { config: { access: 'authenticated' }, schema: { tags: ['users'], params: idParams, body: userUpdateSchema } },
    async (request) => ok(userResource(request, await services.users.update(request.params.id, request.body, requireAuth(request), request.ip)), MSG.updated),
  );

  app.post('/users/:id/reset-password', { config: { access: decl.write }, schema: { tags: ['users'], params: idParams } }, async (request) => {
    const { user, temporaryPassword } = await services.users.resetPassword(request.params.id, requireAuth(request), request.ip);
    return ok({ ...userResource(request, user), temporaryPassword }, USERS_MSG.passwordReset);
  });
};
