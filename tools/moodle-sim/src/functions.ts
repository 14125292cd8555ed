/**
 * The web-service functions of the simulator: parameter descriptions (validated like Moodle's
 * external API) and implementations whose answers have Moodle's fields, order and types
 * (compared with recorded answers of a real Moodle 5.2 in the contract test).
 */
import { multiple, OPTIONAL, single, value } from './params.js';
import type { FunctionDef } from './ws/context.js';
import { siteInfo, getCategories, getCourses, getCoursesByField } from './ws/courses.js';
import { getEnrolledUsers, getUsersByField, createUsers, enrolUsers } from './ws/users.js';
import { getContents, activitiesCompletion, courseCompletion } from './ws/contents.js';
import { gradeItems } from './ws/grades.js';
import { getCourseGroups, createGroups, addGroupMembers, getGroupMembers } from './ws/groups.js';
export type { CallContext } from './ws/context.js';

// --- The registry --------------------------------------------------------------------------------

const idValue = value('int');
const nameValue = multiple(single({ name: value('alphanumext'), value: value('raw') }), []);

export const FUNCTIONS: Record<string, FunctionDef> = {
  core_webservice_get_site_info: {
    params: single({ serviceshortnames: multiple(value('text'), []) }),
    run: siteInfo,
  },
  core_course_get_categories: {
    params: single({
      criteria: multiple(single({ key: value('alpha'), value: value('raw') }), []),
      addsubcategories: value('bool', true),
    }),
    run: getCategories,
  },
  core_course_get_courses: {
    params: single({ options: single({ ids: multiple(value('int'), OPTIONAL) }, {}) }),
    run: getCourses,
  },
  core_course_get_courses_by_field: {
    params: single({ field: value('alpha', ''), value: value('raw', '') }),
    run: getCoursesByField,
  },
  core_enrol_get_enrolled_users: {
    params: single({ courseid: idValue, options: nameValue }),
    run: getEnrolledUsers,
  },
  core_course_get_contents: {
    params: single({
      courseid: idValue,
      options: multiple(single({ name: value('alpha'), value: value('raw') }), []),
    }),
    run: getContents,
  },
  core_completion_get_activities_completion_status: {
    params: single({ courseid: idValue, userid: idValue }),
    run: activitiesCompletion,
  },
  core_completion_get_course_completion_status: {
    params: single({ courseid: idValue, userid: idValue }),
    run: courseCompletion,
  },
  gradereport_user_get_grade_items: {
    params: single({ courseid: idValue, userid: value('int', 0), groupid: value('int', 0) }),
    run: gradeItems,
  },
  core_user_get_users_by_field: {
    params: single({ field: value('alpha'), values: multiple(value('raw')) }),
    run: getUsersByField,
  },
  core_user_create_users: {
    params: single({
      users: multiple(
        single({
          createpassword: value('bool', OPTIONAL),
          username: value('username'),
          auth: value('alphanumext', 'manual'),
          password: value('raw', OPTIONAL),
          firstname: value('notags'),
          lastname: value('notags'),
          email: value('raw'),
          maildisplay: value('int', OPTIONAL),
          city: value('notags', OPTIONAL),
          country: value('alpha', OPTIONAL),
          timezone: value('raw', OPTIONAL),
          description: value('raw', OPTIONAL),
          firstnamephonetic: value('notags', OPTIONAL),
          lastnamephonetic: value('notags', OPTIONAL),
          middlename: value('notags', OPTIONAL),
          alternatename: value('notags', OPTIONAL),
          interests: value('text', OPTIONAL),
          idnumber: value('raw', ''),
          institution: value('text', OPTIONAL),
          department: value('text', OPTIONAL),
          phone1: value('notags', OPTIONAL),
          phone2: value('notags', OPTIONAL),
          address: value('text', OPTIONAL),
          lang: value('raw', OPTIONAL),
          calendartype: value('raw', OPTIONAL),
          theme: value('raw', OPTIONAL),
          mailformat: value('int', OPTIONAL),
          customfields: multiple(single({ type: value('alpha'), value: value('raw') }), OPTIONAL),
          preferences: multiple(single({ type: value('raw'), value: value('raw') }), OPTIONAL),
        }),
      ),
    }),
    run: createUsers,
  },
  enrol_manual_enrol_users: {
    params: single({
      enrolments: multiple(
        single({
          roleid: idValue,
          userid: idValue,
          courseid: idValue,
          timestart: value('int', OPTIONAL),
          timeend: value('int', OPTIONAL),
          suspend: value('int', OPTIONAL),
        }),
      ),
    }),
    run: enrolUsers,
  },
  core_group_get_course_groups: { params: single({ courseid: idValue }), run: getCourseGroups },
  core_group_create_groups: {
    params: single({
      groups: multiple(
        single({
          courseid: idValue,
          name: value('text'),
          description: value('raw'),
          descriptionformat: value('int', 1),
          enrolmentkey: value('raw', OPTIONAL),
          idnumber: value('raw', OPTIONAL),
          visibility: value('int', OPTIONAL),
          participation: value('bool', OPTIONAL),
        }),
      ),
    }),
    run: createGroups,
  },
  core_group_add_group_members: {
    params: single({ members: multiple(single({ groupid: idValue, userid: idValue })) }),
    run: addGroupMembers,
  },
  core_group_get_group_members: {
    params: single({ groupids: multiple(value('int')) }),
    run: getGroupMembers,
  },
};

/** The functions a full-access token's service holds, in the order Moodle lists them (site info last). */
export const ALL_FUNCTIONS = [
  ...Object.keys(FUNCTIONS).filter((f) => f !== 'core_webservice_get_site_info'),
  'core_webservice_get_site_info',
];
