import { PERMISSIONS } from '@sigaf/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.js';
import type { Services } from '../../services.js';

/** GET /api/v2/setup-progress: how far the installation is on its first steps (the home page's checklist). */
export const setupRoutes: FastifyPluginAsync<{ services: Services }> = async (
  app,
  { services },
) => {
  app.get(
    '/setup-progress',
    { config: { access: PERMISSIONS.configurationWrite }, schema: { tags: ['setup'] } },
    async () => ok(await services.setup.progress()),
  );
};
