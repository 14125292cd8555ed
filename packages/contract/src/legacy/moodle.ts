import { z } from 'zod';
import { legacyRawEnrolment } from './enrolments.js';

/**
 * docs/development/original-api.md §2.15 Moodle synchronisation: the HTTP status of the user syncs, the
 * top-level `success` of the activity syncs, and the pending-activity search (also §2.9, §1.4, §5.13).
 */

/** §2.15 GET /api/v2/sync/course-users/{idCourseMoodle}/users and …/users/{rut}, someone found: HTTP 201 (checked by the caller) with a body. */
export const syncCourseUsersFound = z.looseObject({ success: z.literal(true) });

/** §2.15 The same, nobody found in Moodle: a real HTTP 204, so no body ("El usuario no se encuentra registrado en moodle"). */
export const syncCourseUsersNotInMoodle = z.null();

/** §2.15 GET /api/v2/sync/users/{registeredUserId}/courses/{courseId}/activities: top-level `success` (courseRegisteredUser.js:220). */
export const syncUserCourseActivities = z.looseObject({ success: z.literal(true) });

/** §2.15 GET /api/v2/sync/course-users/{idCourseMoodle}/users/{idRegisteredMoodle}/activities/{idsJson}: top-level `success` (activity.js:199). */
export const syncCourseUserContributeActivities = z.looseObject({ success: z.boolean() });

/** §2.15 GET /api/v2/sync/course/{idCourseMoodle}/activities: top-level `success` (Activity.vue:374). */
export const syncCourseActivities = z.looseObject({ success: z.literal(true) });

/** §2.9 / §5.13 GET /api/v2/activities/{idsJson}/course-registered-users/{courseId}: top-level `usersWithPendingActivities[]` of raw enrolments (SigafCreateMultipleTicket.vue:827). */
export const getActivitiesCourseRegisteredUsers = z.looseObject({
  usersWithPendingActivities: z.array(legacyRawEnrolment),
});
