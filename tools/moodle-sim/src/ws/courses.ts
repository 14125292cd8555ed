/** Site information, categories and courses. */
import { invalidParameter } from '../params.js';
import { type SimCourse } from '../site.js';
import { type CallContext, img, visibleToCaller, fullname } from './context.js';

export const ADVANCED_FEATURES: Array<[string, number]> = [
  ['usecomments', 1],
  ['usetags', 1],
  ['enablenotes', 1],
  ['messaging', 1],
  ['enableblogs', 1],
  ['enablecompletion', 1],
  ['enablebadges', 1],
  ['messagingallusers', 0],
  ['enablecustomreports', 1],
  ['enableglobalsearch', 0],
  ['mnet_dispatcher_mode', 0],
  ['enablecompetencies', 1],
];

export function siteInfo(ctx: CallContext) {
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
    functions: ctx.token.functions.map((name) => ({
      name,
      version: site.functionVersions[name] ?? site.settings.version,
    })),
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

export function getCategories(
  ctx: CallContext,
  p: { criteria: Array<{ key: string; value: string }>; addsubcategories: boolean },
) {
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
    for (const c of site.categories)
      if (site.categoryPath(c).some((id) => ids.has(id)) && (admin || c.visible)) ids.add(c.id);
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
        ? {
            ...common,
            idnumber: c.idnumber,
            description: c.description,
            descriptionformat: c.descriptionformat,
            parent: c.parent,
            sortorder: c.sortorder,
            coursecount,
            visible: c.visible,
            visibleold: c.visibleold,
            timemodified: c.timemodified,
            ...tail,
            theme: c.theme,
          }
        : {
            ...common,
            description: c.description,
            descriptionformat: c.descriptionformat,
            parent: c.parent,
            sortorder: c.sortorder,
            coursecount,
            ...tail,
          };
    });
}

export function lastSectionNumber(ctx: CallContext, c: SimCourse) {
  if (c.format === 'site')
    return Number(c.formatoptions.find((o) => o.name === 'numsections')?.value ?? 1);
  return Math.max(0, ...ctx.site.sectionsOf(c.id).map((s) => s.section));
}

export function getCourses(ctx: CallContext, p: { options: { ids?: number[] } }) {
  const all = [ctx.site.siteCourse, ...ctx.site.courses];
  const list = p.options.ids?.length
    ? all.filter((c) => p.options.ids!.includes(c.id)).sort((a, b) => a.id - b.id)
    : [...all].sort((a, b) => a.sortorder - b.sortorder);
  return list
    .filter((c) => visibleToCaller(ctx, c))
    .map((c) => {
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

export const FILTERS = [
  'displayh5p',
  'activitynames',
  'mathjaxloader',
  'emoticon',
  'urltolink',
  'mediaplugin',
];

export function getCoursesByField(ctx: CallContext, p: { field: string; value: string }) {
  const { site } = ctx;
  const all = [site.siteCourse, ...site.courses].sort((a, b) => a.id - b.id);
  const v = p.value;
  const tests: Record<string, (c: SimCourse) => boolean> = {
    '': () => true,
    id: (c) => c.id === Number(v),
    ids: (c) =>
      v
        .split(',')
        .map((x) => Number(x.trim()))
        .includes(c.id),
    shortname: (c) => c.shortname === v,
    idnumber: (c) => c.idnumber === v,
    category: (c) => c.categoryid === Number(v),
    sectionid: (c) => site.sections.some((s) => s.id === Number(v) && s.courseid === c.id),
  };
  const test = tests[p.field];
  if (!test) throw invalidParameter('Invalid field name');
  const courses = all
    .filter((c) => test(c) && visibleToCaller(ctx, c))
    .map((c) => {
      const category = site.category(c.categoryid);
      const contacts = site
        .enrolmentsOf(c.id)
        .filter((e) => e.roleid === 3)
        .map((e) => site.user(e.userid)!)
        .map((u) => ({ id: u.id, fullname: fullname(u) }));
      const formatoptions =
        c.format === 'site' ? undefined : [...c.formatoptions, { name: 'indentation', value: '1' }];
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
