import { z } from 'zod';
import {
  flatRelationship,
  legacyCollection,
  legacyEnvelope,
  legacyId,
  legacyRelationshipCollections,
  legacyResource,
} from './common.js';

/** docs/development/original-api.md §2.7 Categories. */

/** A category: `properties.platform.properties` (object with `id`, `description`) and a flat relationship to its courses. */
export const legacyCategory = legacyResource(
  z.looseObject({
    id: legacyId,
    description: z.string(),
    categoryCode: z.string(),
    idCategoryMoodle: z.number().int().nullable(),
    platform: z.looseObject({
      properties: z.looseObject({ id: legacyId, description: z.string() }),
    }),
    status: z.number().int(),
  }),
  flatRelationship(),
);

/** §2.7 GET /api/v2/categories. */
export const categoriesList = legacyEnvelope(legacyCollection(legacyCategory));

/** §2.7 POST /api/v2/categories/post and PUT /api/v2/categories/put/{id}: `_data` pushed or merged. */
export const categorySave = legacyEnvelope(legacyCategory).extend({ success: z.literal(true) });

/** §2.7 DELETE /api/v2/categories/{id}: HTTP 200, `success`. */
export const categoryDelete = legacyEnvelope(z.unknown()).extend({ success: z.literal(true) });

/**
 * §2.7 and §3 point 1: the followed category→courses href answers
 * `_data.relationships.collections.data[]` (plural) with `properties.id/description/idCourseMoodle`.
 */
export const categoryCourses = legacyEnvelope(
  legacyRelationshipCollections(
    z.looseObject({
      properties: z.looseObject({
        id: legacyId,
        description: z.string(),
        idCourseMoodle: z.number().int().nullable(),
      }),
    }),
  ),
).extend({ success: z.literal(true) });
