import { z } from 'zod';
import {
  legacyEnvelope,
  legacyHref,
  legacyId,
  legacyRelationshipCollection,
  legacyResource,
} from './common.js';
import { legacyRawStudent, legacyRut } from './registered-users.js';

/**
 * docs/development/original-api.md §2.14 Enrolments (course-registered users): raw enrolments with the
 * "mapUser fields", the Seguimiento paginator, the classroom PUTs and the small lookups (also
 * §1.4, §1.6, §1.8, §5.8, §5.9, §5.14).
 */

const idDescription = z.looseObject({ id: legacyId, description: z.string() });

/** One `activity_course_users[]` element (utils/constants.js:38-126; SigafCardDataStudent.vue:66-178). */
export const legacyEnrolmentActivityResult = z.looseObject({
  status_moodle: z.string(),
  qualification_moodle: z.string(),
  activity: z.looseObject({
    description: z.string(),
    type: z.string(),
    // `!== 0` / `> 0`: a number.
    weighing: z.number(),
    id_activity_moodle: legacyId.nullable(),
    section_id: legacyId.nullable(),
    section: z.looseObject({ description: z.string() }),
  }),
});

/** §2.14 "mapUser fields": a raw enrolment as mapUser, FollowUp and the massive dialog read it. */
export const legacyRawEnrolment = z.looseObject({
  id: legacyId,
  // Compared with `=== 0` (SigafCreateSingleTicket.vue:641).
  is_sincronized: z.union([z.literal(0), z.literal(1)]),
  // Parsed with Number.parseInt and compared with classroom.id (SigafCreateMultipleTicket.vue:764-778).
  classroom_id: legacyId.nullable(),
  last_access_registered_moodle: z.string().nullable(),
  registered_user: legacyRawStudent,
  // Card headline `classroom.description`: never null.
  classroom: z.looseObject({ id: legacyId.nullable(), description: z.string() }),
  profile: z.looseObject({ description: z.string() }),
  activity_course_users: z.array(legacyEnrolmentActivityResult),
});

/** A Laravel paginator (`paginate()`), as Seguimiento pages through it (views/FollowUp.vue:405-443). */
export const legacyLaravelPaginator = <I extends z.ZodTypeAny>(item: I) =>
  z.looseObject({
    current_page: z.number().int().min(1),
    data: z.array(item),
    total: z.number().int().min(0),
    per_page: z.number().int().min(1),
    last_page: z.number().int().min(1),
    next_page_url: legacyHref.nullable(),
  });

/** §2.14 GET /api/v2/course-registered-user/{courseId}/users?page=N: the paginator of raw enrolments (§5.9). */
export const getCourseRegisteredUserUsersPage = legacyEnvelope(
  legacyLaravelPaginator(legacyRawEnrolment),
).extend({ success: z.literal(true) });

/** §2.14 GET /api/v2/course-registered-user/{courseId}/users/all: `_data` an array of raw enrolments. */
export const getCourseRegisteredUserUsersAll = legacyEnvelope(z.array(legacyRawEnrolment)).extend({
  success: z.literal(true),
});

/** §2.14 GET /api/v2/course-registered-user/{registeredUserId}/courses/{courseId}, enrolled: the raw enrolment (§5.8). */
export const getCourseRegisteredUserCourseEnrolled = legacyEnvelope(legacyRawEnrolment);

/** §2.14 The same, not enrolled: HTTP 200 and `_data: null` ("El alumnno no pertenece a este curso."). */
export const getCourseRegisteredUserCourseNotEnrolled = legacyEnvelope(z.null());

/** §2.14 GET /api/v2/course-registered-users/{courseId}/count: `_data.id` (the course) and `_data.count` (Ticket.vue:428-430). */
export const getCourseRegisteredUsersCount = legacyEnvelope(
  z.looseObject({ id: legacyId, count: z.number().int().min(0) }),
);

/** §2.14 GET /api/v2/course-registered-users/{courseId}/last-sync: `_data` a display string (FollowUp.vue:16). */
export const getCourseRegisteredUsersLastSync = legacyEnvelope(z.string().min(1));

/** §2.14 GET /api/v2/course-users/{registeredUserId}/courses: an array of enrolment resources with `properties.course.id` (LoadStudent.vue:626-632). */
export const getCourseUsersCourses = legacyEnvelope(
  z.array(legacyResource(z.looseObject({ course: z.looseObject({ id: legacyId }) }))),
).extend({ success: z.literal(true) });

/** §2.14 GET /api/v2/course-registered-user: `success` and an array `_data` (stored, not read). */
export const getCourseRegisteredUserIndex = legacyEnvelope(z.array(z.unknown())).extend({
  success: z.literal(true),
});

/**
 * The enrolment row of Gestión de estudiantes / Conformar aulas (course.js:80-103): the
 * `properties` of a `/courses/{id}/registered-users` item, and what the massive classroom PUT
 * answers for each row.
 */
export const legacyCourseEnrolmentRow = z.looseObject({
  id: legacyId,
  registeredUser: z.looseObject({
    id: legacyId,
    rut: legacyRut,
    rut_registered_moodle: z.string().nullable(),
    name: z.string(),
    last_name: z.string(),
    mother_last_name: z.string(),
    region: z.string().nullable(),
    id_registered_moodle: legacyId.nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    mobile: z.string().nullable(),
    address: z.string().nullable(),
    city: z.string().nullable(),
    rbd_school: z.string().nullable(),
    name_school: z.string().nullable(),
    city_school: z.string().nullable(),
    region_school: z.string().nullable(),
    phone_school: z.string().nullable(),
  }),
  classroom: z.looseObject({ id: legacyId.nullable(), description: z.string() }),
  profile: idDescription,
  course: z.looseObject({ id: legacyId, id_course_moodle: legacyId.nullable() }),
  lastAccessRegisteredMoodle: z.string().nullable(),
});

/** §2.14 / §2.8 GET /api/v2/courses/{courseId}/registered-users: `_data.relationships.collection.data[].properties`. */
export const getCourseRegisteredUsers = legacyEnvelope(
  legacyRelationshipCollection(legacyResource(legacyCourseEnrolmentRow)),
).extend({ success: z.literal(true) });

/** §2.14 PUT /api/v2/course-registered-user/classroom/{enrolmentId}: HTTP 200 and `_data.properties` (courseRegisteredUser.js:116). */
export const putCourseRegisteredUserClassroom = legacyEnvelope(
  z.looseObject({ properties: legacyCourseEnrolmentRow }),
).extend({ success: z.literal(true) });

/** §2.14 PUT /api/v2/course-registered-user/classroom/{classroomId}/users: HTTP 200, `_data` an array of rows replacing each row's `properties` (§5.14). */
export const putCourseRegisteredUserClassroomUsers = legacyEnvelope(
  z.array(legacyCourseEnrolmentRow),
).extend({ success: z.literal(true) });

/** §2.14 POST /api/v2/course-registered-users/view-store: `success`. */
export const postCourseRegisteredUserViewStore = legacyEnvelope(z.unknown()).extend({
  success: z.literal(true),
});

/** §2.14 DELETE /api/v2/course-registered-users/{enrolmentId}: HTTP 200, `success`. */
export const deleteCourseRegisteredUser = legacyEnvelope(z.unknown()).extend({
  success: z.literal(true),
});

/** §2.14 GET /api/v2/activity-course-registered-user/{enrolmentId}: top-level `activityCourseRegisteredUser[]` (ManagementStudent.vue:1011-1028). */
export const getActivityCourseRegisteredUser = z.looseObject({
  activityCourseRegisteredUser: z.array(
    z.looseObject({
      status_moodle: z.string(),
      activity: z.looseObject({ description: z.string() }),
    }),
  ),
});
