import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';

/** GET /health: the process is up and the database answers. */
export const healthRoutes: FastifyPluginAsync<{ services: Services }> = async (
  app,
  { services },
) => {
  app.get(
    '/health',
    { config: { access: 'public' }, schema: { hide: true } },
    async (_request, reply) => {
      try {
        await sql`select 1`.execute(services.db);
        return { status: 'ok', database: 'ok' };
      } catch (err) {
        app.log.warn({ err }, 'health check: database unreachable');
        return reply.status(503).send({ status: 'error', database: 'unreachable' });
      }
    },
  );
};
