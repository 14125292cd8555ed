import type { ResourceDecl } from '@sigaf/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { registerCrud } from '../../http/crud.js';
import { relationship, resource } from '../../http/envelope.js';
import type { Services } from '../../services.js';
import { CATALOGUE_TABLES, CATALOGUES } from './declarations.js';
import type { CatalogueRow } from './repository.js';

function present(request: FastifyRequest, decl: ResourceDecl, row: CatalogueRow) {
  // One flat relationship (docs/development/original-api.md#flat-relationships): the tickets with this value (with, for
  // statuses, those tickets grouped by operator in `data`, each with the operator's `name` the
  // original client groups by), or the value's children (a section's activities, a platform's categories).
  let relationships: ReturnType<typeof relationship> | Record<string, never> = {};
  const children = CATALOGUE_TABLES[decl.path]?.children;
  if (decl.ticketColumn) {
    relationships = relationship(
      request,
      `/api/v2/tickets?${decl.ticketColumn}=${row.id}`,
      Number(row.tickets_count ?? 0),
    );
    if (row.operators) relationships.data = row.operators.map((o) => ({ name: o.operator, ...o }));
  } else if (children) {
    relationships = relationship(request, children.href(row.id), Number(row.children_count ?? 0));
  }
  const properties = {
    id: row.id,
    description: row.description,
    key: row.key,
    protected: row.key !== null,
    ...(row.tickets_count !== undefined ? { ticketsCount: Number(row.tickets_count) } : {}),
    // A section's activities: the original client reads `properties.activities.length` (§2.5).
    ...(row.activities
      ? { activities: row.activities.map((a) => ({ ...a, weighing: Number(a.weighing) })) }
      : {}),
  };
  return resource(request, `/api/v2/${decl.path}/${row.id}`, properties, relationships);
}

/** The routes of every id + description catalogue, generated from its declaration. */
export const catalogueRoutes: FastifyPluginAsync<{ services: Services }> = async (
  app,
  { services },
) => {
  const s = services.catalogs;
  for (const decl of CATALOGUES) {
    registerCrud<CatalogueRow>(app, {
      decl,
      present: (request, row) => present(request, decl, row),
      service: {
        list: (q) => s.list(decl, q),
        get: (id) => s.get(decl, id),
        create: (input: { description: string }, actor, ip) =>
          s.create(decl, input.description, actor, ip),
        update: (id, input: { description?: string }, actor, ip) =>
          s.update(decl, id, input.description, actor, ip),
        remove: (id, actor, ip) => s.remove(decl, id, actor, ip),
      },
    });
  }
};
