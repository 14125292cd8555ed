import { z } from 'zod';
import { legacyCollection, legacyEnvelope, legacyId, legacyResource } from './common.js';

/** docs/development/original-api.md §2.9 Activities. */

/**
 * `properties.section` and `properties.course` are `{ properties: {...} }` wrappers, never null
 * (getter activity.js:36-48); a missing section is the placeholder `{ properties: { id: '', description: '' } }`.
 */
export const legacyActivity = legacyResource(
  z.looseObject({
    id: legacyId,
    description: z.string(),
    weighing: z.number(),
    section: z.looseObject({
      properties: z.looseObject({
        id: z.union([legacyId, z.literal('')]),
        description: z.string(),
      }),
    }),
    course: z.looseObject({ properties: z.looseObject({ id: legacyId }) }),
    idActivityMoodle: z.number().int().nullable(),
    type: z.string().nullable(),
  }),
);

/** §2.9 GET /api/v2/activities. */
export const activitiesList = legacyEnvelope(legacyCollection(legacyActivity));

/** §2.9 PUT /api/v2/activities/{id}: HTTP 200; `_data` replaces the cached element, so it has the list shape. */
export const activityUpdate = legacyEnvelope(legacyActivity).extend({ success: z.literal(true) });
