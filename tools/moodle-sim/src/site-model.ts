/** The records of the simulated Moodle site (named after Moodle's tables) and its fixed roles, capabilities and module types. */

export interface SimCategory {
  id: number;
  name: string;
  idnumber: string | null;
  description: string;
  descriptionformat: number;
  parent: number;
  sortorder: number;
  visible: number;
  visibleold: number;
  timemodified: number;
  theme: string;
}

export interface SimCourse {
  id: number;
  shortname: string;
  fullname: string;
  idnumber: string;
  summary: string;
  summaryformat: number;
  format: string;
  categoryid: number;
  sortorder: number;
  showgrades: number;
  newsitems: number;
  startdate: number;
  enddate: number;
  maxbytes: number;
  showreports: number;
  visible: number;
  groupmode: number;
  groupmodeforce: number;
  defaultgroupingid: number;
  timecreated: number;
  timemodified: number;
  enablecompletion: number;
  completionnotify: number;
  lang: string;
  theme: string;
  marker: number;
  legacyfiles: number;
  calendartype: string;
  requested: number;
  cacherev: number;
  contextid: number;
  showactivitydates: boolean;
  showcompletionconditions: boolean | null;
  /** Format options (topics: hiddensections, coursedisplay; site: numsections). */
  formatoptions: Array<{ name: string; value: number | string }>;
  enrolmethods: string[];
  /** Course completion criteria: these course modules, all required. */
  completioncriteria: number[];
  /** The course's grade category and its course-total grade item. */
  gradecategoryid: number;
  gradeitemid: number;
}

export interface SimSection {
  id: number;
  courseid: number;
  section: number;
  name: string;
  summary: string;
  summaryformat: number;
  visible: number;
  /** Course module ids in page order. */
  sequence: number[];
}

export interface CompletionRule {
  rulename: string;
  description: string;
}

export interface SimModule {
  id: number;
  courseid: number;
  sectionid: number;
  modname: string;
  instance: number;
  contextid: number;
  name: string;
  /** Labels show their text as description. */
  description?: string;
  visible: number;
  visibleoncoursepage: number;
  indent: number;
  customdata: string;
  noviewlink: boolean;
  /** 0 none, 1 manual, 2 automatic. */
  completion: number;
  rules: CompletionRule[];
  timemodified: number;
  /** mod_url's target. */
  externalurl?: string;
  gradeitem?: SimGradeItem;
}

export interface SimGradeItem {
  id: number;
  categoryid: number;
  grademin: number;
  grademax: number;
  /** 0 = no pass mark. */
  gradepass: number;
}

export interface SimUser {
  id: number;
  username: string;
  firstname: string;
  lastname: string;
  email: string;
  department: string;
  idnumber: string;
  firstaccess: number;
  lastaccess: number;
  auth: string;
  suspended: boolean;
  confirmed: boolean;
  lang: string;
  theme: string;
  timezone: string;
  mailformat: number;
  trackforums: number;
  password?: string;
  preferences: Array<{ name: string; value: string }>;
  siteadmin: boolean;
  /** webservice/rest:use */
  restuse: boolean;
}

export interface SimEnrolment {
  courseid: number;
  userid: number;
  roleid: number;
  /** 0 active, 1 suspended. */
  status: number;
  timecreated: number;
  /** Last access to this course (0 = never). */
  lastaccess: number;
}

export interface SimGroup {
  id: number;
  courseid: number;
  name: string;
  description: string;
  descriptionformat: number;
  enrolmentkey: string | null;
  idnumber: string;
  visibility: number;
  participation: boolean;
  members: number[];
}

export interface SimCompletion {
  /** 0 incomplete, 1 complete, 2 complete pass, 3 complete fail. */
  state: number;
  timecompleted: number;
  /** Per-rule status when it differs from the overall state (a started activity). */
  rules?: Record<string, number>;
}

export interface SimGrade {
  raw: number | null;
  dategraded: number | null;
  feedback: string;
}

export interface SimToken {
  token: string;
  userid: number;
  /** Functions of the token's external service. */
  functions: string[];
}

export interface SimSettings {
  sitename: string;
  release: string;
  version: string;
  /** Moodle's wwwroot; unset means the simulator's own address. */
  wwwroot?: string;
  themerev: number;
  /** Debug mode: error answers carry `debuginfo`, missing records say which table. */
  debug: boolean;
  /** Site administration > Advanced features > Enable web services. */
  wsEnabled: boolean;
  /** The REST protocol enabled. */
  restEnabled: boolean;
  /** "Allow accounts with same email". */
  allowSameEmail: boolean;
  /**
   * The welcome message of a manual enrolment cannot be sent (no mail configured, as seen on a
   * real 5.2): enrol_manual_enrol_users commits the enrolments, then answers an error.
   */
  enrolMessageFails: boolean;
  /**
   * Site setting showuseridentity: the identity fields shown to users with
   * moodle/site:viewuseridentity (teachers) besides a user's own. Moodle's default is `email`;
   * username and idnumber of others are otherwise shown only with moodle/user:viewalldetails.
   */
  showuseridentity: string[];
}

export const ROLES: Record<number, { shortname: string }> = {
  1: { shortname: 'manager' },
  3: { shortname: 'editingteacher' },
  4: { shortname: 'teacher' },
  5: { shortname: 'student' },
};

/** The Moodle capability behind each capability name of the simulator's role matrix. */
export const SIM_CAPABILITY_OF: Record<string, string> = {
  'moodle/course:viewparticipants': 'viewparticipants',
  'moodle/grade:viewall': 'viewallgrades',
  'report/progress:view': 'viewcompletionreports',
  'moodle/course:managegroups': 'managegroups',
  'enrol/manual:enrol': 'enrol',
  'moodle/course:viewhiddenactivities': 'viewhiddenactivities',
  'moodle/user:viewalldetails': 'viewalldetails',
  'moodle/site:viewuseridentity': 'viewuseridentity',
};

/** What the roles of the simulator may do in a course (a small part of Moodle's matrix). */
export const ROLE_CAPABILITIES: Record<number, ReadonlySet<string>> = {
  1: new Set([
    'viewparticipants',
    'viewallgrades',
    'viewcompletionreports',
    'managegroups',
    'enrol',
    'viewhiddenactivities',
    'viewalldetails',
    'viewuseridentity',
  ]),
  3: new Set([
    'viewparticipants',
    'viewallgrades',
    'viewcompletionreports',
    'managegroups',
    'enrol',
    'viewhiddenactivities',
    'viewuseridentity',
  ]),
  4: new Set([
    'viewparticipants',
    'viewallgrades',
    'viewcompletionreports',
    'viewhiddenactivities',
    'viewuseridentity',
  ]),
  5: new Set(['viewparticipants']),
};

/** Display names of Moodle's module types: plural and purpose (Moodle 4.4+). */
export const MODULE_TYPES: Record<string, { plural: string; purpose: string }> = {
  assign: { plural: 'Assignments', purpose: 'assessment' },
  quiz: { plural: 'Quizzes', purpose: 'assessment' },
  forum: { plural: 'Forums', purpose: 'collaboration' },
  feedback: { plural: 'Feedback', purpose: 'communication' },
  choice: { plural: 'Choices', purpose: 'communication' },
  page: { plural: 'Pages', purpose: 'content' },
  url: { plural: 'URLs', purpose: 'content' },
  resource: { plural: 'Files', purpose: 'content' },
  label: { plural: 'Text and media areas', purpose: 'content' },
  lesson: { plural: 'Lessons', purpose: 'content' },
  scorm: { plural: 'SCORM packages', purpose: 'content' },
};
