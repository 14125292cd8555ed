import type { ResourceDecl } from '@sigaf/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { registerCrud } from '../../http/crud.js';
import { relationship, resource } from '../../http/envelope.js';
import type { Services } from '../../services.js';
import { CATALOGUES } from './declarations.js';
import type { CatalogueRow } from './repository.js';

function present(request: FastifyRequest, decl: ResourceDecl, row: CatalogueRow) {
  const relationships: Record<string, ReturnType<typeof relationship>> = {};
  if (decl.ticketColumn) {
    relationships.tickets = relationship(request, `/api/v2/tickets?${decl.ticketColumn}=${row.id}`, Number(row.tickets_count ?? 0));
  }
  if (row.operators) {
    // Tickets with this status grouped by operator name (SPEC.md §3).
    relationships.operators = { numberOfElements: row.operators.length, links: { href: relationships.tickets!.links.href }, array: row.operators };
  }
  if (row.activities_count !== undefined) {
    relationships.activities = relationship(request, `/api/v2/activities?section_id=${row.id}`, Number(row.activities_count));
  }
  const properties = {
    id: row.id,
    description: row.description,
    key: row.key,
    protected: row.key !== null,
    ...(row.tickets_count !== undefined ? { ticketsCount: Number(row.tickets_count) } : {}),
  };
  return resource(request, `/api/v2/${decl.path}/${row.id}`, properties, relationships);
}

/** The routes of every id + description catalogue, generated from its declaration. */
export const catalogueRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const s = services.catalogs;
  for (const decl of CATALOGUES) {
    registerCrud<CatalogueRow>(app, {
      decl,
      present: (request, row) => present(request, decl, row),
      service: {
        list: (q) => s.list(decl, q),
        get: (id) => s.get(decl, id),
        create: (input: { description: string }, actor, ip) => s.create(decl, input.description, actor, ip),
        update: (id, input: { description?: string }, actor, ip) => s.update(decl, id, input.description, actor, ip),
        remove: (id, actor, ip) => s.remove(decl, id, actor, ip),
      },
    });
  }
};
