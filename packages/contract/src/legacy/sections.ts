import { z } from 'zod';
import { legacyCollection, legacyEnvelope, legacyId, legacyRelationshipCollection, legacyResource } from './common.js';

/** docs/development/original-api.md §2.5 Sections. */

/** `properties.activities` must be an array: the getter reads its `.length` (section.js:41). */
export const legacySection = legacyResource(
  z.looseObject({ id: legacyId, description: z.string(), activities: z.array(z.unknown()) }),
);

/** §2.5 GET /api/v2/sections. */
export const sectionsList = legacyEnvelope(legacyCollection(legacySection));

/** §2.5 POST/PUT /api/v2/sections[/{id}]: `_data` carries `properties.activities` (array). */
export const sectionSave = legacyEnvelope(legacySection).extend({ success: z.literal(true) });

/**
 * §2.5 GET /api/v2/courses/{courseId}/activities: `_data.relationships.collection.data[].properties.section`,
 * an object with `description`, never null (FollowStudentReport.vue:339-346).
 */
export const courseActivitiesBySection = legacyEnvelope(
  legacyRelationshipCollection(
    z.looseObject({ properties: z.looseObject({ section: z.looseObject({ description: z.string() }) }) }),
  ),
);
