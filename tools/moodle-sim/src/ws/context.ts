/** The call context and the checks every web-service function shares (course, user, capability, access). */
import { courseContextNotValid, missingRecord, requiredCapability, type Desc } from '../params.js';
import { type SimCourse, type SimModule, type SimToken, type SimUser, type Site } from '../site.js';

export interface CallContext {
  site: Site;
  caller: SimUser;
  token: SimToken;
  /** Moodle's wwwroot as answers show it. */
  base: string;
}

export interface FunctionDef {
  params: Desc;
  // Each function's parameters are checked against its own description before it runs.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- typed per function
  run: (ctx: CallContext, p: any) => unknown;
}

// --- Shared pieces -------------------------------------------------------------------------

export const img = (ctx: CallContext, component: string, name: string) =>
  `${ctx.base}/theme/image.php/boost/${component}/${ctx.site.settings.themerev}/${name}`;

export function requireCourse(ctx: CallContext, courseid: number): SimCourse {
  const course = ctx.site.course(courseid);
  if (!course) throw missingRecord('course', 'id', courseid);
  return course;
}

export function requireUser(ctx: CallContext, userid: number): SimUser {
  const user = ctx.site.user(userid);
  if (!user) throw missingRecord('user', 'id', userid);
  return user;
}

/** validate_context on a course: a non-admin must be enrolled (require_login). */
export function validateCourseContext(ctx: CallContext, course: SimCourse) {
  if (ctx.caller.siteadmin || course.id === ctx.site.siteCourse.id) return;
  if (!ctx.site.enrolment(course.id, ctx.caller.id))
    throw courseContextNotValid(course.id, 'Course or activity not accessible.');
}

/** The courses a caller may see: all for an admin, the enrolled ones (and the front page) otherwise. */
export function visibleToCaller(ctx: CallContext, course: SimCourse) {
  return (
    ctx.caller.siteadmin ||
    course.id === ctx.site.siteCourse.id ||
    !!ctx.site.enrolment(course.id, ctx.caller.id)
  );
}

export function requireCap(ctx: CallContext, courseid: number, capability: string, name: string) {
  if (!ctx.site.can(ctx.caller.id, courseid, capability)) throw requiredCapability(name);
}

export const fullname = (u: SimUser) => `${u.firstname} ${u.lastname}`;
export const byLastName = (a: SimUser, b: SimUser) =>
  a.lastname.localeCompare(b.lastname) || a.firstname.localeCompare(b.firstname) || a.id - b.id;

export function isTracked(ctx: CallContext, courseid: number, userid: number) {
  const e = ctx.site.enrolment(courseid, userid);
  return !!e && e.status === 0 && e.roleid === 5;
}

export function ruleStatus(
  m: SimModule,
  c: { state: number; rules?: Record<string, number> },
  rule: string,
) {
  return c.rules?.[rule] ?? c.state;
}
