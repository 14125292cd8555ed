/** The user grade report (gradereport_user_get_grade_items). */
import { moodleException } from '../params.js';
import {
  type CallContext,
  requireCourse,
  validateCourseContext,
  requireCap,
  fullname,
  byLastName,
} from './context.js';

export const num = (n: number) => (Number.isInteger(n) ? String(n) : String(Number(n.toFixed(5))));
export const pct = (raw: number, min: number, max: number) =>
  `${((100 * (raw - min)) / (max - min || 1)).toFixed(2)} %`;

export function gradeFormatted(raw: number | null, gradepass: number) {
  if (raw === null) return '-';
  if (gradepass > 0) {
    const pass = raw >= gradepass;
    const icon = pass ? 'fa-check text-success' : 'fa-xmark text-danger';
    const title = pass ? 'Pass' : 'Fail';
    return `<i class="icon fa ${icon} fa-fw inline"  title="${title}" role="img" aria-label="${title}"></i>${raw.toFixed(2)}`;
  }
  return raw.toFixed(2);
}

export function gradeItems(
  ctx: CallContext,
  p: { courseid: number; userid: number; groupid: number },
) {
  const { site, caller } = ctx;
  const course = requireCourse(ctx, p.courseid);
  validateCourseContext(ctx, course);
  const grader = caller.siteadmin || site.can(caller.id, course.id, 'viewallgrades');
  // As Moodle (check_report_access): everybody (userid 0) needs moodle/grade:viewall, a capability
  // error; another user without it is refused with nopermissiontoviewgrades.
  if (p.userid === 0) requireCap(ctx, course.id, 'viewallgrades', 'View grades of other users');
  else if (p.userid !== caller.id && !grader)
    throw moodleException('nopermissiontoviewgrades', 'Can not view grades.');
  const lock = grader ? false : null;
  // As Moodle's user report: a hidden activity's grade item (hidden with it) is left out for a
  // caller without moodle/course:viewhiddenactivities, shown as hidden to one with it.
  const seesHidden = caller.siteadmin || site.can(caller.id, course.id, 'viewhiddenactivities');
  // The course total stays Moodle's (all items).
  const allGraded = site.modulesOf(course.id).filter((m) => m.gradeitem);
  const graded = allGraded.filter((m) => seesHidden || m.visible === 1);
  let users = site
    .enrolmentsOf(course.id)
    // As Moodle's report: for everybody (userid 0) only active enrolments; asked for one user, theirs whatever its status.
    .filter((e) => e.roleid === 5 && (e.status === 0 || p.userid !== 0))
    .map((e) => site.user(e.userid)!)
    .filter(
      (u) =>
        (p.userid ? u.id === p.userid : true) &&
        (p.groupid ? site.group(p.groupid)?.members.includes(u.id) : true),
    );
  users = users.sort(byLastName);
  const usergrades = users.map((u) => {
    const grades = graded.map((m) => ({ m, g: site.grade(m.gradeitem!.id, u.id) }));
    const gradedMax = grades
      .filter((x) => x.g.raw !== null)
      .reduce((s, x) => s + x.m.gradeitem!.grademax, 0);
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
        ...(has
          ? {
              weightraw: gi.grademax / (gradedMax || 1),
              weightformatted: `${((100 * gi.grademax) / (gradedMax || 1)).toFixed(2)} %`,
            }
          : {}),
        graderaw: g.raw,
        gradedatesubmitted: null,
        gradedategraded: g.dategraded,
        gradehiddenbydate: false,
        gradeneedsupdate: false,
        gradeishidden: m.visible === 0,
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
    const withGrade = allGraded
      .map((m) => ({ m, g: site.grade(m.gradeitem!.id, u.id) }))
      .filter((x) => x.g.raw !== null);
    const total = withGrade.length ? withGrade.reduce((s, x) => s + x.g.raw!, 0) : null;
    const totalMax = allGraded.reduce((s, m) => s + m.gradeitem!.grademax, 0) || 100;
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
    return {
      courseid: course.id,
      courseidnumber: course.idnumber,
      userid: u.id,
      userfullname: fullname(u),
      useridnumber: u.idnumber,
      maxdepth: 2,
      gradeitems: items,
    };
  });
  return { usergrades, warnings: [] };
}
