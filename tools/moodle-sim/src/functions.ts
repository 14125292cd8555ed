/**
 * The web-service functions of the simulator: parameter descriptions (validated like Moodle's
 * external API) and implementations whose answers have Moodle's fields, order and types
 * (compared with recorded answers of a real Moodle 5.2 in the contract test).
 */
import {
  codingError,
  courseContextNotValid,
  invalidParameter,
  missingRecord,
  moodleException,
  multiple,
  OPTIONAL,
  requiredCapability,
  single,
  value,
  type Desc,
} from './params.js';
import { MODULE_TYPES, ROLES, type SimCourse, type SimModule, type SimToken, type SimUser, type Site } from './site.js';

export interface CallContext {
  site: Site;
  caller: SimUser;
  token: SimToken;
  /** Moodle's wwwroot as answers show it. */
  base: string;
}

interface FunctionDef {
  params: Desc;
  run: (ctx: CallContext, p: any) => unknown;
}

// --- Shared pieces -------------------------------------------------------------------------

const img = (ctx: CallContext, component: string, name: string) => `${ctx.base}/theme/image.php/boost/${component}/${ctx.site.settings.themerev}/${name}`;

function requireCourse(ctx: CallContext, courseid: number): SimCourse {
  const course = ctx.site.course(courseid);
  if (!course) throw missingRecord('course', 'id', courseid);
  return course;
}

function requireUser(ctx: CallContext, userid: number): SimUser {
  const user = ctx.site.user(userid);
  if (!user) throw missingRecord('user', 'id', userid);
  return user;
}

/** validate_context on a course: a non-admin must be enrolled (require_login). */
function validateCourseContext(ctx: CallContext, course: SimCourse) {
  if (ctx.caller.siteadmin || course.id === ctx.site.siteCourse.id) return;
  if (!ctx.site.enrolment(course.id, ctx.caller.id)) throw courseContextNotValid(course.id, 'Course or activity not accessible.');
}

/** The courses a caller may see: all for an admin, the enrolled ones (and the front page) otherwise. */
function visibleToCaller(ctx: CallContext, course: SimCourse) {
  return ctx.caller.siteadmin || course.id === ctx.site.siteCourse.id || !!ctx.site.enrolment(course.id, ctx.caller.id);
}

function requireCap(ctx: CallContext, courseid: number, capability: string, name: string) {
  if (!ctx.site.can(ctx.caller.id, courseid, capability)) throw requiredCapability(name);
}

const fullname = (u: SimUser) => `${u.firstname} ${u.lastname}`;
const byLastName = (a: SimUser, b: SimUser) => a.lastname.localeCompare(b.lastname) || a.firstname.localeCompare(b.firstname) || a.id - b.id;

function isTracked(ctx: CallContext, courseid: number, userid: number) {
  const e = ctx.site.enrolment(courseid, userid);
  return !!e && e.status === 0 && e.roleid === 5;
}

function ruleStatus(m: SimModule, c: { state: number; rules?: Record<string, number> }, rule: string) {
  return c.rules?.[rule] ?? c.state;
}

// --- core_webservice_get_site_info -------------------------------------------------------

const ADVANCED_FEATURES: Array<[string, number]> = [
  ['usecomments', 1], ['usetags', 1], ['enablenotes', 1], ['messaging', 1], ['enableblogs', 1], ['enablecompletion', 1],
  ['enablebadges', 1], ['messagingallusers', 0], ['enablecustomreports', 1], ['enableglobalsearch', 0], ['mnet_dispatcher_mode', 0], ['enablecompetencies', 1],
];

function siteInfo(ctx: CallContext) {
  const { site, caller } = ctx;
  const admin = caller.siteadmin;
  return {
    sitename: site.settings.sitename,
    username: caller.username,
    firstname: caller.firstname,
    lastname: caller.lastname,
    fullname: fullname(caller),
    lang: caller.lang,
    userid: caller.id,
    siteurl: ctx.base,
    userpictureurl: img(ctx, 'core', 'u/f1'),
    functions: ctx.token.functions.map((name) => ({ name, version: site.functionVersions[name] ?? site.settings.version })),
    downloadfiles: 0,
    uploadfiles: 0,
    release: site.settings.release,
    version: site.settings.version,
    mobilecssurl: '',
    advancedfeatures: ADVANCED_FEATURES.map(([name, v]) => ({ name, value: v })),
    usercanmanageownfiles: true,
    userquota: admin ? 0 : 104857600,
    usermaxuploadfilesize: admin ? -1 : 67108864,
    userhomepage: 1,
    userprivateaccesskey: '0'.repeat(32),
    siteid: site.siteCourse.id,
    sitecalendartype: 'gregorian',
    usercalendartype: 'gregorian',
    userissiteadmin: admin,
    theme: 'boost',
    limitconcurrentlogins: 0,
    policyagreed: 0,
    usercanchangeconfig: admin,
    usercanviewconfig: admin,
    ...(admin ? { sitesecret: '' } : {}),
  };
}

// --- Categories and courses --------------------------------------------------------------

function getCategories(ctx: CallContext, p: { criteria: Array<{ key: string; value: string }>; addsubcategories: boolean }) {
  const { site } = ctx;
  const admin = ctx.caller.siteadmin;
  let matched = site.categories.filter((c) => admin || c.visible);
  for (const { key, value: v } of p.criteria) {
    const test: Record<string, (c: (typeof matched)[number]) => boolean> = {
      id: (c) => c.id === Number(v),
      ids: (c) => v.split(',').map(Number).includes(c.id),
      name: (c) => c.name === v,
      parent: (c) => c.parent === Number(v),
      idnumber: (c) => c.idnumber === v,
      visible: (c) => c.visible === Number(v),
      theme: (c) => c.theme === v,
    };
    if (!test[key]) throw invalidParameter(`The key '${key}' is not allowed as a criteria key`);
    matched = matched.filter(test[key]!);
  }
  const ids = new Set(matched.map((c) => c.id));
  if (p.addsubcategories && p.criteria.length) {
    for (const c of site.categories) if (site.categoryPath(c).some((id) => ids.has(id)) && (admin || c.visible)) ids.add(c.id);
  }
  return site.categories
    .filter((c) => ids.has(c.id))
    .sort((a, b) => a.sortorder - b.sortorder)
    .map((c) => {
      const path = site.categoryPath(c);
      const coursecount = site.courses.filter((x) => x.categoryid === c.id).length;
      const common = { id: c.id, name: c.name };
      const tail = { depth: path.length, path: `/${path.join('/')}` };
      return admin
        ? { ...common, idnumber: c.idnumber, description: c.description, descriptionformat: c.descriptionformat, parent: c.parent, sortorder: c.sortorder, coursecount, visible: c.visible, visibleold: c.visibleold, timemodified: c.timemodified, ...tail, theme: c.theme }
        : { ...common, description: c.description, descriptionformat: c.descriptionformat, parent: c.parent, sortorder: c.sortorder, coursecount, ...tail };
    });
}

function lastSectionNumber(ctx: CallContext, c: SimCourse) {
  if (c.format === 'site') return Number(c.formatoptions.find((o) => o.name === 'numsections')?.value ?? 1);
  return Math.max(0, ...ctx.site.sectionsOf(c.id).map((s) => s.section));
}

function getCourses(ctx: CallContext, p: { options: { ids?: number[] } }) {
  const all = [ctx.site.siteCourse, ...ctx.site.courses];
  const list = p.options.ids?.length
    ? all.filter((c) => p.options.ids!.includes(c.id)).sort((a, b) => a.id - b.id)
    : [...all].sort((a, b) => a.sortorder - b.sortorder);
  return list.filter((c) => visibleToCaller(ctx, c)).map((c) => {
    const hidden = c.formatoptions.find((o) => o.name === 'hiddensections');
    return {
      id: c.id,
      shortname: c.shortname,
      categoryid: c.categoryid,
      categorysortorder: c.sortorder,
      fullname: c.fullname,
      displayname: c.fullname,
      idnumber: c.idnumber,
      summary: c.summary,
      summaryformat: c.summaryformat,
      format: c.format,
      showgrades: c.showgrades,
      newsitems: c.newsitems,
      startdate: c.startdate,
      enddate: c.enddate,
      numsections: lastSectionNumber(ctx, c),
      maxbytes: c.maxbytes,
      showreports: c.showreports,
      visible: c.visible,
      ...(hidden ? { hiddensections: hidden.value } : {}),
      groupmode: c.groupmode,
      groupmodeforce: c.groupmodeforce,
      defaultgroupingid: c.defaultgroupingid,
      timecreated: c.timecreated,
      timemodified: c.timemodified,
      enablecompletion: c.enablecompletion,
      completionnotify: c.completionnotify,
      lang: c.lang,
      forcetheme: c.theme,
      courseformatoptions: c.formatoptions,
      showactivitydates: c.showactivitydates,
      showcompletionconditions: c.showcompletionconditions,
    };
  });
}

const FILTERS = ['displayh5p', 'activitynames', 'mathjaxloader', 'emoticon', 'urltolink', 'mediaplugin'];

function getCoursesByField(ctx: CallContext, p: { field: string; value: string }) {
  const { site } = ctx;
  const all = [site.siteCourse, ...site.courses].sort((a, b) => a.id - b.id);
  const v = p.value;
  const tests: Record<string, (c: SimCourse) => boolean> = {
    '': () => true,
    id: (c) => c.id === Number(v),
    ids: (c) => v.split(',').map((x) => Number(x.trim())).includes(c.id),
    shortname: (c) => c.shortname === v,
    idnumber: (c) => c.idnumber === v,
    category: (c) => c.categoryid === Number(v),
    sectionid: (c) => site.sections.some((s) => s.id === Number(v) && s.courseid === c.id),
  };
  const test = tests[p.field];
  if (!test) throw invalidParameter('Invalid field name');
  const courses = all.filter((c) => test(c) && visibleToCaller(ctx, c)).map((c) => {
    const category = site.category(c.categoryid);
    const contacts = site
      .enrolmentsOf(c.id)
      .filter((e) => e.roleid === 3)
      .map((e) => site.user(e.userid)!)
      .map((u) => ({ id: u.id, fullname: fullname(u) }));
    const formatoptions = c.format === 'site' ? undefined : [...c.formatoptions, { name: 'indentation', value: '1' }];
    return {
      id: c.id,
      fullname: c.fullname,
      displayname: c.fullname,
      shortname: c.shortname,
      courseimage: `${ctx.base}/pluginfile.php/${c.contextid}/course/generated/course.svg`,
      categoryid: c.categoryid,
      categoryname: category?.name ?? '',
      sortorder: c.sortorder,
      summary: c.summary,
      summaryformat: c.summaryformat,
      summaryfiles: [],
      overviewfiles: [],
      showactivitydates: c.showactivitydates,
      showcompletionconditions: c.showcompletionconditions,
      contacts,
      enrollmentmethods: c.enrolmethods,
      idnumber: c.idnumber,
      format: c.format,
      showgrades: c.showgrades,
      newsitems: c.newsitems,
      startdate: c.startdate,
      enddate: c.enddate,
      maxbytes: c.maxbytes,
      showreports: c.showreports,
      visible: c.visible,
      groupmode: c.groupmode,
      groupmodeforce: c.groupmodeforce,
      defaultgroupingid: c.defaultgroupingid,
      enablecompletion: c.enablecompletion,
      completionnotify: c.completionnotify,
      lang: c.lang,
      theme: c.theme,
      marker: c.marker,
      legacyfiles: c.legacyfiles,
      calendartype: c.calendartype,
      timecreated: c.timecreated,
      timemodified: c.timemodified,
      requested: c.requested,
      cacherev: c.cacherev,
      filters: FILTERS.map((filter) => ({ filter, localstate: 0, inheritedstate: 1 })),
      ...(formatoptions ? { courseformatoptions: formatoptions } : {}),
    };
  });
  return { courses, warnings: [] };
}

// --- Users ---------------------------------------------------------------------------------

type UserView = 'enrolled' | 'profile';

/** user_get_user_details: what a caller sees of a user (others see less than admins and the user). */
function userDetails(ctx: CallContext, u: SimUser, view: UserView, opts: { courseid?: number; fields?: Set<string> } = {}) {
  const { site, caller } = ctx;
  const full = caller.siteadmin || caller.id === u.id;
  const want = (f: string) => !opts.fields || opts.fields.has(f);
  const out: Record<string, unknown> = { id: u.id };
  if (full && want('username')) out.username = u.username;
  if (want('firstname')) out.firstname = u.firstname;
  if (want('lastname')) out.lastname = u.lastname;
  out.fullname = fullname(u);
  if (want('email')) out.email = u.email;
  if (full && want('department')) out.department = u.department;
  if (full && want('idnumber') && u.idnumber) out.idnumber = u.idnumber;
  if (want('firstaccess')) out.firstaccess = u.firstaccess;
  if (want('lastaccess')) out.lastaccess = u.lastaccess;
  if (view === 'enrolled' && opts.courseid !== undefined && want('lastcourseaccess')) out.lastcourseaccess = site.enrolment(opts.courseid, u.id)?.lastaccess ?? 0;
  if (view === 'profile' && caller.siteadmin) {
    Object.assign(out, { auth: u.auth, suspended: u.suspended, confirmed: u.confirmed, lang: u.lang, theme: u.theme, timezone: u.timezone, mailformat: u.mailformat, trackforums: u.trackforums });
  }
  if (want('profileimageurlsmall')) out.profileimageurlsmall = img(ctx, 'core', 'u/f2');
  if (want('profileimageurl')) out.profileimageurl = img(ctx, 'core', 'u/f1');
  if (view === 'enrolled' && opts.courseid !== undefined) {
    const courseid = opts.courseid;
    if (want('groups')) {
      out.groups = site.groupsOfUser(courseid, u.id).map((g) => ({ id: g.id, name: g.name, description: g.description, descriptionformat: g.descriptionformat }));
    }
    if (want('roles')) {
      const e = site.enrolment(courseid, u.id);
      out.roles = e ? [{ roleid: e.roleid, name: '', shortname: ROLES[e.roleid]?.shortname ?? 'student', sortorder: 0 }] : [];
    }
    if (caller.id === u.id && want('preferences') && u.preferences.length) {
      out.preferences = [...u.preferences, { name: '_lastloaded', value: site.now() }];
    }
    if (want('enrolledcourses')) {
      out.enrolledcourses = site.enrolments
        .filter((e) => e.userid === u.id)
        .map((e) => site.course(e.courseid)!)
        .filter((c) => visibleToCaller(ctx, c))
        .map((c) => ({ id: c.id, fullname: c.fullname, shortname: c.shortname }));
    }
  }
  return out;
}

function getEnrolledUsers(ctx: CallContext, p: { courseid: number; options: Array<{ name: string; value: string }> }) {
  const { site } = ctx;
  const course = requireCourse(ctx, p.courseid);
  validateCourseContext(ctx, course);
  requireCap(ctx, course.id, 'viewparticipants', 'View participants');
  const o: Record<string, string> = {};
  for (const { name, value: v } of p.options) o[name.toLowerCase()] = v;
  const sortby = o.sortby ?? 'id';
  if (!['id', 'firstname', 'lastname', 'siteorder'].includes(sortby)) throw invalidParameter('Invalid sort field');
  const direction = (o.sortdirection ?? 'ASC').toUpperCase();
  if (!['ASC', 'DESC'].includes(direction)) throw invalidParameter('Invalid sort direction');
  const groupid = Number(o.groupid ?? 0);
  const onlyactive = ['1', 'true'].includes(o.onlyactive ?? '0');
  const limitfrom = Number(o.limitfrom ?? 0);
  const limitnumber = Number(o.limitnumber ?? 0);
  const fields = o.userfields ? new Set(o.userfields.split(',').map((f) => f.trim())) : undefined;
  let users = site
    .enrolmentsOf(course.id)
    .filter((e) => !onlyactive || (e.status === 0 && !site.user(e.userid)?.suspended))
    .map((e) => site.user(e.userid)!)
    .filter((u) => !groupid || site.group(groupid)?.members.includes(u.id));
  const cmp: Record<string, (a: SimUser, b: SimUser) => number> = {
    id: (a, b) => a.id - b.id,
    siteorder: (a, b) => a.id - b.id,
    firstname: (a, b) => a.firstname.localeCompare(b.firstname) || a.id - b.id,
    lastname: (a, b) => a.lastname.localeCompare(b.lastname) || a.id - b.id,
  };
  users.sort(cmp[sortby]!);
  if (direction === 'DESC') users.reverse();
  users = users.slice(limitfrom, limitnumber > 0 ? limitfrom + limitnumber : undefined);
  return users.map((u) => userDetails(ctx, u, 'enrolled', { courseid: course.id, fields }));
}

function getUsersByField(ctx: CallContext, p: { field: string; values: string[] }) {
  const match: Record<string, (u: SimUser, v: string) => boolean> = {
    id: (u, v) => u.id === Number(v),
    idnumber: (u, v) => u.idnumber !== '' && u.idnumber === v,
    username: (u, v) => u.username === v.trim().toLowerCase(),
    email: (u, v) => u.email.toLowerCase() === v.trim().toLowerCase(),
  };
  const test = match[p.field];
  if (!test) throw codingError('invalid field parameter');
  return ctx.site.users
    .filter((u) => u.username !== 'guest' && p.values.some((v) => test(u, v)))
    .filter((u) => ctx.caller.siteadmin || u.id === ctx.caller.id)
    .sort((a, b) => a.id - b.id)
    .map((u) => userDetails(ctx, u, 'profile'));
}

const POLICY: Array<[RegExp | ((s: string) => boolean), string]> = [
  [(s) => s.length >= 8, '<div>Passwords must be at least 8 characters long.</div>'],
  [/\d/, '<div>Passwords must have at least 1 digit(s).</div>'],
  [/[a-z]/, '<div>Passwords must have at least 1 lower case letter(s).</div>'],
  [/[A-Z]/, '<div>Passwords must have at least 1 upper case letter(s).</div>'],
  [/[^A-Za-z0-9]/, '<div>The password must have at least 1 special character(s) such as *, -, or #.</div>'],
];

function createUsers(ctx: CallContext, p: { users: Array<Record<string, any>> }) {
  const { site } = ctx;
  if (!ctx.caller.siteadmin) throw requiredCapability('Create users');
  const usernames = new Set(site.users.map((u) => u.username));
  const emails = new Set(site.users.map((u) => u.email.toLowerCase()));
  const accepted: Array<Record<string, any>> = [];
  for (const u of p.users) {
    for (const f of ['username', 'firstname', 'lastname']) if (String(u[f]).trim() === '') throw invalidParameter(`The field ${f} cannot be blank`);
    if (usernames.has(u.username)) throw invalidParameter(`Username already exists: ${u.username}`);
    const auth = u.auth ?? 'manual';
    if (!['manual', 'nologin', 'email', 'oauth2', 'ldap'].includes(auth)) throw invalidParameter(`Invalid authentication type: ${auth}`);
    if (['manual', 'email'].includes(auth) && !u.password && !u.createpassword) {
      throw invalidParameter('Invalid password: you must provide a password, or set createpassword.');
    }
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(u.email)) throw invalidParameter(`Email address is invalid: ${u.email}`);
    if (!site.settings.allowSameEmail && emails.has(String(u.email).toLowerCase())) throw invalidParameter(`Email address already exists: ${u.email}`);
    if (u.password && !u.createpassword) {
      const failed = POLICY.filter(([rule]) => !(typeof rule === 'function' ? rule(u.password) : rule.test(u.password))).map(([, msg]) => msg).join('');
      if (failed) throw moodleException(failed, `error/${failed}`);
    }
    usernames.add(u.username);
    emails.add(String(u.email).toLowerCase());
    accepted.push(u);
  }
  // All or nothing: users are created only once every one passed.
  return accepted.map(({ createpassword, customfields, preferences, ...fields }) => {
    const row = site.addUser({ ...(fields as Parameters<Site['addUser']>[0]), preferences: [{ name: 'auth_manual_passwordupdatetime', value: String(site.now()) }] });
    return { id: row.id, username: row.username };
  });
}

// --- Enrolments ------------------------------------------------------------------------------

function enrolUsers(ctx: CallContext, p: { enrolments: Array<{ roleid: number; userid: number; courseid: number; timestart?: number; suspend?: number }> }) {
  const { site } = ctx;
  const planned: Array<() => void> = [];
  for (const e of p.enrolments) {
    const course = site.course(e.courseid);
    if (!course) throw invalidParameter('Context does not exist');
    validateCourseContext(ctx, course);
    requireCap(ctx, course.id, 'enrol', 'Enrol users');
    const assignable = ctx.caller.siteadmin ? [1, 3, 4, 5] : [4, 5];
    if (!assignable.includes(e.roleid)) {
      throw moodleException('wsusercannotassign', `You don't have the permission to assign this role (${e.roleid}) to this user (${e.userid}) in this course (${e.courseid}).`);
    }
    if (!course.enrolmethods.includes('manual')) {
      throw moodleException('wsnoinstance', `Manual enrolment plugin instance doesn't exist or is disabled for the course (id = ${course.id})`);
    }
    if (!site.user(e.userid)) throw missingRecord('user', 'id', e.userid, { errorcode: 'invaliduser', message: 'Invalid user' });
    planned.push(() => site.enrol(e.courseid, e.userid, e.roleid, { status: e.suspend ? 1 : 0 }));
  }
  planned.forEach((f) => f());
  // Recorded from a real Moodle: the enrolments are committed, then the welcome message fails.
  if (site.settings.enrolMessageFails && planned.length) throw moodleException('Message was not sent.', 'Message was not sent.');
  return null;
}

// --- Course contents and completion ----------------------------------------------------------

function moduleContents(ctx: CallContext, m: SimModule) {
  if (m.modname === 'page') {
    return [{ type: 'file', filename: 'index.html', filepath: '/', filesize: 0, fileurl: `${ctx.base}/webservice/pluginfile.php/${m.contextid}/mod_page/content/index.html?forcedownload=1`, timecreated: null, timemodified: m.timemodified, sortorder: 1, userid: null, author: null, license: null }];
  }
  if (m.modname === 'url') {
    return [{ type: 'url', filename: m.name, filepath: null, filesize: 0, fileurl: m.externalurl ?? '', timecreated: null, timemodified: m.timemodified, sortorder: null, userid: null, author: null, license: null }];
  }
  return undefined;
}

function completionData(ctx: CallContext, m: SimModule) {
  const tracked = isTracked(ctx, m.courseid, ctx.caller.id);
  const c = tracked ? ctx.site.completion(m.id, ctx.caller.id) : { state: 0, timecompleted: 0 };
  return {
    state: c.state,
    timecompleted: c.timecompleted,
    overrideby: null,
    valueused: false,
    hascompletion: true,
    isautomatic: m.completion === 2,
    istrackeduser: tracked,
    uservisible: true,
    details: m.rules.map((r) => ({ rulename: r.rulename, rulevalue: { status: ruleStatus(m, c, r.rulename), description: r.description } })),
    isoverallcomplete: c.state > 0,
  };
}

const truthy = (v: string | undefined) => v !== undefined && ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());

function getContents(ctx: CallContext, p: { courseid: number; options: Array<{ name: string; value: string }> }) {
  const { site, caller } = ctx;
  const course = requireCourse(ctx, p.courseid);
  validateCourseContext(ctx, course);
  const o: Record<string, string> = {};
  for (const { name, value: v } of p.options) o[name.toLowerCase()] = v;
  const manager = caller.siteadmin || site.can(caller.id, course.id, 'managegroups');
  return site
    .sectionsOf(course.id)
    .filter((s) => (o.sectionid ? s.id === Number(o.sectionid) : true) && (o.sectionnumber ? s.section === Number(o.sectionnumber) : true))
    .map((s) => ({
      id: s.id,
      name: s.name,
      visible: s.visible,
      summary: s.summary,
      summaryformat: s.summaryformat,
      section: s.section,
      hiddenbynumsections: 0,
      uservisible: true,
      component: null,
      itemid: null,
      modules: truthy(o.excludemodules)
        ? []
        : s.sequence
            .map((id) => site.module(id)!)
            .filter((m) => m && (manager || m.visible === 1))
            .filter((m) => (o.cmid ? m.id === Number(o.cmid) : true) && (o.modname ? m.modname === o.modname : true))
            .map((m) => {
              const type = MODULE_TYPES[m.modname] ?? { plural: m.modname, purpose: 'other' };
              const contents = truthy(o.excludecontents) ? undefined : moduleContents(ctx, m);
              return {
                id: m.id,
                ...(m.noviewlink ? {} : { url: `${ctx.base}/mod/${m.modname}/view.php?id=${m.id}` }),
                name: m.name,
                instance: m.instance,
                contextid: m.contextid,
                ...(m.description !== undefined ? { description: m.description } : {}),
                visible: m.visible,
                uservisible: true,
                visibleoncoursepage: m.visibleoncoursepage,
                modicon: `${img(ctx, m.modname, 'monologo')}?filtericon=1`,
                modname: m.modname,
                purpose: type.purpose,
                branded: false,
                modplural: type.plural,
                ...(manager ? { availability: null } : {}),
                indent: m.indent,
                onclick: '',
                afterlink: null,
                customdata: m.customdata,
                noviewlink: m.noviewlink,
                candisplay: true,
                completion: m.completion,
                ...(m.completion ? { completiondata: completionData(ctx, m) } : {}),
                downloadcontent: 1,
                dates: [],
                groupmode: 0,
                ...(contents ? { contents, contentsinfo: { filescount: contents.length, filessize: 0, lastmodified: m.timemodified, mimetypes: [], repositorytype: '' } } : {}),
              };
            }),
    }));
}

/** Checks shared by both completion functions: course, user, access, capability. */
function completionTarget(ctx: CallContext, p: { courseid: number; userid: number }, capabilityName: string) {
  const course = requireCourse(ctx, p.courseid);
  const user = requireUser(ctx, p.userid);
  validateCourseContext(ctx, course);
  if (user.id !== ctx.caller.id) requireCap(ctx, course.id, 'viewcompletionreports', capabilityName);
  return { course, user };
}

function activitiesCompletion(ctx: CallContext, p: { courseid: number; userid: number }) {
  const { site } = ctx;
  const { course, user } = completionTarget(ctx, p, 'View activity completion reports');
  const modules = course.enablecompletion ? site.modulesOf(course.id).filter((m) => m.completion > 0) : [];
  if (modules.length && !site.enrolment(course.id, user.id)) {
    throw user.id === ctx.caller.id ? moodleException('notenroled', 'You are not enrolled in this course') : moodleException('usernotenroled', 'User is not enrolled in this course');
  }
  const statuses = modules.map((m) => {
    const c = site.completion(m.id, user.id);
    return {
      cmid: m.id,
      modname: m.modname,
      instance: m.instance,
      state: c.state,
      timecompleted: c.timecompleted,
      tracking: m.completion,
      overrideby: null,
      valueused: false,
      hascompletion: true,
      isautomatic: m.completion === 2,
      istrackeduser: isTracked(ctx, course.id, user.id),
      uservisible: true,
      details: m.rules.map((r) => ({ rulename: r.rulename, rulevalue: { status: ruleStatus(m, c, r.rulename), description: r.description } })),
      isoverallcomplete: c.state > 0,
    };
  });
  return { statuses, warnings: [] };
}

const REQUIREMENT: Record<string, string> = {
  completionusegrade: 'Achieving grade',
  completionview: 'Viewing',
  completionsubmit: 'Making a submission',
  completionpassgrade: 'Achieving passing grade',
};

function courseCompletion(ctx: CallContext, p: { courseid: number; userid: number }) {
  const { site } = ctx;
  const { course, user } = completionTarget(ctx, p, 'View course completion report');
  if (!course.enablecompletion) throw moodleException('completionnotenabled', 'Completion is not enabled');
  if (!isTracked(ctx, course.id, user.id)) throw moodleException('nottracked', 'You are currently not being tracked by completion in this course');
  if (!course.completioncriteria.length) throw moodleException('nocriteriaset', 'No completion criteria set for this course');
  const completions = course.completioncriteria.map((cmid) => {
    const m = site.module(cmid)!;
    const c = site.completion(cmid, user.id);
    const complete = c.state > 0;
    return {
      type: 4,
      title: 'Activity completion',
      status: complete ? 'Yes' : 'No',
      complete,
      timecompleted: complete ? c.timecompleted : null,
      details: {
        type: 'Activity completion',
        criteria: `<a href="${ctx.base}/mod/${m.modname}/view.php?id=${m.id}">${m.name}</a>`,
        requirement: m.completion === 1 ? 'Marking yourself complete' : m.rules.map((r) => REQUIREMENT[r.rulename] ?? r.description).join(', '),
        status: '',
      },
    };
  });
  return { completionstatus: { completed: completions.every((c) => c.complete), aggregation: 1, completions }, warnings: [] };
}

// --- Grades ------------------------------------------------------------------------------------

const num = (n: number) => (Number.isInteger(n) ? String(n) : String(Number(n.toFixed(5))));
const pct = (raw: number, min: number, max: number) => `${((100 * (raw - min)) / (max - min || 1)).toFixed(2)} %`;

function gradeFormatted(raw: number | null, gradepass: number) {
  if (raw === null) return '-';
  if (gradepass > 0) {
    const pass = raw >= gradepass;
    const icon = pass ? 'fa-check text-success' : 'fa-xmark text-danger';
    const title = pass ? 'Pass' : 'Fail';
    return `<i class="icon fa ${icon} fa-fw inline"  title="${title}" role="img" aria-label="${title}"></i>${raw.toFixed(2)}`;
  }
  return raw.toFixed(2);
}

function gradeItems(ctx: CallContext, p: { courseid: number; userid: number; groupid: number }) {
  const { site, caller } = ctx;
  const course = requireCourse(ctx, p.courseid);
  validateCourseContext(ctx, course);
  if (p.userid !== caller.id) requireCap(ctx, course.id, 'viewallgrades', 'View grades of other users');
  const grader = caller.siteadmin || site.can(caller.id, course.id, 'viewallgrades');
  const lock = grader ? false : null;
  const graded = site.modulesOf(course.id).filter((m) => m.gradeitem);
  let users = site
    .enrolmentsOf(course.id)
    // As Moodle's report: for everybody (userid 0) only active enrolments; asked for one user, theirs whatever its status.
    .filter((e) => e.roleid === 5 && (e.status === 0 || p.userid !== 0))
    .map((e) => site.user(e.userid)!)
    .filter((u) => (p.userid ? u.id === p.userid : true) && (p.groupid ? site.group(p.groupid)?.members.includes(u.id) : true));
  users = users.sort(byLastName);
  const usergrades = users.map((u) => {
    const grades = graded.map((m) => ({ m, g: site.grade(m.gradeitem!.id, u.id) }));
    const gradedMax = grades.filter((x) => x.g.raw !== null).reduce((s, x) => s + x.m.gradeitem!.grademax, 0);
    const items: Array<Record<string, unknown>> = grades.map(({ m, g }) => {
      const gi = m.gradeitem!;
      const has = g.raw !== null;
      return {
        id: gi.id,
        itemname: m.name,
        itemtype: 'mod',
        itemmodule: m.modname,
        iteminstance: m.instance,
        itemnumber: 0,
        idnumber: '',
        categoryid: gi.categoryid,
        outcomeid: null,
        scaleid: null,
        locked: lock,
        cmid: m.id,
        ...(has ? { weightraw: gi.grademax / (gradedMax || 1), weightformatted: `${((100 * gi.grademax) / (gradedMax || 1)).toFixed(2)} %` } : {}),
        graderaw: g.raw,
        gradedatesubmitted: null,
        gradedategraded: g.dategraded,
        gradehiddenbydate: false,
        gradeneedsupdate: false,
        gradeishidden: false,
        gradeislocked: lock,
        gradeisoverridden: lock,
        gradeformatted: gradeFormatted(g.raw, gi.gradepass),
        grademin: gi.grademin,
        grademax: gi.grademax,
        rangeformatted: `${num(gi.grademin)}&ndash;${num(gi.grademax)}`,
        percentageformatted: has ? pct(g.raw!, gi.grademin, gi.grademax) : '-',
        feedback: g.feedback,
        feedbackformat: has ? 2 : 0,
      };
    });
    const withGrade = grades.filter((x) => x.g.raw !== null);
    const total = withGrade.length ? withGrade.reduce((s, x) => s + x.g.raw!, 0) : null;
    const totalMax = graded.reduce((s, m) => s + m.gradeitem!.grademax, 0) || 100;
    const dates = withGrade.map((x) => x.g.dategraded ?? 0);
    items.push({
      id: course.gradeitemid,
      itemname: null,
      itemtype: 'course',
      itemmodule: null,
      iteminstance: course.gradecategoryid,
      itemnumber: null,
      idnumber: null,
      categoryid: null,
      outcomeid: null,
      scaleid: null,
      locked: lock,
      graderaw: total,
      gradedatesubmitted: null,
      gradedategraded: dates.length ? Math.max(...dates) : null,
      gradehiddenbydate: false,
      gradeneedsupdate: false,
      gradeishidden: false,
      gradeislocked: lock,
      gradeisoverridden: lock,
      gradeformatted: gradeFormatted(total, 0),
      grademin: 0,
      grademax: totalMax,
      rangeformatted: `0&ndash;${num(totalMax)}`,
      percentageformatted: total === null ? '-' : pct(total, 0, totalMax),
      feedback: '',
      feedbackformat: total === null ? 0 : 2,
    });
    return { courseid: course.id, courseidnumber: course.idnumber, userid: u.id, userfullname: fullname(u), useridnumber: u.idnumber, maxdepth: 2, gradeitems: items };
  });
  return { usergrades, warnings: [] };
}

// --- Groups ------------------------------------------------------------------------------------

/** The group functions' course check: a missing or inaccessible course is errorcoursecontextnotvalid. */
function groupCourse(ctx: CallContext, courseid: number) {
  const course = ctx.site.course(courseid);
  if (!course) throw courseContextNotValid(courseid, 'Invalid parameter value detected');
  validateCourseContext(ctx, course);
  requireCap(ctx, course.id, 'managegroups', 'Manage groups');
  return course;
}

function getCourseGroups(ctx: CallContext, p: { courseid: number }) {
  const course = groupCourse(ctx, p.courseid);
  return ctx.site.groups
    .filter((g) => g.courseid === course.id)
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id)
    .map((g) => ({ id: g.id, courseid: g.courseid, name: g.name, description: g.description, descriptionformat: g.descriptionformat, enrolmentkey: g.enrolmentkey, idnumber: g.idnumber, visibility: g.visibility, participation: g.participation }));
}

function createGroups(ctx: CallContext, p: { groups: Array<{ courseid: number; name: string; description: string; descriptionformat: number; enrolmentkey?: string; idnumber?: string; visibility?: number; participation?: boolean }> }) {
  const { site } = ctx;
  const names = new Set(site.groups.map((g) => `${g.courseid}:${g.name}`));
  const idnumbers = new Set(site.groups.filter((g) => g.idnumber).map((g) => `${g.courseid}:${g.idnumber}`));
  for (const g of p.groups) {
    groupCourse(ctx, g.courseid);
    if (names.has(`${g.courseid}:${g.name}`)) throw invalidParameter('Group with the same name already exists in the course');
    if (g.idnumber && idnumbers.has(`${g.courseid}:${g.idnumber}`)) throw invalidParameter('Group with the same idnumber already exists in the course');
    names.add(`${g.courseid}:${g.name}`);
    if (g.idnumber) idnumbers.add(`${g.courseid}:${g.idnumber}`);
  }
  return p.groups.map((g) => {
    const row = site.addGroup({ courseid: g.courseid, name: g.name, description: g.description, descriptionformat: g.descriptionformat, enrolmentkey: g.enrolmentkey ?? null, idnumber: g.idnumber ?? '', visibility: g.visibility ?? 0, participation: g.participation ?? true });
    return { id: row.id, courseid: row.courseid, name: row.name, description: row.description, descriptionformat: row.descriptionformat, enrolmentkey: g.enrolmentkey ?? '', idnumber: row.idnumber, visibility: row.visibility, participation: row.participation };
  });
}

function addGroupMembers(ctx: CallContext, p: { members: Array<{ groupid: number; userid: number }> }) {
  const { site } = ctx;
  const planned: Array<() => void> = [];
  for (const m of p.members) {
    const group = site.group(m.groupid);
    if (!group) throw missingRecord('groups', 'id', m.groupid);
    if (!site.user(m.userid)) throw missingRecord('user', 'id', m.userid);
    groupCourse(ctx, group.courseid);
    if (!site.enrolment(group.courseid, m.userid)) throw invalidParameter('Only enrolled users may be members of groups');
    planned.push(() => {
      if (!group.members.includes(m.userid)) group.members.push(m.userid);
    });
  }
  planned.forEach((f) => f());
  return null;
}

function getGroupMembers(ctx: CallContext, p: { groupids: number[] }) {
  const { site } = ctx;
  return p.groupids.map((id) => {
    const group = site.group(id);
    if (!group) throw missingRecord('groups', 'id', id);
    groupCourse(ctx, group.courseid);
    const userids = group.members.map((u) => site.user(u)!).sort(byLastName).map((u) => u.id);
    return { groupid: group.id, userids };
  });
}

// --- The registry --------------------------------------------------------------------------------

const idValue = value('int');
const nameValue = multiple(single({ name: value('alphanumext'), value: value('raw') }), []);

export const FUNCTIONS: Record<string, FunctionDef> = {
  core_webservice_get_site_info: { params: single({ serviceshortnames: multiple(value('text'), []) }), run: siteInfo },
  core_course_get_categories: {
    params: single({ criteria: multiple(single({ key: value('alpha'), value: value('raw') }), []), addsubcategories: value('bool', true) }),
    run: getCategories,
  },
  core_course_get_courses: { params: single({ options: single({ ids: multiple(value('int'), OPTIONAL) }, {}) }), run: getCourses },
  core_course_get_courses_by_field: { params: single({ field: value('alpha', ''), value: value('raw', '') }), run: getCoursesByField },
  core_enrol_get_enrolled_users: { params: single({ courseid: idValue, options: nameValue }), run: getEnrolledUsers },
  core_course_get_contents: { params: single({ courseid: idValue, options: multiple(single({ name: value('alpha'), value: value('raw') }), []) }), run: getContents },
  core_completion_get_activities_completion_status: { params: single({ courseid: idValue, userid: idValue }), run: activitiesCompletion },
  core_completion_get_course_completion_status: { params: single({ courseid: idValue, userid: idValue }), run: courseCompletion },
  gradereport_user_get_grade_items: { params: single({ courseid: idValue, userid: value('int', 0), groupid: value('int', 0) }), run: gradeItems },
  core_user_get_users_by_field: { params: single({ field: value('alpha'), values: multiple(value('raw')) }), run: getUsersByField },
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
        single({ roleid: idValue, userid: idValue, courseid: idValue, timestart: value('int', OPTIONAL), timeend: value('int', OPTIONAL), suspend: value('int', OPTIONAL) }),
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
  core_group_add_group_members: { params: single({ members: multiple(single({ groupid: idValue, userid: idValue })) }), run: addGroupMembers },
  core_group_get_group_members: { params: single({ groupids: multiple(value('int')) }), run: getGroupMembers },
};

/** The functions a full-access token's service holds, in the order Moodle lists them (site info last). */
export const ALL_FUNCTIONS = [...Object.keys(FUNCTIONS).filter((f) => f !== 'core_webservice_get_site_info'), 'core_webservice_get_site_info'];
