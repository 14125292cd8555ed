import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { normalizeRut } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MoodleClient } from '../../../apps/server/src/moodle/client.js';
import { FIXTURE_TOKENS, fixtureSite } from '../src/fixture-site.js';
import { generateSite } from '../src/generator.js';
import { dispatch, phpJson, phpJsonPieces, startMoodleSim, type SimServer } from '../src/server.js';

/** The generator and the fault injection, seen through the server's own Moodle client. */
describe('moodle-sim: generated sites', () => {
  const generated = generateSite({
    seed: 7,
    courses: 2,
    studentsPerCourse: 40,
    units: 3,
    activitiesPerUnit: 2,
    invalidRutRate: 0.1,
  });
  let sim: SimServer;
  let client: MoodleClient;
  beforeAll(async () => {
    sim = await startMoodleSim({ site: generated.site });
    client = new MoodleClient({ baseUrl: sim.url, token: generated.tokens.admin, retries: 0 });
  });
  afterAll(() => sim.close());

  it('is deterministic for a seed', () => {
    const again = generateSite({
      seed: 7,
      courses: 2,
      studentsPerCourse: 40,
      units: 3,
      activitiesPerUnit: 2,
      invalidRutRate: 0.1,
    });
    expect(again.people).toEqual(generated.people);
    expect(again.tokens).toEqual(generated.tokens);
  });

  it('puts each valid RUT in idnumber or username, in any spelling', async () => {
    const users = await client.getAllEnrolledUsers(generated.courseIds[0]!, { pageSize: 7 });
    const students = users.filter((u) => u.roles?.some((r) => r.shortname === 'student'));
    expect(students).toHaveLength(40);
    for (const u of students) {
      const person = generated.people.find((p) => p.moodleId === u.id)!;
      const found = normalizeRut(u.idnumber) ?? normalizeRut(u.username);
      expect(found).toBe(person.rut ? normalizeRut(person.rut) : null);
    }
    expect(generated.people.some((p) => p.rut === null)).toBe(true);
    const spellings = new Set(
      students.map((u) =>
        /\./.test(u.idnumber ?? u.username ?? '')
          ? 'dots'
          : /-/.test(u.idnumber ?? u.username ?? '')
            ? 'dash'
            : 'plain',
      ),
    );
    expect(spellings.size).toBeGreaterThan(1);
  });

  it('has SIGAF-shaped courses with grades and completion for every student', async () => {
    const courseid = generated.courseIds[0]!;
    const contents = await client.getCourseContents(courseid);
    expect(contents.map((s) => s.name)).toEqual([
      'General',
      'Unidad 1',
      'Unidad 2',
      'Unidad 3',
      'Pre Test A',
      'Pre Test B',
      'Post Test A',
      'Post Test B',
      'Encuesta',
      'Renuncia',
    ]);
    const grades = await client.getGradeItems(courseid);
    expect(grades.usergrades).toHaveLength(40);
    const someGrade = grades.usergrades
      .flatMap((u) => u.gradeitems)
      .find((i) => i.itemtype === 'mod' && i.graderaw !== null);
    expect(someGrade?.graderaw).toBeGreaterThanOrEqual(0);
    const first = generated.people[0]!;
    const completion = await client.getActivitiesCompletionStatus(courseid, first.moodleId);
    expect(completion.statuses.length).toBeGreaterThan(5);
  });
});

describe('moodle-sim: long answers', () => {
  it("writes a long list in pieces, byte for byte PHP's json_encode of the whole", async () => {
    const big = generateSite({
      seed: 11,
      courses: 1,
      studentsPerCourse: 450,
      units: 2,
      activitiesPerUnit: 2,
      invalidRutRate: 0,
    });
    const courseid = big.courseIds[0]!;
    const odd = {
      'a/b': 'ñandú / "x"',
      list: Array.from({ length: 9 }, (_, i) => (i === 4 ? undefined : { i, s: `é/${i}` })),
      gone: undefined,
      n: null,
    };
    expect([...phpJsonPieces(odd, 2)].join('')).toBe(phpJson(odd));
    expect([...phpJsonPieces([1, 2, 3], 2)].join('')).toBe('[1,2,3]');
    const sim = await startMoodleSim({ site: big.site });
    try {
      const fields = {
        wstoken: big.tokens.admin,
        wsfunction: 'gradereport_user_get_grade_items',
        moodlewsrestformat: 'json',
        courseid: String(courseid),
        userid: '0',
        groupid: '0',
      };
      const res = await fetch(`${sim.url}/webservice/rest/server.php`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
      const text = await res.text();
      const expected = dispatch(big.site, sim.url, new Map(Object.entries(fields)));
      expect(res.headers.get('content-length')).toBeNull();
      expect((expected.result as { usergrades: unknown[] }).usergrades.length).toBe(450);
      expect(text).toBe(phpJson(expected.result));
    } finally {
      await sim.close();
    }
  });
});

describe('moodle-sim: faults, latency, switches', () => {
  let sim: SimServer;
  const site = fixtureSite();
  beforeAll(async () => {
    sim = await startMoodleSim({ site, hangMs: 2000 });
  });
  afterAll(() => sim.close());
  const client = (o: Partial<ConstructorParameters<typeof MoodleClient>[0]> = {}) =>
    new MoodleClient({
      baseUrl: sim.url,
      token: FIXTURE_TOKENS.admin,
      retries: 0,
      timeoutMs: 500,
      ...o,
    });

  it('fails the chosen calls: after N, for M times, then recovers', async () => {
    sim.faults.splice(0, sim.faults.length, {
      kind: 'http503',
      wsfunction: 'core_course_get_contents',
      after: 1,
      times: 1,
    });
    const c = client();
    await expect(c.getCourseContents(4)).resolves.toHaveLength(3);
    await expect(c.getCourseContents(4)).rejects.toMatchObject({
      code: 'http',
      httpStatus: 503,
      retryable: true,
    });
    await expect(c.getCourseContents(4)).resolves.toHaveLength(3);
    // The client's retries hide one transient failure.
    sim.faults.splice(0, sim.faults.length, { kind: 'http500', times: 1 });
    await expect(client({ retries: 1, retryDelayMs: 1 }).getSiteInfo()).resolves.toMatchObject({
      sitename: 'Sim Test Moodle',
    });
  });

  it('timeouts, dropped connections, HTML answers and an invalid token mid-run', async () => {
    sim.faults.splice(0, sim.faults.length, { kind: 'timeout', times: 1 });
    await expect(client().getSiteInfo()).rejects.toMatchObject({ code: 'timeout' });
    sim.faults.splice(0, sim.faults.length, { kind: 'reset', times: 1 });
    await expect(client().getSiteInfo()).rejects.toMatchObject({ code: 'network' });
    sim.faults.splice(0, sim.faults.length, { kind: 'notjson', times: 1 });
    await expect(client().getSiteInfo()).rejects.toMatchObject({ code: 'notjson' });
    sim.faults.splice(0, sim.faults.length, { kind: 'invalidtoken', after: 2 });
    const c = client();
    await c.getSiteInfo();
    await c.getSiteInfo();
    await expect(c.getSiteInfo()).rejects.toMatchObject({
      code: 'invalidtoken',
      message: 'Token de Moodle inválido',
    });
    sim.faults.splice(0, sim.faults.length);
  });

  it('a web server stopping mid-request ("Terminated: 15") and maintenance mode: transient once Moodle has answered, not a wrong URL', async () => {
    // First call of a client: nothing says the URL is right, so it reads as not JSON.
    sim.faults.splice(0, sim.faults.length, { kind: 'terminated', times: 1 });
    await expect(client().getSiteInfo()).rejects.toMatchObject({
      code: 'notjson',
      retryable: false,
    });
    // After an answer in JSON: cut short, retryable, and retried by the client itself.
    const c = client();
    await c.getSiteInfo();
    sim.faults.splice(0, sim.faults.length, { kind: 'terminated', times: 1 });
    await expect(c.getSiteInfo()).rejects.toMatchObject({ code: 'interrupted', retryable: true });
    sim.faults.splice(0, sim.faults.length, { kind: 'terminated', times: 1 });
    await expect(client({ retries: 1, retryDelayMs: 1 }).getSiteInfo()).rejects.toMatchObject({
      code: 'notjson',
    });
    const r = client({ retries: 1, retryDelayMs: 1 });
    await r.getSiteInfo();
    sim.faults.splice(0, sim.faults.length, { kind: 'terminated', times: 1 });
    await expect(r.getSiteInfo()).resolves.toMatchObject({ sitename: 'Sim Test Moodle' });
    // Moodle's login page stays a wrong URL even mid-run.
    sim.faults.splice(0, sim.faults.length, { kind: 'notjson', times: 1 });
    await expect(c.getSiteInfo()).rejects.toMatchObject({ code: 'notjson', retryable: false });
    sim.faults.splice(0, sim.faults.length, { kind: 'maintenance', times: 1 });
    await expect(c.getSiteInfo()).rejects.toMatchObject({
      code: 'sitemaintenance',
      message: 'Moodle está en mantenimiento',
    });
    sim.faults.splice(0, sim.faults.length);
  });

  it('adds latency, and answers 403 with an empty body when web services are off', async () => {
    sim.latencyMs = 60;
    const started = Date.now();
    await client().getSiteInfo();
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    sim.latencyMs = 0;
    site.settings.wsEnabled = false;
    await expect(client().getSiteInfo()).rejects.toMatchObject({
      code: 'wsdisabled',
      message: 'Los servicios web de Moodle están deshabilitados',
    });
    site.settings.wsEnabled = true;
  });

  it('shows its calls and takes fault rules at /__sim', async () => {
    const put = await fetch(`${sim.url}/__sim`, {
      method: 'PUT',
      body: JSON.stringify([{ kind: 'http500', wsfunction: 'core_group_get_course_groups' }]),
    });
    expect((await put.json()).faults).toHaveLength(1);
    await expect(client().getCourseGroups(4)).rejects.toMatchObject({ httpStatus: 500 });
    const state = await (await fetch(`${sim.url}/__sim`, { method: 'DELETE' })).json();
    expect(state.faults).toEqual([]);
    expect(state.counts.core_group_get_course_groups).toBeGreaterThanOrEqual(1);
    expect(sim.count('core_webservice_get_site_info')).toBeGreaterThan(0);
  });
});

describe('moodle-sim: its command line', () => {
  const root = path.resolve(import.meta.dirname, '../../..');
  const run = (flag: string) =>
    promisify(execFile)(path.join(root, 'node_modules/.bin/tsx'), [
      path.join(root, 'tools/moodle-sim/src/main.ts'),
      flag,
    ]);

  for (const flag of ['--help', '-h']) {
    it(`${flag} prints its usage in Spanish and exits 0, starting nothing`, async () => {
      const r = await run(flag);
      expect(r.stdout).toMatch(/^Uso: npm run moodle-sim -- \[opciones\]/);
      expect(r.stdout).toContain('--invalidtoken-after');
      expect(r.stderr).toBe('');
    }, 60_000);
  }

  it('an unknown option: one Spanish line, exit 2, no stack trace', async () => {
    const failure = await run('--bogus').then(
      () => null,
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(failure).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'Opción no válida: --bogus. Vea npm run moodle-sim -- --help\n',
    });
  }, 60_000);
});
