import { outcomeReportQuerySchema, PERMISSIONS } from '@sigaf/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { sendFile } from '../../http/files.js';
import { idParams } from '../../http/params.js';
import type { Services } from '../../services.js';

const workbookQuery = outcomeReportQuerySchema.extend({ lang: z.enum(['es', 'en']).default('es') });

/**
 * What followed each contact (docs/usage/efectividad.md): a ticket's attempts' outcomes
 * (ticket work, TicketAccess), the effectiveness report and its workbook (dashboard readers;
 * an operator gets their own contacts) and Mi agenda's suggestions for a course (course-wide figures
 * of every staff member's contacts, stated as such; an operator only for the courses of their agenda).
 */
export const outcomeRoutes: FastifyPluginAsync<{ services: Services }> = async (
  instance,
  { services },
) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { outcomes } = services;
  const tags = ['outcomes'];

  app.get(
    '/tickets/:id/outcomes',
    { config: { access: PERMISSIONS.ticketWork }, schema: { tags, params: idParams } },
    async (request) => ok(await outcomes.ofTicket(request.params.id, requireAuth(request))),
  );

  app.get(
    '/outcomes/report',
    {
      config: { access: PERMISSIONS.dashboardRead },
      schema: { tags, querystring: outcomeReportQuerySchema },
    },
    async (request) => ok(await outcomes.report(request.query, requireAuth(request))),
  );

  app.get(
    '/outcomes/report/excel',
    { config: { access: PERMISSIONS.dashboardRead }, schema: { tags, querystring: workbookQuery } },
    async (request, reply) => {
      const { query } = request;
      const file = await outcomes.workbook(query, requireAuth(request), query.lang);
      return sendFile(reply, file.filename, file.body);
    },
  );

  app.get(
    '/outcomes/suggestion/:id',
    { config: { access: PERMISSIONS.dashboardRead }, schema: { tags, params: idParams } },
    async (request) => ok(await outcomes.suggestion(request.params.id, requireAuth(request))),
  );

  app.get(
    '/outcomes/suggestion/:id/similar',
    { config: { access: PERMISSIONS.dashboardRead }, schema: { tags, params: idParams } },
    async (request) => ok(await outcomes.similar(request.params.id, requireAuth(request))),
  );
};
