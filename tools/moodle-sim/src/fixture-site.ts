import { ALL_FUNCTIONS } from './functions.js';
import { LOREM } from './lorem.js';
import { createSite } from './new-site.js';
import type { Site } from './site.js';

/**
 * The site the recorded fixtures came from (fixtures/MOODLE-CONTRACT.md, "The site the
 * fixtures came from", and fixtures/ids.json), with the recorded timestamps: loaded with it
 * (and wwwroot http://127.0.0.1:8081) the simulator answers like the recorded Moodle.
 */

export const FIXTURE_TOKENS = {
  /** Site administrator, service with every function. */
  admin: 'a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f',
  /** student1 (Ana Silva), same service: shows what a student may not do. */
  student: 'b5a1c2d3e4f5a6b7c8d9e0f1a2b3c4d5',
  /** Administrator with a read-only service (no user, enrolment or group writes). */
  readonly: 'c0ffee00c0ffee00c0ffee00c0ffee00',
} as const;

export const FIXTURE_WWWROOT = 'http://127.0.0.1:8081';

const READ_FUNCTIONS = ALL_FUNCTIONS.filter(
  (f) =>
    ![
      'core_user_create_users',
      'enrol_manual_enrol_users',
      'core_group_create_groups',
      'core_group_add_group_members',
    ].includes(f),
);

/** Options: without students (to replay the creation calls of the fixtures). */
export function fixtureSite(o: { withPeople?: boolean } = {}): Site {
  const withPeople = o.withPeople ?? true;
  const site = createSite({
    sitename: 'Sim Test Moodle',
    shortname: 'simtest',
    summary: 'fixture site',
    timecreated: 1795335550,
  });
  site.settings.themerev = 1795335593;
  site.siteCourse.timemodified = 1795335603;
  site.siteCourse.cacherev = 1795335593;
  site.functionVersions = Object.fromEntries(ALL_FUNCTIONS.map((f) => [f, '2026020500']));
  site.functionVersions.gradereport_user_get_grade_items = '2025100600';
  site.functionVersions.enrol_manual_enrol_users = '2025100600';

  site.addCategory({
    id: 1,
    name: 'Category 1',
    idnumber: null,
    sortorder: 10000,
    timemodified: 1795335550,
  });
  site.addCategory({
    id: 2,
    name: 'Training Org',
    idnumber: 'CAT-TRAIN',
    description: 'Top category',
    sortorder: 20000,
    timemodified: 1795335664,
  });
  site.addCategory({
    id: 3,
    name: 'Forklift',
    idnumber: 'CAT-FORK',
    description: `Test course category 2<br />\n${LOREM}`,
    parent: 2,
    sortorder: 30000,
    timemodified: 1795335664,
  });

  const common = {
    format: 'topics',
    startdate: 0,
    timecreated: 1795335679,
    timemodified: 1795335679,
    enablecompletion: 1,
  };
  const fs101 = site.addCourse(
    {
      ...common,
      id: 4,
      shortname: 'FS101',
      fullname: 'Forklift Safety 101',
      idnumber: 'FS101',
      summary: '<p>Basic forklift safety</p>',
      categoryid: 3,
      sortorder: 30001,
      startdate: 1767657600,
      enddate: 1797552000,
      contextid: 16,
      cacherev: 1795335693,
      completioncriteria: [1, 2],
      gradecategoryid: 3,
      gradeitemid: 3,
    },
    0,
  );
  site.addSection(4, { id: 10, name: 'General' });
  const s11 = site.addSection(4, { id: 11 });
  const s12 = site.addSection(4, { id: 12 });
  const fa1 = site.addCourse(
    {
      ...common,
      id: 5,
      shortname: 'FA1',
      fullname: 'First Aid',
      summary: `Test course 2<br />\n${LOREM}`,
      categoryid: 2,
      sortorder: 20001,
      startdate: 1795305600,
      contextid: 17,
      cacherev: 1795335684,
    },
    0,
  );
  for (let i = 0; i <= 5; i++)
    site.addSection(fa1.id, { id: 13 + i, name: i === 0 ? 'General' : 'New section' });

  const t = 1795335679;
  site.addModule(s11.id, {
    id: 1,
    modname: 'page',
    name: 'Safety intro',
    instance: 1,
    contextid: 18,
    completion: 1,
    timemodified: t,
  });
  site.addModule(s11.id, {
    id: 2,
    modname: 'assign',
    name: 'Practical assessment',
    instance: 1,
    contextid: 19,
    completion: 2,
    rules: [{ rulename: 'completionusegrade', description: 'Receive a grade' }],
    customdata: '{"customcompletionrules":{"completionsubmit":"0"}}',
    timemodified: t,
    gradeitem: site.newGradeItem(fs101.id, { id: 4, gradepass: 50 }),
  });
  site.addModule(s12.id, {
    id: 3,
    modname: 'url',
    name: 'Regulations link',
    instance: 1,
    contextid: 20,
    completion: 2,
    rules: [{ rulename: 'completionview', description: 'View' }],
    customdata: '{"display":4,"filtericon":true}',
    externalurl: 'https://example.com/regs',
    timemodified: t,
  });
  site.addModule(s12.id, {
    id: 4,
    modname: 'label',
    name: 'End of course notes',
    instance: 1,
    contextid: 21,
    description: '<div class="no-overflow">End of course notes</div>',
    timemodified: t,
  });

  site.addToken(FIXTURE_TOKENS.admin, 2, [...ALL_FUNCTIONS]);
  site.addToken(FIXTURE_TOKENS.readonly, 2, READ_FUNCTIONS);
  if (!withPeople) return site;

  const ana = site.addUser({
    id: 3,
    username: 'student1',
    firstname: 'Ana',
    lastname: 'Silva',
    email: 'ana@example.com',
    idnumber: 'EMP-001',
    firstaccess: 1794471725,
    lastaccess: 1795332125,
    preferences: [
      { name: 'auth_manual_passwordupdatetime', value: '1795335693' },
      { name: 'last_time_enrolments_synced', value: '1795335745' },
    ],
  });
  const bruno = site.addUser({
    id: 4,
    username: 'student2',
    firstname: 'Bruno',
    lastname: 'Costa',
    email: 'bruno@example.com',
    idnumber: 'EMP-002',
    firstaccess: 1794903725,
    lastaccess: 1795076525,
  });
  const carla = site.addUser({
    id: 5,
    username: 'student3',
    firstname: 'Carla',
    lastname: 'Reis',
    email: 'carla@example.com',
    department: 'Warehouse',
  });
  site.enrol(fs101.id, ana.id, 5, { lastaccess: 1795332125 });
  site.enrol(fs101.id, bruno.id, 5, { lastaccess: 1795076525 });
  site.enrol(fs101.id, carla.id, 5, { lastaccess: 0 });
  site.addGroup({
    id: 1,
    courseid: fs101.id,
    name: 'Classroom A',
    description: 'Morning class',
    idnumber: 'CLS-A',
    members: [ana.id, bruno.id],
  });
  site.addGroup({ id: 2, courseid: fs101.id, name: 'Classroom B', members: [carla.id] });

  const done = 1795335725;
  site.setCompletion(1, ana.id, 1, done);
  site.setCompletion(2, ana.id, 2, done);
  site.setCompletion(3, ana.id, 1, done);
  site.setCompletion(1, bruno.id, 1, done);
  site.setCompletion(2, bruno.id, 3, done);
  site.setGrade(4, ana.id, 85, 'Well done', done);
  site.setGrade(4, bruno.id, 45, '', done);

  site.addToken(FIXTURE_TOKENS.student, ana.id, [...ALL_FUNCTIONS]);
  return site;
}
