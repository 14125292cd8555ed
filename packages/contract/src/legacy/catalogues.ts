import { z } from 'zod';
import {
  flatRelationship,
  legacyCollection,
  legacyEnvelope,
  legacyId,
  legacyResource,
} from './common.js';

/**
 * docs/development/original-api.md §2.3 Catalogues with a ticket count (status-tickets, type-tickets,
 * motive-tickets, priority-tickets, source-tickets) and §2.4 plain catalogues (classrooms, final-statuses, roles,
 * profiles, status-detail-tickets).
 */

const idDescription = z.looseObject({ id: legacyId, description: z.string() });

/** §2.3 An item: flat `relationships.numberOfElements` and `relationships.links.href` (§1.5). */
export const legacyTicketCatalogueItem = legacyResource(idDescription, flatRelationship());

/** §2.3 status-tickets only: `relationships.data[]` objects with the operator's `name` (statusTicket.js:47-65). */
export const legacyStatusTicketItem = legacyResource(
  idDescription,
  flatRelationship({ data: z.array(z.looseObject({ name: z.string() })) }),
);

/** §2.3 GET /api/v2/{type|motive|priority|source}-tickets. */
export const ticketCatalogueList = legacyEnvelope(legacyCollection(legacyTicketCatalogueItem));

/** §2.3 GET /api/v2/status-tickets. */
export const statusTicketsList = legacyEnvelope(legacyCollection(legacyStatusTicketItem));

/** §2.3 POST/PUT /api/v2/{…}-tickets[/{id}]: `_data` pushed or merged into the list, flat relationships included. */
export const ticketCatalogueSave = legacyEnvelope(legacyTicketCatalogueItem).extend({
  success: z.literal(true),
});

/** §2.3 POST/PUT /api/v2/status-tickets[/{id}]: as the list item. */
export const statusTicketSave = legacyEnvelope(legacyStatusTicketItem).extend({
  success: z.literal(true),
});

/** §2.4 An item of a plain catalogue: `properties.id`, `properties.description`. */
export const legacyPlainCatalogueItem = legacyResource(idDescription);

/** §2.4 GET /api/v2/{classrooms|final-statuses|roles|profiles|status-detail-tickets}. */
export const plainCatalogueList = legacyEnvelope(legacyCollection(legacyPlainCatalogueItem));

/** §2.4 POST/PUT of a plain catalogue: `_data` pushed or merged. */
export const plainCatalogueSave = legacyEnvelope(legacyPlainCatalogueItem).extend({
  success: z.literal(true),
});

/** §2.3/§2.4/§2.5 DELETE of a catalogue value (body `true`): HTTP 200, `success`. */
export const catalogueDelete = legacyEnvelope(z.unknown()).extend({ success: z.literal(true) });
