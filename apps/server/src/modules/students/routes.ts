import {
  fileDay,
  fileSlug,
  autoSplitSchema,
  classroomAssignSchema,
  enrolmentClassroomSchema,
  enrolmentCreateSchema,
  IMPORT_COLUMNS,
  IMPORT_LIMITS,
  MSG,
  PERMISSIONS,
  STUDENT_MSG,
  studentCreateSchema,
  studentFindQuerySchema,
  studentUpdateSchema,
  studentUpsertSchema,
  type ResourceDecl,
} from '@sigaf/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/auth.js';
import { registerCrud } from '../../http/crud.js';
import {
  created,
  failure,
  laravelPaginator,
  ok,
  relationship,
  resource,
} from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { sendFile } from '../../http/files.js';
import { idParams, listQuery } from '../../http/params.js';
import { writeCsv, writeXlsx } from '../../lib/spreadsheet.js';
import type { Services } from '../../services.js';
import { sendKept } from '../answers/cache.js';
import { courseUsersQuery, listCourseUsers, type CourseUsersQuery } from './lists.js';
import { presentEnrolment, presentRawEnrolments, presentStudent } from './presenter.js';
import { lastSyncText, rawActivityResult, rawStudent } from './raw.js';

const STUDENTS: ResourceDecl = {
  key: 'registeredUser',
  path: 'registered-users',
  read: PERMISSIONS.ticketWork,
  write: PERMISSIONS.configurationWrite,
  fields: [],
};
const ENROLMENTS: ResourceDecl = {
  key: 'courseRegisteredUser',
  path: 'course-registered-users',
  read: PERMISSIONS.ticketWork,
  write: PERMISSIONS.configurationWrite,
  fields: [],
};

const MULTIPART_MSG = {
  noFile: 'Debe adjuntar un archivo.',
  tooLarge: `El archivo supera el tamaño máximo de ${IMPORT_LIMITS.maxBytes / 1024 / 1024} MB.`,
};

/** Reads a multipart upload: the file and the text fields, with the size limit as a clear 413. */
async function readUpload(request: FastifyRequest) {
  if (!request.isMultipart()) throw new AppError(415, 'Envíe el archivo como multipart/form-data.');
  const fields: Record<string, string> = {};
  let file: { buffer: Buffer; filename: string } | null = null;
  for await (const part of request.parts({
    limits: { fileSize: IMPORT_LIMITS.maxBytes, files: 1, fields: 20 },
  })) {
    if (part.type === 'file') {
      const chunks: Buffer[] = [];
      for await (const c of part.file) chunks.push(c as Buffer);
      if (part.file.truncated) throw new AppError(413, MULTIPART_MSG.tooLarge);
      file = { buffer: Buffer.concat(chunks), filename: part.filename || 'archivo' };
    } else fields[part.fieldname] = String(part.value);
  }
  if (!file || file.buffer.length === 0)
    throw new AppError(422, MULTIPART_MSG.noFile, { errors: { file: [MULTIPART_MSG.noFile] } });
  return { file, fields };
}

const courseField = z.coerce
  .number({ error: 'Seleccione un curso.' })
  .int()
  .positive('Seleccione un curso.')
  .max(2_147_483_647);

export const studentRoutes: FastifyPluginAsync<{ services: Services }> = async (
  instance,
  { services },
) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { students, enrolments } = services;
  const cfg = { access: PERMISSIONS.configurationWrite };
  const read = { access: PERMISSIONS.ticketWork };
  const tags = ['students'];

  registerCrud(app, {
    decl: STUDENTS,
    service: students,
    present: presentStudent,
    filters: { course_id: 'courseId' },
    bodies: { create: studentCreateSchema, update: studentUpdateSchema },
  });

  // The original client branches on the body's statusCode and needs HTTP 200 for all three
  // answers (docs/development/original-api.md#students): 200 with the raw student, 204 unknown, 406 invalid RUT.
  app.get(
    '/registered-user/:rut',
    { config: read, schema: { tags, params: z.object({ rut: z.string().max(30) }) } },
    async (request) => {
      const { invalid, row } = await students.lookupRut(request.params.rut);
      if (invalid) return failure(406, MSG.invalidRut);
      if (!row) return failure(204, STUDENT_MSG.notRegistered);
      return ok({ ...rawStudent(row), ...presentStudent(request, row) });
    },
  );

  app.post(
    '/registered-users/view-store',
    { config: cfg, schema: { tags, body: studentUpsertSchema } },
    async (request, reply) => {
      const { row, created: isNew } = await students.upsert(
        request.body,
        requireAuth(request),
        request.ip,
      );
      if (isNew) reply.status(201);
      return isNew
        ? created(presentStudent(request, row))
        : ok(presentStudent(request, row), MSG.updated);
    },
  );

  // Quick edit from the ticket screen: operators may correct contact data.
  app.put(
    '/registered-users/:id/view-update',
    { config: read, schema: { tags, params: idParams, body: studentUpdateSchema } },
    async (request) =>
      ok(
        presentStudent(
          request,
          await students.update(request.params.id, request.body, requireAuth(request), request.ip),
        ),
        MSG.updated,
      ),
  );

  const runImport = async (request: FastifyRequest, applyDefault: boolean) => {
    const { file, fields } = await readUpload(request);
    const course = courseField.safeParse(fields.course_id ?? fields.courseId);
    if (!course.success)
      throw new AppError(422, 'Seleccione un curso.', {
        errors: { course_id: ['Seleccione un curso.'] },
      });
    const apply =
      fields.confirm === undefined
        ? applyDefault
        : fields.confirm === '1' || fields.confirm === 'true';
    const result = await services.studentImport.run(file, course.data, apply);
    const msg = apply
      ? `Importación completada: ${result.summary.created} alumnos nuevos, ${result.summary.enrolled} matriculados, ${result.summary.rejected} filas rechazadas.`
      : MSG.ok;
    return ok(result, msg);
  };
  app.post(
    '/registered-users/import',
    { config: cfg, schema: { tags, consumes: ['multipart/form-data'] } },
    (request) => runImport(request, false),
  );
  // The original's upload: imports at once.
  app.post(
    '/upload-file',
    { config: cfg, schema: { tags, consumes: ['multipart/form-data'] } },
    (request) => runImport(request, true),
  );

  app.get(
    '/registered-users/import/template',
    {
      config: cfg,
      schema: { tags, querystring: z.object({ format: z.enum(['xlsx', 'csv']).default('xlsx') }) },
    },
    async (request, reply) => {
      // The mobile without a leading "+": a CSV cell starting with it is written as text with a "'" (csvCell).
      const example = [
        [
          '12345678',
          '5',
          'María',
          'González',
          'Pérez',
          'maria.gonzalez@correo.cl',
          'Av. Siempre Viva 123',
          'Metropolitana de Santiago',
          '',
          '9 1234 5678',
          '8930',
          'Liceo Bicentenario',
          'Metropolitana de Santiago',
          'Santiago',
          '',
        ],
      ];
      const header = [...IMPORT_COLUMNS];
      return request.query.format === 'csv'
        ? sendFile(reply, 'plantilla-matricula.csv', writeCsv(header, example))
        : sendFile(
            reply,
            'plantilla-matricula.xlsx',
            await writeXlsx('Matrícula', header, example),
          );
    },
  );

  // Enrolments.
  registerCrud(app, {
    decl: ENROLMENTS,
    service: enrolments,
    present: presentEnrolment,
    filters: {
      course_id: 'courseId',
      registered_user_id: 'studentId',
      classroom_id: 'classroomId',
    },
    bodies: { create: enrolmentCreateSchema, update: enrolmentClassroomSchema },
  });

  app.post(
    '/course-registered-users/view-store',
    { config: cfg, schema: { tags, body: enrolmentCreateSchema } },
    async (request, reply) => {
      reply.status(201);
      return created(
        presentEnrolment(
          request,
          await enrolments.enrol(request.body, requireAuth(request), request.ip),
        ),
      );
    },
  );

  app.put(
    '/course-registered-user/classroom/:id',
    { config: cfg, schema: { tags, params: idParams, body: enrolmentClassroomSchema } },
    async (request) =>
      ok(
        presentEnrolment(
          request,
          await enrolments.update(
            request.params.id,
            request.body,
            requireAuth(request),
            request.ip,
          ),
        ),
        MSG.updated,
      ),
  );

  app.put(
    '/course-registered-user/classroom/:classroomId/users',
    {
      config: cfg,
      schema: {
        tags,
        params: z.object({ classroomId: idParams.shape.id }),
        body: classroomAssignSchema,
      },
    },
    async (request) => {
      const ids = request.body.courseRegisteredUsers;
      const r = await enrolments.assign(
        request.params.classroomId,
        ids,
        request.body.profile_id,
        requireAuth(request),
        request.ip,
      );
      // The original client replaces each row's `properties` with these (matched on `id`).
      const rows = await enrolments.findMany(ids);
      return ok(
        rows.map((e) => presentEnrolment(request, e).properties),
        r.message,
      );
    },
  );

  app.post(
    '/course-registered-user/classroom/auto-split',
    { config: cfg, schema: { tags, body: autoSplitSchema } },
    async (request) => {
      const r = await enrolments.autoSplit(
        request.body.course_id,
        request.body.classroom_ids,
        request.body.confirm ?? false,
        requireAuth(request),
        request.ip,
      );
      return ok(
        r,
        r.applied
          ? `Se distribuyeron ${r.total} estudiantes en ${r.plan.length} ${r.plan.length === 1 ? 'aula' : 'aulas'}.`
          : MSG.ok,
      );
    },
  );

  const courseUsers = (
    courseId: number,
    q: CourseUsersQuery,
    all: boolean,
    classroomIds?: number[],
  ) => listCourseUsers(enrolments, courseId, q, all, classroomIds);
  // Seguimiento's pages: a Laravel paginator of raw enrolments (docs/development/original-api.md#enrolments). Tutors
  // use Seguimiento too: they get the students of their own classrooms of the course.
  app.get(
    '/course-registered-user/:id/users',
    {
      config: { access: PERMISSIONS.followUpRead },
      schema: { tags, params: idParams, querystring: courseUsersQuery },
    },
    async (request) => {
      const classroomIds = await services.followUp.access(requireAuth(request), request.params.id);
      const { rows, meta } = await courseUsers(
        request.params.id,
        request.query,
        false,
        classroomIds,
      );
      return ok(
        laravelPaginator(request, await presentRawEnrolments(request, enrolments, rows), meta!),
      );
    },
  );
  // Every enrolment of the course, raw, as an array (kept serialised until a row it shows changes: answers/cache.ts).
  app.get(
    '/course-registered-user/:id/users/all',
    { config: read, schema: { tags, params: idParams, querystring: courseUsersQuery } },
    (request, reply) =>
      sendKept(request, reply, services.answers, request.params.id, 'enrolments.course'),
  );
  // Gestión de estudiantes / Conformar aulas: the course with its enrolments in `relationships.collection.data`.
  app.get(
    '/courses/:id/registered-users',
    { config: read, schema: { tags, params: idParams, querystring: courseUsersQuery } },
    async (request) => {
      const { rows } = await courseUsers(request.params.id, request.query, true);
      const path = `/api/v2/courses/${request.params.id}/registered-users`;
      const items = rows.map((e) => presentEnrolment(request, e));
      return ok(
        resource(
          request,
          path,
          { id: request.params.id },
          relationship(request, path, items.length, items),
        ),
      );
    },
  );

  // The enrolment of a student in a course, raw, or null (HTTP 200, body statusCode 204) when not enrolled.
  app.get(
    '/course-registered-user/:user/courses/:course',
    {
      config: read,
      schema: { tags, params: z.object({ user: idParams.shape.id, course: idParams.shape.id }) },
    },
    async (request) => {
      const row = await enrolments.findOfStudentInCourse(
        request.params.user,
        request.params.course,
      );
      if (!row) return failure(204, STUDENT_MSG.notEnrolled);
      return ok((await presentRawEnrolments(request, enrolments, [row]))[0]);
    },
  );

  // Crear ticket individual: students found by name or RUT in the active courses, the shown course's first.
  app.get(
    '/course-registered-users/find',
    {
      config: { access: PERMISSIONS.ticketWork },
      schema: { tags, querystring: studentFindQuerySchema },
    },
    async (request) => ok(await enrolments.find(request.query.search, request.query.course_id)),
  );

  // A student's enrolments: an array of enrolment resources.
  app.get(
    '/course-users/:id/courses',
    { config: read, schema: { tags, params: idParams } },
    async (request) => {
      const { rows } = await enrolments.list({ studentId: request.params.id });
      return ok(rows.map((e) => presentEnrolment(request, e)));
    },
  );

  // Every enrolment (the original stored this answer after a classroom edit and read nothing of it): a page, as an array.
  app.get(
    '/course-registered-user',
    { config: read, schema: { tags, querystring: listQuery } },
    async (request) => {
      const { rows } = await enrolments.list({
        ...request.query,
        page: request.query.page ?? 1,
        perPage: request.query.perPage ?? 50,
      });
      return ok(rows.map((e) => presentEnrolment(request, e)));
    },
  );

  app.get(
    '/course-registered-users/:id/count',
    { config: read, schema: { tags, params: idParams } },
    async (request) =>
      ok({ id: request.params.id, count: await enrolments.count(request.params.id) }),
  );

  // A display string (dd/mm/yyyy HH:MM:SS, Chile), as the original: "Última sincronización el {…}".
  // Asked on every course selection, Seguimiento included (tutors too): a date is no secret.
  app.get(
    '/course-registered-users/:id/last-sync',
    { config: { access: PERMISSIONS.followUpRead }, schema: { tags, params: idParams } },
    async (request) => {
      const last = await enrolments.lastSync(request.params.id);
      return ok(last ? lastSyncText(last) : 'Nunca');
    },
  );

  // One enrolment's Moodle results, at the top level (the original's answer, no envelope).
  app.get(
    '/activity-course-registered-user/:id',
    { config: read, schema: { tags, params: idParams } },
    async (request) => {
      const row = await enrolments.get(request.params.id);
      const results = (await enrolments.activityResults([row.id])).get(row.id) ?? [];
      return { success: true, activityCourseRegisteredUser: results.map(rawActivityResult) };
    },
  );

  app.get(
    '/courses/:id/classrooms',
    { config: read, schema: { tags, params: idParams } },
    async (request) => ok(await enrolments.perClassroom(request.params.id)),
  );

  app.get(
    '/download-file/excel/:id/:name',
    {
      config: cfg,
      schema: { tags, params: z.object({ id: idParams.shape.id, name: z.string().max(200) }) },
    },
    async (request, reply) => {
      const course = await services.courses.get(request.params.id);
      const rows = await enrolments.roster(request.params.id);
      const header = [
        'RUT',
        'NOMBRE',
        'APELLIDO PATERNO',
        'APELLIDO MATERNO',
        'CORREO ELECTRÓNICO',
        'AULA',
        'ROL',
        'CURSO',
      ];
      const data = rows.map((r) => [
        r.rut,
        r.name,
        r.last_name,
        r.mother_last_name,
        r.email,
        r.classroom_description ?? 'Sin aula',
        r.profile_description,
        course.description,
      ]);
      return sendFile(
        reply,
        `matricula-${fileSlug(course.description)}-${fileDay()}.xlsx`,
        await writeXlsx(
          'Matrícula',
          header,
          data,
          `MATRÍCULA CURSO ${course.description.toUpperCase()}`,
        ),
      );
    },
  );
};
