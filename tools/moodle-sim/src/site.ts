/**
 * The in-memory Moodle site the simulator serves: categories, courses with sections and course
 * modules, users, enrolments, groups, activity completion and grades, web-service tokens.
 * Field names follow Moodle's tables, so that answers can be built the way Moodle builds them.
 */
import {
  ROLE_CAPABILITIES,
  SIM_CAPABILITY_OF,
  type SimCategory,
  type SimCourse,
  type SimSection,
  type SimModule,
  type SimGradeItem,
  type SimUser,
  type SimEnrolment,
  type SimGroup,
  type SimCompletion,
  type SimGrade,
  type SimToken,
  type SimSettings,
} from './site-model.js';

export * from './site-model.js';

const key = (a: number, b: number) => `${a}:${b}`;

export class Site {
  settings: SimSettings = {
    sitename: 'Moodle simulado',
    release: '5.2dev (Build: 20260205)',
    version: '2026020500',
    themerev: 1795335593,
    debug: false,
    wsEnabled: true,
    restEnabled: true,
    allowSameEmail: false,
    enrolMessageFails: false,
    showuseridentity: ['email'],
  };
  /** The front page course (id 1, format "site"). */
  siteCourse!: SimCourse;
  categories: SimCategory[] = [];
  courses: SimCourse[] = [];
  sections: SimSection[] = [];
  modules: SimModule[] = [];
  users: SimUser[] = [];
  enrolments: SimEnrolment[] = [];
  groups: SimGroup[] = [];
  completions = new Map<string, SimCompletion>();
  grades = new Map<string, SimGrade>();
  tokens: SimToken[] = [];
  /** Versions of the functions, as core_webservice_get_site_info lists them. */
  functionVersions: Record<string, string> = {};
  private seq: Record<string, number> = {};

  /** Next id of a table (ids of fixtures are set explicitly, generated ones continue after). */
  nextId(table: string, atLeast = 1): number {
    const n = Math.max((this.seq[table] ?? 0) + 1, atLeast);
    this.seq[table] = n;
    return n;
  }

  /** Records an explicit id so that nextId continues after it. */
  useId(table: string, id: number): number {
    this.seq[table] = Math.max(this.seq[table] ?? 0, id);
    return id;
  }

  now(): number {
    return Math.floor(Date.now() / 1000);
  }

  // --- Lookups ------------------------------------------------------------------------------

  category(id: number) {
    return this.categories.find((c) => c.id === id);
  }

  course(id: number): SimCourse | undefined {
    return id === this.siteCourse?.id ? this.siteCourse : this.courses.find((c) => c.id === id);
  }

  private userIndex = { source: [] as SimUser[], size: -1, map: new Map<number, SimUser>() };
  private enrolmentIndex = {
    source: [] as SimEnrolment[],
    size: -1,
    map: new Map<string, SimEnrolment>(),
  };

  user(id: number) {
    const ix = this.userIndex;
    if (ix.source !== this.users || ix.size !== this.users.length) {
      this.userIndex = {
        source: this.users,
        size: this.users.length,
        map: new Map(this.users.map((u) => [u.id, u])),
      };
    }
    return this.userIndex.map.get(id);
  }

  module(id: number) {
    return this.modules.find((m) => m.id === id);
  }

  group(id: number) {
    return this.groups.find((g) => g.id === id);
  }

  sectionsOf(courseid: number) {
    return this.sections
      .filter((s) => s.courseid === courseid)
      .sort((a, b) => a.section - b.section);
  }

  /** Course modules in page order. */
  modulesOf(courseid: number): SimModule[] {
    return this.sectionsOf(courseid).flatMap((s) =>
      s.sequence.map((id) => this.module(id)!).filter(Boolean),
    );
  }

  enrolment(courseid: number, userid: number) {
    const ix = this.enrolmentIndex;
    if (ix.source !== this.enrolments || ix.size !== this.enrolments.length) {
      this.enrolmentIndex = {
        source: this.enrolments,
        size: this.enrolments.length,
        map: new Map(this.enrolments.map((e) => [key(e.courseid, e.userid), e])),
      };
    }
    return this.enrolmentIndex.map.get(key(courseid, userid));
  }

  enrolmentsOf(courseid: number) {
    return this.enrolments.filter((e) => e.courseid === courseid);
  }

  groupsOfUser(courseid: number, userid: number) {
    return this.groups.filter((g) => g.courseid === courseid && g.members.includes(userid));
  }

  completion(cmid: number, userid: number): SimCompletion {
    return this.completions.get(key(cmid, userid)) ?? { state: 0, timecompleted: 0 };
  }

  grade(itemid: number, userid: number): SimGrade {
    return this.grades.get(key(itemid, userid)) ?? { raw: null, dategraded: null, feedback: '' };
  }

  /**
   * Capabilities taken from a role on the whole site (a role override to "Prohibit"), as
   * `${roleid}:${capability}`; e.g. `3:viewhiddenactivities` for a teacher who may not see hidden
   * activities (moodle/course:viewhiddenactivities).
   */
  prohibited = new Set<string>();

  /**
   * Takes a capability, by Moodle's name (`moodle/grade:viewall`) or the simulator's, from a role
   * on the whole site: its calls then answer as Moodle does without it.
   */
  prohibit(roleid: number, capability: string) {
    const name = SIM_CAPABILITY_OF[capability] ?? capability;
    if (!Object.values(ROLE_CAPABILITIES).some((caps) => caps.has(name)))
      throw new Error(`Unknown capability in the simulator: ${capability}`);
    this.prohibited.add(`${roleid}:${name}`);
  }

  /** Gives back a capability taken with prohibit (the role's own again). */
  allow(roleid: number, capability: string) {
    this.prohibited.delete(`${roleid}:${SIM_CAPABILITY_OF[capability] ?? capability}`);
  }

  /** True when a role of the user in the course has the capability (site admins have all). */
  can(userid: number, courseid: number, capability: string): boolean {
    const user = this.user(userid);
    if (user?.siteadmin) return true;
    const e = this.enrolment(courseid, userid);
    return (
      !!e &&
      (ROLE_CAPABILITIES[e.roleid]?.has(capability) ?? false) &&
      !this.prohibited.has(`${e.roleid}:${capability}`)
    );
  }

  // --- Building and changing the site (generator, tests) -----------------------------------

  addCategory(c: Partial<SimCategory> & { name: string }): SimCategory {
    const id = c.id ? this.useId('category', c.id) : this.nextId('category');
    const siblings = this.categories.length;
    const row: SimCategory = {
      id,
      name: c.name,
      idnumber: c.idnumber ?? null,
      description: c.description ?? '',
      descriptionformat: c.descriptionformat ?? 1,
      parent: c.parent ?? 0,
      sortorder: c.sortorder ?? (siblings + 1) * 10000,
      visible: c.visible ?? 1,
      visibleold: c.visibleold ?? 1,
      timemodified: c.timemodified ?? this.now(),
      theme: c.theme ?? '',
    };
    this.categories.push(row);
    return row;
  }

  categoryPath(c: SimCategory): number[] {
    const path: number[] = [];
    for (
      let cur: SimCategory | undefined = c;
      cur;
      cur = cur.parent ? this.category(cur.parent) : undefined
    )
      path.unshift(cur.id);
    return path;
  }

  addCourse(
    c: Partial<SimCourse> & { shortname: string; fullname: string; categoryid: number },
    sections = 1,
  ): SimCourse {
    const id = c.id ? this.useId('course', c.id) : this.nextId('course', 2);
    const category = this.category(c.categoryid);
    const now = this.now();
    const row: SimCourse = {
      id,
      shortname: c.shortname,
      fullname: c.fullname,
      idnumber: c.idnumber ?? '',
      summary: c.summary ?? '',
      summaryformat: c.summaryformat ?? 1,
      format: c.format ?? 'topics',
      categoryid: c.categoryid,
      sortorder:
        c.sortorder ??
        (category?.sortorder ?? 0) +
          1 +
          this.courses.filter((x) => x.categoryid === c.categoryid).length,
      showgrades: c.showgrades ?? 1,
      newsitems: c.newsitems ?? 0,
      startdate: c.startdate ?? now,
      enddate: c.enddate ?? 0,
      maxbytes: c.maxbytes ?? 0,
      showreports: c.showreports ?? 0,
      visible: c.visible ?? 1,
      groupmode: c.groupmode ?? 0,
      groupmodeforce: c.groupmodeforce ?? 0,
      defaultgroupingid: c.defaultgroupingid ?? 0,
      timecreated: c.timecreated ?? now,
      timemodified: c.timemodified ?? now,
      enablecompletion: c.enablecompletion ?? 1,
      completionnotify: c.completionnotify ?? 0,
      lang: c.lang ?? '',
      theme: c.theme ?? '',
      marker: c.marker ?? 0,
      legacyfiles: c.legacyfiles ?? 0,
      calendartype: c.calendartype ?? '',
      requested: c.requested ?? 0,
      cacherev: c.cacherev ?? now,
      contextid: c.contextid ? this.useId('context', c.contextid) : this.nextId('context', 100),
      showactivitydates: c.showactivitydates ?? true,
      showcompletionconditions:
        c.showcompletionconditions === undefined ? true : c.showcompletionconditions,
      formatoptions: c.formatoptions ?? [
        { name: 'hiddensections', value: 1 },
        { name: 'coursedisplay', value: 0 },
      ],
      enrolmethods: c.enrolmethods ?? ['manual'],
      completioncriteria: c.completioncriteria ?? [],
      gradecategoryid: c.gradecategoryid
        ? this.useId('gradecategory', c.gradecategoryid)
        : this.nextId('gradecategory'),
      gradeitemid: c.gradeitemid
        ? this.useId('gradeitem', c.gradeitemid)
        : this.nextId('gradeitem'),
    };
    this.courses.push(row);
    for (let i = 0; i < sections; i++)
      this.addSection(id, { name: i === 0 ? 'General' : 'New section' });
    return row;
  }

  addSection(courseid: number, s: Partial<SimSection> = {}): SimSection {
    const existing = this.sectionsOf(courseid);
    const row: SimSection = {
      id: s.id ? this.useId('section', s.id) : this.nextId('section'),
      courseid,
      section: s.section ?? existing.length,
      name: s.name ?? 'New section',
      summary: s.summary ?? '',
      summaryformat: s.summaryformat ?? 1,
      visible: s.visible ?? 1,
      sequence: s.sequence ?? [],
    };
    this.sections.push(row);
    return row;
  }

  /** Adds a course module at the end of a section; graded types get a grade item 0–100. */
  addModule(
    sectionid: number,
    m: Partial<SimModule> & { modname: string; name: string },
  ): SimModule {
    const section = this.sections.find((s) => s.id === sectionid);
    if (!section) throw new Error(`No section ${sectionid}`);
    const course = this.course(section.courseid)!;
    const id = m.id ? this.useId('cm', m.id) : this.nextId('cm');
    const instance = m.instance
      ? this.useId(`instance:${m.modname}`, m.instance)
      : this.nextId(`instance:${m.modname}`);
    const row: SimModule = {
      id,
      courseid: section.courseid,
      sectionid,
      modname: m.modname,
      instance,
      contextid: m.contextid ? this.useId('context', m.contextid) : this.nextId('context', 100),
      name: m.name,
      description: m.description,
      visible: m.visible ?? 1,
      visibleoncoursepage: m.visibleoncoursepage ?? 1,
      indent: m.indent ?? 0,
      customdata: m.customdata ?? '""',
      noviewlink: m.noviewlink ?? m.modname === 'label',
      completion: m.completion ?? 0,
      rules: m.rules ?? [],
      timemodified: m.timemodified ?? this.now(),
      externalurl: m.externalurl,
      gradeitem: m.gradeitem,
    };
    if (row.gradeitem && !row.gradeitem.categoryid)
      row.gradeitem.categoryid = course.gradecategoryid;
    this.modules.push(row);
    section.sequence.push(id);
    return row;
  }

  newGradeItem(courseid: number, o: Partial<SimGradeItem> = {}): SimGradeItem {
    const course = this.course(courseid)!;
    return {
      id: o.id ? this.useId('gradeitem', o.id) : this.nextId('gradeitem'),
      categoryid: o.categoryid ?? course.gradecategoryid,
      grademin: o.grademin ?? 0,
      grademax: o.grademax ?? 100,
      gradepass: o.gradepass ?? 0,
    };
  }

  addUser(
    u: Partial<SimUser> & { username: string; firstname: string; lastname: string; email: string },
  ): SimUser {
    const row: SimUser = {
      id: u.id ? this.useId('user', u.id) : this.nextId('user', 3),
      username: u.username,
      firstname: u.firstname,
      lastname: u.lastname,
      email: u.email,
      department: u.department ?? '',
      idnumber: u.idnumber ?? '',
      firstaccess: u.firstaccess ?? 0,
      lastaccess: u.lastaccess ?? 0,
      auth: u.auth ?? 'manual',
      suspended: u.suspended ?? false,
      confirmed: u.confirmed ?? true,
      lang: u.lang ?? 'en',
      theme: u.theme ?? '',
      timezone: u.timezone ?? '99',
      mailformat: u.mailformat ?? 1,
      trackforums: u.trackforums ?? 0,
      password: u.password,
      preferences: u.preferences ?? [],
      siteadmin: u.siteadmin ?? false,
      restuse: u.restuse ?? true,
    };
    this.users.push(row);
    return row;
  }

  enrol(courseid: number, userid: number, roleid = 5, o: Partial<SimEnrolment> = {}): SimEnrolment {
    const existing = this.enrolment(courseid, userid);
    if (existing) {
      existing.roleid = roleid;
      if (o.status !== undefined) existing.status = o.status;
      return existing;
    }
    const row: SimEnrolment = {
      courseid,
      userid,
      roleid,
      status: o.status ?? 0,
      timecreated: o.timecreated ?? this.now(),
      lastaccess: o.lastaccess ?? 0,
    };
    this.enrolments.push(row);
    return row;
  }

  /** Removes a user from a course: enrolment, group memberships (like Moodle's unenrol). */
  /** The module is deleted from the course (its section forgets it; grades and completion go with it). */
  removeModule(cmid: number): void {
    const m = this.module(cmid);
    if (!m) return;
    this.modules = this.modules.filter((x) => x.id !== cmid);
    for (const s of this.sections) s.sequence = s.sequence.filter((id) => id !== cmid);
  }

  unenrol(courseid: number, userid: number): void {
    this.enrolments = this.enrolments.filter(
      (e) => !(e.courseid === courseid && e.userid === userid),
    );
    for (const g of this.groups.filter((x) => x.courseid === courseid))
      g.members = g.members.filter((m) => m !== userid);
  }

  addGroup(g: Partial<SimGroup> & { courseid: number; name: string }): SimGroup {
    const row: SimGroup = {
      id: g.id ? this.useId('group', g.id) : this.nextId('group'),
      courseid: g.courseid,
      name: g.name,
      description: g.description ?? '',
      descriptionformat: g.descriptionformat ?? 1,
      enrolmentkey: g.enrolmentkey ?? null,
      idnumber: g.idnumber ?? '',
      visibility: g.visibility ?? 0,
      participation: g.participation ?? true,
      members: g.members ?? [],
    };
    this.groups.push(row);
    return row;
  }

  setCompletion(
    cmid: number,
    userid: number,
    state: number,
    timecompleted = state ? this.now() : 0,
    rules?: Record<string, number>,
  ): void {
    this.completions.set(key(cmid, userid), { state, timecompleted, ...(rules ? { rules } : {}) });
  }

  /** As Moodle, the grade is kept with 5 decimals (grade_grades.finalgrade decimal(10,5)): 200/3 is 66.66667. */
  setGrade(
    itemid: number,
    userid: number,
    raw: number | null,
    feedback = '',
    dategraded: number | null = raw === null ? null : this.now(),
  ): void {
    this.grades.set(key(itemid, userid), {
      raw: raw === null ? null : Number(raw.toFixed(5)),
      dategraded,
      feedback,
    });
  }

  /** Grades a module's item and, for "complete on grade" modules, sets pass/fail completion. */
  gradeModule(cmid: number, userid: number, raw: number | null, feedback = ''): void {
    const m = this.module(cmid);
    if (!m?.gradeitem) throw new Error(`Course module ${cmid} has no grade item`);
    this.setGrade(m.gradeitem.id, userid, raw, feedback);
    if (m.completion === 2 && m.rules.some((r) => r.rulename === 'completionusegrade')) {
      const state =
        raw === null ? 0 : m.gradeitem.gradepass > 0 ? (raw >= m.gradeitem.gradepass ? 2 : 3) : 1;
      this.setCompletion(cmid, userid, state);
    }
  }

  addToken(token: string, userid: number, functions: string[]): SimToken {
    const row = { token, userid, functions };
    this.tokens = this.tokens.filter((t) => t.token !== token);
    this.tokens.push(row);
    return row;
  }
}
