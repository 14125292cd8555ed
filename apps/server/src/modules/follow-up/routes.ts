import {
  classroomTutorsSchema,
  followUpFiltersSchema,
  followUpMailSchema,
  followUpStudentsQuerySchema,
  MAIL_MSG,
  PERMISSIONS,
  studentStateText,
  type FollowUpStudent,
} from '@sigaf/contract';
import { z } from 'zod';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/auth.js';
import { collection, created, ok, resource } from '../../http/envelope.js';
import { sendFile } from '../../http/files.js';
import { sendOnce } from '../idempotency/send-once.js';
import { idParams } from '../../http/params.js';
import { writeXlsx } from '../../lib/spreadsheet.js';
import type { Services } from '../../services.js';
import { presentTicket } from '../tickets/presenter.js';

const path = (request: FastifyRequest) => request.url.split('?')[0]!;

/** Columns of the follow-up export (one row per student enrolment). */
export const FOLLOW_UP_EXPORT_HEADER = [
  'RUT',
  'Nombre',
  'Apellido paterno',
  'Apellido materno',
  'Correo electrónico',
  'Teléfono',
  'Aula',
  'Estado',
  'Último acceso',
  'Días sin acceso',
  'Progreso (%)',
  'Actividades calificadas',
  'Actividades a realizar',
  'Tickets abiertos',
  'Tickets',
];

/** Number formats of its columns: last access a date, progress a percentage. */
const FOLLOW_UP_EXPORT_FORMATS = [
  null,
  null,
  null,
  null,
  null,
  null,
  null,
  null,
  'dateTime',
  'integer',
  'percent',
  'integer',
  'integer',
  'integer',
  'integer',
] as const;

export function followUpExportRow(s: FollowUpStudent): Array<string | number | Date | null> {
  return [
    s.rut,
    s.name,
    s.lastName,
    s.motherLastName,
    s.email,
    s.phone,
    s.classroom,
    studentStateText(s.stage, s.synced),
    s.lastAccess ? new Date(s.lastAccess) : 'Nunca',
    s.daysWithoutAccess,
    s.progress === null ? null : s.progress / 100,
    s.graded,
    s.expected,
    s.openTickets,
    s.tickets,
  ];
}

/**
 * Student follow-up (docs/development/screens.md#seguimiento): the tutors of a classroom (administrators and developers),
 * the course and classroom selectors, the student table and its export, one student's detail,
 * and massive mail to chosen students (ticket workers). A tutor sees only their classrooms (403
 * for any other).
 */
export const followUpRoutes: FastifyPluginAsync<{ services: Services }> = async (
  instance,
  { services },
) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { followUp, tickets } = services;
  const read = { access: PERMISSIONS.followUpRead };
  const assign = { access: PERMISSIONS.configurationWrite };
  const tags = ['follow-up'];

  // Tutors of a classroom.
  // Tutors are assigned per course and classroom.
  const tutorParams = z.object({ courseId: idParams.shape.id, id: idParams.shape.id });
  app.get(
    '/courses/:courseId/classrooms/:id/tutors',
    { config: assign, schema: { tags, params: tutorParams } },
    async (request) => ok(await followUp.tutors(request.params.courseId, request.params.id)),
  );
  app.put(
    '/courses/:courseId/classrooms/:id/tutors',
    { config: assign, schema: { tags, params: tutorParams, body: classroomTutorsSchema } },
    async (request) => {
      const { message, data } = await followUp.setTutors(
        request.params.courseId,
        request.params.id,
        request.body.user_ids,
        requireAuth(request),
        request.ip,
      );
      return ok(data, message);
    },
  );

  // Selectors.
  app.get('/follow-up/courses', { config: read, schema: { tags } }, async (request) => {
    const rows = await followUp.courses(requireAuth(request));
    return ok(
      collection(
        request,
        path(request),
        'courses',
        rows.map((c) => resource(request, `/api/v2/courses/${c.id}`, c)),
      ),
    );
  });
  app.get(
    '/follow-up/courses/:id/classrooms',
    { config: read, schema: { tags, params: idParams } },
    async (request) => {
      const rows = await followUp.classrooms(requireAuth(request), request.params.id);
      return ok(
        collection(
          request,
          path(request),
          'classrooms',
          rows.map((c) => resource(request, `/api/v2/classrooms/${c.id}`, c)),
        ),
      );
    },
  );

  // The student table, its export, one student. A page is built for each request: on a staffed
  // day nearly every read follows a write in its course (docs/development/performance.md, "Staffed day").
  app.get(
    '/follow-up/courses/:id/students',
    { config: read, schema: { tags, params: idParams, querystring: followUpStudentsQuerySchema } },
    async (request) => {
      const { rows, meta } = await followUp.students(
        requireAuth(request),
        request.params.id,
        request.query,
      );
      const students = rows.map((s) =>
        resource(request, `/api/v2/follow-up/enrolments/${s.id}`, s),
      );
      return ok(collection(request, path(request), 'students', students, meta));
    },
  );
  app.get(
    '/follow-up/courses/:id/students/export',
    { config: read, schema: { tags, params: idParams, querystring: followUpFiltersSchema } },
    async (request, reply) => {
      const { filename, rows } = await followUp.exportRows(
        requireAuth(request),
        request.params.id,
        request.query,
      );
      const body = await writeXlsx(
        'Seguimiento',
        FOLLOW_UP_EXPORT_HEADER,
        rows.map(followUpExportRow),
        'SEGUIMIENTO DE ESTUDIANTES',
        FOLLOW_UP_EXPORT_FORMATS,
      );
      return sendFile(reply, filename, body);
    },
  );
  // Massive mail to chosen students (no ticket needed): the preview (count, one rendered message), then the queue.
  const work = { access: PERMISSIONS.ticketWork };
  const previewSchema = followUpMailSchema.pick({ enrolmentIds: true, subject: true, text: true });
  app.post(
    '/follow-up/mail/preview',
    { config: work, schema: { tags, body: previewSchema } },
    async (request) => {
      return ok(await services.mail.previewForEnrolments(request.body, requireAuth(request)));
    },
  );
  app.post(
    '/follow-up/mail',
    { config: work, schema: { tags, body: followUpMailSchema } },
    async (request, reply) =>
      sendOnce(services.sends, request, reply, request.body, 201, async () => {
        const result = await services.mail.queueForEnrolments(request.body, requireAuth(request));
        return created(result, MAIL_MSG.queuedMany(result.queued, result.skipped.length));
      }),
  );

  app.get(
    '/follow-up/enrolments/:id',
    { config: read, schema: { tags, params: idParams } },
    async (request) => {
      const actor = requireAuth(request);
      const detail = await followUp.detail(actor, request.params.id);
      // The student's tickets in the course, whoever they are assigned to (the ticket history).
      const history = await tickets.list('search', { enrolmentId: request.params.id }, actor, {
        scoped: false,
      });
      return ok({
        ...detail,
        tickets: collection(
          request,
          `/api/v2/course-registered-user/${request.params.id}/tickets`,
          'tickets',
          history.rows.map((t) => presentTicket(request, t)),
        ),
      });
    },
  );
};
