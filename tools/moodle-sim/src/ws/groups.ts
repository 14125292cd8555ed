/** Groups and their members. */
import { courseContextNotValid, invalidParameter, missingRecord } from '../params.js';
import { type CallContext, validateCourseContext, requireCap, byLastName } from './context.js';

/** The group functions' course check: a missing or inaccessible course is errorcoursecontextnotvalid. */
export function groupCourse(ctx: CallContext, courseid: number) {
  const course = ctx.site.course(courseid);
  if (!course) throw courseContextNotValid(courseid, 'Invalid parameter value detected');
  validateCourseContext(ctx, course);
  requireCap(ctx, course.id, 'managegroups', 'Manage groups');
  return course;
}

export function getCourseGroups(ctx: CallContext, p: { courseid: number }) {
  const course = groupCourse(ctx, p.courseid);
  return ctx.site.groups
    .filter((g) => g.courseid === course.id)
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id)
    .map((g) => ({
      id: g.id,
      courseid: g.courseid,
      name: g.name,
      description: g.description,
      descriptionformat: g.descriptionformat,
      enrolmentkey: g.enrolmentkey,
      idnumber: g.idnumber,
      visibility: g.visibility,
      participation: g.participation,
    }));
}

export function createGroups(
  ctx: CallContext,
  p: {
    groups: Array<{
      courseid: number;
      name: string;
      description: string;
      descriptionformat: number;
      enrolmentkey?: string;
      idnumber?: string;
      visibility?: number;
      participation?: boolean;
    }>;
  },
) {
  const { site } = ctx;
  const names = new Set(site.groups.map((g) => `${g.courseid}:${g.name}`));
  const idnumbers = new Set(
    site.groups.filter((g) => g.idnumber).map((g) => `${g.courseid}:${g.idnumber}`),
  );
  for (const g of p.groups) {
    groupCourse(ctx, g.courseid);
    if (names.has(`${g.courseid}:${g.name}`))
      throw invalidParameter('Group with the same name already exists in the course');
    if (g.idnumber && idnumbers.has(`${g.courseid}:${g.idnumber}`))
      throw invalidParameter('Group with the same idnumber already exists in the course');
    names.add(`${g.courseid}:${g.name}`);
    if (g.idnumber) idnumbers.add(`${g.courseid}:${g.idnumber}`);
  }
  return p.groups.map((g) => {
    const row = site.addGroup({
      courseid: g.courseid,
      name: g.name,
      description: g.description,
      descriptionformat: g.descriptionformat,
      enrolmentkey: g.enrolmentkey ?? null,
      idnumber: g.idnumber ?? '',
      visibility: g.visibility ?? 0,
      participation: g.participation ?? true,
    });
    return {
      id: row.id,
      courseid: row.courseid,
      name: row.name,
      description: row.description,
      descriptionformat: row.descriptionformat,
      enrolmentkey: g.enrolmentkey ?? '',
      idnumber: row.idnumber,
      visibility: row.visibility,
      participation: row.participation,
    };
  });
}

export function addGroupMembers(
  ctx: CallContext,
  p: { members: Array<{ groupid: number; userid: number }> },
) {
  const { site } = ctx;
  const planned: Array<() => void> = [];
  for (const m of p.members) {
    const group = site.group(m.groupid);
    if (!group) throw missingRecord('groups', 'id', m.groupid);
    if (!site.user(m.userid)) throw missingRecord('user', 'id', m.userid);
    groupCourse(ctx, group.courseid);
    if (!site.enrolment(group.courseid, m.userid))
      throw invalidParameter('Only enrolled users may be members of groups');
    planned.push(() => {
      if (!group.members.includes(m.userid)) group.members.push(m.userid);
    });
  }
  planned.forEach((f) => f());
  return null;
}

export function getGroupMembers(ctx: CallContext, p: { groupids: number[] }) {
  const { site } = ctx;
  return p.groupids.map((id) => {
    const group = site.group(id);
    if (!group) throw missingRecord('groups', 'id', id);
    groupCourse(ctx, group.courseid);
    const userids = group.members
      .map((u) => site.user(u)!)
      .sort(byLastName)
      .map((u) => u.id);
    return { groupid: group.id, userids };
  });
}
