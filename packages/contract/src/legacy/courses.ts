import { z } from 'zod';
import { legacyCollection, legacyEnvelope, legacyId, legacyResource } from './common.js';

/** docs/development/original-api.md §2.8 Courses. */

/** A course: `properties.status === 1` to be listed, `properties.category.properties` to show and pre-fill the form. */
export const legacyCourse = legacyResource(
  z.looseObject({
    id: legacyId,
    description: z.string(),
    email: z.string().nullable(),
    /** A table column and a required form field; never the stored secret (a mask when one is set). */
    password: z.string(),
    idCourseMoodle: z.number().int().nullable(),
    category: z.looseObject({
      properties: z.looseObject({ id: legacyId, description: z.string() }),
    }),
    status: z.number().int(),
  }),
);

/** §2.8 GET /api/v2/courses. */
export const coursesList = legacyEnvelope(legacyCollection(legacyCourse));

/** §2.8 POST /api/v2/courses/post, PUT /api/v2/courses/{id}: `_data` pushed or merged. */
export const courseSave = legacyEnvelope(legacyCourse).extend({ success: z.literal(true) });

/** §2.8 DELETE /api/v2/courses/{id}: HTTP 200, `success`. */
export const courseDelete = legacyEnvelope(z.unknown()).extend({ success: z.literal(true) });
