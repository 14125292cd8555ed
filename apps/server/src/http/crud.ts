import {
  MSG,
  resourceBodySchema,
  type ListQuery,
  type PageMeta,
  type ResourceDecl,
} from '@sigaf/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth, type AuthUser } from './auth.js';
import { collection, created, ok } from './envelope.js';
import { idParams, listQuery } from './params.js';

/** What a maintained resource's service offers; the routes below are the same for all of them. */
export interface CrudService<Row> {
  list(
    q: ListQuery & Record<string, unknown>,
    actor: AuthUser,
  ): Promise<{ rows: Row[]; meta?: PageMeta }>;
  get(id: number): Promise<Row>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each resource's own input type
  create?(input: any, actor: AuthUser, ip: string): Promise<Row>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each resource's own input type
  update?(id: number, input: any, actor: AuthUser, ip: string): Promise<Row>;
  remove?(id: number, actor: AuthUser, ip: string): Promise<void>;
}

export interface CrudOptions<Row> {
  decl: ResourceDecl;
  service: CrudService<Row>;
  present: (request: FastifyRequest, row: Row) => unknown;
  /** Extra list filters read from the query string (e.g. course_id -> courseId). */
  filters?: Record<string, string>;
  /** Route parts that a resource provides itself. */
  skip?: Array<'create' | 'update'>;
  /** Body schemas, when not derived from the declaration's fields. */
  bodies?: { create: z.ZodTypeAny; update: z.ZodTypeAny };
  /** Who may write, when it differs from the declaration (e.g. update vs create). */
  updateAccess?: ResourceDecl['write'];
}

const filterValue = z.coerce.number().int().positive().max(2_147_483_647).optional();

/**
 * Registers GET list, GET one, POST, PUT and DELETE of a declared resource, plus the original's
 * alternative create/update paths. Validation comes from the declaration; roles too.
 */
export function registerCrud<Row>(app: FastifyInstance, o: CrudOptions<Row>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { decl, service, present } = o;
  const base = `/${decl.path}`;
  const tags = [decl.path];
  const filterShape = Object.fromEntries(Object.keys(o.filters ?? {}).map((k) => [k, filterValue]));
  const query = listQuery.extend({
    ...filterShape,
    all: z.enum(['0', '1', 'true', 'false']).optional(),
  });

  r.get(
    base,
    { config: { access: decl.read }, schema: { tags, querystring: query } },
    async (request) => {
      const q = request.query as ListQuery & Record<string, unknown>;
      const mapped: Record<string, unknown> = {
        ...q,
        includeInactive: q.all === '1' || q.all === 'true',
      };
      for (const [param, key] of Object.entries(o.filters ?? {})) mapped[key] = q[param];
      const { rows, meta } = await service.list(mapped as ListQuery, requireAuth(request));
      return ok(
        collection(
          request,
          `/api/v2${base}`,
          decl.key,
          rows.map((row) => present(request, row) as never),
          meta,
        ),
      );
    },
  );

  r.get(
    `${base}/:id`,
    { config: { access: decl.read }, schema: { tags, params: idParams } },
    async (request) => ok(present(request, await service.get(request.params.id))),
  );

  if (decl.listOnly) return;
  const createBody = o.bodies?.create ?? resourceBodySchema(decl, 'create');
  const updateBody = o.bodies?.update ?? resourceBodySchema(decl, 'update');

  if (service.create && !o.skip?.includes('create')) {
    const create = service.create.bind(service);
    for (const path of new Set([base, decl.createPath ? `/${decl.createPath}` : base])) {
      r.post(
        path,
        { config: { access: decl.write }, schema: { tags, body: createBody } },
        async (request, reply) => {
          const row = await create(request.body, requireAuth(request), request.ip);
          reply.status(201);
          return created(present(request, row));
        },
      );
    }
  }
  if (service.update && !o.skip?.includes('update')) {
    const update = service.update.bind(service);
    for (const path of new Set([
      `${base}/:id`,
      decl.updatePath ? `/${decl.updatePath}` : `${base}/:id`,
    ])) {
      r.put(
        path,
        {
          config: { access: o.updateAccess ?? decl.write },
          schema: { tags, params: idParams, body: updateBody },
        },
        async (request) =>
          ok(
            present(
              request,
              await update(request.params.id, request.body, requireAuth(request), request.ip),
            ),
            MSG.updated,
          ),
      );
    }
  }
  if (service.remove) {
    const remove = service.remove.bind(service);
    r.delete(
      `${base}/:id`,
      { config: { access: decl.write }, schema: { tags, params: idParams } },
      async (request) => {
        await remove(request.params.id, requireAuth(request), request.ip);
        return ok(null, MSG.deleted);
      },
    );
  }
}
