/** Users (details, enrolled users, lookup, creation) and manual enrolment. */
import {
  codingError,
  invalidParameter,
  missingRecord,
  moodleException,
  requiredCapability,
} from '../params.js';
import { ROLES, type SimUser, type Site } from '../site.js';
import {
  type CallContext,
  img,
  requireCourse,
  validateCourseContext,
  visibleToCaller,
  requireCap,
  fullname,
} from './context.js';

export type UserView = 'enrolled' | 'profile';

/** user_get_user_details: what a caller sees of a user (others see less than admins and the user). */
export function userDetails(
  ctx: CallContext,
  u: SimUser,
  view: UserView,
  opts: { courseid?: number; fields?: Set<string> } = {},
) {
  const { site, caller } = ctx;
  const full = caller.siteadmin || caller.id === u.id;
  const want = (f: string) => !opts.fields || opts.fields.has(f);
  // Username and ID number of others: with moodle/user:viewalldetails, or when showuseridentity lists them (teachers only).
  const course = opts.courseid;
  const identity = (f: 'username' | 'idnumber') =>
    full ||
    (course !== undefined &&
      (site.can(caller.id, course, 'viewalldetails') ||
        (site.settings.showuseridentity.includes(f) &&
          site.can(caller.id, course, 'viewuseridentity'))));
  const out: Record<string, unknown> = { id: u.id };
  if (identity('username') && want('username')) out.username = u.username;
  if (want('firstname')) out.firstname = u.firstname;
  if (want('lastname')) out.lastname = u.lastname;
  out.fullname = fullname(u);
  if (want('email')) out.email = u.email;
  if (full && want('department')) out.department = u.department;
  if (identity('idnumber') && want('idnumber') && u.idnumber) out.idnumber = u.idnumber;
  if (want('firstaccess')) out.firstaccess = u.firstaccess;
  if (want('lastaccess')) out.lastaccess = u.lastaccess;
  if (view === 'enrolled' && opts.courseid !== undefined && want('lastcourseaccess'))
    out.lastcourseaccess = site.enrolment(opts.courseid, u.id)?.lastaccess ?? 0;
  if (view === 'profile' && caller.siteadmin) {
    Object.assign(out, {
      auth: u.auth,
      suspended: u.suspended,
      confirmed: u.confirmed,
      lang: u.lang,
      theme: u.theme,
      timezone: u.timezone,
      mailformat: u.mailformat,
      trackforums: u.trackforums,
    });
  }
  if (want('profileimageurlsmall')) out.profileimageurlsmall = img(ctx, 'core', 'u/f2');
  if (want('profileimageurl')) out.profileimageurl = img(ctx, 'core', 'u/f1');
  if (view === 'enrolled' && opts.courseid !== undefined) {
    const courseid = opts.courseid;
    if (want('groups')) {
      out.groups = site.groupsOfUser(courseid, u.id).map((g) => ({
        id: g.id,
        name: g.name,
        description: g.description,
        descriptionformat: g.descriptionformat,
      }));
    }
    if (want('roles')) {
      const e = site.enrolment(courseid, u.id);
      out.roles = e
        ? [
            {
              roleid: e.roleid,
              name: '',
              shortname: ROLES[e.roleid]?.shortname ?? 'student',
              sortorder: 0,
            },
          ]
        : [];
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

export function getEnrolledUsers(
  ctx: CallContext,
  p: { courseid: number; options: Array<{ name: string; value: string }> },
) {
  const { site } = ctx;
  const course = requireCourse(ctx, p.courseid);
  validateCourseContext(ctx, course);
  requireCap(ctx, course.id, 'viewparticipants', 'View participants');
  const o: Record<string, string> = {};
  for (const { name, value: v } of p.options) o[name.toLowerCase()] = v;
  const sortby = o.sortby ?? 'id';
  if (!['id', 'firstname', 'lastname', 'siteorder'].includes(sortby))
    throw invalidParameter('Invalid sort field');
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

export function getUsersByField(ctx: CallContext, p: { field: string; values: string[] }) {
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

export const POLICY: Array<[RegExp | ((s: string) => boolean), string]> = [
  [(s) => s.length >= 8, '<div>Passwords must be at least 8 characters long.</div>'],
  [/\d/, '<div>Passwords must have at least 1 digit(s).</div>'],
  [/[a-z]/, '<div>Passwords must have at least 1 lower case letter(s).</div>'],
  [/[A-Z]/, '<div>Passwords must have at least 1 upper case letter(s).</div>'],
  [
    /[^A-Za-z0-9]/,
    '<div>The password must have at least 1 special character(s) such as *, -, or #.</div>',
  ],
];

// Moodle's user records are loose: any field may come, the checks below read them by name.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type LooseUser = Record<string, any>;

export function createUsers(ctx: CallContext, p: { users: LooseUser[] }) {
  const { site } = ctx;
  if (!ctx.caller.siteadmin) throw requiredCapability('Create users');
  const usernames = new Set(site.users.map((u) => u.username));
  const emails = new Set(site.users.map((u) => u.email.toLowerCase()));
  const accepted: LooseUser[] = [];
  for (const u of p.users) {
    for (const f of ['username', 'firstname', 'lastname'])
      if (String(u[f]).trim() === '') throw invalidParameter(`The field ${f} cannot be blank`);
    if (usernames.has(u.username)) throw invalidParameter(`Username already exists: ${u.username}`);
    const auth = u.auth ?? 'manual';
    if (!['manual', 'nologin', 'email', 'oauth2', 'ldap'].includes(auth))
      throw invalidParameter(`Invalid authentication type: ${auth}`);
    if (['manual', 'email'].includes(auth) && !u.password && !u.createpassword) {
      throw invalidParameter(
        'Invalid password: you must provide a password, or set createpassword.',
      );
    }
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(u.email))
      throw invalidParameter(`Email address is invalid: ${u.email}`);
    if (!site.settings.allowSameEmail && emails.has(String(u.email).toLowerCase()))
      throw invalidParameter(`Email address already exists: ${u.email}`);
    if (u.password && !u.createpassword) {
      const failed = POLICY.filter(
        ([rule]) => !(typeof rule === 'function' ? rule(u.password) : rule.test(u.password)),
      )
        .map(([, msg]) => msg)
        .join('');
      if (failed) throw moodleException(failed, `error/${failed}`);
    }
    usernames.add(u.username);
    emails.add(String(u.email).toLowerCase());
    accepted.push(u);
  }
  // All or nothing: users are created only once every one passed.
  // The fields Moodle takes apart from the user row are dropped here.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- destructured to leave them out
  return accepted.map(({ createpassword, customfields, preferences, ...fields }) => {
    const row = site.addUser({
      ...(fields as Parameters<Site['addUser']>[0]),
      preferences: [{ name: 'auth_manual_passwordupdatetime', value: String(site.now()) }],
    });
    return { id: row.id, username: row.username };
  });
}

// --- Enrolments ------------------------------------------------------------------------------

export function enrolUsers(
  ctx: CallContext,
  p: {
    enrolments: Array<{
      roleid: number;
      userid: number;
      courseid: number;
      timestart?: number;
      suspend?: number;
    }>;
  },
) {
  const { site } = ctx;
  const planned: Array<() => void> = [];
  for (const e of p.enrolments) {
    const course = site.course(e.courseid);
    if (!course) throw invalidParameter('Context does not exist');
    validateCourseContext(ctx, course);
    requireCap(ctx, course.id, 'enrol', 'Enrol users');
    const assignable = ctx.caller.siteadmin ? [1, 3, 4, 5] : [4, 5];
    if (!assignable.includes(e.roleid)) {
      throw moodleException(
        'wsusercannotassign',
        `You don't have the permission to assign this role (${e.roleid}) to this user (${e.userid}) in this course (${e.courseid}).`,
      );
    }
    if (!course.enrolmethods.includes('manual')) {
      throw moodleException(
        'wsnoinstance',
        `Manual enrolment plugin instance doesn't exist or is disabled for the course (id = ${course.id})`,
      );
    }
    if (!site.user(e.userid))
      throw missingRecord('user', 'id', e.userid, {
        errorcode: 'invaliduser',
        message: 'Invalid user',
      });
    planned.push(() => site.enrol(e.courseid, e.userid, e.roleid, { status: e.suspend ? 1 : 0 }));
  }
  planned.forEach((f) => f());
  // Recorded from a real Moodle: the enrolments are committed, then the welcome message fails.
  if (site.settings.enrolMessageFails && planned.length)
    throw moodleException('Message was not sent.', 'Message was not sent.');
  return null;
}
