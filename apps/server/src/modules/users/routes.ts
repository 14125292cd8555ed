import { MSG, STAFF_ADMINS, userCreateSchema, userUpdateSchema } from '@sigaf/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/auth.js';
import { created, ok } from '../../http/envelope.js';
import type { Services } from '../../services.js';
import { userResource } from './presenter.js';

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** /api/v2/users: signup and update (the rest of the resource comes with the maintenance area). */
export const userRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.post(
    '/users/signup',
    { config: { access: STAFF_ADMINS }, schema: { tags: ['users'], body: userCreateSchema } },
    async (request, reply) => {
      const { user, temporaryPassword } = await services.users.signup(request.body, requireAuth(request), request.ip);
      reply.status(201);
      return created({ ...userResource(request, user), temporaryPassword });
    },
  );

  app.put(
    '/users/:id',
    { config: { access: 'authenticated' }, schema: { tags: ['users'], params: idParams, body: userUpdateSchema } },
    async (request) => {
      const user = await services.users.update(request.params.id, request.body, requireAuth(request), request.ip);
      return ok(userResource(request, user), MSG.updated);
    },
  );
};
