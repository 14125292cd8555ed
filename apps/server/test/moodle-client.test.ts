import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.js';
import { interpretResponse } from '../src/moodle/answer-check.js';
import { mapConcurrent, MoodleClient, normalizeMoodleUrl } from '../src/moodle/client.js';
import {
  batchByFields,
  countFields,
  encodeFields,
  MAX_FIELDS_PER_REQUEST,
} from '../src/moodle/encode.js';
import { MoodleError } from '../src/moodle/errors.js';
import { ReadBudget } from '../src/moodle/read-budget.js';
import type { MoodleFunction } from '../src/moodle/schemas.js';
import { FIXTURE_TOKENS, fixtureSite } from '../../../tools/moodle-sim/src/fixture-site.js';
import { generateSite } from '../../../tools/moodle-sim/src/generator.js';
import { startMoodleSim } from '../../../tools/moodle-sim/src/server.js';

/**
 * Every recorded answer of a real Moodle 5.2 (tools/moodle-sim/fixtures,
 * docs/development/moodle-functions.md) goes through the client's parsing: success answers become typed data,
 * error answers the right MoodleError.
 */
const FIXTURES = path.join(REPO_ROOT, 'tools/moodle-sim/fixtures');

function readFixture(name: string) {
  const body = fs.readFileSync(path.join(FIXTURES, name), 'utf8');
  const headerFile = path.join(FIXTURES, 'headers', `${name.replace(/\.(json|xml)$/, '')}.headers`);
  let status = 200;
  let contentType = name.endsWith('.xml') ? 'application/xml; charset=utf-8' : 'application/json';
  if (fs.existsSync(headerFile) && name.endsWith('.json')) {
    const lines = fs.readFileSync(headerFile, 'utf8').split(/\r?\n/);
    status = Number(/^HTTP\/\S+ (\d{3})/.exec(lines[0]!)![1]);
    contentType =
      lines.find((l) => /^content-type:/i.test(l))?.replace(/^content-type:\s*/i, '') ?? '';
  } else if (fs.existsSync(headerFile)) {
    const lines = fs.readFileSync(headerFile, 'utf8').split(/\r?\n/);
    status = Number(/^HTTP\/\S+ (\d{3})/.exec(lines[0]!)![1]);
  }
  return { status, contentType, body };
}

/** Success fixtures: the function whose answer each file is. */
const SUCCESS: Record<string, MoodleFunction> = {
  'core_webservice_get_site_info.json': 'core_webservice_get_site_info',
  'student_site_info.json': 'core_webservice_get_site_info',
  'core_course_get_categories.json': 'core_course_get_categories',
  'core_course_get_categories_by_parent.json': 'core_course_get_categories',
  'student_get_categories.json': 'core_course_get_categories',
  'core_course_get_courses.json': 'core_course_get_courses',
  'core_course_get_courses_by_ids.json': 'core_course_get_courses',
  'core_course_get_courses_by_field.json': 'core_course_get_courses_by_field',
  'core_course_get_courses_by_field_all.json': 'core_course_get_courses_by_field',
  'core_course_get_courses_by_field_category.json': 'core_course_get_courses_by_field',
  'core_course_get_courses_by_field_ids.json': 'core_course_get_courses_by_field',
  'core_course_get_courses_by_field_nomatch.json': 'core_course_get_courses_by_field',
  'core_course_get_contents.json': 'core_course_get_contents',
  'core_course_get_contents_excludemodules.json': 'core_course_get_contents',
  'student_get_contents.json': 'core_course_get_contents',
  'core_enrol_get_enrolled_users.json': 'core_enrol_get_enrolled_users',
  'core_enrol_get_enrolled_users_empty_course.json': 'core_enrol_get_enrolled_users',
  'core_enrol_get_enrolled_users_group.json': 'core_enrol_get_enrolled_users',
  'core_enrol_get_enrolled_users_paged.json': 'core_enrol_get_enrolled_users',
  'student_enrolled_users.json': 'core_enrol_get_enrolled_users',
  'core_completion_get_activities_completion_status_course2.json':
    'core_completion_get_activities_completion_status',
  'core_completion_get_activities_completion_status_user3.json':
    'core_completion_get_activities_completion_status',
  'core_completion_get_activities_completion_status_user4.json':
    'core_completion_get_activities_completion_status',
  'core_completion_get_activities_completion_status_user5.json':
    'core_completion_get_activities_completion_status',
  'student_own_completion.json': 'core_completion_get_activities_completion_status',
  'core_completion_get_course_completion_status_user3.json':
    'core_completion_get_course_completion_status',
  'core_completion_get_course_completion_status_user4.json':
    'core_completion_get_course_completion_status',
  'core_completion_get_course_completion_status_user5.json':
    'core_completion_get_course_completion_status',
  'student_own_course_completion.json': 'core_completion_get_course_completion_status',
  'gradereport_user_get_grade_items.json': 'gradereport_user_get_grade_items',
  'gradereport_user_get_grade_items_empty_course.json': 'gradereport_user_get_grade_items',
  'gradereport_user_get_grade_items_group2.json': 'gradereport_user_get_grade_items',
  'gradereport_user_get_grade_items_user3.json': 'gradereport_user_get_grade_items',
  'student_own_grade_items.json': 'gradereport_user_get_grade_items',
  'core_user_get_users_by_field.json': 'core_user_get_users_by_field',
  'core_user_get_users_by_field_email.json': 'core_user_get_users_by_field',
  'core_user_get_users_by_field_idnumber.json': 'core_user_get_users_by_field',
  'core_user_get_users_by_field_none.json': 'core_user_get_users_by_field',
  'student_users_by_field.json': 'core_user_get_users_by_field',
  'core_user_create_users.json': 'core_user_create_users',
  'enrol_manual_enrol_users.json': 'enrol_manual_enrol_users',
  'core_group_get_course_groups.json': 'core_group_get_course_groups',
  'core_group_create_groups.json': 'core_group_create_groups',
  'core_group_add_group_members.json': 'core_group_add_group_members',
  'core_group_add_group_members_again.json': 'core_group_add_group_members',
  'core_group_get_group_members.json': 'core_group_get_group_members',
  'get_request_group_members.json': 'core_group_get_group_members',
};

/** Error fixtures: the function called and the MoodleError code expected. */
const ERRORS: Record<string, [MoodleFunction, string]> = {
  'bool_true_string.json': ['core_course_get_categories', 'invalidparameter'],
  'bool_false_string.json': ['core_course_get_categories', 'invalidparameter'],
  'error_invalid_token.json': ['core_webservice_get_site_info', 'invalidtoken'],
  'error_missing_token.json': ['core_webservice_get_site_info', 'invalidtoken'],
  'debug_error_invalid_token.json': ['core_webservice_get_site_info', 'invalidtoken'],
  'error_function_not_in_service.json': ['core_user_create_users', 'accessexception'],
  'debug_error_function_not_in_service.json': ['core_user_create_users', 'accessexception'],
  'debug_error_student_no_rest_use.json': ['core_webservice_get_site_info', 'accessexception'],
  'error_unknown_function.json': ['core_webservice_get_site_info', 'invalidrecordunknown'],
  'debug_error_unknown_function.json': ['core_webservice_get_site_info', 'invalidrecord'],
  'error_course_not_found.json': ['core_course_get_contents', 'invalidrecordunknown'],
  'debug_error_course_not_found.json': ['core_course_get_contents', 'invalidrecord'],
  'error_enrolled_users_course_not_found.json': [
    'core_enrol_get_enrolled_users',
    'invalidrecordunknown',
  ],
  'error_grade_items_course_not_found.json': [
    'gradereport_user_get_grade_items',
    'invalidrecordunknown',
  ],
  'error_get_group_members_bad_group.json': [
    'core_group_get_group_members',
    'invalidrecordunknown',
  ],
  'error_enrol_bad_user.json': ['enrol_manual_enrol_users', 'invalidrecordunknown'],
  'debug_error_enrol_bad_user.json': ['enrol_manual_enrol_users', 'invaliduser'],
  'error_enrol_bad_course.json': ['enrol_manual_enrol_users', 'invalidparameter'],
  'error_enrol_bad_role.json': ['enrol_manual_enrol_users', 'wsusercannotassign'],
  'error_bad_param_type.json': ['core_course_get_contents', 'invalidparameter'],
  'debug_error_bad_param_type.json': ['core_course_get_contents', 'invalidparameter'],
  'error_missing_required_param.json': ['core_course_get_contents', 'invalidparameter'],
  'debug_error_missing_required_param.json': ['core_course_get_contents', 'invalidparameter'],
  'error_unexpected_param.json': ['core_user_create_users', 'invalidparameter'],
  'debug_error_unexpected_param.json': ['core_user_create_users', 'invalidparameter'],
  'error_enrolled_users_bad_sortby.json': ['core_enrol_get_enrolled_users', 'invalidparameter'],
  'error_get_courses_by_field_bad_field.json': [
    'core_course_get_courses_by_field',
    'invalidparameter',
  ],
  'error_users_by_field_bad_field.json': ['core_user_get_users_by_field', 'codingerror'],
  'error_create_users_duplicate_email.json': ['core_user_create_users', 'invalidparameter'],
  'debug_error_create_users_duplicate_email.json': ['core_user_create_users', 'invalidparameter'],
  'error_create_users_duplicate_username.json': ['core_user_create_users', 'invalidparameter'],
  'debug_error_create_users_duplicate_username.json': [
    'core_user_create_users',
    'invalidparameter',
  ],
  'error_create_users_missing_field.json': ['core_user_create_users', 'invalidparameter'],
  'debug_error_create_users_missing_field.json': ['core_user_create_users', 'invalidparameter'],
  'error_create_users_uppercase_username.json': ['core_user_create_users', 'invalidparameter'],
  'error_create_users_weak_password.json': ['core_user_create_users', 'passwordpolicy'],
  'error_create_groups_duplicate.json': ['core_group_create_groups', 'invalidparameter'],
  'debug_error_create_groups_duplicate.json': ['core_group_create_groups', 'invalidparameter'],
  'error_create_groups_missing_description.json': ['core_group_create_groups', 'invalidparameter'],
  'error_add_group_members_not_enrolled.json': ['core_group_add_group_members', 'invalidparameter'],
  'debug_error_add_group_members_not_enrolled.json': [
    'core_group_add_group_members',
    'invalidparameter',
  ],
  'error_get_course_groups_bad_course.json': [
    'core_group_get_course_groups',
    'errorcoursecontextnotvalid',
  ],
  'error_nocap_student_categories_not_visible_course.json': [
    'core_course_get_contents',
    'errorcoursecontextnotvalid',
  ],
  'error_nocap_student_create_users.json': ['core_user_create_users', 'nopermissions'],
  'error_nocap_student_enrol.json': ['enrol_manual_enrol_users', 'nopermissions'],
  'error_nocap_student_get_course_groups.json': ['core_group_get_course_groups', 'nopermissions'],
  'error_nocap_student_grade_items_all.json': ['gradereport_user_get_grade_items', 'nopermissions'],
  'error_nocap_student_other_user_completion.json': [
    'core_completion_get_activities_completion_status',
    'nopermissions',
  ],
  'error_completion_self_not_enrolled.json': [
    'core_completion_get_activities_completion_status',
    'notenroled',
  ],
  'error_completion_user_not_enrolled.json': [
    'core_completion_get_activities_completion_status',
    'usernotenroled',
  ],
  'error_ws_disabled.json': ['core_webservice_get_site_info', 'wsdisabled'],
  'error_rest_disabled.json': ['core_webservice_get_site_info', 'wsdisabled'],
  'error_invalid_token.xml': ['core_webservice_get_site_info', 'notjson'],
  'xml_default_format.xml': ['core_group_get_group_members', 'notjson'],
};

const NOT_ANSWERS = new Set(['ids.json', 'MOODLE-CONTRACT.md', 'headers']);

function errorOf(fn: () => unknown): MoodleError {
  try {
    fn();
  } catch (e) {
    if (e instanceof MoodleError) return e;
    throw e;
  }
  throw new Error('expected a MoodleError');
}

describe('Moodle client: recorded answers of a real Moodle', () => {
  it('covers every fixture file', () => {
    const files = fs.readdirSync(FIXTURES).filter((f) => !NOT_ANSWERS.has(f));
    const unmapped = files.filter((f) => !(f in SUCCESS) && !(f in ERRORS));
    expect(unmapped).toEqual([]);
    expect(files.length).toBe(Object.keys(SUCCESS).length + Object.keys(ERRORS).length);
  });

  it.each(Object.entries(SUCCESS))('%s parses as %s', (file, fn) => {
    const data = interpretResponse(fn, readFixture(file));
    const raw = JSON.parse(readFixture(file).body);
    if (raw === null) expect(data).toBeNull();
    else expect(Array.isArray(data)).toBe(Array.isArray(raw));
  });

  it.each(Object.entries(ERRORS))('%s is the MoodleError %s', (file, [fn, code]) => {
    const error = errorOf(() => interpretResponse(fn, readFixture(file)));
    expect(error.code).toBe(code);
    expect(error.wsfunction).toBe(fn);
    expect(error.message).not.toMatch(/^Error de Moodle \(/);
    expect(error.retryable).toBe(false);
  });

  it('gives the typed values a sync relies on', () => {
    const users = interpretResponse(
      'core_enrol_get_enrolled_users',
      readFixture('core_enrol_get_enrolled_users.json'),
    );
    expect(users.map((u) => [u.id, u.idnumber, u.lastcourseaccess])).toEqual([
      [3, 'EMP-001', 1795332125],
      [4, 'EMP-002', 1795076525],
      [5, undefined, 0],
    ]);
    expect(users[0]!.roles![0]!.shortname).toBe('student');
    const grades = interpretResponse(
      'gradereport_user_get_grade_items',
      readFixture('gradereport_user_get_grade_items.json'),
    );
    const ana = grades.usergrades.find((g) => g.userid === 3)!;
    expect(ana.gradeitems.find((i) => i.cmid === 2)!.graderaw).toBe(85);
    expect(ana.gradeitems.find((i) => i.itemtype === 'course')!.graderaw).toBe(85);
    expect(grades.usergrades.find((g) => g.userid === 5)!.gradeitems[0]!.graderaw).toBeNull();
    const contents = interpretResponse(
      'core_course_get_contents',
      readFixture('core_course_get_contents.json'),
    );
    expect(
      contents.flatMap((s) => s.modules.map((m) => [s.id, m.id, m.modname, m.completion])),
    ).toEqual([
      [11, 1, 'page', 1],
      [11, 2, 'assign', 2],
      [12, 3, 'url', 2],
      [12, 4, 'label', 0],
    ]);
    const completion = interpretResponse(
      'core_completion_get_activities_completion_status',
      readFixture('core_completion_get_activities_completion_status_user4.json'),
    );
    expect(completion.statuses.map((s) => [s.cmid, s.state])).toEqual([
      [1, 1],
      [2, 3],
      [3, 0],
    ]);
    const site = interpretResponse(
      'core_webservice_get_site_info',
      readFixture('core_webservice_get_site_info.json'),
    );
    expect(site.release).toBe('5.2dev (Build: 20260205)');
    expect(site.functions).toHaveLength(16);
  });

  it('maps errors by errorcode, whatever the exception class, with Spanish messages', () => {
    const raw = (body: object) => ({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify(body),
    });
    for (const exception of ['core\\exception\\moodle_exception', 'moodle_exception']) {
      const e = errorOf(() =>
        interpretResponse(
          'core_webservice_get_site_info',
          raw({ exception, errorcode: 'invalidtoken', message: 'Invalid token - token not found' }),
        ),
      );
      expect(e.code).toBe('invalidtoken');
      expect(e.message).toBe('Token de Moodle inválido');
    }
    const access = errorOf(() =>
      interpretResponse(
        'core_user_create_users',
        readFixture('error_function_not_in_service.json'),
      ),
    );
    expect(access.message).toBe('Función no habilitada en el servicio web o sin permiso de uso');
    const disabled = errorOf(() =>
      interpretResponse('core_webservice_get_site_info', readFixture('error_ws_disabled.json')),
    );
    expect(disabled.message).toBe('Los servicios web de Moodle están deshabilitados');
    const nocap = errorOf(() =>
      interpretResponse('enrol_manual_enrol_users', readFixture('error_nocap_student_enrol.json')),
    );
    expect(nocap.message).toBe(
      'El usuario del token no tiene permiso en Moodle para esta operación: Enrol users',
    );
    const weak = errorOf(() =>
      interpretResponse(
        'core_user_create_users',
        readFixture('error_create_users_weak_password.json'),
      ),
    );
    expect(weak.message).toContain('Passwords must be at least 8 characters long.');
    expect(weak.message).not.toContain('<div>');
    const xml = errorOf(() =>
      interpretResponse('core_group_get_group_members', readFixture('xml_default_format.xml')),
    );
    expect(xml.message).toContain('no es JSON');
    const unknown = errorOf(() =>
      interpretResponse(
        'core_webservice_get_site_info',
        raw({ exception: 'moodle_exception', errorcode: 'somethingnew', message: 'New thing' }),
      ),
    );
    expect(unknown.message).toBe('Error de Moodle (somethingnew): New thing');
  });

  it('refuses an unexpected shape with a clear error, and accepts older 4.x answers', () => {
    const raw = (body: unknown) => ({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify(body),
    });
    const bad = errorOf(() =>
      interpretResponse('core_enrol_get_enrolled_users', raw([{ id: '3', fullname: 'Ana' }])),
    );
    expect(bad.code).toBe('invalidresponse');
    expect(bad.message).toContain('[0].id');
    // Moodle 4.1: no purpose/branded/isoverallcomplete, no group visibility/participation.
    const contents = JSON.parse(readFixture('core_course_get_contents.json').body) as Array<{
      modules: Array<Record<string, unknown>>;
    }>;
    for (const m of contents.flatMap((s) => s.modules)) {
      delete m.purpose;
      delete m.branded;
      if (m.completiondata) delete (m.completiondata as Record<string, unknown>).isoverallcomplete;
    }
    expect(interpretResponse('core_course_get_contents', raw(contents))).toHaveLength(3);
    const groups = JSON.parse(readFixture('core_group_get_course_groups.json').body) as Array<
      Record<string, unknown>
    >;
    for (const g of groups) {
      delete g.visibility;
      delete g.participation;
    }
    expect(interpretResponse('core_group_get_course_groups', raw(groups))).toHaveLength(2);
  });

  it('transport failures: HTTP 5xx retryable, 404 not, empty 200 is not JSON', () => {
    expect(
      errorOf(() =>
        interpretResponse('core_webservice_get_site_info', {
          status: 503,
          contentType: 'text/html',
          body: 'down',
        }),
      ).retryable,
    ).toBe(true);
    const notFound = errorOf(() =>
      interpretResponse('core_webservice_get_site_info', {
        status: 404,
        contentType: 'text/html',
        body: '<html>',
      }),
    );
    expect([notFound.code, notFound.retryable]).toEqual(['http', false]);
    expect(
      errorOf(() =>
        interpretResponse('core_webservice_get_site_info', {
          status: 200,
          contentType: 'text/html',
          body: '',
        }),
      ).code,
    ).toBe('notjson');
  });
});

describe('Moodle client: encoding and batching', () => {
  it('encodes nested arrays and objects as PHP brackets, booleans as 0/1, and skips absent values', () => {
    expect(
      encodeFields({
        courseid: 4,
        options: [
          { name: 'onlyactive', value: true },
          { name: 'groupid', value: 2 },
        ],
        criteria: { ids: [4, 5] },
        addsubcategories: false,
        skipped: undefined,
        alsoSkipped: null,
      }),
    ).toEqual([
      ['courseid', '4'],
      ['options[0][name]', 'onlyactive'],
      ['options[0][value]', '1'],
      ['options[1][name]', 'groupid'],
      ['options[1][value]', '2'],
      ['criteria[ids][0]', '4'],
      ['criteria[ids][1]', '5'],
      ['addsubcategories', '0'],
    ]);
  });

  it('keeps every request well below max_input_vars', () => {
    const users = Array.from({ length: 3000 }, (_, i) => ({
      username: `u${i}`,
      firstname: 'A',
      lastname: 'B',
      email: `u${i}@x.cl`,
      createpassword: true,
      idnumber: String(i),
    }));
    const batches = batchByFields(users);
    expect(batches.flat()).toHaveLength(3000);
    for (const b of batches) expect(countFields(b)).toBeLessThanOrEqual(MAX_FIELDS_PER_REQUEST);
    expect(MAX_FIELDS_PER_REQUEST).toBeLessThan(5000);
  });

  it('normalises the site URL, also when the REST endpoint was pasted', () => {
    expect(normalizeMoodleUrl('https://campus.example.cl/')).toBe('https://campus.example.cl');
    expect(normalizeMoodleUrl('https://campus.example.cl/moodle/webservice/rest/server.php')).toBe(
      'https://campus.example.cl/moodle',
    );
  });

  it('mapConcurrent keeps order and the limit', async () => {
    let active = 0;
    let peak = 0;
    const out = await mapConcurrent([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 5));
      active--;
      return n * 2;
    });
    expect(out).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(peak).toBe(3);
  });
});

describe('Moodle client: transport', () => {
  /** A tiny scripted server: each request gets the next scripted answer. */
  async function scripted(
    answers: Array<{
      status?: number;
      body?: string | Buffer;
      delayMs?: number;
      headers?: Record<string, string>;
    }>,
  ) {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push(body);
        const a = answers.shift() ?? { status: 200, body: '[]' };
        setTimeout(() => {
          res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers });
          res.end(a.body ?? '');
        }, a.delayMs ?? 0);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    return {
      url: `http://127.0.0.1:${port}`,
      seen,
      close: () => new Promise<void>((r) => server.close(() => r())),
    };
  }

  it('posts form-encoded control fields and retries read calls on 5xx and timeouts only', async () => {
    const s = await scripted([
      { status: 503, body: 'busy' },
      // Far past the timeout, which is far past a loaded machine's answer time.
      { delayMs: 2500, body: '[]' },
      { body: '[{"groupid":1,"userids":[4,3]}]' },
    ]);
    const calls: string[] = [];
    const client = new MoodleClient({
      baseUrl: s.url,
      token: 'abc123',
      retries: 2,
      retryDelayMs: 1,
      timeoutMs: 1000,
      onCall: (c) => calls.push(c.error?.code ?? 'ok'),
    });
    expect(await client.getGroupMembers([1])).toEqual([{ groupid: 1, userids: [4, 3] }]);
    expect(calls).toEqual(['http', 'timeout', 'ok']);
    expect(s.seen[0]).toBe(
      'wstoken=abc123&wsfunction=core_group_get_group_members&moodlewsrestformat=json&groupids%5B0%5D=1',
    );
    await s.close();
  });

  it('reads compressed answers and drops a byte order mark', async () => {
    const members = '[{"groupid":1,"userids":[4,3]}]';
    const s = await scripted([
      { body: zlib.gzipSync(members), headers: { 'content-encoding': 'gzip' } },
      { body: zlib.brotliCompressSync(members), headers: { 'content-encoding': 'br' } },
      { body: `\uFEFF${members}` },
    ]);
    const client = new MoodleClient({ baseUrl: s.url, token: 't', retries: 0 });
    for (let i = 0; i < 3; i++)
      expect(await client.getGroupMembers([1])).toEqual([{ groupid: 1, userids: [4, 3] }]);
    await s.close();
  });

  it('never repeats a write, and stops at the first Moodle error', async () => {
    const s = await scripted([{ status: 502, body: '' }]);
    const client = new MoodleClient({ baseUrl: s.url, token: 't', retries: 3, retryDelayMs: 1 });
    await expect(
      client.createUsers([
        { username: 'x', firstname: 'X', lastname: 'Y', email: 'x@y.cl', createpassword: true },
      ]),
    ).rejects.toMatchObject({ code: 'http', httpStatus: 502 });
    expect(s.seen).toHaveLength(1);
    const t = await scripted([
      {
        body: '{"exception":"moodle_exception","errorcode":"invalidtoken","message":"Invalid token - token not found"}',
      },
    ]);
    const bad = new MoodleClient({ baseUrl: t.url, token: 'bad', retries: 3, retryDelayMs: 1 });
    await expect(bad.getSiteInfo()).rejects.toMatchObject({
      code: 'invalidtoken',
      message: 'Token de Moodle inválido',
    });
    expect(t.seen).toHaveLength(1);
    await s.close();
    await t.close();
  });

  it('refuses to enrol with a role that is not allowed, before calling Moodle', async () => {
    const client = new MoodleClient({ baseUrl: 'http://127.0.0.1:1', token: 't' });
    await expect(client.enrolUsers([{ userid: 3, courseid: 4, roleid: 1 }])).rejects.toMatchObject({
      code: 'rolenotallowed',
    });
  });

  it('a refused connection is a network error with a clear message', async () => {
    const client = new MoodleClient({ baseUrl: 'http://127.0.0.1:1', token: 't', retries: 0 });
    const e = await client.getSiteInfo().then(
      () => {
        throw new Error('expected a failure');
      },
      (x: unknown) => x as MoodleError,
    );
    expect(e).toBeInstanceOf(MoodleError);
    expect([e.code, e.retryable]).toEqual(['network', true]);
    expect(e.message).toMatch(/^No se pudo conectar con Moodle/);
  });
});

describe('Moodle client: hostile answers', () => {
  /** Calls `fn` while a timer measures how long the event loop was held at most meanwhile. */
  async function withLoopWatch<T>(
    fn: () => Promise<T>,
  ): Promise<{ outcome: T | MoodleError; heldMs: number }> {
    let last = performance.now();
    let heldMs = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      heldMs = Math.max(heldMs, now - last);
      last = now;
    }, 5);
    try {
      const outcome = await fn().catch((e: unknown) => {
        if (e instanceof MoodleError) return e;
        throw e;
      });
      return { outcome, heldMs };
    } finally {
      clearInterval(timer);
    }
  }

  it('refuses compression bombs, a 100 MB site name, answers past the size limit and answers of the wrong shape at their first element, closing the connection, the event loop free meanwhile', async () => {
    const sim = await startMoodleSim({ site: fixtureSite() });
    const client = (maxAnswerBytes?: number) =>
      new MoodleClient({
        baseUrl: sim.url,
        token: FIXTURE_TOKENS.admin,
        retries: 2,
        retryDelayMs: 1,
        maxAnswerBytes,
      });
    try {
      const tooLarge = 'La respuesta de Moodle supera el tamaño admitido y no se leyó';
      const unexpected = 'Respuesta inesperada de Moodle';
      const cases = [
        // 146 million elements in ~300 KB: too many values for their size, seen in the first kilobytes.
        {
          fault: { kind: 'gzipbomb' as const },
          code: 'toolarge',
          message: `${tooLarge}: demasiados valores para su tamaño`,
        },
        {
          fault: { kind: 'hugename' as const },
          code: 'toolarge',
          message: `${tooLarge}: un elemento de más de 16 MB`,
        },
        // A list where an object is expected: refused at its first element, not read to the end.
        {
          fault: { kind: 'hugejson' as const, bytes: 40 * 1024 * 1024 },
          code: 'invalidresponse',
          message: `${unexpected}: core_webservice_get_site_info: (raíz): se esperaba otro tipo de valor`,
        },
        // Valid users, smallest form: read up to the limit.
        {
          fault: { kind: 'denseusers' as const, bytes: 40 * 1024 * 1024 },
          code: 'toolarge',
          message: `${tooLarge}: más de 8 MB`,
          max: 8 * 1024 * 1024,
          users: true,
        },
        // 6.6 million small objects of no function's shape: refused at the first one.
        {
          fault: { kind: 'dense' as const },
          code: 'invalidresponse',
          message: `${unexpected}: core_enrol_get_enrolled_users: [0].fullname: Invalid input: expected string, received undefined`,
          users: true,
        },
      ];
      for (const c of cases) {
        sim.faults.splice(0, sim.faults.length, { ...c.fault, times: 1 });
        const before = sim.calls.length;
        const { outcome, heldMs } = await withLoopWatch<unknown>(() =>
          c.users ? client(c.max).getEnrolledUsers(2) : client(c.max).getSiteInfo(),
        );
        expect(outcome, c.fault.kind).toBeInstanceOf(MoodleError);
        const e = outcome as MoodleError;
        expect([e.code, e.retryable, e.message], c.fault.kind).toEqual([c.code, false, c.message]);
        // Not retried: the same answer would come again.
        expect(sim.calls.length - before).toBe(1);
        expect(heldMs, c.fault.kind).toBeLessThan(1000);
      }
      // The site answers normally afterwards.
      expect((await client().getSiteInfo()).sitename).toBeTruthy();
    } finally {
      await sim.close();
    }
  });

  it('clients share one memory budget: what an answer would build past it is refused before it is built, a failed read gives its share back, and so does a closed client', async () => {
    const sim = await startMoodleSim({ site: fixtureSite() });
    try {
      const g = generateSite({
        seed: 5,
        courses: 1,
        studentsPerCourse: 600,
        units: 11,
        activitiesPerUnit: 4,
        invalidRutRate: 0,
      });
      sim.site = g.site;
      const budget = new ReadBudget(48 * 1024 * 1024);
      const first = new MoodleClient({
        baseUrl: sim.url,
        token: g.tokens.admin,
        retries: 0,
        budget,
      });
      const report = await first.getGradeItems(g.courseIds[0]!);
      expect(report.usergrades).toHaveLength(600);
      const held = budget.held;
      // The report's text plus its objects and values: more than its bytes, well under the budget.
      expect(held).toBeGreaterThan(4 * 1024 * 1024);
      expect(held).toBeLessThan(24 * 1024 * 1024);
      sim.faults.push({ kind: 'denseusers', times: 1 });
      const second = new MoodleClient({
        baseUrl: sim.url,
        token: g.tokens.admin,
        retries: 0,
        budget,
      });
      const { outcome, heldMs } = await withLoopWatch(() =>
        second.getEnrolledUsers(g.courseIds[0]!),
      );
      expect(outcome).toBeInstanceOf(MoodleError);
      expect((outcome as MoodleError).message).toBe(
        'La respuesta de Moodle supera el tamaño admitido y no se leyó: las respuestas de Moodle que el servidor lee a la vez ocuparían más de 48 MB de memoria',
      );
      expect(heldMs).toBeLessThan(1000);
      expect(budget.held).toBe(held);
      first.close();
      expect(budget.held).toBe(0);
      expect((await second.getEnrolledUsers(g.courseIds[0]!)).length).toBeGreaterThan(0);
    } finally {
      await sim.close();
    }
  });

  it('a valid answer near the limit is read whole, in slices, with the event loop free', async () => {
    const sim = await startMoodleSim({ site: fixtureSite() });
    try {
      // A generated course's grade report is a real answer of many megabytes.
      const g = generateSite({
        seed: 5,
        courses: 1,
        studentsPerCourse: 600,
        units: 11,
        activitiesPerUnit: 4,
        invalidRutRate: 0,
      });
      sim.site = g.site;
      const client = new MoodleClient({ baseUrl: sim.url, token: g.tokens.admin, retries: 0 });
      const { outcome, heldMs } = await withLoopWatch(() => client.getGradeItems(g.courseIds[0]!));
      expect(outcome).not.toBeInstanceOf(MoodleError);
      expect((outcome as { usergrades: unknown[] }).usergrades).toHaveLength(600);
      expect(heldMs).toBeLessThan(1000);
    } finally {
      await sim.close();
    }
  });
});
