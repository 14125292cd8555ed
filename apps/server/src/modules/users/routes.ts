import {
  currentCourseSchema,
  MSG,
  resourceByKey,
  userCreateSchema,
  userUpdateSchema,
} from '@sigaf/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/auth.js';
import { registerCrud } from '../../http/crud.js';
import { created, failure, ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { idParams } from '../../http/params.js';
import type { Services } from '../../services.js';
import { presentCourse } from '../courses/routes.js';
import { userResource } from './presenter.js';
import { USERS_MSG } from './service.js';

/** /api/v2/users: the maintenance resource, signup, own-record update and password reset. */
export const userRoutes: FastifyPluginAsync<{ services: Services }> = async (
  instance,
  { services },
) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const decl = resourceByKey('user')!;
  registerCrud(app, {
    decl,
    service: services.users,
    present: userResource,
    skip: ['create', 'update'],
  });

  app.post(
    '/users/signup',
    { config: { access: decl.write }, schema: { tags: ['users'], body: userCreateSchema } },
    async (request, reply) => {
      try {
        const { user, temporaryPassword } = await services.users.signup(
          request.body,
          requireAuth(request),
          request.ip,
        );
        reply.status(201);
        return created({ ...userResource(request, user), temporaryPassword });
      } catch (err) {
        // A taken e-mail is told by the body's statusCode 406 in a 2xx answer: the original client's
        // Usuario screen branches on it ("El email ya existe") and shows only a generic error for a
        // non-2xx (docs/development/original-api.md §1.3, §2.2).
        if (err instanceof AppError && err.statusCode === 406) return failure(406, err.message);
        throw err;
      }
    },
  );

  app.put(
    '/users/:id',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['users'], params: idParams, body: userUpdateSchema },
    },
    async (request) =>
      ok(
        userResource(
          request,
          await services.users.update(
            request.params.id,
            request.body,
            requireAuth(request),
            request.ip,
          ),
        ),
        MSG.updated,
      ),
  );

  // The caller's current course (every screen with a course selector opens on it), or null.
  app.get(
    '/me/current-course',
    { config: { access: 'authenticated' }, schema: { tags: ['users'] } },
    async (request) => {
      const row = await services.currentCourse.get(requireAuth(request));
      return ok(row ? presentCourse(request, row) : null);
    },
  );
  app.put(
    '/me/current-course',
    { config: { access: 'authenticated' }, schema: { tags: ['users'], body: currentCourseSchema } },
    async (request) => {
      const row = await services.currentCourse.set(requireAuth(request), request.body.course_id);
      return ok(row ? presentCourse(request, row) : null);
    },
  );

  app.post(
    '/users/:id/reset-password',
    { config: { access: decl.write }, schema: { tags: ['users'], params: idParams } },
    async (request) => {
      const { user, temporaryPassword } = await services.users.resetPassword(
        request.params.id,
        requireAuth(request),
        request.ip,
      );
      return ok({ ...userResource(request, user), temporaryPassword }, USERS_MSG.passwordReset);
    },
  );
};
