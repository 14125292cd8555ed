import { resourceByKey } from '@sigaf/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { registerCrud } from '../../http/crud.js';
import { collection, ok, relationship, resource } from '../../http/envelope.js';
import { idParams } from '../../http/params.js';
import type { Services } from '../../services.js';
import { presentCourse } from '../courses/routes.js';
import type { CategoryRow } from './repository.js';

export function presentCategory(request: FastifyRequest, c: CategoryRow) {
  return resource(
    request,
    `/api/v2/categories/${c.id}`,
    {
      id: c.id,
      description: c.description,
      categoryCode: c.category_code,
      idCategoryMoodle: c.id_category_moodle,
      // The original client reads the platform as a resource (`platform.properties`, docs/development/original-api.md#categories); our client reads `platform.id/description`.
      platform: {
        id: c.platform_id,
        description: c.platform_description,
        properties: { id: c.platform_id, description: c.platform_description },
      },
      status: c.status,
    },
    relationship(request, `/api/v2/categories/${c.id}/courses`, Number(c.courses_count)),
  );
}

export const categoryRoutes: FastifyPluginAsync<{ services: Services }> = async (
  app,
  { services },
) => {
  const decl = resourceByKey('category')!;
  registerCrud(app, {
    decl,
    service: services.categories,
    present: presentCategory,
    filters: { platform_id: 'platformId' },
  });

  // The shared category -> course selector (docs/development/screens.md#course-selector): a category's active courses. The
  // original client follows the category's link here and reads the plural
  // `_data.relationships.collections.data[]` (docs/development/original-api.md §2.7, §3 point 1); our client
  // reads `_data.collections[]`: both carry the same items.
  app.get(
    '/categories/:id/courses',
    { config: { access: decl.read }, schema: { tags: ['categories'], params: idParams } },
    async (request) => {
      const { id } = request.params as { id: number };
      await services.categories.get(id);
      const { rows } = await services.courses.list({ categoryId: id });
      const items = rows.map((c) => presentCourse(request, c));
      const list = collection(request, `/api/v2/categories/${id}/courses`, 'courses', items);
      return ok({
        ...list,
        relationships: { collections: { numberOfElements: items.length, data: items } },
      });
    },
  );
};
