/** Course contents and activity/course completion. */
import { moodleException } from '../params.js';
import { MODULE_TYPES, type SimModule } from '../site.js';
import {
  type CallContext,
  img,
  requireCourse,
  requireUser,
  validateCourseContext,
  requireCap,
  isTracked,
  ruleStatus,
} from './context.js';

export function moduleContents(ctx: CallContext, m: SimModule) {
  if (m.modname === 'page') {
    return [
      {
        type: 'file',
        filename: 'index.html',
        filepath: '/',
        filesize: 0,
        fileurl: `${ctx.base}/webservice/pluginfile.php/${m.contextid}/mod_page/content/index.html?forcedownload=1`,
        timecreated: null,
        timemodified: m.timemodified,
        sortorder: 1,
        userid: null,
        author: null,
        license: null,
      },
    ];
  }
  if (m.modname === 'url') {
    return [
      {
        type: 'url',
        filename: m.name,
        filepath: null,
        filesize: 0,
        fileurl: m.externalurl ?? '',
        timecreated: null,
        timemodified: m.timemodified,
        sortorder: null,
        userid: null,
        author: null,
        license: null,
      },
    ];
  }
  return undefined;
}

export function completionData(ctx: CallContext, m: SimModule) {
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
    details: m.rules.map((r) => ({
      rulename: r.rulename,
      rulevalue: { status: ruleStatus(m, c, r.rulename), description: r.description },
    })),
    isoverallcomplete: c.state > 0,
  };
}

export const truthy = (v: string | undefined) =>
  v !== undefined && ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());

export function getContents(
  ctx: CallContext,
  p: { courseid: number; options: Array<{ name: string; value: string }> },
) {
  const { site, caller } = ctx;
  const course = requireCourse(ctx, p.courseid);
  validateCourseContext(ctx, course);
  const o: Record<string, string> = {};
  for (const { name, value: v } of p.options) o[name.toLowerCase()] = v;
  const manager = caller.siteadmin || site.can(caller.id, course.id, 'managegroups');
  // Hidden modules (visible 0) only for a caller with moodle/course:viewhiddenactivities; for any other they are left out.
  const seesHidden = caller.siteadmin || site.can(caller.id, course.id, 'viewhiddenactivities');
  return site
    .sectionsOf(course.id)
    .filter(
      (s) =>
        (o.sectionid ? s.id === Number(o.sectionid) : true) &&
        (o.sectionnumber ? s.section === Number(o.sectionnumber) : true),
    )
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
            .filter((m) => m && (seesHidden || m.visible === 1))
            .filter(
              (m) =>
                (o.cmid ? m.id === Number(o.cmid) : true) &&
                (o.modname ? m.modname === o.modname : true),
            )
            .map((m) => {
              const type = MODULE_TYPES[m.modname] ?? { plural: m.modname, purpose: 'other' };
              const contents = truthy(o.excludecontents) ? undefined : moduleContents(ctx, m);
              return {
                id: m.id,
                ...(m.noviewlink
                  ? {}
                  : { url: `${ctx.base}/mod/${m.modname}/view.php?id=${m.id}` }),
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
                ...(contents
                  ? {
                      contents,
                      contentsinfo: {
                        filescount: contents.length,
                        filessize: 0,
                        lastmodified: m.timemodified,
                        mimetypes: [],
                        repositorytype: '',
                      },
                    }
                  : {}),
              };
            }),
    }));
}

/** Checks shared by both completion functions: course, user, access, capability. */
export function completionTarget(
  ctx: CallContext,
  p: { courseid: number; userid: number },
  capabilityName: string,
) {
  const course = requireCourse(ctx, p.courseid);
  const user = requireUser(ctx, p.userid);
  validateCourseContext(ctx, course);
  if (user.id !== ctx.caller.id)
    requireCap(ctx, course.id, 'viewcompletionreports', capabilityName);
  return { course, user };
}

export function activitiesCompletion(ctx: CallContext, p: { courseid: number; userid: number }) {
  const { site } = ctx;
  const { course, user } = completionTarget(ctx, p, 'View activity completion reports');
  // As Moodle, only the modules the caller may see: hidden ones need moodle/course:viewhiddenactivities.
  const seesHidden =
    ctx.caller.siteadmin || site.can(ctx.caller.id, course.id, 'viewhiddenactivities');
  const modules = course.enablecompletion
    ? site.modulesOf(course.id).filter((m) => m.completion > 0 && (seesHidden || m.visible === 1))
    : [];
  if (modules.length && !site.enrolment(course.id, user.id)) {
    throw user.id === ctx.caller.id
      ? moodleException('notenroled', 'You are not enrolled in this course')
      : moodleException('usernotenroled', 'User is not enrolled in this course');
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
      details: m.rules.map((r) => ({
        rulename: r.rulename,
        rulevalue: { status: ruleStatus(m, c, r.rulename), description: r.description },
      })),
      isoverallcomplete: c.state > 0,
    };
  });
  return { statuses, warnings: [] };
}

export const REQUIREMENT: Record<string, string> = {
  completionusegrade: 'Achieving grade',
  completionview: 'Viewing',
  completionsubmit: 'Making a submission',
  completionpassgrade: 'Achieving passing grade',
};

export function courseCompletion(ctx: CallContext, p: { courseid: number; userid: number }) {
  const { site } = ctx;
  const { course, user } = completionTarget(ctx, p, 'View course completion report');
  if (!course.enablecompletion)
    throw moodleException('completionnotenabled', 'Completion is not enabled');
  if (!isTracked(ctx, course.id, user.id))
    throw moodleException(
      'nottracked',
      'You are currently not being tracked by completion in this course',
    );
  if (!course.completioncriteria.length)
    throw moodleException('nocriteriaset', 'No completion criteria set for this course');
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
        requirement:
          m.completion === 1
            ? 'Marking yourself complete'
            : m.rules.map((r) => REQUIREMENT[r.rulename] ?? r.description).join(', '),
        status: '',
      },
    };
  });
  return {
    completionstatus: {
      completed: completions.every((c) => c.complete),
      aggregation: 1,
      completions,
    },
    warnings: [],
  };
}
