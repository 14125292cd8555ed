import { parseArgs } from 'node:util';
import { FIXTURE_TOKENS, fixtureSite } from './fixture-site.js';
import { generateSite } from './generator.js';
import { startMoodleSim, type FaultKind, type FaultRule } from './server.js';

/** `npm run moodle-sim -- [opciones]`: starts the Moodle simulator and prints its URL and tokens. */
const USAGE = `Uso: npm run moodle-sim -- [opciones]

Inicia un simulador de Moodle (servicios web REST) para desarrollo y pruebas, e imprime su
dirección y sus tokens. Detalles: tools/moodle-sim/README.md.

Opciones:
  --fixture                 el sitio de los datos grabados (3 estudiantes, curso 4 "FS101")
  --courses 3 --students 30 --units 4 --activities 3 --seed 1
                            un sitio generado: cursos, estudiantes por curso, unidades,
                            actividades por unidad y semilla
  --port 8090 --host 127.0.0.1
                            dónde escucha (--port 0: un puerto libre)
  --latency 50 | 20-200     milisegundos añadidos a cada llamada
  --fail-rate 0.05 --fail-kind http503|http500|timeout|reset|notjson
                            fallas al azar
  --invalidtoken-after 100  después de 100 llamadas, todas responden invalidtoken
  --debug                   las respuestas de error traen debuginfo (modo depuración de Moodle)
  --log                     una línea por llamada en la salida de errores
  -h, --help                muestra esta ayuda
`;

let values;
try {
  ({ values } = parseArgs({
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
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (e) {
  // Node's own message (an unknown option, a missing value) is English: say it once, in Spanish.
  const message = e instanceof Error ? e.message : '';
  const option = /'(-[^' ]+)/.exec(message)?.[1];
  const what = !option
    ? 'Opciones no válidas.'
    : /argument missing/.test(message)
      ? `Falta el valor de ${option}.`
      : `Opción no válida: ${option}.`;
  process.stderr.write(`${what} Vea npm run moodle-sim -- --help\n`);
  process.exit(2);
}

if (values.help) {
  process.stdout.write(USAGE);
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
