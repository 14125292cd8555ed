import {
  applySectionProposalsSchema,
  MOODLE_SECTION_MSG,
  moodleSectionMapSchema,
  PERMISSIONS,
} from '@sigaf/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { idParams } from '../../http/params.js';
import type { Services } from '../../services.js';
import { SectionMapRepository } from './section-map.repository.js';
import { SectionMapService } from './section-map.service.js';

/**
 * Sections of synchronised activities (configuration roles): the proposals of the last syncs and
 * their one-click acceptance ("Aplicar propuestas"), and the course's Moodle section → SIGAF
 * section mapping that later syncs apply to new activities.
 */
export const sectionMapRoutes: FastifyPluginAsync<{ services: Services }> = async (
  instance,
  { services },
) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const sectionMaps = new SectionMapService(
    services.db,
    new SectionMapRepository(services.db),
    services.repos.audit,
  );
  const config = { access: PERMISSIONS.configurationWrite };
  const tags = ['moodle'];
  // Same parameter name as the other /sync/courses/:courseId routes.
  const courseParams = z.object({ courseId: idParams.shape.id });

  app.get(
    '/sync/courses/:courseId/section-proposals',
    { config, schema: { tags, params: courseParams } },
    async (request) => ok(await sectionMaps.proposals(request.params.courseId)),
  );

  app.post(
    '/sync/courses/:courseId/section-proposals/apply',
    { config, schema: { tags, params: courseParams, body: applySectionProposalsSchema } },
    async (request) => {
      const result = await sectionMaps.apply(
        request.params.courseId,
        request.body,
        requireAuth(request),
        request.ip,
      );
      const weighted = result.weighted ? MOODLE_SECTION_MSG.weighted(result.weighted) : '';
      return ok(
        result,
        result.applied
          ? [MOODLE_SECTION_MSG.applied(result.applied, result.mapped.length), weighted]
              .filter(Boolean)
              .join(' ')
          : weighted,
      );
    },
  );

  app.put(
    '/sync/courses/:courseId/section-maps',
    { config, schema: { tags, params: courseParams, body: moodleSectionMapSchema } },
    async (request) => {
      const result = await sectionMaps.saveMap(
        request.params.courseId,
        request.body,
        requireAuth(request),
        request.ip,
      );
      return ok(result, MOODLE_SECTION_MSG.mapSaved(result.filed));
    },
  );

  app.delete(
    '/sync/courses/:courseId/section-maps/:mapId',
    { config, schema: { tags, params: courseParams.extend({ mapId: idParams.shape.id }) } },
    async (request) => {
      await sectionMaps.deleteMap(
        request.params.courseId,
        request.params.mapId,
        requireAuth(request),
        request.ip,
      );
      return ok(null, MOODLE_SECTION_MSG.mapDeleted);
    },
  );
};
