import { z } from 'zod';

/**
 * Answers of Moodle's web-service functions, as Moodle 4.x and 5.x send them: optional fields
 * may be absent (older sites lack `purpose`, `branded`, `isoverallcomplete`, group `visibility`
 * and `participation`...), some declared fields are `null`. Unknown fields are dropped.
 */

const int = z.number();
const opt = <T extends z.ZodTypeAny>(t: T) => t.optional();
const nul = <T extends z.ZodTypeAny>(t: T) => t.nullable().optional();

export const warningSchema = z.object({
  item: opt(z.string()),
  itemid: opt(int),
  warningcode: z.string(),
  message: z.string(),
});
const warnings = z.array(warningSchema).optional().default([]);

export const errorBodySchema = z.object({
  exception: z.string(),
  errorcode: z.string(),
  message: opt(z.string()),
  debuginfo: opt(z.string()),
});

export const siteInfoSchema = z.object({
  sitename: z.string(),
  username: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  fullname: z.string(),
  lang: opt(z.string()),
  userid: int,
  siteurl: z.string(),
  userpictureurl: opt(z.string()),
  functions: z.array(z.object({ name: z.string(), version: z.string() })),
  downloadfiles: opt(int),
  uploadfiles: opt(int),
  release: opt(z.string()),
  version: opt(z.string()),
  userissiteadmin: opt(z.boolean()),
  siteid: opt(int),
});
export type SiteInfo = z.infer<typeof siteInfoSchema>;

export const categorySchema = z.object({
  id: int,
  name: z.string(),
  idnumber: nul(z.string()),
  description: z.string(),
  descriptionformat: int,
  parent: int,
  sortorder: int,
  coursecount: int,
  visible: opt(int),
  visibleold: opt(int),
  timemodified: opt(int),
  depth: int,
  path: z.string(),
  theme: nul(z.string()),
});
export type MoodleCategory = z.infer<typeof categorySchema>;

const formatOption = z.object({ name: z.string(), value: z.union([z.string(), int]) });

export const courseSchema = z.object({
  id: int,
  shortname: z.string(),
  categoryid: int,
  categorysortorder: opt(int),
  fullname: z.string(),
  displayname: opt(z.string()),
  idnumber: nul(z.string()),
  summary: z.string(),
  summaryformat: int,
  format: z.string(),
  showgrades: opt(int),
  newsitems: opt(int),
  startdate: int,
  enddate: int,
  numsections: opt(int),
  visible: opt(int),
  enablecompletion: opt(int),
  timecreated: opt(int),
  timemodified: opt(int),
  courseformatoptions: opt(z.array(formatOption)),
  showactivitydates: nul(z.boolean()),
  showcompletionconditions: nul(z.boolean()),
});
export type MoodleCourse = z.infer<typeof courseSchema>;

/** core_course_get_courses_by_field: a richer course record. */
export const fieldCourseSchema = z.object({
  id: int,
  fullname: z.string(),
  displayname: z.string(),
  shortname: z.string(),
  courseimage: opt(z.string()),
  categoryid: opt(int),
  categoryname: opt(z.string()),
  sortorder: opt(int),
  summary: z.string(),
  summaryformat: int,
  idnumber: nul(z.string()),
  format: opt(z.string()),
  startdate: opt(int),
  enddate: opt(int),
  visible: opt(int),
  enablecompletion: opt(int),
  enrollmentmethods: opt(z.array(z.string())),
  timecreated: opt(int),
  timemodified: opt(int),
});
export const coursesByFieldSchema = z.object({ courses: z.array(fieldCourseSchema), warnings });
export type MoodleFieldCourse = z.infer<typeof fieldCourseSchema>;

const groupRefSchema = z.object({
  id: int,
  name: z.string(),
  description: nul(z.string()),
  descriptionformat: opt(int),
});
const roleRefSchema = z.object({
  roleid: int,
  name: z.string(),
  shortname: z.string(),
  sortorder: int,
});

/** A user as core_enrol_get_enrolled_users / core_user_get_users_by_field give it. */
export const userSchema = z.object({
  id: int,
  username: opt(z.string()),
  firstname: opt(z.string()),
  lastname: opt(z.string()),
  fullname: z.string(),
  email: opt(z.string()),
  department: opt(z.string()),
  idnumber: opt(z.string()),
  firstaccess: opt(int),
  lastaccess: opt(int),
  auth: opt(z.string()),
  suspended: opt(z.boolean()),
  confirmed: opt(z.boolean()),
  lang: opt(z.string()),
  timezone: opt(z.string()),
  profileimageurlsmall: opt(z.string()),
  profileimageurl: opt(z.string()),
});
export type MoodleUser = z.infer<typeof userSchema>;

export const enrolledUserSchema = userSchema.extend({
  lastcourseaccess: nul(int),
  groups: opt(z.array(groupRefSchema)),
  roles: opt(z.array(roleRefSchema)),
  enrolledcourses: opt(z.array(z.object({ id: int, fullname: z.string(), shortname: z.string() }))),
});
export type MoodleEnrolledUser = z.infer<typeof enrolledUserSchema>;

const completionDetailSchema = z.object({
  rulename: z.string(),
  rulevalue: z.object({ status: int, description: z.string() }),
});

/** One user's completion of a course module (course contents' completiondata, completion status). */
const completionFields = {
  state: int,
  timecompleted: int,
  overrideby: nul(int),
  valueused: opt(z.boolean()),
  hascompletion: opt(z.boolean()),
  isautomatic: opt(z.boolean()),
  istrackeduser: opt(z.boolean()),
  uservisible: opt(z.boolean()),
  details: opt(z.array(completionDetailSchema)),
  isoverallcomplete: opt(z.boolean()),
};

export const moduleSchema = z.object({
  id: int,
  url: opt(z.string()),
  name: z.string(),
  instance: opt(int),
  contextid: opt(int),
  description: opt(z.string()),
  visible: opt(int),
  uservisible: opt(z.boolean()),
  visibleoncoursepage: opt(int),
  modicon: z.string(),
  modname: z.string(),
  purpose: opt(z.string()),
  branded: opt(z.boolean()),
  modplural: z.string(),
  availability: nul(z.string()),
  indent: int,
  noviewlink: opt(z.boolean()),
  completion: opt(int),
  /** The caller's own completion of the module. */
  completiondata: opt(z.object(completionFields)),
});
export type MoodleModule = z.infer<typeof moduleSchema>;

export const sectionSchema = z.object({
  id: int,
  name: z.string(),
  visible: opt(int),
  summary: z.string(),
  summaryformat: int,
  section: opt(int),
  hiddenbynumsections: opt(int),
  uservisible: opt(z.boolean()),
  component: nul(z.string()),
  itemid: nul(int),
  modules: z.array(moduleSchema),
});
export type MoodleSection = z.infer<typeof sectionSchema>;
export const contentsSchema = z.array(sectionSchema);

export const activityCompletionSchema = z.object({
  cmid: int,
  modname: z.string(),
  instance: int,
  tracking: int,
  ...completionFields,
});
export type MoodleActivityCompletion = z.infer<typeof activityCompletionSchema>;
export const activitiesCompletionSchema = z.object({
  statuses: z.array(activityCompletionSchema),
  warnings,
});

export const courseCompletionSchema = z.object({
  completionstatus: z.object({
    completed: z.boolean(),
    aggregation: int,
    completions: z.array(
      z.object({
        type: int,
        title: z.string(),
        status: z.string(),
        complete: z.boolean(),
        timecompleted: nul(int),
        details: z.object({
          type: z.string(),
          criteria: z.string(),
          requirement: z.string(),
          status: z.string(),
        }),
      }),
    ),
  }),
  warnings,
});

export const gradeItemSchema = z.object({
  id: int,
  itemname: nul(z.string()),
  itemtype: z.string(),
  itemmodule: nul(z.string()),
  iteminstance: int,
  itemnumber: nul(int),
  idnumber: nul(z.string()),
  categoryid: nul(int),
  outcomeid: nul(int),
  scaleid: nul(int),
  locked: nul(z.boolean()),
  cmid: opt(int),
  weightraw: nul(z.number()),
  weightformatted: opt(z.string()),
  status: opt(z.string()),
  graderaw: nul(z.number()),
  gradedatesubmitted: nul(int),
  gradedategraded: nul(int),
  gradehiddenbydate: opt(z.boolean()),
  gradeneedsupdate: opt(z.boolean()),
  gradeishidden: opt(z.boolean()),
  gradeislocked: nul(z.boolean()),
  gradeisoverridden: nul(z.boolean()),
  gradeformatted: opt(z.string()),
  grademin: opt(z.number()),
  grademax: opt(z.number()),
  rangeformatted: opt(z.string()),
  percentageformatted: opt(z.string()),
  feedback: opt(z.string()),
  feedbackformat: opt(int),
});
export type MoodleGradeItem = z.infer<typeof gradeItemSchema>;

export const userGradesSchema = z.object({
  courseid: int,
  courseidnumber: opt(z.string()),
  userid: int,
  userfullname: z.string(),
  useridnumber: opt(z.string()),
  maxdepth: int,
  gradeitems: z.array(gradeItemSchema),
});
export type MoodleUserGrades = z.infer<typeof userGradesSchema>;
export const gradeItemsSchema = z.object({ usergrades: z.array(userGradesSchema), warnings });

export const createdUsersSchema = z.array(z.object({ id: int, username: z.string() }));

export const groupSchema = z.object({
  id: int,
  courseid: int,
  name: z.string(),
  description: z.string(),
  descriptionformat: int,
  enrolmentkey: nul(z.string()),
  idnumber: z.string(),
  visibility: opt(int),
  participation: opt(z.boolean()),
});
export type MoodleGroup = z.infer<typeof groupSchema>;

export const groupMembersSchema = z.array(z.object({ groupid: int, userids: z.array(int) }));

/** Functions that answer nothing: Moodle sends the JSON `null`. */
export const nullSchema = z.null();

/** The answer schema of every function the client speaks. */
export const RESPONSE_SCHEMAS = {
  core_webservice_get_site_info: siteInfoSchema,
  core_course_get_categories: z.array(categorySchema),
  core_course_get_courses: z.array(courseSchema),
  core_course_get_courses_by_field: coursesByFieldSchema,
  core_enrol_get_enrolled_users: z.array(enrolledUserSchema),
  core_course_get_contents: contentsSchema,
  core_completion_get_activities_completion_status: activitiesCompletionSchema,
  core_completion_get_course_completion_status: courseCompletionSchema,
  gradereport_user_get_grade_items: gradeItemsSchema,
  core_user_get_users_by_field: z.array(userSchema),
  core_user_create_users: createdUsersSchema,
  enrol_manual_enrol_users: nullSchema,
  core_group_get_course_groups: z.array(groupSchema),
  core_group_create_groups: z.array(groupSchema),
  core_group_add_group_members: nullSchema,
  core_group_get_group_members: groupMembersSchema,
} as const;

export type MoodleFunction = keyof typeof RESPONSE_SCHEMAS;
export type MoodleResponse<F extends MoodleFunction> = z.output<(typeof RESPONSE_SCHEMAS)[F]>;

/** Functions that change Moodle: never repeated automatically (a lost answer may hide a success). */
export const WRITE_FUNCTIONS: ReadonlySet<MoodleFunction> = new Set([
  'core_user_create_users',
  'enrol_manual_enrol_users',
  'core_group_create_groups',
  'core_group_add_group_members',
]);
