import { parseArgs } from 'node:util';
import { FIXTURE_TOKENS, fixtureSite } from './fixture-site.js';
import { generateSite } from './generator.js';
import { startMoodleSim, type FaultKind, type FaultRule } from './server.js';

/**
 * `npm run moodle-sim -- [options]`: starts the Moodle simulator and prints its URL and tokens.
 *
 *   --fixture                 the site of the recorded fixtures (3 students, course 4 "FS101")
 *   --courses 3 --students 30 --units 4 --activities 3 --seed 1   a generated site
 *   --port 8090 --host 127.0.0.1
 *   --latency 50 | 20-200     milliseconds added to each call
 *   --fail-rate 0.05 --fail-kind http503|http500|timeout|reset|notjson   random faults
 *   --invalidtoken-after 100  every call after the first 100 answers invalidtoken
 *   --debug                   error answers carry debuginfo (Moodle's debug mode)
 *   --log                     one line per call on stderr
 */
const { values } = parseArgs({
  options: {
    fixture: { type: 'boolean', default: false },
    courses: { type: 'string', default: '3' },
    students: { type: 'string', default: '30' },
    units: { type: 'string', default: '4' },
    activities: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
    port: { type: 'string', default: '8090' },
    host: { type: 'string', default: '127.0.0.1' },
    latency: { type: 'string', default: '0' },
    'fail-rate': { type: 'string' },
    'fail-kind': { type: 'string', default: 'http503' },
    'invalidtoken-after': { type: 'string' },
    debug: { type: 'boolean', default: false },
    log: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  process.stdout.write('Moodle simulator: see tools/moodle-sim/README.md for the options.\n');
  process.exit(0);
}

const generated = values.fixture
  ? null
  : generateSite({
      seed: Number(values.seed),
      courses: Number(values.courses),
      studentsPerCourse: Number(values.students),
      units: Number(values.units),
      activitiesPerUnit: Number(values.activities),
    });
const site = generated?.site ?? fixtureSite();
site.settings.debug = values.debug;

const faults: FaultRule[] = [];
if (values['fail-rate'])
  faults.push({ kind: values['fail-kind'] as FaultKind, rate: Number(values['fail-rate']) });
if (values['invalidtoken-after'])
  faults.push({ kind: 'invalidtoken', after: Number(values['invalidtoken-after']) });
const latency = values.latency.includes('-')
  ? (values.latency.split('-').map(Number) as [number, number])
  : Number(values.latency);

const sim = await startMoodleSim({
  site,
  port: Number(values.port),
  host: values.host,
  latencyMs: latency,
  faults,
  log: values.log,
});
const tokens = generated?.tokens ?? {
  admin: FIXTURE_TOKENS.admin,
  student: FIXTURE_TOKENS.student,
  readonly: FIXTURE_TOKENS.readonly,
};
const lines = [
  `Moodle simulator listening at ${sim.url}`,
  `  REST endpoint: ${sim.url}/webservice/rest/server.php   (state and faults: ${sim.url}/__sim)`,
  ...Object.entries(tokens).map(([who, token]) => `  ${who} token: ${token}`),
  `  courses: ${(generated ? generated.courseIds : [4, 5]).map((id) => `${id} ${site.course(id)!.shortname}`).join(', ')}`,
  generated
    ? `  students: ${generated.people.length} (RUT in idnumber or username; ${generated.people.filter((p) => !p.rut).length} without a valid RUT)`
    : '  students: Ana Silva (3), Bruno Costa (4), Carla Reis (5)',
];
process.stdout.write(`${lines.join('\n')}\n`);

const stop = () => void sim.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
