import {
  agendaCourseSettingsSchema,
  agendaDigestSchema,
  agendaQuerySchema,
  agendaReassignSchema,
  PERMISSIONS,
  REMINDER_MSG,
  type AgendaReassignResult,
} from '@sigaf/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/auth.js';
import { collection, ok, resource } from '../../http/envelope.js';
import { idParams } from '../../http/params.js';
import type { Services } from '../../services.js';
import { presentReminder } from '../reminders/service.js';

const path = (request: FastifyRequest) => request.url.split('?')[0]!;

/** What moved and to whom (the web app says it in its own language from the figures). */
const reassignedMessage = (r: AgendaReassignResult) =>
  REMINDER_MSG.reassigned(r.tickets, r.reminders, r.to.name, r.refused);

/**
 * Mi agenda (`/my/agenda`): (1) reminders due today and overdue, (2) at-risk students without a
 * recent contact attempt, (3) open tickets without an attempt for more than K days; for
 * administrators the workload per operator, reassignment and each course's thresholds.
 */
export const agendaRoutes: FastifyPluginAsync<{ services: Services }> = async (
  instance,
  { services },
) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { agenda } = services;
  const work = { access: PERMISSIONS.reminderWork };
  const read = { access: PERMISSIONS.agendaRead };
  const admin = { access: PERMISSIONS.agendaAdmin };
  const tags = ['agenda'];

  app.get(
    '/agenda/reminders',
    { config: work, schema: { tags, querystring: agendaQuerySchema } },
    async (request) => {
      const { rows, meta } = await agenda.dueReminders(requireAuth(request), request.query);
      return ok(
        collection(
          request,
          path(request),
          'agendaReminders',
          rows.map((r) => resource(request, `/api/v2/reminders/${r.id}`, presentReminder(r))),
          meta,
        ),
      );
    },
  );

  app.get(
    '/agenda/students',
    { config: read, schema: { tags, querystring: agendaQuerySchema } },
    async (request) => {
      const { rows, meta, unsyncedCourses } = await agenda.students(
        requireAuth(request),
        request.query,
      );
      return ok({
        ...collection(
          request,
          path(request),
          'agendaStudents',
          rows.map((s) => resource(request, `/api/v2/follow-up/students/${s.enrolmentId}`, s)),
          meta,
        ),
        unsyncedCourses,
      });
    },
  );

  app.get(
    '/agenda/tickets',
    { config: work, schema: { tags, querystring: agendaQuerySchema } },
    async (request) => {
      const { rows, meta } = await agenda.staleTickets(requireAuth(request), request.query);
      return ok(
        collection(
          request,
          path(request),
          'agendaTickets',
          rows.map((t) => resource(request, `/api/v2/tickets/${t.id}`, t)),
          meta,
        ),
      );
    },
  );

  app.get('/agenda/workload', { config: admin, schema: { tags } }, async (request) => {
    const { rows, atRiskCountedAt } = await agenda.workload();
    return ok({
      ...collection(
        request,
        path(request),
        'agendaWorkload',
        rows.map((w) => resource(request, `/api/v2/agenda/workload`, w)),
      ),
      atRiskCountedAt,
    });
  });

  app.post(
    '/agenda/reassign',
    { config: admin, schema: { tags, body: agendaReassignSchema } },
    async (request) => {
      const result = await agenda.reassign(request.body, requireAuth(request), request.ip);
      return ok(result, reassignedMessage(result));
    },
  );
  // The caller's last reassignment, while it can be undone (it survives a reload), and its undo.
  app.get('/agenda/reassign/last', { config: admin, schema: { tags } }, async (request) =>
    ok(await agenda.lastReassign(requireAuth(request))),
  );
  app.post('/agenda/reassign/undo', { config: admin, schema: { tags } }, async (request) => {
    const result = await agenda.undoReassign(requireAuth(request), request.ip);
    return ok(result, reassignedMessage(result));
  });

  app.get(
    '/agenda/courses/:id/settings',
    { config: admin, schema: { tags, params: idParams } },
    async (request) => ok(await agenda.courseSettings(request.params.id)),
  );

  app.put(
    '/agenda/courses/:id/settings',
    { config: admin, schema: { tags, params: idParams, body: agendaCourseSettingsSchema } },
    async (request) =>
      ok(
        await agenda.saveCourseSettings(
          request.params.id,
          request.body,
          requireAuth(request),
          request.ip,
        ),
        REMINDER_MSG.settingsSaved,
      ),
  );

  // The caller's own morning digest setting.
  app.get('/agenda/digest', { config: work, schema: { tags } }, async (request) =>
    ok(await agenda.digest(requireAuth(request))),
  );
  app.put(
    '/agenda/digest',
    { config: work, schema: { tags, body: agendaDigestSchema } },
    async (request) =>
      ok(
        await agenda.saveDigest(requireAuth(request), request.body.morning_digest),
        REMINDER_MSG.digestSaved,
      ),
  );
};
