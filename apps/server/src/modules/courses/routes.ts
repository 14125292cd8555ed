import { FORM_MSG, MOODLE_MSG, MSG, PERMISSIONS, resourceByKey } from '@sigaf/contract';
import { z } from 'zod';
import { requireAuth } from '../../http/auth.js';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { registerCrud } from '../../http/crud.js';
import { collection, ok, relationship, resource } from '../../http/envelope.js';
import { idParams } from '../../http/params.js';
import type { Services } from '../../services.js';
import type { ActivityRow, CourseRow } from './repository.js';
import { COURSE_PASSWORD_MASK } from './service.js';

/** A course as the API shows it: never the mailbox password, only whether one is set. */
export function presentCourse(request: FastifyRequest, c: CourseRow) {
  return resource(
    request,
    `/api/v2/courses/${c.id}`,
    {
      id: c.id,
      description: c.description,
      email: c.email,
      hasPassword: Boolean(c.has_password),
      // The original client shows and sends back `password` (docs/development/original-api.md#courses): never the stored secret, a mask
      // that the update takes as "unchanged" (COURSE_PASSWORD_MASK).
      password: c.has_password ? COURSE_PASSWORD_MASK : '',
      idCourseMoodle: c.id_course_moodle,
      // The original client reads the category as a resource (`category.properties`, §2.8); our client reads `category.id/description`.
      category: {
        id: c.category_id,
        description: c.category_description,
        categoryCode: c.category_code,
        properties: {
          id: c.category_id,
          description: c.category_description,
          categoryCode: c.category_code,
        },
      },
      status: c.status,
      lastSyncAt: c.last_sync_at ? new Date(c.last_sync_at).toISOString() : null,
    },
    relationship(request, `/api/v2/courses/${c.id}/registered-users`, Number(c.enrolments_count)),
  );
}

type ActivityLike = Pick<
  ActivityRow,
  | 'id'
  | 'description'
  | 'type'
  | 'weighing'
  | 'id_activity_moodle'
  | 'section_id'
  | 'course_id'
  | 'section_description'
  | 'section_key'
  | 'removed_at'
  | 'hidden'
  | 'moodle_unseen_at'
  | 'excluded_from_progress'
> &
  Partial<Pick<ActivityRow, 'course_description'>>;

export function presentActivity(request: FastifyRequest, a: ActivityLike) {
  return resource(request, `/api/v2/activities/${a.id}`, {
    id: a.id,
    description: a.description,
    weighing: Number(a.weighing),
    type: a.type,
    idActivityMoodle: a.id_activity_moodle,
    // The original client reads `section.properties` and `course.properties`, never null (§2.9):
    // an activity without a section has the original's placeholder; our client reads `section.id/description`.
    section: a.section_id
      ? {
          id: a.section_id,
          description: a.section_description,
          key: a.section_key,
          properties: { id: a.section_id, description: a.section_description },
        }
      : {
          id: null,
          description: null,
          key: null,
          links: null,
          properties: { id: '', description: '' },
        },
    course: {
      id: a.course_id,
      description: a.course_description ?? null,
      properties: { id: a.course_id, description: a.course_description ?? null },
    },
    /** Deleted in Moodle (kept for history, out of progress): when SIGAF noticed. */
    removedAt: a.removed_at ? new Date(a.removed_at).toISOString() : null,
    hidden: a.hidden,
    /** Missing from Moodle's lists, deleted or hidden (the token cannot see hidden ones): since when. */
    unseenAt: a.moodle_unseen_at ? new Date(a.moodle_unseen_at).toISOString() : null,
    excludedFromProgress: a.excluded_from_progress,
  });
}

export const courseRoutes: FastifyPluginAsync<{ services: Services }> = async (
  app,
  { services },
) => {
  const decl = resourceByKey('course')!;
  registerCrud(app, {
    decl,
    service: services.courses,
    present: presentCourse,
    filters: { category_id: 'categoryId' },
  });
  registerCrud(app, {
    decl: resourceByKey('activity')!,
    service: services.activities,
    present: presentActivity,
    filters: { course_id: 'courseId', section_id: 'sectionId' },
  });

  // Staff leave an activity out of progress and pending counts (a hidden one, say), or bring it back.
  app.put(
    '/activities/:id/progress',
    {
      config: { access: PERMISSIONS.configurationWrite },
      schema: {
        tags: ['courses'],
        params: idParams,
        body: z.object({ excluded: z.boolean({ error: FORM_MSG.option }) }),
      },
    },
    async (request) => {
      const { id } = request.params as { id: number };
      const { excluded } = request.body as { excluded: boolean };
      const row = await services.activities.setExcluded(
        id,
        excluded,
        requireAuth(request),
        request.ip,
      );
      return ok(presentActivity(request, row), MSG.updated);
    },
  );

  // Staff confirm that an activity the sync could not see (deleted or hidden) is deleted in Moodle.
  app.post(
    '/activities/:id/removal',
    {
      config: { access: PERMISSIONS.configurationWrite },
      schema: { tags: ['courses'], params: idParams },
    },
    async (request) => {
      const { id } = request.params as { id: number };
      const row = await services.activities.confirmRemoval(id, requireAuth(request), request.ip);
      return ok(presentActivity(request, row), MOODLE_MSG.removalConfirmed);
    },
  );

  // A course's sections, each with the course's activities in it.
  app.get(
    '/courses/:id/activities',
    { config: { access: decl.read }, schema: { tags: ['courses'], params: idParams } },
    async (request) => {
      const { id } = request.params as { id: number };
      const activities = await services.courses.activities(id);
      const sections = new Map<
        string,
        { id: number | null; description: string; key: string | null; items: ActivityLike[] }
      >();
      for (const a of activities) {
        const k = String(a.section_id);
        if (!sections.has(k))
          sections.set(k, {
            id: a.section_id,
            description: a.section_description ?? 'Sin sección',
            key: a.section_key ?? null,
            items: [],
          });
        sections.get(k)!.items.push(a);
      }
      const items = [...sections.values()].map((s) =>
        resource(
          request,
          `/api/v2/sections/${s.id ?? 0}`,
          { id: s.id, description: s.description, key: s.key },
          {
            ...relationship(request, `/api/v2/courses/${id}/activities`, s.items.length),
            array: s.items.map((a) => presentActivity(request, a)),
          },
        ),
      );
      // The original client reads the activities, each with its section (`description`, never null),
      // from `_data.relationships.collection.data[]` (§2.5); our client reads the sections in `_data.collections[]`.
      const data = activities.map((a) => {
        const item = presentActivity(request, a);
        const section = { id: a.section_id, description: a.section_description ?? 'Sin sección' };
        return {
          ...item,
          properties: { ...item.properties, section: { ...item.properties.section, ...section } },
        };
      });
      const list = collection(request, `/api/v2/courses/${id}/activities`, 'sections', items);
      return ok({
        ...list,
        relationships: { collection: { numberOfElements: data.length, data } },
      });
    },
  );
};
