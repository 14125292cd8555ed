import { z } from 'zod';
import {
  flatRelationship,
  legacyCollection,
  legacyEnvelope,
  legacyId,
  legacyResource,
} from './common.js';

/** docs/development/original-api.md §2.6 Platforms. */

/** An item: `properties.id/description`, flat `relationships.numberOfElements` and `relationships.links.href`. */
export const legacyPlatform = legacyResource(
  z.looseObject({ id: legacyId, description: z.string() }),
  flatRelationship(),
);

/** §2.6 GET /api/v2/platforms. */
export const platformsList = legacyEnvelope(legacyCollection(legacyPlatform));
