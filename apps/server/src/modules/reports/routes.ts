import { parseDay, parsedText, PERMISSIONS, TICKET_MSG } from '@sigaf/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import { idParams } from '../../http/params.js';
import type { Services } from '../../services.js';

/** A course and a Chilean calendar day, `dd-mm-yyyy` or `yyyy-mm-dd`; anything else is a 422. */
const dayParams = z.object({ id: idParams.shape.id, date: parsedText(parseDay, TICKET_MSG.invalidDate) });

/** Daily ticket reports (BEHAVIOUR.md §8, SCREENS.md §7.1). */
export const reportRoutes: FastifyPluginAsync<{ services: Services }> = async (instance, { services }) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { dashboard } = services;
  const config = { access: PERMISSIONS.reportRead };
  const schema = { tags: ['reports'], params: dayParams };

  app.get('/reports/courses/:id/data-card/:date', { config, schema }, async (request) =>
    ok(await dashboard.dayCard(request.params.id, request.params.date)),
  );
  app.get('/reports/courses/:id/type-ticket/:date', { config, schema }, async (request) =>
    ok(await dashboard.dayCharts(request.params.id, request.params.date)),
  );
  app.get('/reports/courses/:id/table-operator/:date', { config, schema }, async (request) =>
    ok(await dashboard.operatorTable(request.params.id, request.params.date)),
  );
};
