import { z } from 'zod';
import {
  legacyCollection,
  legacyEnvelope,
  legacyId,
  legacyRelationshipCollection,
  legacyResource,
} from './common.js';

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
    z.looseObject({
      properties: z.looseObject({ section: z.looseObject({ description: z.string() }) }),
    }),
  ),
);

/**
 * The sections the original client's "Progreso" leaves out of its divisor (constants.js mapUser,
 * FollowUp.vue: it compares these names).
 */
export const PROGRESS_LEFT_OUT: readonly string[] = [
  'Formativa',
  'Renuncia',
  'Pre Test A',
  'Pre Test B',
  'Post Test A',
  'Post Test B',
  'Encuesta',
];

/**
 * The entry GET /api/v2/sections adds while no activity is filed in a section that divisor counts,
 * listing the activities still outside one: the card's divisor is then never 0 (docs/operations/original-client.md).
 * Not a row: id 0 is never a section's.
 */
export const UNFILED_SECTION = {
  id: 0,
  key: 'unfiled',
  description: 'Actividades sin unidad',
} as const;
