import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFields, type MoodleParams } from '../../../apps/server/src/moodle/encode.js';
import { FIXTURE_TOKENS, FIXTURE_WWWROOT, fixtureSite } from '../src/fixture-site.js';
import { startMoodleSim, type SimServer } from '../src/server.js';
import type { Site } from '../src/site.js';

/**
 * Contract: loaded with the fixture site, the simulator answers every request we can replay
 * exactly like the recorded Moodle 5.2 (fixtures/): same fields, order, types and values.
 * Timestamps and cache revisions may differ (10-digit numbers are compared as "T").
 * Each case below is the request that produced its fixture.
 */
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
const { admin, student, readonly } = FIXTURE_TOKENS;

interface Case {
  fixture: string;
  fn: string;
  params?: MoodleParams;
  token?: string | null;
  /** No moodlewsrestformat: Moodle's default XML. */
  xml?: boolean;
  get?: boolean;
  debug?: boolean;
  setup?: (site: Site) => void;
}

const newUser = (o: Record<string, string | boolean>) => ({
  username: 'newuser',
  firstname: 'New',
  lastname: 'User',
  email: 'new@example.com',
  createpassword: true,
  ...o,
});

const CASES: Case[] = [
  // Site and catalogue.
  { fixture: 'core_webservice_get_site_info.json', fn: 'core_webservice_get_site_info' },
  { fixture: 'student_site_info.json', fn: 'core_webservice_get_site_info', token: student },
  { fixture: 'core_course_get_categories.json', fn: 'core_course_get_categories' },
  {
    fixture: 'core_course_get_categories_by_parent.json',
    fn: 'core_course_get_categories',
    params: { criteria: [{ key: 'parent', value: 2 }] },
  },
  { fixture: 'student_get_categories.json', fn: 'core_course_get_categories', token: student },
  { fixture: 'core_course_get_courses.json', fn: 'core_course_get_courses' },
  {
    fixture: 'core_course_get_courses_by_ids.json',
    fn: 'core_course_get_courses',
    params: { options: { ids: [4] } },
  },
  {
    fixture: 'core_course_get_courses_by_field.json',
    fn: 'core_course_get_courses_by_field',
    params: { field: 'id', value: 4 },
  },
  { fixture: 'core_course_get_courses_by_field_all.json', fn: 'core_course_get_courses_by_field' },
  {
    fixture: 'core_course_get_courses_by_field_category.json',
    fn: 'core_course_get_courses_by_field',
    params: { field: 'category', value: 3 },
  },
  {
    fixture: 'core_course_get_courses_by_field_ids.json',
    fn: 'core_course_get_courses_by_field',
    params: { field: 'ids', value: '4,5' },
  },
  {
    fixture: 'core_course_get_courses_by_field_nomatch.json',
    fn: 'core_course_get_courses_by_field',
    params: { field: 'id', value: 999 },
  },
  // Contents, participants, progress.
  {
    fixture: 'core_course_get_contents.json',
    fn: 'core_course_get_contents',
    params: { courseid: 4 },
  },
  {
    fixture: 'core_course_get_contents_excludemodules.json',
    fn: 'core_course_get_contents',
    params: { courseid: 4, options: [{ name: 'excludemodules', value: 1 }] },
  },
  {
    fixture: 'student_get_contents.json',
    fn: 'core_course_get_contents',
    params: { courseid: 4 },
    token: student,
  },
  {
    fixture: 'core_enrol_get_enrolled_users.json',
    fn: 'core_enrol_get_enrolled_users',
    params: { courseid: 4 },
  },
  {
    fixture: 'core_enrol_get_enrolled_users_empty_course.json',
    fn: 'core_enrol_get_enrolled_users',
    params: { courseid: 5 },
  },
  {
    fixture: 'core_enrol_get_enrolled_users_group.json',
    fn: 'core_enrol_get_enrolled_users',
    params: { courseid: 4, options: [{ name: 'groupid', value: 1 }] },
  },
  {
    fixture: 'core_enrol_get_enrolled_users_paged.json',
    fn: 'core_enrol_get_enrolled_users',
    params: {
      courseid: 4,
      options: [
        { name: 'userfields', value: 'fullname,email,lastcourseaccess' },
        { name: 'limitfrom', value: 1 },
        { name: 'limitnumber', value: 1 },
      ],
    },
  },
  {
    fixture: 'student_enrolled_users.json',
    fn: 'core_enrol_get_enrolled_users',
    params: { courseid: 4 },
    token: student,
  },
  ...[3, 4, 5].flatMap((userid) => [
    {
      fixture: `core_completion_get_activities_completion_status_user${userid}.json`,
      fn: 'core_completion_get_activities_completion_status',
      params: { courseid: 4, userid },
    },
    {
      fixture: `core_completion_get_course_completion_status_user${userid}.json`,
      fn: 'core_completion_get_course_completion_status',
      params: { courseid: 4, userid },
    },
  ]),
  {
    fixture: 'core_completion_get_activities_completion_status_course2.json',
    fn: 'core_completion_get_activities_completion_status',
    params: { courseid: 5, userid: 3 },
  },
  {
    fixture: 'student_own_completion.json',
    fn: 'core_completion_get_activities_completion_status',
    params: { courseid: 4, userid: 3 },
    token: student,
  },
  {
    fixture: 'student_own_course_completion.json',
    fn: 'core_completion_get_course_completion_status',
    params: { courseid: 4, userid: 3 },
    token: student,
  },
  {
    fixture: 'gradereport_user_get_grade_items.json',
    fn: 'gradereport_user_get_grade_items',
    params: { courseid: 4, userid: 0 },
  },
  {
    fixture: 'gradereport_user_get_grade_items_empty_course.json',
    fn: 'gradereport_user_get_grade_items',
    params: { courseid: 5 },
  },
  {
    fixture: 'gradereport_user_get_grade_items_group2.json',
    fn: 'gradereport_user_get_grade_items',
    params: { courseid: 4, groupid: 2 },
  },
  {
    fixture: 'gradereport_user_get_grade_items_user3.json',
    fn: 'gradereport_user_get_grade_items',
    params: { courseid: 4, userid: 3 },
  },
  {
    fixture: 'student_own_grade_items.json',
    fn: 'gradereport_user_get_grade_items',
    params: { courseid: 4, userid: 3 },
    token: student,
  },
  // Users and groups.
  {
    fixture: 'core_user_get_users_by_field.json',
    fn: 'core_user_get_users_by_field',
    params: { field: 'id', values: [3, 5] },
  },
  {
    fixture: 'core_user_get_users_by_field_email.json',
    fn: 'core_user_get_users_by_field',
    params: { field: 'email', values: ['bruno@example.com'] },
  },
  {
    fixture: 'core_user_get_users_by_field_idnumber.json',
    fn: 'core_user_get_users_by_field',
    params: { field: 'idnumber', values: ['EMP-001'] },
  },
  {
    fixture: 'core_user_get_users_by_field_none.json',
    fn: 'core_user_get_users_by_field',
    params: { field: 'id', values: [999] },
  },
  {
    fixture: 'student_users_by_field.json',
    fn: 'core_user_get_users_by_field',
    params: { field: 'id', values: [4] },
    token: student,
  },
  {
    fixture: 'core_group_get_course_groups.json',
    fn: 'core_group_get_course_groups',
    params: { courseid: 4 },
  },
  {
    fixture: 'core_group_get_group_members.json',
    fn: 'core_group_get_group_members',
    params: { groupids: [1, 2] },
  },
  {
    fixture: 'get_request_group_members.json',
    fn: 'core_group_get_group_members',
    params: { groupids: [1] },
    get: true,
  },
  {
    fixture: 'xml_default_format.xml',
    fn: 'core_group_get_group_members',
    params: { groupids: [1] },
    xml: true,
  },
  // Transport errors.
  {
    fixture: 'error_invalid_token.json',
    fn: 'core_webservice_get_site_info',
    token: 'thisisnotatoken',
  },
  {
    fixture: 'error_invalid_token.xml',
    fn: 'core_webservice_get_site_info',
    token: 'thisisnotatoken',
    xml: true,
  },
  {
    fixture: 'debug_error_invalid_token.json',
    fn: 'core_webservice_get_site_info',
    token: 'thisisnotatoken',
    debug: true,
  },
  { fixture: 'error_missing_token.json', fn: 'core_webservice_get_site_info', token: null },
  {
    fixture: 'error_function_not_in_service.json',
    fn: 'core_user_create_users',
    params: { users: [newUser({})] },
    token: readonly,
  },
  {
    fixture: 'debug_error_function_not_in_service.json',
    fn: 'core_user_create_users',
    params: { users: [newUser({})] },
    token: readonly,
    debug: true,
  },
  {
    fixture: 'debug_error_student_no_rest_use.json',
    fn: 'core_webservice_get_site_info',
    token: student,
    debug: true,
    setup: (s) => void (s.user(3)!.restuse = false),
  },
  { fixture: 'error_unknown_function.json', fn: 'core_does_not_exist' },
  { fixture: 'debug_error_unknown_function.json', fn: 'core_does_not_exist', debug: true },
  {
    fixture: 'error_ws_disabled.json',
    fn: 'core_webservice_get_site_info',
    setup: (s) => void (s.settings.wsEnabled = false),
  },
  {
    fixture: 'error_rest_disabled.json',
    fn: 'core_webservice_get_site_info',
    setup: (s) => void (s.settings.restEnabled = false),
  },
  // Parameter validation.
  {
    fixture: 'bool_true_string.json',
    fn: 'core_course_get_categories',
    params: { addsubcategories: 'true' },
  },
  {
    fixture: 'bool_false_string.json',
    fn: 'core_course_get_categories',
    params: { addsubcategories: 'false' },
  },
  {
    fixture: 'error_bad_param_type.json',
    fn: 'core_course_get_contents',
    params: { courseid: 'abc' },
  },
  {
    fixture: 'debug_error_bad_param_type.json',
    fn: 'core_course_get_contents',
    params: { courseid: 'abc' },
    debug: true,
  },
  { fixture: 'error_missing_required_param.json', fn: 'core_course_get_contents' },
  {
    fixture: 'debug_error_missing_required_param.json',
    fn: 'core_course_get_contents',
    debug: true,
  },
  {
    fixture: 'error_unexpected_param.json',
    fn: 'core_user_create_users',
    params: { users: [newUser({ foo: 'bar' })] },
  },
  {
    fixture: 'debug_error_unexpected_param.json',
    fn: 'core_user_create_users',
    params: { users: [newUser({ foo: 'bar' })] },
    debug: true,
  },
  {
    fixture: 'error_enrolled_users_bad_sortby.json',
    fn: 'core_enrol_get_enrolled_users',
    params: { courseid: 4, options: [{ name: 'sortby', value: 'email' }] },
  },
  {
    fixture: 'error_get_courses_by_field_bad_field.json',
    fn: 'core_course_get_courses_by_field',
    params: { field: 'colour', value: 'x' },
  },
  {
    fixture: 'error_users_by_field_bad_field.json',
    fn: 'core_user_get_users_by_field',
    params: { field: 'colour', values: ['x'] },
  },
  // Records that do not exist.
  {
    fixture: 'error_course_not_found.json',
    fn: 'core_course_get_contents',
    params: { courseid: 999 },
  },
  {
    fixture: 'debug_error_course_not_found.json',
    fn: 'core_course_get_contents',
    params: { courseid: 999 },
    debug: true,
  },
  {
    fixture: 'error_enrolled_users_course_not_found.json',
    fn: 'core_enrol_get_enrolled_users',
    params: { courseid: 999 },
  },
  {
    fixture: 'error_grade_items_course_not_found.json',
    fn: 'gradereport_user_get_grade_items',
    params: { courseid: 999 },
  },
  {
    fixture: 'error_get_group_members_bad_group.json',
    fn: 'core_group_get_group_members',
    params: { groupids: [999] },
  },
  {
    fixture: 'error_get_course_groups_bad_course.json',
    fn: 'core_group_get_course_groups',
    params: { courseid: 999 },
  },
  {
    fixture: 'error_completion_self_not_enrolled.json',
    fn: 'core_completion_get_activities_completion_status',
    params: { courseid: 4, userid: 2 },
  },
  {
    fixture: 'error_completion_user_not_enrolled.json',
    fn: 'core_completion_get_activities_completion_status',
    params: { courseid: 4, userid: 1 },
  },
  // Writes refused.
  {
    fixture: 'error_enrol_bad_user.json',
    fn: 'enrol_manual_enrol_users',
    params: { enrolments: [{ roleid: 5, userid: 999, courseid: 4 }] },
  },
  {
    fixture: 'debug_error_enrol_bad_user.json',
    fn: 'enrol_manual_enrol_users',
    params: { enrolments: [{ roleid: 5, userid: 999, courseid: 4 }] },
    debug: true,
  },
  {
    fixture: 'error_enrol_bad_course.json',
    fn: 'enrol_manual_enrol_users',
    params: { enrolments: [{ roleid: 5, userid: 3, courseid: 999 }] },
  },
  {
    fixture: 'error_enrol_bad_role.json',
    fn: 'enrol_manual_enrol_users',
    params: { enrolments: [{ roleid: 99, userid: 3, courseid: 4 }] },
  },
  {
    fixture: 'error_create_users_duplicate_email.json',
    fn: 'core_user_create_users',
    params: { users: [newUser({ email: 'ana@example.com' })] },
  },
  {
    fixture: 'debug_error_create_users_duplicate_email.json',
    fn: 'core_user_create_users',
    params: { users: [newUser({ email: 'ana@example.com' })] },
    debug: true,
  },
  {
    fixture: 'error_create_users_duplicate_username.json',
    fn: 'core_user_create_users',
    params: { users: [newUser({ username: 'student1' })] },
  },
  {
    fixture: 'debug_error_create_users_duplicate_username.json',
    fn: 'core_user_create_users',
    params: { users: [newUser({ username: 'student1' })] },
    debug: true,
  },
  {
    fixture: 'error_create_users_missing_field.json',
    fn: 'core_user_create_users',
    params: {
      users: [{ username: 'x1', firstname: 'X', email: 'x1@example.com', createpassword: true }],
    },
  },
  {
    fixture: 'debug_error_create_users_missing_field.json',
    fn: 'core_user_create_users',
    params: {
      users: [{ username: 'x1', firstname: 'X', email: 'x1@example.com', createpassword: true }],
    },
    debug: true,
  },
  {
    fixture: 'error_create_users_uppercase_username.json',
    fn: 'core_user_create_users',
    params: { users: [newUser({ username: 'NewUser' })] },
  },
  {
    fixture: 'error_create_users_weak_password.json',
    fn: 'core_user_create_users',
    params: {
      users: [
        {
          username: 'weak',
          firstname: 'W',
          lastname: 'P',
          email: 'weak@example.com',
          password: 'weak',
        },
      ],
    },
  },
  {
    fixture: 'error_create_groups_duplicate.json',
    fn: 'core_group_create_groups',
    params: { groups: [{ courseid: 4, name: 'Classroom A', description: '' }] },
  },
  {
    fixture: 'debug_error_create_groups_duplicate.json',
    fn: 'core_group_create_groups',
    params: { groups: [{ courseid: 4, name: 'Classroom A', description: '' }] },
    debug: true,
  },
  {
    fixture: 'error_create_groups_missing_description.json',
    fn: 'core_group_create_groups',
    params: { groups: [{ courseid: 4, name: 'Classroom C' }] },
  },
  {
    fixture: 'error_add_group_members_not_enrolled.json',
    fn: 'core_group_add_group_members',
    params: { members: [{ groupid: 1, userid: 2 }] },
  },
  {
    fixture: 'debug_error_add_group_members_not_enrolled.json',
    fn: 'core_group_add_group_members',
    params: { members: [{ groupid: 1, userid: 2 }] },
    debug: true,
  },
  // What a student's token may not do.
  {
    fixture: 'error_nocap_student_categories_not_visible_course.json',
    fn: 'core_course_get_contents',
    params: { courseid: 5 },
    token: student,
  },
  {
    fixture: 'error_nocap_student_create_users.json',
    fn: 'core_user_create_users',
    params: { users: [newUser({})] },
    token: student,
  },
  {
    fixture: 'error_nocap_student_enrol.json',
    fn: 'enrol_manual_enrol_users',
    params: { enrolments: [{ roleid: 5, userid: 3, courseid: 4 }] },
    token: student,
  },
  {
    fixture: 'error_nocap_student_get_course_groups.json',
    fn: 'core_group_get_course_groups',
    params: { courseid: 4 },
    token: student,
  },
  {
    fixture: 'error_nocap_student_grade_items_all.json',
    fn: 'gradereport_user_get_grade_items',
    params: { courseid: 4, userid: 0 },
    token: student,
  },
  {
    fixture: 'error_nocap_student_other_user_completion.json',
    fn: 'core_completion_get_activities_completion_status',
    params: { courseid: 4, userid: 4 },
    token: student,
  },
];

/** The recorded site was built by these calls: replayed on the same site without its people. */
const CREATION: Case[] = [
  {
    fixture: 'core_user_create_users.json',
    fn: 'core_user_create_users',
    params: {
      users: [
        {
          username: 'student1',
          firstname: 'Ana',
          lastname: 'Silva',
          email: 'ana@example.com',
          password: 'Ana-Secret-1',
          idnumber: 'EMP-001',
        },
        {
          username: 'student2',
          firstname: 'Bruno',
          lastname: 'Costa',
          email: 'bruno@example.com',
          password: 'Bruno-Secret-1',
          idnumber: 'EMP-002',
        },
        {
          username: 'student3',
          firstname: 'Carla',
          lastname: 'Reis',
          email: 'carla@example.com',
          createpassword: true,
          department: 'Warehouse',
        },
      ],
    },
  },
  {
    fixture: 'enrol_manual_enrol_users.json',
    fn: 'enrol_manual_enrol_users',
    params: { enrolments: [3, 4, 5].map((userid) => ({ roleid: 5, userid, courseid: 4 })) },
  },
  {
    fixture: 'core_group_create_groups.json',
    fn: 'core_group_create_groups',
    params: {
      groups: [
        { courseid: 4, name: 'Classroom A', description: 'Morning class', idnumber: 'CLS-A' },
        { courseid: 4, name: 'Classroom B', description: '' },
      ],
    },
  },
  {
    fixture: 'core_group_add_group_members.json',
    fn: 'core_group_add_group_members',
    params: {
      members: [
        { groupid: 1, userid: 3 },
        { groupid: 1, userid: 4 },
        { groupid: 2, userid: 5 },
      ],
    },
  },
  {
    fixture: 'core_group_add_group_members_again.json',
    fn: 'core_group_add_group_members',
    params: { members: [{ groupid: 1, userid: 3 }] },
  },
];

/** Timestamps and cache revisions (10-digit numbers) compare as "T". */
function normalise(v: unknown): unknown {
  if (typeof v === 'number') return v >= 1e9 && v < 1e10 ? 'T' : v;
  if (typeof v === 'string') return v.replace(/\b1\d{9}\b/g, 'T');
  if (Array.isArray(v)) return v.map(normalise);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalise(x)]));
  return v;
}

function recordedStatus(fixture: string) {
  const file = path.join(FIXTURES, 'headers', `${fixture.replace(/\.(json|xml)$/, '')}.headers`);
  if (!fs.existsSync(file) || fixture.endsWith('.xml')) return 200;
  return Number(/^HTTP\/\S+ (\d{3})/.exec(fs.readFileSync(file, 'utf8'))![1]);
}

async function send(sim: SimServer, c: Case) {
  const control: Array<[string, string]> = [];
  if (c.token !== null) control.push(['wstoken', c.token ?? admin]);
  control.push(['wsfunction', c.fn]);
  if (!c.xml) control.push(['moodlewsrestformat', 'json']);
  const body = new URLSearchParams([...control, ...encodeFields(c.params ?? {})]).toString();
  const endpoint = `${sim.url}/webservice/rest/server.php`;
  const res = c.get
    ? await fetch(`${endpoint}?${body}`)
    : await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    text: await res.text(),
  };
}

async function expectSame(sim: SimServer, c: Case) {
  sim.site.settings.debug = c.debug ?? false;
  const recorded = fs.readFileSync(path.join(FIXTURES, c.fixture), 'utf8');
  const got = await send(sim, c);
  expect(got.status).toBe(recordedStatus(c.fixture));
  if (recorded === '') {
    expect(got.text).toBe('');
    expect(got.contentType).toBe('text/html; charset=utf-8');
  } else if (c.fixture.endsWith('.xml')) {
    expect(got.text).toBe(recorded);
    expect(got.contentType).toBe('application/xml; charset=utf-8');
  } else {
    expect(got.contentType).toBe('application/json');
    expect(JSON.stringify(normalise(JSON.parse(got.text)))).toBe(
      JSON.stringify(normalise(JSON.parse(recorded))),
    );
  }
}

describe('moodle-sim answers like the recorded Moodle', () => {
  let sim: SimServer;
  beforeAll(async () => {
    sim = await startMoodleSim({ site: fixtureSite() });
    sim.site.settings.wwwroot = FIXTURE_WWWROOT;
  });
  afterAll(() => sim.close());

  it.each(CASES.map((c) => [c.fixture, c] as const))('%s', async (_name, c) => {
    const site = fixtureSite();
    site.settings.wwwroot = FIXTURE_WWWROOT;
    sim.site = site;
    c.setup?.(site);
    await expectSame(sim, c);
  });
});

describe('moodle-sim replays the creation of the fixture site', () => {
  it('users, enrolments, groups and members, answered like the recorded calls', async () => {
    const site = fixtureSite({ withPeople: false });
    const sim = await startMoodleSim({ site });
    try {
      for (const c of CREATION) await expectSame(sim, c);
      expect(site.enrolmentsOf(4).map((e) => e.userid)).toEqual([3, 4, 5]);
      expect(site.group(1)!.members).toEqual([3, 4]);
    } finally {
      await sim.close();
    }
  });

  it('covers every recorded answer except the ones documented here', () => {
    const covered = new Set([...CASES, ...CREATION].map((c) => c.fixture));
    const files = fs
      .readdirSync(FIXTURES)
      .filter((f) => /\.(json|xml)$/.test(f) && f !== 'ids.json');
    expect(files.filter((f) => !covered.has(f))).toEqual([]);
  });
});

describe('moodle-sim hides a hidden activity as Moodle 5.2 does', () => {
  const TEACHER_TOKEN = 'hiddenteachertoken000000000000000';
  const call = async (sim: SimServer, fn: string, params: MoodleParams) =>
    JSON.parse((await send(sim, { fixture: '', fn, params, token: TEACHER_TOKEN })).text);
  /** The course modules each read the sync makes lists, as the teacher's token sees them. */
  type Entry = Record<string, unknown>;
  const lists = async (
    sim: SimServer,
  ): Promise<{ contents: Entry[]; completion: Entry[]; grades: Entry[] }> => {
    const contents = await call(sim, 'core_course_get_contents', { courseid: 4 });
    const completion = await call(sim, 'core_completion_get_activities_completion_status', {
      courseid: 4,
      userid: 3,
    });
    const grades = await call(sim, 'gradereport_user_get_grade_items', { courseid: 4, userid: 0 });
    return {
      contents: contents.flatMap((s: { modules: Entry[] }) => s.modules),
      completion: completion.statuses,
      grades: grades.usergrades[0].gradeitems.filter((i: Entry) => i.itemtype === 'mod'),
    };
  };

  it('left out of contents, completion and the grade report without moodle/course:viewhiddenactivities; listed as hidden with it', async () => {
    const site = fixtureSite();
    const teacher = site.addUser({
      id: 8,
      username: 'teacher1',
      firstname: 'Tomás',
      lastname: 'Tutor',
      email: 'tutor@example.com',
    });
    site.enrol(4, teacher.id, 3);
    site.addToken(TEACHER_TOKEN, teacher.id, [
      'core_course_get_contents',
      'core_completion_get_activities_completion_status',
      'gradereport_user_get_grade_items',
    ]);
    site.module(2)!.visible = 0;
    const sim = await startMoodleSim({ site });
    try {
      site.prohibit(3, 'moodle/course:viewhiddenactivities');
      const without = await lists(sim);
      expect(without.contents.map((m) => m.id)).not.toContain(2);
      expect(without.contents.map((m) => m.id)).toContain(1);
      expect(without.completion.map((c) => c.cmid)).not.toContain(2);
      expect(without.completion.map((c) => c.cmid)).toContain(1);
      expect(without.grades.map((i) => i.cmid)).toEqual([]);

      site.allow(3, 'moodle/course:viewhiddenactivities');
      const withCap = await lists(sim);
      expect(withCap.contents.find((m) => m.id === 2)).toMatchObject({
        visible: 0,
        uservisible: true,
      });
      expect(withCap.completion.find((c) => c.cmid === 2)).toMatchObject({ uservisible: true });
      expect(withCap.grades.map((i) => [i.cmid, i.gradeishidden])).toEqual([[2, true]]);
    } finally {
      await sim.close();
    }
  });
});
