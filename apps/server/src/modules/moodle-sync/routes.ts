import {
  MOODLE_MSG,
  MOODLE_MSG_MORE,
  MSG,
  moodleCoursesQuerySchema,
  moodleImportSchema,
  moodlePushRequestSchema,
  moodleSettingsSchema,
  moodleSyncRequestSchema,
  moodleTestSchema,
  parseIdList,
  PERMISSIONS,
  TICKET_MSG,
  type MoodleSyncResult,
} from '@sigaf/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/auth.js';
import { collection, failure, ok, resource } from '../../http/envelope.js';
import { notFound } from '../../http/errors.js';
import { idParams } from '../../http/params.js';
import type { Services } from '../../services.js';
import type { MoodleSyncRepository } from './repository.js';
import { statusFor } from './status.js';

type StudentResult = Awaited<ReturnType<MoodleSyncRepository['studentResults']>>[number];

export function presentStudentResult(request: FastifyRequest, r: StudentResult) {
  return resource(request, `/api/v2/activities/${r.activity_id}`, {
    id: r.id,
    activity: {
      id: r.activity_id,
      description: r.description,
      type: r.type,
      weighing: Number(r.weighing),
      idActivityMoodle: r.id_activity_moodle,
      section:
        r.section_key || r.section_description
          ? { description: r.section_description, key: r.section_key }
          : null,
    },
    statusMoodle: r.status_moodle,
    qualificationMoodle: r.qualification_moodle,
    completionState: r.completion_state,
    grade: r.grade === null ? null : Number(r.grade),
    updatedAt: new Date(r.updated_at).toISOString(),
  });
}

const id = idParams.shape.id;

/** 201 when someone was found in Moodle; 204 inside the envelope (HTTP 200) otherwise. */
function synced(
  reply: FastifyReply,
  found: boolean,
  data: unknown,
  message: string = MOODLE_MSG.syncOk,
) {
  if (!found) return ok(data, MOODLE_MSG.userNotInMoodle, 204);
  reply.status(201);
  return ok(data, message, 201);
}

/**
 * The user syncs of Gestión de estudiantes: the original client branches on the HTTP status only
 * (docs/development/original-api.md#moodle-sync): 201 with the envelope when someone was found in Moodle, a real 204
 * (no body) when nobody was. A 200 would leave its overlay up.
 */
function userSynced(reply: FastifyReply, found: boolean, data: unknown) {
  if (!found) return reply.status(204).send();
  return reply.status(201).send(ok(data, MOODLE_MSG.syncOk, 201));
}

/** A JSON list of Moodle activity ids, as the original client puts it in the path (`[]` allowed). */
const moodleIdList = z
  .string()
  .max(4000)
  .transform((v, ctx) => {
    if (v.trim() === '[]') return [] as number[];
    const ids = parseIdList(v);
    if (!ids) {
      ctx.addIssue({ code: 'custom', message: TICKET_MSG.invalidList });
      return z.NEVER;
    }
    return ids;
  });

/**
 * Moodle settings per platform, and synchronisation: the queued full sync of a course with its
 * status, and the original's synchronous partial syncs (people, activities, one student).
 */
export const moodleSyncRoutes: FastifyPluginAsync<{ services: Services }> = async (
  instance,
  { services },
) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const moodle = services.moodleSync;
  const write = { access: PERMISSIONS.configurationWrite };
  const read = { access: PERMISSIONS.ticketWork };
  const tags = ['moodle'];

  app.get(
    '/platforms/:id/moodle',
    { config: write, schema: { tags, params: idParams } },
    async (request) => ok(await services.moodleConnection.settings(request.params.id)),
  );

  app.put(
    '/platforms/:id/moodle',
    { config: write, schema: { tags, params: idParams, body: moodleSettingsSchema } },
    async (request) =>
      ok(
        await services.moodleConnection.saveSettings(
          request.params.id,
          request.body,
          requireAuth(request),
          request.ip,
        ),
        MOODLE_MSG.saved,
      ),
  );

  app.post(
    '/platforms/:id/moodle/test',
    { config: write, schema: { tags, params: idParams, body: moodleTestSchema } },
    async (request) => {
      const report = await services.moodleConnection.testConnection(
        request.params.id,
        request.body,
      );
      return ok(
        report,
        report.ok
          ? MOODLE_MSG.connectionOk
          : MOODLE_MSG.connectionMissing(report.missingFunctions.length),
      );
    },
  );

  const courseParams = z.object({ courseId: id });

  // Browsing the platform's Moodle, and importing (linking) a course by its Moodle id.
  app.get(
    '/platforms/:id/moodle/categories',
    { config: write, schema: { tags, params: idParams } },
    async (request) =>
      ok({ categories: await services.moodleImport.categories(request.params.id) }),
  );

  app.get(
    '/platforms/:id/moodle/courses',
    { config: write, schema: { tags, params: idParams, querystring: moodleCoursesQuerySchema } },
    async (request) =>
      ok({
        courses: await services.moodleImport.courses(request.params.id, request.query.category),
      }),
  );

  app.post(
    '/platforms/:id/moodle/import',
    { config: write, schema: { tags, params: idParams, body: moodleImportSchema } },
    async (request, reply) => {
      const result = await services.moodleImport.importCourse(
        request.params.id,
        request.body.moodleCourseId,
        requireAuth(request),
        request.ip,
      );
      const created = result.course.created;
      if (created) reply.status(201);
      return ok(
        result,
        created ? MOODLE_MSG_MORE.importOk : MOODLE_MSG_MORE.importLinked,
        created ? 201 : 200,
      );
    },
  );

  // Push direction: create missing students in Moodle, enrol them, mirror classrooms as groups (a job).
  app.post(
    '/sync/courses/:courseId/push',
    { config: write, schema: { tags, params: courseParams, body: moodlePushRequestSchema } },
    async (request, reply) => {
      const job = await services.moodlePush.enqueue(
        request.params.courseId,
        request.body,
        requireAuth(request),
        request.ip,
      );
      reply.status(202);
      return ok(
        { ...job, status: `/api/v2/sync/courses/${request.params.courseId}/push/status` },
        job.created ? MOODLE_MSG_MORE.pushQueued : MOODLE_MSG_MORE.pushRunning,
        202,
      );
    },
  );

  app.get(
    '/sync/courses/:courseId/push/status',
    { config: write, schema: { tags, params: courseParams } },
    async (request) => {
      const status = await services.moodlePush.status(request.params.courseId);
      return ok(status, status.state ? MSG.ok : MOODLE_MSG_MORE.pushNeverRun);
    },
  );

  // A full sync of a course: queued (202, progress in the status), or run in this request with {"wait": true}.
  app.post(
    '/sync/courses/:courseId',
    { config: write, schema: { tags, params: courseParams, body: moodleSyncRequestSchema } },
    async (request, reply) => {
      const { courseId } = request.params;
      const actor = requireAuth(request);
      if (request.body.wait)
        return ok(
          await moodle.syncNow(courseId, { scope: 'full' }, actor, request.ip),
          MOODLE_MSG.syncOk,
        );
      const job = await moodle.enqueue(courseId, actor, request.ip);
      reply.status(202);
      return ok(
        { ...job, status: `/api/v2/sync/courses/${courseId}/status` },
        job.created ? MOODLE_MSG.syncQueued : MOODLE_MSG.syncRunning,
        202,
      );
    },
  );

  // Operators read whether a course is synchronised and its counts; the lists of people are the administrators'.
  app.get(
    '/sync/courses/:courseId/status',
    { config: read, schema: { tags, params: courseParams } },
    async (request) => {
      const status = statusFor(
        requireAuth(request).role,
        await moodle.status(request.params.courseId),
      );
      return ok(status, status.state ? MSG.ok : MOODLE_MSG.neverSynced);
    },
  );

  const moodleCourseParams = z.object({ courseMoodleId: id });

  // Original: "Usuarios" sync of Gestión de estudiantes, by the Moodle course id.
  app.get(
    '/sync/course-users/:courseMoodleId/users',
    { config: write, schema: { tags, params: moodleCourseParams } },
    async (request, reply) => {
      const actor = requireAuth(request);
      const results: MoodleSyncResult[] = [];
      for (const courseId of await moodle.coursesOfMoodle(request.params.courseMoodleId))
        results.push(await moodle.syncNow(courseId, { scope: 'users' }, actor, request.ip));
      return userSynced(
        reply,
        results.some((r) => r.found > 0),
        { results },
      );
    },
  );

  // Original: row "Sincronizar" of Gestión de estudiantes, first step: one person's Moodle data by RUT.
  app.get(
    '/sync/course-users/:courseMoodleId/users/:rut',
    {
      config: write,
      schema: { tags, params: moodleCourseParams.extend({ rut: z.string().max(30) }) },
    },
    async (request, reply) => {
      const actor = requireAuth(request);
      const courseIds = await moodle.coursesOfMoodle(request.params.courseMoodleId);
      const studentId = await moodle.studentByRut(request.params.rut);
      const results: MoodleSyncResult[] = [];
      for (const courseId of courseIds) {
        const enrolment = await moodle.findEnrolment(courseId, studentId);
        if (enrolment)
          results.push(
            await moodle.syncNow(
              courseId,
              { scope: 'users', enrolmentId: enrolment.id },
              actor,
              request.ip,
            ),
          );
      }
      if (!results.length) throw notFound(MOODLE_MSG.notEnrolled);
      return userSynced(
        reply,
        results.some((r) => r.found > 0),
        { results, studentId },
      );
    },
  );

  // Original: "Actividades" sync of the Actividades screen, by the Moodle course id.
  app.get(
    '/sync/course/:courseMoodleId/activities',
    { config: write, schema: { tags, params: moodleCourseParams } },
    async (request, reply) => {
      const actor = requireAuth(request);
      const results: MoodleSyncResult[] = [];
      for (const courseId of await moodle.coursesOfMoodle(request.params.courseMoodleId))
        results.push(await moodle.syncNow(courseId, { scope: 'activities' }, actor, request.ip));
      reply.status(201);
      return ok({ results }, MOODLE_MSG.syncOk, 201);
    },
  );

  // Original: one student's activities in a course (row "Sincronizar" of Gestión de estudiantes).
  app.get(
    '/sync/users/:studentId/courses/:courseId/activities',
    { config: write, schema: { tags, params: z.object({ studentId: id, courseId: id }) } },
    async (request, reply) => {
      const { studentId, courseId } = request.params;
      const enrolment = await moodle.enrolment(courseId, studentId);
      const result = await moodle.syncNow(
        courseId,
        { scope: 'student', enrolmentId: enrolment.id },
        requireAuth(request),
        request.ip,
      );
      const rows = await moodle.studentResults(enrolment.id);
      const activities = collection(
        request,
        request.url.split('?')[0]!,
        'activityCourseUsers',
        rows.map((r) => presentStudentResult(request, r)),
      );
      return synced(
        reply,
        result.found > 0,
        { result, activities },
        `${MOODLE_MSG.syncOk} ${enrolment.name} ${enrolment.last_name}`,
      );
    },
  );

  // Original: "Actividades" of Gestión de estudiantes, one call per student: that student's
  // results on the listed (contributory) activities, read from Moodle. The student is named by
  // their Moodle user id, which the original client sends as the literal `null` for a student
  // never matched in Moodle: that answer, like a student Moodle does not know, is HTTP 200 with
  // `success: false` and statusCode 204, since the client reads `success` and fails on a non-2xx.
  app.get(
    '/sync/course-users/:courseMoodleId/users/:userMoodleId/activities/:list',
    {
      config: write,
      schema: {
        tags,
        params: moodleCourseParams.extend({ userMoodleId: z.string().max(20), list: moodleIdList }),
      },
    },
    async (request) => {
      const raw = request.params.userMoodleId;
      const userMoodleId =
        /^\d{1,10}$/.test(raw) && Number(raw) > 0 && Number(raw) <= 2_147_483_647
          ? Number(raw)
          : null;
      const r = await moodle.syncStudentActivities(
        request.params.courseMoodleId,
        userMoodleId,
        request.params.list,
        requireAuth(request),
        request.ip,
      );
      if (!r.found)
        return failure(204, MOODLE_MSG.userNotInMoodle, { results: r.results, activities: [] });
      const activities = collection(
        request,
        request.url.split('?')[0]!,
        'activityCourseUsers',
        r.rows.map((row) => presentStudentResult(request, row)),
      );
      return ok(
        { results: r.results, activities },
        `${MOODLE_MSG.syncOk} ${r.student!.name} ${r.student!.last_name}`,
      );
    },
  );
};
