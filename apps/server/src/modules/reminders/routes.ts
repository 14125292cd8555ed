import {
  PERMISSIONS,
  REMINDER_MSG,
  reminderCreateSchema,
  reminderListQuerySchema,
  reminderSnoozeSchema,
  reminderUpdateSchema,
} from '@sigaf/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/auth.js';
import { collection, created, ok, resource } from '../../http/envelope.js';
import { idParams } from '../../http/params.js';
import type { Services } from '../../services.js';
import type { ReminderRow } from './repository.js';
import { presentReminder } from './service.js';

/**
 * Reminders on tickets (Recordatorios): list with filters (mine, operator, state, due between,
 * due now), the badge's count, create, update, done, dismissed. PERMISSIONS.reminderWork; which
 * tickets and whose reminders follow TicketAccess (ReminderService).
 */
export const reminderRoutes: FastifyPluginAsync<{ services: Services }> = async (
  instance,
  { services },
) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { reminders } = services;
  const config = { access: PERMISSIONS.reminderWork };
  const tags = ['reminders'];
  const one = (request: FastifyRequest, r: ReminderRow) =>
    resource(request, `/api/v2/reminders/${r.id}`, presentReminder(r));

  app.get(
    '/reminders',
    { config, schema: { tags, querystring: reminderListQuerySchema } },
    async (request) => {
      const { rows, meta } = await reminders.list(request.query, requireAuth(request));
      return ok(
        collection(
          request,
          '/api/v2/reminders',
          'reminders',
          rows.map((r) => one(request, r)),
          meta,
        ),
      );
    },
  );

  // The app bar's badge: the caller's pending reminders already due (asked every 30 s).
  app.get('/reminders/due-count', { config, schema: { tags } }, async (request) =>
    ok({ count: await reminders.dueCount(requireAuth(request)) }),
  );

  app.get('/reminders/:id', { config, schema: { tags, params: idParams } }, async (request) =>
    ok(one(request, await reminders.get(request.params.id, requireAuth(request)))),
  );

  app.post(
    '/reminders',
    { config, schema: { tags, body: reminderCreateSchema } },
    async (request, reply) => {
      const row = await reminders.create(request.body, requireAuth(request), request.ip);
      reply.status(201);
      return created(one(request, row), REMINDER_MSG.created);
    },
  );

  app.put(
    '/reminders/:id',
    { config, schema: { tags, params: idParams, body: reminderUpdateSchema } },
    async (request) =>
      ok(
        one(
          request,
          await reminders.update(request.params.id, request.body, requireAuth(request), request.ip),
        ),
        REMINDER_MSG.updated,
      ),
  );

  // Snooze: a new due time, pending again.
  app.post(
    '/reminders/:id/snooze',
    { config, schema: { tags, params: idParams, body: reminderSnoozeSchema } },
    async (request) =>
      ok(
        one(
          request,
          await reminders.update(
            request.params.id,
            { due_at: request.body.due_at, state: 'pending' },
            requireAuth(request),
            request.ip,
          ),
        ),
        REMINDER_MSG.snoozed,
      ),
  );

  app.post(
    '/reminders/:id/complete',
    { config, schema: { tags, params: idParams } },
    async (request) =>
      ok(
        one(
          request,
          await reminders.close(request.params.id, 'done', requireAuth(request), request.ip),
        ),
        REMINDER_MSG.completed,
      ),
  );

  app.post(
    '/reminders/:id/dismiss',
    { config, schema: { tags, params: idParams } },
    async (request) =>
      ok(
        one(
          request,
          await reminders.close(request.params.id, 'dismissed', requireAuth(request), request.ip),
        ),
        REMINDER_MSG.dismissed,
      ),
  );
};
