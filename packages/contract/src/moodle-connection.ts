/**
 * What a Moodle connection must allow and what its test reports: the web-service functions and
 * the capabilities of the token's user (docs/operations/moodle.md#what-the-tokens-user-needs).
 */

/** The web-service functions a Moodle connection must allow for SIGAF's sync. */
export const MOODLE_SYNC_FUNCTIONS = [
  'core_webservice_get_site_info',
  'core_course_get_contents',
  'core_enrol_get_enrolled_users',
  'gradereport_user_get_grade_items',
  'core_completion_get_activities_completion_status',
] as const;

/** Functions SIGAF may use besides the sync (course lookup, users, groups). */
export const MOODLE_OPTIONAL_FUNCTIONS = [
  'core_course_get_categories',
  'core_course_get_courses',
  'core_course_get_courses_by_field',
  'core_completion_get_course_completion_status',
  'core_user_get_users_by_field',
  'core_user_create_users',
  'enrol_manual_enrol_users',
  'core_group_get_course_groups',
  'core_group_create_groups',
  'core_group_add_group_members',
  'core_group_get_group_members',
] as const;

/**
 * The Moodle capabilities the token's user needs, in the order "Probar conexión" lists them.
 * `use` names what SIGAF needs it for (the client translates it); `kind`: needed by every sync,
 * optional for a sync (without it a sync goes on, knowing less), or needed to push students.
 */
export const MOODLE_CAPABILITIES = [
  { capability: 'moodle/course:viewparticipants', use: 'participants', kind: 'sync' },
  { capability: 'moodle/grade:viewall', use: 'grades', kind: 'sync' },
  { capability: 'report/progress:view', use: 'completion', kind: 'sync' },
  { capability: 'moodle/user:viewalldetails', use: 'identity', kind: 'sync' },
  { capability: 'moodle/course:viewhiddenactivities', use: 'hiddenActivities', kind: 'sync' },
  { capability: 'moodle/user:update', use: 'suspendedAccounts', kind: 'optional' },
  { capability: 'moodle/user:create', use: 'createUsers', kind: 'push' },
  { capability: 'enrol/manual:enrol', use: 'enrol', kind: 'push' },
  { capability: 'moodle/course:managegroups', use: 'groups', kind: 'push' },
] as const;

export type MoodleCapabilityName = (typeof MOODLE_CAPABILITIES)[number]['capability'];
export type MoodleCapabilityUse = (typeof MOODLE_CAPABILITIES)[number]['use'];
export type MoodleCapabilityKind = (typeof MOODLE_CAPABILITIES)[number]['kind'];
/** `unchecked`: no web-service function tells, and no effect could be seen (the reason says why). */
export const MOODLE_CAPABILITY_STATES = ['ok', 'missing', 'unchecked'] as const;
export type MoodleCapabilityState = (typeof MOODLE_CAPABILITY_STATES)[number];

/**
 * Why a capability has its state (the client translates it; `detail` fills it in):
 * ok — `siteAdmin` (a site administrator has every capability), `answered` (Moodle answered the
 * call that needs it, for a participant other than the token's user), `identityShown` (usernames
 * came back), `hiddenShown` (the course contents include a hidden activity), `suspendedShown`
 * (a user's account state came back);
 * missing — `denied` (Moodle refused the call; `detail`: its errorcode), `identityHidden`
 * (neither usernames nor ID numbers), `identityPartial` (ID numbers but no usernames), `hiddenMissing` (`detail`: how many graded activities the contents leave out),
 * `suspendedHidden` (no account state in Moodle's answer);
 * unchecked — `noLinkedCourse`, `courseNotAccessible` (`detail`: Moodle's error), `noParticipants`
 * (nobody but the token's user in the course), `functionNotAllowed` (`detail`: the function the
 * check needs), `noHiddenActivity` (the course has no hidden graded activity to tell by),
 * `notReached` (an earlier check failed), `pushNotChecked` (checking would change Moodle),
 * `moodleError` (`detail`: Moodle's error).
 */
export const MOODLE_CAPABILITY_REASONS = [
  'siteAdmin',
  'answered',
  'identityShown',
  'hiddenShown',
  'suspendedShown',
  'denied',
  'identityHidden',
  'identityPartial',
  'hiddenMissing',
  'suspendedHidden',
  'noLinkedCourse',
  'courseNotAccessible',
  'noParticipants',
  'functionNotAllowed',
  'noHiddenActivity',
  'notReached',
  'pushNotChecked',
  'moodleError',
] as const;
export type MoodleCapabilityReason = (typeof MOODLE_CAPABILITY_REASONS)[number];

/** One capability as the connection test found it. */
export interface MoodleCapabilityCheck {
  capability: MoodleCapabilityName;
  use: MoodleCapabilityUse;
  kind: MoodleCapabilityKind;
  state: MoodleCapabilityState;
  reason: MoodleCapabilityReason;
  detail: string | null;
}

/** Answer of POST /api/v2/platforms/{id}/moodle/test. */
export interface MoodleConnectionReport {
  ok: boolean;
  siteName: string;
  siteUrl: string;
  release: string | null;
  version: string | null;
  username: string;
  userIsSiteAdmin: boolean | null;
  missingFunctions: string[];
  missingOptionalFunctions: string[];
  /** Set when participants come back without username and ID number (the token's user lacks a capability). */
  identityWarning: string | null;
  /** Set when graded activities of a linked course are missing from its contents (the token's user cannot see hidden activities). */
  hiddenActivitiesWarning: string | null;
  /** Every capability of MOODLE_CAPABILITIES, in that order. */
  capabilities: MoodleCapabilityCheck[];
  /** The Moodle id of the linked course the capabilities were checked on (null: none linked). */
  checkedMoodleCourseId: number | null;
}
