import {
  fileDay,
  MSG,
  parseDay,
  parsedText,
  parseIdList,
  PERMISSIONS,
  TICKET_MSG,
  ticketBulkSchema,
  ticketCreateManySchema,
  ticketCreateSchema,
  ticketDeleteManyQuerySchema,
  ticketDetailCreateManySchema,
  ticketDetailCreateSchema,
  ticketDetailListQuerySchema,
  ticketDetailUpdateSchema,
  ticketFilterPresetSchema,
  ticketFiltersSchema,
  ticketListQuerySchema,
  ticketLockSchema,
  ticketUpdateSchema,
  type FieldErrors,
  type TicketListQuery,
} from '@sigaf/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/auth.js';
import { collection, created, ok, relationship } from '../../http/envelope.js';
import { invalid } from '../../http/errors.js';
import { sendFile } from '../../http/files.js';
import { idParams, listQuery } from '../../http/params.js';
import { writeXlsx } from '../../lib/spreadsheet.js';
import { sendKept } from '../answers/cache.js';
import type { Services } from '../../services.js';
import { listTickets, presentTickets, ticketResults } from './lists.js';
import {
  presentDetail,
  presentHistory,
  presentLock,
  presentPreset,
  presentTicket,
  TICKET_EXPORT_HEADER,
  ticketExportRows,
} from './presenter.js';
import type { TicketRow } from './repository.js';
import type { TicketQuery } from './sql.js';
import type { TicketListKind } from './service.js';

/** A JSON list of ids in the path (`[1,2,3]`, also `1,2,3`); a 422 otherwise. */
const idListParams = z.object({ ids: parsedText(parseIdList, TICKET_MSG.invalidList) });

const path = (request: FastifyRequest) => request.url.split('?')[0]!;

/**
 * Tickets, contact attempts, edit locks and saved filters (docs/development/domain.md#tickets; the screens: docs/development/screens.md#ticket, #manage-ticket, #unlock).
 * Working tickets is PERMISSIONS.ticketWork; the administration screens (bulk delete, unlock list,
 * deleting an attempt) are PERMISSIONS.reportRead.
 */
export const ticketRoutes: FastifyPluginAsync<{ services: Services }> = async (
  instance,
  { services },
) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { tickets, ticketDetails, ticketLocks, ticketFilters } = services;
  const work = { access: PERMISSIONS.ticketWork };
  const admin = { access: PERMISSIONS.reportRead };
  const tags = ['tickets'];

  const list = async (
    request: FastifyRequest,
    kind: TicketListKind,
    q: TicketListQuery,
    fixed?: Partial<TicketQuery>,
    scoped?: boolean,
  ) => (await listTickets(services, request, kind, q, fixed, scoped)).value;
  const results = (rows: TicketRow[]) => ticketResults(services, rows);
  // The ticket and its attempts are read at once (a missing ticket is a 404 all the same), then its enrolment's results.
  const one = async (request: FastifyRequest, id: number) => {
    const [ticket, details] = await Promise.all([
      tickets.getFor(id, requireAuth(request)),
      tickets.attemptsOf([id]),
    ]);
    return presentTicket(request, ticket, { details, results: await results([ticket]) }, true);
  };

  // Lists (operators see only the tickets assigned to them).
  app.get(
    '/tickets',
    { config: work, schema: { tags, querystring: ticketListQuerySchema } },
    (request) => list(request, 'queue', request.query),
  );
  // The Ticket screen's "Buscar" of the original client asks for the course's every ticket with its
  // attempts and results (28 MB at 30,000 tickets): the whole list is kept serialised (answers/cache.ts)
  // until a row it shows changes, or an edit lock it shows expires.
  app.get(
    '/tickets/course-registered-users/course/:id',
    { config: work, schema: { tags, params: idParams, querystring: ticketListQuerySchema } },
    (request, reply) => {
      const course = { course_id: request.params.id };
      if (request.query.page !== undefined || request.query.compact)
        return list(request, 'course', request.query, course);
      return sendKept(request, reply, services.answers, request.params.id, 'tickets.course');
    },
  );
  app.get(
    '/tickets/code/:code',
    {
      config: work,
      schema: {
        tags,
        params: z.object({ code: z.string().trim().min(1).max(30) }),
        querystring: ticketListQuerySchema,
      },
    },
    (request) => list(request, 'search', request.query, { code: request.params.code }),
  );
  app.get(
    '/tickets/operator/:id',
    { config: work, schema: { tags, params: idParams, querystring: ticketListQuerySchema } },
    (request) => list(request, 'search', request.query, { user_assigned_id: request.params.id }),
  );
  app.get(
    '/tickets/dates/:from/:to',
    {
      config: work,
      schema: {
        tags,
        params: z.object({ from: z.string().max(20), to: z.string().max(20) }),
        querystring: ticketListQuerySchema,
      },
    },
    (request) => {
      const from = parseDay(request.params.from);
      const to = parseDay(request.params.to);
      const errors: FieldErrors = {};
      if (!from) errors.from = [TICKET_MSG.invalidDate];
      if (!to) errors.to = [TICKET_MSG.invalidDate];
      if (!from || !to) throw invalid(errors);
      // A range picked backwards is the same range.
      return list(
        request,
        'search',
        request.query,
        from <= to ? { from, to } : { from: to, to: from },
      );
    },
  );
  // The history of one enrolment: every ticket about that student in that course, whoever it is
  // assigned to (docs/development/permissions.md), with the attempts only of the tickets the caller
  // may work. The original client asks for it whole, with the attempts and Moodle results: kept
  // serialised (per caller) as the course's other whole answers are, under the course's version.
  app.get(
    '/course-registered-user/:id/tickets',
    { config: work, schema: { tags, params: idParams, querystring: ticketListQuerySchema } },
    async (request, reply) => {
      const enrolment = await services.enrolments.get(request.params.id);
      const only = { enrolmentId: request.params.id };
      if (request.query.page !== undefined || request.query.compact)
        return list(request, 'search', request.query, only, false);
      return sendKept(request, reply, services.answers, enrolment.course_id, 'tickets.enrolment');
    },
  );

  app.get(
    '/tickets/export',
    { config: work, schema: { tags, querystring: ticketFiltersSchema } },
    async (request, reply) => {
      const rows = await tickets.exportRows(request.query, requireAuth(request));
      const details = await ticketDetails.ofTickets(rows.map((t) => t.id));
      const course = request.query.course_id ? rows[0]?.course_description : undefined;
      const title = course
        ? `REPORTE HISTÓRICO DE TICKET CURSO ${course.toUpperCase()}`
        : 'REPORTE HISTÓRICO DE TICKETS';
      const body = await writeXlsx(
        'Tickets',
        TICKET_EXPORT_HEADER,
        ticketExportRows(rows, details),
        title,
        ['integer'],
      );
      return sendFile(reply, `tickets-${fileDay()}.xlsx`, body);
    },
  );

  // One ticket, with its attempts and its student's Moodle results, built for each request: on a
  // staffed day nearly every read of a ticket follows a write in its course (docs/development/performance.md, "Staffed day").
  app.get('/tickets/:id', { config: work, schema: { tags, params: idParams } }, async (request) =>
    ok(await one(request, request.params.id)),
  );

  // A ticket's attempts, oldest first: in `collections` and, as the original client reads them when
  // it follows a ticket's link, in `relationships.collection.data` (docs/development/original-api.md §2.10, §3).
  app.get(
    '/tickets/:id/ticket-details',
    { config: work, schema: { tags, params: idParams, querystring: listQuery } },
    async (request) => {
      const { rows, meta } = await ticketDetails.ofTicket(
        request.params.id,
        request.query,
        requireAuth(request),
      );
      const items = rows.map((d) => presentDetail(request, d));
      return ok({
        ...collection(request, path(request), 'ticketDetails', items, meta),
        relationships: relationship(
          request,
          path(request),
          meta ? meta.total : items.length,
          items,
        ),
      });
    },
  );

  app.get(
    '/tickets/:id/history',
    { config: work, schema: { tags, params: idParams } },
    async (request) => {
      const rows = await tickets.history(request.params.id, requireAuth(request));
      return ok(
        collection(
          request,
          path(request),
          'ticketHistory',
          rows.map((h) => presentHistory(request, h)),
        ),
      );
    },
  );

  app.post(
    '/tickets',
    { config: work, schema: { tags, body: ticketCreateSchema } },
    async (request, reply) => {
      // A ticket just created has no attempts yet; its student's results are read while it is written.
      const [row, byEnrolment] = await Promise.all([
        tickets.create(request.body, requireAuth(request)),
        services.enrolments.activityResults([request.body.course_registered_user_id]),
      ]);
      reply.status(201);
      return created(
        presentTicket(request, row, { details: new Map(), results: byEnrolment }, true),
        TICKET_MSG.created,
      );
    },
  );

  app.post(
    '/tickets/multiple',
    { config: work, schema: { tags, body: ticketCreateManySchema } },
    async (request, reply) => {
      const ids = await tickets.createMany(request.body, requireAuth(request));
      const rows = await tickets.findMany(ids);
      reply.status(201);
      // An array of ticket resources, as the original client reads it (docs/development/original-api.md#list-containers).
      return created(
        await presentTickets(services, request, rows),
        TICKET_MSG.createdMany(rows.length),
      );
    },
  );

  app.post(
    '/tickets/bulk',
    { config: work, schema: { tags, body: ticketBulkSchema } },
    async (request) => {
      const result = await tickets.bulk(request.body, requireAuth(request));
      return ok(result, TICKET_MSG.bulkDone(result.updated.length, result.refused.length));
    },
  );

  app.put(
    '/tickets/:id',
    { config: work, schema: { tags, params: idParams, body: ticketUpdateSchema } },
    async (request) => {
      const done = await tickets.update(request.params.id, request.body, requireAuth(request));
      return ok(await one(request, request.params.id), TICKET_MSG[done]);
    },
  );

  app.delete(
    '/tickets/:id',
    { config: work, schema: { tags, params: idParams } },
    async (request) => {
      await tickets.remove(request.params.id, requireAuth(request), request.ip);
      return ok(null, TICKET_MSG.deleted);
    },
  );

  // This product's screens ask for `partial` (each ticket the rules allow, the others listed with the
  // reason); the original client's Administración ticket keeps every selected row unless told
  // success, so without it all are deleted or none (a refusal is a 409 it shows as an error).
  app.delete(
    '/tickets/multiple/:ids',
    {
      config: admin,
      schema: { tags, params: idListParams, querystring: ticketDeleteManyQuerySchema },
    },
    async (request) => {
      if (!request.query.partial) {
        const deleted = await tickets.removeAll(
          request.params.ids,
          requireAuth(request),
          request.ip,
        );
        return ok({ deleted, refused: [] }, TICKET_MSG.deletedMany(deleted.length, 0));
      }
      const result = await tickets.removeMany(request.params.ids, requireAuth(request), request.ip);
      return ok(result, TICKET_MSG.deletedMany(result.deleted.length, result.refused.length));
    },
  );

  // Contact attempts.
  app.get(
    '/ticket-details',
    { config: work, schema: { tags, querystring: ticketDetailListQuerySchema } },
    async (request) => {
      const { rows, meta } = await ticketDetails.list(
        { ...request.query, ticketId: request.query.ticket_id },
        requireAuth(request),
      );
      return ok(
        collection(
          request,
          '/api/v2/ticket-details',
          'ticketDetails',
          rows.map((d) => presentDetail(request, d)),
          meta,
        ),
      );
    },
  );

  app.get(
    '/ticket-details/:id',
    { config: work, schema: { tags, params: idParams } },
    async (request) =>
      ok(
        presentDetail(request, await ticketDetails.getFor(request.params.id, requireAuth(request))),
      ),
  );

  app.post(
    '/ticket-details',
    { config: work, schema: { tags, body: ticketDetailCreateSchema } },
    async (request, reply) => {
      const row = await ticketDetails.create(request.body, requireAuth(request));
      reply.status(201);
      return created(presentDetail(request, row), TICKET_MSG.detailCreated);
    },
  );

  app.post(
    '/ticket-details/multiple',
    { config: work, schema: { tags, body: ticketDetailCreateManySchema } },
    async (request, reply) => {
      const rows = await ticketDetails.createMany(request.body, requireAuth(request));
      reply.status(201);
      return created(
        collection(
          request,
          '/api/v2/ticket-details',
          'ticketDetails',
          rows.map((d) => presentDetail(request, d)),
        ),
        TICKET_MSG.detailCreatedMany(rows.length),
      );
    },
  );

  app.put(
    '/ticket-details/:id',
    { config: work, schema: { tags, params: idParams, body: ticketDetailUpdateSchema } },
    async (request) =>
      ok(
        presentDetail(
          request,
          await ticketDetails.update(request.params.id, request.body, requireAuth(request)),
        ),
        MSG.updated,
      ),
  );

  app.delete(
    '/ticket-details/:id',
    { config: admin, schema: { tags, params: idParams } },
    async (request) => {
      await ticketDetails.remove(request.params.id, requireAuth(request));
      return ok(null, TICKET_MSG.detailDeleted);
    },
  );

  // Edit locks.
  app.get(
    '/log-editing-tickets',
    { config: admin, schema: { tags, querystring: listQuery } },
    async (request) => {
      const { rows, meta } = await ticketLocks.list(request.query);
      return ok(
        collection(
          request,
          '/api/v2/log-editing-tickets',
          'logEditingTickets',
          rows.map((l) => presentLock(request, l)),
          meta,
        ),
      );
    },
  );

  // The active lock of a ticket. A ticket free for the caller is HTTP 200 with statusCode 204 in
  // the body: the original client goes on to edit only on that value (docs/development/original-api.md §1.3,
  // §2.12). The caller's own lock counts as free, as taking it again renews it: the original client
  // would otherwise lock its user out of a ticket left open in a closed tab until the lock expires.
  app.get(
    '/log-editing-tickets/ticket/:id',
    { config: work, schema: { tags, params: idParams } },
    async (request) => {
      const actor = requireAuth(request);
      const lock = await ticketLocks.activeFor(request.params.id, actor);
      return lock && lock.user_id !== actor.id
        ? ok(presentLock(request, lock))
        : ok(null, TICKET_MSG.notLocked, 204);
    },
  );

  app.get(
    '/log-editing-tickets/:id',
    { config: work, schema: { tags, params: idParams } },
    async (request) =>
      ok(presentLock(request, await ticketLocks.getFor(request.params.id, requireAuth(request)))),
  );

  app.post(
    '/log-editing-tickets',
    { config: work, schema: { tags, body: ticketLockSchema } },
    async (request, reply) => {
      const { row, renewed } = await ticketLocks.acquire(
        request.body.ticket_id,
        requireAuth(request),
      );
      if (renewed) return ok(presentLock(request, row), TICKET_MSG.lockRefreshed);
      reply.status(201);
      return created(presentLock(request, row), TICKET_MSG.lockTaken);
    },
  );

  app.put(
    '/log-editing-tickets/:id',
    { config: work, schema: { tags, params: idParams } },
    async (request) => {
      const { row } = await ticketLocks.renew(request.params.id, requireAuth(request));
      return ok(presentLock(request, row), TICKET_MSG.lockRefreshed);
    },
  );

  app.delete(
    '/log-editing-tickets/:id',
    { config: work, schema: { tags, params: idParams } },
    async (request) => {
      await ticketLocks.release(request.params.id, requireAuth(request));
      return ok(null, TICKET_MSG.unlocked);
    },
  );

  app.delete(
    '/log-editing-tickets/multiple/:ids',
    { config: admin, schema: { tags, params: idListParams } },
    async (request) => {
      const result = await ticketLocks.releaseMany(request.params.ids, requireAuth(request));
      return ok(result, TICKET_MSG.unlockedMany(result.deleted.length));
    },
  );

  // Saved filters, each user's own.
  app.get('/ticket-filters', { config: work, schema: { tags } }, async (request) => {
    const rows = await ticketFilters.list(requireAuth(request));
    return ok(
      collection(
        request,
        '/api/v2/ticket-filters',
        'ticketFilters',
        rows.map((f) => presentPreset(request, f)),
      ),
    );
  });

  app.post(
    '/ticket-filters',
    { config: work, schema: { tags, body: ticketFilterPresetSchema } },
    async (request, reply) => {
      const { row, created: isNew } = await ticketFilters.save(request.body, requireAuth(request));
      if (isNew) reply.status(201);
      return isNew
        ? created(presentPreset(request, row), TICKET_MSG.presetSaved)
        : ok(presentPreset(request, row), TICKET_MSG.presetSaved);
    },
  );

  app.delete(
    '/ticket-filters/:id',
    { config: work, schema: { tags, params: idParams } },
    async (request) => {
      await ticketFilters.remove(request.params.id, requireAuth(request));
      return ok(null, TICKET_MSG.presetDeleted);
    },
  );
};
