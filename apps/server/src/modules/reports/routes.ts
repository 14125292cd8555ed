import {
  listQuerySchema,
  parseDay,
  parsedText,
  PERMISSIONS,
  REPORT_MSG,
  TICKET_MSG,
} from '@sigaf/contract';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { href, ok } from '../../http/envelope.js';
import { sendFile } from '../../http/files.js';
import { idParams } from '../../http/params.js';
import type { Services } from '../../services.js';
import { sendKept } from '../answers/cache.js';
import { dayCardAnswer, operatorTableAnswer } from './presenter.js';
import { ReportRepository, type DayRange } from './repository.js';
import { ReportService, type ReportFile } from './service.js';

/** A course and a Chilean calendar day, `dd-mm-yyyy` or `yyyy-mm-dd`; anything else is a 422. */
const dayParams = z.object({
  id: idParams.shape.id,
  date: parsedText(parseDay, TICKET_MSG.invalidDate),
});
/**
 * The same, or the literal segment `undefined`: no day (null). The original client sends it when
 * a day chip is un-toggled (docs/development/original-api.md §1.7, §2.19); it hides the figures then, and an
 * answer with nothing in it keeps its three sequential calls quiet.
 */
const dayOrNoneParams = dayParams.extend({
  date: z.string({ error: TICKET_MSG.invalidDate }).transform((text, ctx) => {
    if (text === 'undefined') return null;
    const day = parseDay(text);
    if (day === null) ctx.addIssue({ code: 'custom', message: TICKET_MSG.invalidDate });
    return day ?? z.NEVER;
  }),
});
/** A range of days, `from` and `to` (both included, in either order), each as `dayParams`' date. */
const rangeQuery = z.object({
  from: dayParams.shape.date,
  to: dayParams.shape.date,
});
/** The same, optional: both or neither (the original client sends neither: every ticket). */
const optionalRangeQuery = z
  .object({ from: dayParams.shape.date.optional(), to: dayParams.shape.date.optional() })
  .refine((q) => (q.from === undefined) === (q.to === undefined), {
    message: REPORT_MSG.rangeIncomplete,
    path: ['to'],
  });
/** A range in order, whatever the order picked. */
function ordered(q: { from?: string; to?: string }): DayRange | undefined {
  if (q.from === undefined || q.to === undefined) return undefined;
  return q.from <= q.to ? { from: q.from, to: q.to } : { from: q.to, to: q.from };
}

/** A classroom by id or by description, as the original client addresses it. */
const classroomText = z
  .string({ error: REPORT_MSG.invalidClassroom })
  .trim()
  .min(1, REPORT_MSG.invalidClassroom)
  .max(150, REPORT_MSG.invalidClassroom);
const classroomParams = idParams.extend({ classroom: classroomText });
const rosterQuery = z.object({ classroom: classroomText.optional() });
const searchQuery = z.object({
  search: z
    .string({ error: REPORT_MSG.invalidSearch })
    .trim()
    .max(100, REPORT_MSG.invalidSearch)
    .optional()
    .transform((s) => s || undefined),
});
/** A page of the per-student report: at most 100 students a page. */
const studentTicketsQuery = searchQuery.extend({
  page: listQuerySchema.shape.page,
  perPage: z.coerce.number().int().min(1).max(100).optional(),
});

function sendPdf(reply: FastifyReply, file: ReportFile) {
  return reply
    .header('content-type', 'application/pdf')
    .header(
      'content-disposition',
      `attachment; filename="${file.filename}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    )
    .send(file.body);
}

/** Daily ticket reports (docs/development/domain.md#reports, docs/development/screens.md#ticket-report) and the report documents (.xlsx, .pdf). */
export const reportRoutes: FastifyPluginAsync<{ services: Services }> = async (
  instance,
  { services },
) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { dashboard } = services;
  const reports = new ReportService(new ReportRepository(services.db), dashboard);
  const config = { access: PERMISSIONS.reportRead };
  const tags = ['reports'];
  const schema = { tags, params: dayParams };
  const daySchema = { tags, params: dayOrNoneParams };

  app.get('/reports/courses/:id/data-card/:date', { config, schema: daySchema }, async (request) =>
    ok(dayCardAnswer(await dashboard.dayCard(request.params.id, request.params.date))),
  );
  app.get(
    '/reports/courses/:id/type-ticket/:date',
    { config, schema: daySchema },
    async (request) => ok(await dashboard.dayCharts(request.params.id, request.params.date)),
  );
  app.get(
    '/reports/courses/:id/table-operator/:date',
    { config, schema: daySchema },
    async (request) =>
      ok(
        operatorTableAnswer(await dashboard.operatorTable(request.params.id, request.params.date)),
      ),
  );

  // This product's report screen: the same figures over a range of days, in one answer.
  app.get(
    '/reports/courses/:id/range',
    { config, schema: { tags, params: idParams, querystring: rangeQuery } },
    async (request) => {
      const { from, to } = ordered(request.query)!;
      return ok(await dashboard.rangeReport(request.params.id, from, to));
    },
  );

  // Workbooks.
  // The ticket history in two steps, as the original client asks for it (docs/development/original-api.md#reports):
  // `excel` answers whether the workbook can be made (the envelope's `success`) and where to get it;
  // `excel-download` sends it. This product's screen adds `from` and `to`: the tickets created then.
  const historySchema = { tags, params: idParams, querystring: optionalRangeQuery };
  app.get('/reports/courses/:id/excel', { config, schema: historySchema }, async (request) => {
    const range = ordered(request.query);
    const filename = await reports.ticketHistoryReady(request.params.id, range);
    const query = range ? `?from=${range.from}&to=${range.to}` : '';
    return ok({
      filename,
      href: href(request, `/api/v2/reports/courses/${request.params.id}/excel-download${query}`),
    });
  });
  app.get(
    '/reports/courses/:id/excel-download',
    { config, schema: historySchema },
    async (request, reply) => {
      const file = await reports.ticketHistoryXlsx(request.params.id, ordered(request.query));
      return sendFile(reply, file.filename, file.body);
    },
  );
  app.get(
    '/reports/courses/:id/roster',
    { config, schema: { tags, params: idParams, querystring: rosterQuery } },
    async (request, reply) => {
      const file = await reports.rosterXlsx(request.params.id, request.query.classroom);
      return sendFile(reply, file.filename, file.body);
    },
  );

  // Tickets per student.
  // Every page sorts the course's students with tickets by name: kept serialised until one of
  // those rows changes (answers/cache.ts), as the report is paged through and read again.
  app.get(
    '/reports/courses/:id/student-tickets',
    { config, schema: { tags, params: idParams, querystring: studentTicketsQuery } },
    (request, reply) => {
      return sendKept(
        request,
        reply,
        services.answers,
        request.params.id,
        'reports.studentTickets',
      );
    },
  );
  app.get(
    '/reports/courses/:id/student-tickets/:enrolment',
    { config, schema: { tags, params: idParams.extend({ enrolment: idParams.shape.id }) } },
    async (request) =>
      ok(await reports.studentTicketsOf(request.params.id, request.params.enrolment)),
  );
  app.get(
    '/reports/courses/:id/student-tickets/excel',
    { config, schema: { tags, params: idParams, querystring: searchQuery } },
    async (request, reply) => {
      const file = await reports.studentTicketsXlsx(request.params.id, request.query.search);
      return sendFile(reply, file.filename, file.body);
    },
  );

  // PDFs of the three report screens.
  app.get('/reports/courses/:id/pdf/ticket/:date', { config, schema }, async (request, reply) =>
    sendPdf(
      reply,
      await reports.ticketRangePdf(request.params.id, {
        from: request.params.date,
        to: request.params.date,
      }),
    ),
  );
  app.get(
    '/reports/courses/:id/pdf/ticket',
    { config, schema: { tags, params: idParams, querystring: rangeQuery } },
    async (request, reply) =>
      sendPdf(reply, await reports.ticketRangePdf(request.params.id, ordered(request.query)!)),
  );
  app.get(
    '/reports/courses/:id/pdf/student-tickets',
    { config, schema: { tags, params: idParams, querystring: searchQuery } },
    async (request, reply) =>
      sendPdf(reply, await reports.studentTicketsPdf(request.params.id, request.query.search)),
  );
  app.get(
    '/reports/courses/:id/pdf/follow-student/:classroom',
    { config, schema: { tags, params: classroomParams } },
    async (request, reply) =>
      sendPdf(reply, await reports.followStudentPdf(request.params.id, request.params.classroom)),
  );
};
