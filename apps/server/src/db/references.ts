/**
 * References kept by statement triggers instead of foreign keys (migration 0026: a course's first
 * Moodle synchronisation writes half a million results, which a foreign key would check one by
 * one). What reads foreign keys from the catalogue (the backup's table order, the large data
 * set's final check) reads these too.
 */
export const TRIGGER_REFERENCES = [
  { child: 'activity_course_users', column: 'activity_id', parent: 'activities', name: 'activity_course_users_activity_id_fkey' },
  { child: 'activity_course_users', column: 'course_registered_user_id', parent: 'course_registered_users', name: 'activity_course_users_course_registered_user_id_fkey' },
] as const;
