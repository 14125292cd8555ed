/**
 * Large realistic data set for benchmarks and capacity checks (`npm run seed:large`).
 *
 *   npm run seed:large -- --tickets 1000000 --students 20000 --courses 50 [--seed 1] [--now 2026-11-23]
 *
 * Fills the database the server uses (DATABASE_URL, else the embedded one in DATA_DIR) through
 * the server's own migrations and catalogue seed, then bulk-inserts (multi-row `unnest` inserts
 * of 5,000 rows) categories, courses, activities per section, students, enrolments with
 * classrooms and Moodle progress (completion, grades, last access, withdrawal state), operators,
 * and tickets spread over the year before `--now`, each with its contact attempts and history.
 * The same seed and `--now` give the same data. Constraints, indexes and triggers stay on.
 */
import { computeDv, formatRut, FIRST_LOGIN_DONE } from '@sigaf/contract';
import { sql } from 'kysely';
import { migrate, openDatabase, type Database } from '../apps/server/src/db/database.js';
import { seed } from '../apps/server/src/db/seed.js';
import { hashPassword } from '../apps/server/src/lib/passwords.js';
import { codePrefix, formatCode } from '../apps/server/src/modules/tickets/service.js';
import { HELP_OPTION, readCommandLine, usageError } from '../apps/server/src/lib/command-line.js';

export interface LargeOptions {
  tickets: number;
  students: number;
  courses: number;
  seed: number;
  /** Reference day (yyyy-mm-dd): tickets and accesses fall in the year before it. */
  now: string;
  quiet?: boolean;
}

/** Who the benchmarks sign in as (an administrator: sees every ticket). */
export const BENCH_ADMIN = {
  email: 'bench-admin@sigaf.cl',
  password: 'Bench-Password-1',
  name: 'Administrador Benchmark',
};
export const BENCH_OPERATOR_PASSWORD = 'Bench-Password-1';

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

function mulberry32(a: number) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed * 2654435761);
  }
  int(min: number, max: number) {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }
  /** An index by weights. */
  weighted(weights: readonly number[]): number {
    const total = weights.reduce((a, b) => a + b, 0);
    let x = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i]!;
      if (x < 0) return i;
    }
    return weights.length - 1;
  }
  chance(p: number) {
    return this.next() < p;
  }
}

const FIRST = [
  'Sofía',
  'Martina',
  'Florencia',
  'Valentina',
  'Isidora',
  'Agustina',
  'Catalina',
  'Josefa',
  'Emilia',
  'Fernanda',
  'Benjamín',
  'Vicente',
  'Martín',
  'Matías',
  'Joaquín',
  'Agustín',
  'Tomás',
  'Cristóbal',
  'Maximiliano',
  'Sebastián',
  'Camila',
  'Javiera',
  'Constanza',
  'Francisca',
  'Diego',
  'Felipe',
  'Ignacio',
  'Nicolás',
  'José',
  'María',
];
const LAST = [
  'González',
  'Muñoz',
  'Rojas',
  'Díaz',
  'Pérez',
  'Soto',
  'Contreras',
  'Silva',
  'Martínez',
  'Sepúlveda',
  'Morales',
  'Rodríguez',
  'López',
  'Fuentes',
  'Hernández',
  'Torres',
  'Araya',
  'Flores',
  'Espinoza',
  'Valenzuela',
  'Castillo',
  'Tapia',
  'Reyes',
  'Gutiérrez',
  'Castro',
  'Pizarro',
  'Álvarez',
  'Vásquez',
  'Sánchez',
  'Fernández',
];
const REGIONS = [
  'Metropolitana de Santiago',
  'Valparaíso',
  'Biobío',
  'Maule',
  "Libertador General Bernardo O'Higgins",
  'Araucanía',
  'Los Lagos',
  'Coquimbo',
  'Antofagasta',
  'Ñuble',
];
const CITIES = [
  'Santiago',
  'Valparaíso',
  'Concepción',
  'Talca',
  'Rancagua',
  'Temuco',
  'Puerto Montt',
  'La Serena',
  'Antofagasta',
  'Chillán',
];
const SUBJECTS = [
  'Excel',
  'Liderazgo',
  'Programación',
  'Contabilidad',
  'Inglés',
  'Gestión',
  'Prevención',
  'Atención',
  'Marketing',
  'Logística',
  'Redacción',
  'Seguridad',
  'Finanzas',
  'Nutrición',
  'Docencia',
  'Kinesiología',
  'Robótica',
  'Química',
  'Turismo',
  'Derecho',
];
const LEVELS = ['Básico', 'Intermedio', 'Avanzado', 'para Docentes', 'Aplicado'];
const CATEGORIES: Array<[string, string]> = [
  ['Formación Docente', 'FD'],
  ['Capacitación Laboral', 'CL'],
  ['Diplomados', 'DIP'],
  ['Cursos Abiertos', 'CA'],
  ['Programas Públicos', 'PP'],
];
const COMMENTS = [
  'Se llama al estudiante, no contesta.',
  'Estudiante indica que retomará el curso esta semana.',
  'Se envía correo con instrucciones de acceso.',
  'Buzón de voz, se deja mensaje.',
  'Estudiante solicita extensión de plazo.',
  'Se explica cómo rendir la evaluación.',
  'Número equivocado, se actualizan datos.',
  'Estudiante confirma que continuará.',
  'Se reenvía la clave de acceso a la plataforma.',
  'Problema técnico resuelto con soporte.',
];
const EXTRA_MOTIVES = [
  'Consulta académica',
  'Problema de acceso',
  'Inactividad',
  'Evaluaciones pendientes',
  'Solicitud de retiro',
  'Certificación',
];
const CLASSROOMS = 10;
const OPERATORS = 24;
const DAY = 86_400_000;
const BATCH = 5000;

// ---------------------------------------------------------------------------------------------
// Output

class Progress {
  private readonly start = Date.now();
  private last = 0;
  constructor(
    private readonly total: number,
    private readonly quiet = false,
  ) {}
  done = 0;
  tick(n: number, label: string) {
    this.done += n;
    const now = Date.now();
    if (this.quiet || (now - this.last < 200 && this.done < this.total)) return;
    this.last = now;
    const pct = Math.min(1, this.done / this.total);
    const width = 30;
    const bar = '#'.repeat(Math.round(pct * width)).padEnd(width, '.');
    const secs = (now - this.start) / 1000;
    const line = `[${bar}] ${(pct * 100).toFixed(0).padStart(3)}%  ${label.padEnd(26)} ${this.done.toLocaleString('en')}/${this.total.toLocaleString('en')} rows  ${secs.toFixed(1)} s`;
    if (process.stderr.isTTY) process.stderr.write(`\r${line}`);
    else if (pct === 1 || now - this.start > 0) process.stderr.write(`${line}\n`);
  }
  end() {
    if (!this.quiet && process.stderr.isTTY) process.stderr.write('\n');
  }
}

type Column = [name: string, pgType: string, values: unknown[]];

/** Inserts rows column-wise: one `insert ... select * from unnest(...)` per batch. */
async function bulkInsert(
  db: Database,
  table: string,
  columns: Column[],
  progress: Progress,
  label: string,
) {
  const n = columns[0]![2].length;
  for (let i = 0; i < n; i += BATCH) {
    const end = Math.min(n, i + BATCH);
    const names = sql.join(columns.map(([name]) => sql.ref(name)));
    const arrays = sql.join(
      columns.map(([, type, values]) => sql`${values.slice(i, end)}::${sql.raw(type)}[]`),
    );
    await sql`insert into ${sql.table(table)} (${names}) select * from unnest(${arrays})`.execute(
      db,
    );
    progress.tick(end - i, label);
  }
}

async function nextId(db: Database, table: string): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select coalesce(max(id), 0)::int8 as n from ${sql.table(table)}`.execute(db);
  return Number(rows[0]!.n) + 1;
}

async function syncSequence(db: Database, table: string) {
  await sql`select setval(pg_get_serial_sequence(${table}, 'id'), greatest((select max(id) from ${sql.table(table)}), 1))`.execute(
    db,
  );
}

/** Every foreign key of these tables holds: one anti-join per constraint. */
async function verifyForeignKeys(db: Database, tables: string[]) {
  const { rows } = await sql<{
    child: string;
    parent: string;
    ccol: string;
    pcol: string;
    name: string;
  }>`
    select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent, a.attname as ccol, pa.attname as pcol, c.conname as name
    from pg_constraint c
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
    join pg_attribute pa on pa.attrelid = c.confrelid and pa.attnum = c.confkey[1]
    where c.contype = 'f' and cardinality(c.conkey) = 1 and c.conrelid::regclass::text in (${sql.join(tables)})`.execute(
    db,
  );
  for (const fk of rows) {
    const { rows: bad } = await sql<{ n: number }>`
      select count(*)::int as n from ${sql.table(fk.child)} x
      where x.${sql.ref(fk.ccol)} is not null and not exists (select 1 from ${sql.table(fk.parent)} p where p.${sql.ref(fk.pcol)} = x.${sql.ref(fk.ccol)})`.execute(
      db,
    );
    if (bad[0]!.n) throw new Error(`seed:large: ${bad[0]!.n} rows of ${fk.child} break ${fk.name}`);
  }
}

/** Summary tables kept by triggers (migration 0008), rebuilt after inserts that bypassed them. */
async function rebuildSummaries(db: Database) {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from pg_proc where proname = 'sigaf_rebuild_stats'`.execute(db);
  if (rows[0]!.n) await sql`select sigaf_rebuild_stats()`.execute(db);
}

const iso = (ms: number) => new Date(ms).toISOString();

// ---------------------------------------------------------------------------------------------

export interface LargeSummary {
  courses: number;
  students: number;
  enrolments: number;
  activities: number;
  progressRows: number;
  tickets: number;
  attempts: number;
  largestCourseId: number;
  ms: number;
}

/** Generates the data set into `db` (already open). */
export async function seedLarge(pool: Database, opts: LargeOptions): Promise<LargeSummary> {
  const t0 = Date.now();
  await migrate(pool);
  // One connection throughout: the session setting below must hold for every insert.
  return pool.connection().execute(async (db) => fill(db, opts, t0));
}

/**
 * Row-by-row foreign-key triggers would cost most of the time (about 20 million lookups at full
 * size), so when the role may, the inserts run with `session_replication_role = replica` and every
 * foreign key of the filled tables is then checked in one set-based query each (the run fails if
 * one row points nowhere); the summary tables that triggers keep are then rebuilt.
 */
async function fill(db: Database, opts: LargeOptions, t0: number): Promise<LargeSummary> {
  const rng = new Rng(opts.seed);
  const nowMs = Date.parse(`${opts.now}T23:00:00Z`);
  const yearAgo = nowMs - 365 * DAY;
  const log = (s: string) => (opts.quiet ? undefined : console.error(s));

  await seed(db, {
    adminEmail: BENCH_ADMIN.email,
    adminPassword: BENCH_ADMIN.password,
    adminName: BENCH_ADMIN.name,
  });
  await db
    .updateTable('users')
    .set({ is_first_login: FIRST_LOGIN_DONE })
    .where(sql`lower(email)`, '=', BENCH_ADMIN.email)
    .execute();

  // Catalogue values a large organisation has beyond the seed.
  const ensure = async (table: 'classrooms' | 'motive_tickets', descriptions: string[]) => {
    for (const description of descriptions) {
      const found = await db
        .selectFrom(table)
        .select('id')
        .where(sql`lower(description)`, '=', description.toLowerCase())
        .executeTakeFirst();
      if (!found) await db.insertInto(table).values({ description, key: null }).execute();
    }
  };
  await ensure(
    'classrooms',
    Array.from({ length: CLASSROOMS }, (_, i) => `Aula ${i + 1}`),
  );
  await ensure('motive_tickets', EXTRA_MOTIVES);
  const ids = async (
    table:
      | 'classrooms'
      | 'motive_tickets'
      | 'type_tickets'
      | 'priority_tickets'
      | 'source_tickets'
      | 'status_detail_tickets',
  ) => await db.selectFrom(table).select(['id', 'key', 'description']).orderBy('id').execute();
  const classrooms = (await ids('classrooms'))
    .filter((c) => /^Aula \d+$/.test(c.description))
    .slice(0, CLASSROOMS)
    .map((c) => c.id);
  const motives = (await ids('motive_tickets')).map((r) => r.id);
  const types = (await ids('type_tickets')).map((r) => r.id);
  const priorities = (await ids('priority_tickets')).map((r) => r.id);
  const sources = (await ids('source_tickets')).map((r) => r.id);
  const outcomes = await ids('status_detail_tickets');
  const success = outcomes.find((o) => o.key === 'success')?.id ?? outcomes[0]!.id;
  const failure = outcomes.find((o) => o.key === 'failure')?.id ?? outcomes[0]!.id;
  const statusOf = async (key: string) =>
    (
      await db
        .selectFrom('status_tickets')
        .select('id')
        .where('key', '=', key)
        .executeTakeFirstOrThrow()
    ).id;
  const open = await statusOf('open');
  const closed = await statusOf('closed');
  const profileOf = async (key: string) =>
    (await db.selectFrom('profiles').select('id').where('key', '=', key).executeTakeFirstOrThrow())
      .id;
  const studentProfile = await profileOf('student');
  const tutorProfile = await profileOf('tutor');
  const sections = new Map(
    (await db.selectFrom('sections').select(['id', 'key']).execute()).map((s) => [s.key, s.id]),
  );
  const platform = (
    await db.selectFrom('platforms').select('id').orderBy('id').executeTakeFirstOrThrow()
  ).id;
  const operatorRole = (
    await db
      .selectFrom('roles')
      .select('id')
      .where('key', '=', 'operator')
      .executeTakeFirstOrThrow()
  ).id;

  // Sizes ---------------------------------------------------------------------------------------
  // Course weights between 1 and 3 (the largest course about twice the average); each student is
  // in two courses on average.
  const weights = Array.from(
    { length: opts.courses },
    (_, i) => 1 + (2 * ((i * 7919) % opts.courses)) / Math.max(1, opts.courses - 1),
  );
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const enrolTarget = Math.min(opts.students * opts.courses, opts.students * 2);
  // Staff grows with the courses: three operators per course, each on about six courses (24 for 50).
  const operators = Math.max(OPERATORS, Math.round((opts.courses * OPERATORS) / 50));
  const courseSize = weights.map((w) =>
    Math.max(5, Math.min(opts.students, Math.round((w / weightSum) * enrolTarget))),
  );
  const courseTickets = weights.map((w) => Math.round((w / weightSum) * opts.tickets));
  courseTickets[0]! += opts.tickets - courseTickets.reduce((a, b) => a + b, 0);
  const activitiesPerCourse = weights.map(() => 6 + rng.int(14, 26));
  const enrolments = courseSize.reduce((a, b) => a + b, 0);
  const progressRows = courseSize.reduce((a, n, i) => a + n * activitiesPerCourse[i]!, 0);
  const attemptsPerTicket = 2.5;
  const total =
    operators +
    opts.courses +
    opts.students +
    enrolments +
    progressRows +
    Math.round(opts.tickets * (2 + attemptsPerTicket));
  const progress = new Progress(total, opts.quiet);
  log(
    `seed:large: ${opts.courses} courses, ${opts.students} students, ${enrolments} enrolments, ~${progressRows} progress rows, ${opts.tickets} tickets (~${Math.round(opts.tickets * attemptsPerTicket)} attempts), seed ${opts.seed}, up to ${opts.now}`,
  );

  // Operators -----------------------------------------------------------------------------------
  const hash = await hashPassword(BENCH_OPERATOR_PASSWORD);
  const fast = await sql`set session_replication_role = replica`.execute(db).then(
    () => true,
    () => false,
  );
  if (!fast)
    log(
      'seed:large: not allowed to defer foreign-key checks (needs a superuser); inserting with row-by-row checks',
    );
  const firstUser = await nextId(db, 'users');
  const operatorIds = Array.from({ length: operators }, (_, i) => firstUser + i);
  const stamp = String(opts.seed);
  await bulkInsert(
    db,
    'users',
    [
      ['id', 'int4', operatorIds],
      [
        'name',
        'text',
        operatorIds.map(
          (_, i) => `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]} (operador ${i + 1})`,
        ),
      ],
      [
        'email',
        'text',
        operatorIds.map((_, i) => `operador${i + 1}.s${stamp}.${firstUser}@sigaf.cl`),
      ],
      ['password', 'text', operatorIds.map(() => hash)],
      ['is_first_login', 'int2', operatorIds.map(() => FIRST_LOGIN_DONE)],
      ['role_id', 'int4', operatorIds.map(() => operatorRole)],
    ],
    progress,
    'operators',
  );
  await syncSequence(db, 'users');

  // Categories and courses ----------------------------------------------------------------------
  const firstCategory = await nextId(db, 'categories');
  const categoryIds = CATEGORIES.map((_, i) => firstCategory + i);
  await bulkInsert(
    db,
    'categories',
    [
      ['id', 'int4', categoryIds],
      ['description', 'text', CATEGORIES.map(([d]) => d)],
      ['platform_id', 'int4', categoryIds.map(() => platform)],
      ['category_code', 'text', CATEGORIES.map(([, c]) => c)],
    ],
    progress,
    'categories',
  );
  await syncSequence(db, 'categories');
  const firstCourse = await nextId(db, 'courses');
  const courseIds = Array.from({ length: opts.courses }, (_, i) => firstCourse + i);
  const courseName = courseIds.map(
    (_, i) =>
      `${SUBJECTS[i % SUBJECTS.length]} ${LEVELS[Math.floor(i / SUBJECTS.length) % LEVELS.length]} ${2026 + Math.floor(i / (SUBJECTS.length * LEVELS.length))}`,
  );
  const courseCategory = courseIds.map((_, i) => i % CATEGORIES.length);
  await bulkInsert(
    db,
    'courses',
    [
      ['id', 'int4', courseIds],
      ['description', 'text', courseName],
      ['category_id', 'int4', courseCategory.map((c) => categoryIds[c]!)],
      ['id_course_moodle', 'int4', courseIds.map((_, i) => 1000 + i)],
      ['last_sync_at', 'timestamptz', courseIds.map(() => iso(nowMs - 6 * 3_600_000))],
    ],
    progress,
    'courses',
  );
  await syncSequence(db, 'courses');

  // Activities: one per graded section, the Renuncia activity, and formative ones ----------------
  type Act = { id: number; kind: string; graded: boolean };
  const courseActivities: Act[][] = [];
  const act: {
    id: number[];
    description: string[];
    type: string[];
    section: number[];
    weighing: number[];
    moodle: number[];
    course: number[];
  } = { id: [], description: [], type: [], section: [], weighing: [], moodle: [], course: [] };
  let activityId = await nextId(db, 'activities');
  const fixedSections: Array<[string, string, string]> = [
    ['resign', 'Renuncia voluntaria', 'choice'],
    ['survey', 'Encuesta de satisfacción', 'feedback'],
    ['pre_test_a', 'Pre Test Forma A', 'quiz'],
    ['pre_test_b', 'Pre Test Forma B', 'quiz'],
    ['post_test_a', 'Post Test Forma A', 'quiz'],
    ['post_test_b', 'Post Test Forma B', 'quiz'],
  ];
  courseIds.forEach((courseId, c) => {
    const list: Act[] = [];
    const add = (kind: string, description: string, type: string, weighing: number) => {
      const id = activityId++;
      act.id.push(id);
      act.description.push(description);
      act.type.push(type);
      act.section.push(sections.get(kind)!);
      act.weighing.push(weighing);
      act.moodle.push(50_000 + id);
      act.course.push(courseId);
      list.push({ id, kind, graded: kind !== 'resign' && (kind !== 'formative' || weighing > 0) });
    };
    for (const [key, description, type] of fixedSections)
      add(key, description, type, key === 'resign' ? 0 : 10);
    for (let k = 0; k < activitiesPerCourse[c]! - fixedSections.length; k++)
      add(
        'formative',
        `Módulo ${Math.floor(k / 3) + 1} · actividad ${(k % 3) + 1}`,
        rng.pick(['quiz', 'assign', 'forum', 'scorm']),
        rng.chance(0.6) ? 10 : 0,
      );
    courseActivities.push(list);
  });
  await bulkInsert(
    db,
    'activities',
    [
      ['id', 'int4', act.id],
      ['description', 'text', act.description],
      ['type', 'text', act.type],
      ['section_id', 'int4', act.section],
      ['weighing', 'numeric', act.weighing],
      ['id_activity_moodle', 'int4', act.moodle],
      ['course_id', 'int4', act.course],
    ],
    progress,
    'activities',
  );
  await syncSequence(db, 'activities');

  // Students ------------------------------------------------------------------------------------
  const firstStudent = await nextId(db, 'registered_users');
  const studentIds = Array.from({ length: opts.students }, (_, i) => firstStudent + i);
  const rutBase = 10_000_000 + (opts.seed % 97) * 100_000 + (firstStudent % 1000) * 37;
  const ruts = studentIds.map((_, i) => {
    const body = rutBase + i * 211;
    return formatRut({ body, dv: computeDv(body) });
  });
  const sName = studentIds.map(() => rng.pick(FIRST));
  const sLast = studentIds.map(() => rng.pick(LAST));
  const sMother = studentIds.map(() => rng.pick(LAST));
  const region = studentIds.map(() => rng.int(0, REGIONS.length - 1));
  await bulkInsert(
    db,
    'registered_users',
    [
      ['id', 'int4', studentIds],
      ['rut', 'text', ruts],
      ['name', 'text', sName],
      ['last_name', 'text', sLast],
      ['mother_last_name', 'text', sMother],
      [
        'email',
        'text',
        studentIds.map(
          (id, i) =>
            `${sName[i]!.normalize('NFD')
              .replace(/[\u0300-\u036f]/g, '')
              .toLowerCase()}.${id}@correo.cl`,
        ),
      ],
      [
        'mobile',
        'text',
        studentIds.map(
          (_, i) => `+569${String(10_000_000 + ((i * 7_654_321) % 89_999_999)).slice(0, 8)}`,
        ),
      ],
      [
        'address',
        'text',
        studentIds.map((_, i) => `Calle ${LAST[i % LAST.length]} ${100 + (i % 900)}`),
      ],
      ['city', 'text', region.map((r) => CITIES[r]!)],
      ['region', 'text', region.map((r) => REGIONS[r]!)],
      ['rbd_school', 'text', studentIds.map((_, i) => String(1000 + (i % 9000)))],
      ['name_school', 'text', studentIds.map((_, i) => `Liceo ${LAST[(i * 3) % LAST.length]}`)],
      ['id_registered_moodle', 'int4', studentIds.map((id) => 100_000 + id)],
      ['rut_registered_moodle', 'text', ruts],
    ],
    progress,
    'students',
  );
  await syncSequence(db, 'registered_users');

  // Enrolments with Moodle state, and progress per activity -------------------------------------
  let enrolmentId = await nextId(db, 'course_registered_users');
  const courseEnrolments: number[][] = [];
  const lastAccessMs: Array<number | null> = [];
  const en: {
    id: number[];
    course: number[];
    student: number[];
    profile: number[];
    classroom: (number | null)[];
    lastAccess: (string | null)[];
    lastText: (string | null)[];
    sync: boolean[];
    state: string[];
    total: (string | null)[];
  } = {
    id: [],
    course: [],
    student: [],
    profile: [],
    classroom: [],
    lastAccess: [],
    lastText: [],
    sync: [],
    state: [],
    total: [],
  };
  const acu: {
    activity: number[];
    enrolment: number[];
    status: string[];
    qualification: string[];
    completion: number[];
    grade: (number | null)[];
  } = { activity: [], enrolment: [], status: [], qualification: [], completion: [], grade: [] };
  let progressFlushed = 0;
  const flushProgress = async () => {
    await bulkInsert(
      db,
      'activity_course_users',
      [
        ['activity_id', 'int4', acu.activity],
        ['course_registered_user_id', 'int4', acu.enrolment],
        ['status_moodle', 'text', acu.status],
        ['qualification_moodle', 'text', acu.qualification],
        ['completion_state', 'int2', acu.completion],
        ['grade', 'numeric', acu.grade],
      ],
      progress,
      'activity progress',
    );
    progressFlushed += acu.activity.length;
    for (const k of Object.keys(acu) as Array<keyof typeof acu>) acu[k].length = 0;
  };
  const pendingEnrolments = async () => {
    await bulkInsert(
      db,
      'course_registered_users',
      [
        ['id', 'int4', en.id],
        ['course_id', 'int4', en.course],
        ['registered_user_id', 'int4', en.student],
        ['profile_id', 'int4', en.profile],
        ['classroom_id', 'int4', en.classroom],
        ['last_access_registered_moodle', 'timestamptz', en.lastAccess],
        ['last_access_text', 'text', en.lastText],
        ['is_sincronized', 'bool', en.sync],
        ['status_moodle', 'text', en.state],
        ['final_qualification_moodle', 'text', en.total],
      ],
      progress,
      'enrolments',
    );
    for (const k of Object.keys(en) as Array<keyof typeof en>) en[k].length = 0;
  };
  for (let c = 0; c < opts.courses; c++) {
    const size = courseSize[c]!;
    // A distinct set of students: a stride through all of them, from a random start.
    let stride = 1 + rng.int(1, Math.max(1, opts.students - 1));
    const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
    while (gcd(stride, opts.students) !== 1) stride++;
    const start = rng.int(0, opts.students - 1);
    const rooms = Math.max(1, Math.min(CLASSROOMS, Math.ceil(size / 250)));
    const list: number[] = [];
    for (let k = 0; k < size; k++) {
      const s = (start + k * stride) % opts.students;
      const id = enrolmentId++;
      list.push(id);
      const synced = rng.chance(0.97);
      const never = rng.chance(0.12);
      const access =
        never || !synced ? null : nowMs - Math.floor(Math.pow(rng.next(), 2.5) * 90 * DAY);
      lastAccessMs.push(access);
      // Withdrawal: the Renuncia activity's completion.
      const resign = rng.weighted([90, 4, 6]);
      const level = resign === 2 ? rng.next() * 0.3 : Math.pow(rng.next(), 0.7);
      const form = /[02468]$/.test(ruts[s]!) ? 'A' : 'B';
      const tutor = k % 50 === 49;
      let done = 0;
      let graded = 0;
      for (const [i, a] of courseActivities[c]!.entries()) {
        let status = 'No iniciado';
        let completion = 0;
        let grade: number | null = null;
        if (a.kind === 'resign') {
          if (resign === 2) {
            status = 'Finalizado';
            completion = 1;
          } else if (resign === 1) status = 'En curso';
        } else {
          const otherForm =
            (a.kind.endsWith('_a') && form !== 'A') || (a.kind.endsWith('_b') && form !== 'B');
          const reach = a.kind.startsWith('post_')
            ? level * 0.8
            : level * (1 - (i / courseActivities[c]!.length) * 0.5);
          if (!otherForm && synced && rng.next() < reach) {
            status = 'Finalizado';
            completion = rng.chance(0.9) ? 1 : 2;
            if (a.graded) {
              grade = Math.round((1 + rng.next() * 6) * 10) / 10;
              graded += grade;
              done++;
            }
          } else if (!otherForm && synced && rng.chance(0.1)) status = 'En curso';
        }
        acu.activity.push(a.id);
        acu.enrolment.push(id);
        acu.status.push(status);
        acu.completion.push(completion);
        acu.grade.push(grade);
        acu.qualification.push(grade === null ? '-' : grade.toFixed(2));
      }
      en.id.push(id);
      en.course.push(courseIds[c]!);
      en.student.push(studentIds[s]!);
      en.profile.push(tutor ? tutorProfile : studentProfile);
      en.classroom.push(rng.chance(0.95) ? classrooms[k % rooms]! : null);
      en.lastAccess.push(access === null ? null : iso(access));
      en.lastText.push(
        access === null ? 'Nunca' : `hace ${Math.max(1, Math.round((nowMs - access) / DAY))} días`,
      );
      en.sync.push(synced);
      en.state.push(['Activo', 'Renuncia en curso', 'Renunciado'][resign]!);
      en.total.push(done ? (graded / done).toFixed(2) : '-');
    }
    courseEnrolments.push(list);
    if (en.id.length >= 20_000 || c === opts.courses - 1) {
      await pendingEnrolments();
      await flushProgress();
    }
  }
  await syncSequence(db, 'course_registered_users');

  // Tickets, their attempts and history ---------------------------------------------------------
  // Each course has three operators; tickets are created during office hours on working days,
  // mostly closed within three weeks (tickets of the last month are still often open).
  let ticketId = await nextId(db, 'tickets');
  let detailId = await nextId(db, 'ticket_details');
  const sequences = new Map<string, number>();
  for (const r of await db
    .selectFrom('ticket_code_sequences')
    .select(['prefix', 'last_value'])
    .execute())
    sequences.set(r.prefix, r.last_value);
  const t: {
    id: number[];
    enrolment: number[];
    course: number[];
    code: string[];
    type: number[];
    status: number[];
    priority: number[];
    source: number[];
    motive: number[];
    creator: number[];
    assigned: (number | null)[];
    closing: (string | null)[];
    created: string[];
    updated: string[];
    lastAttempt: string[];
  } = {
    id: [],
    enrolment: [],
    course: [],
    code: [],
    type: [],
    status: [],
    priority: [],
    source: [],
    motive: [],
    creator: [],
    assigned: [],
    closing: [],
    created: [],
    updated: [],
    lastAttempt: [],
  };
  const d: {
    id: number[];
    ticket: number[];
    course: number[];
    user: number[];
    status: number[];
    comment: string[];
    created: string[];
  } = { id: [], ticket: [], course: [], user: [], status: [], comment: [], created: [] };
  const h: { ticket: number[]; user: number[]; changes: string[]; created: string[] } = {
    ticket: [],
    user: [],
    changes: [],
    created: [],
  };
  let attempts = 0;
  const flushTickets = async () => {
    await bulkInsert(
      db,
      'tickets',
      [
        ['id', 'int4', t.id],
        ['course_registered_user_id', 'int4', t.enrolment],
        ['course_id', 'int4', t.course],
        ['ticket_code', 'text', t.code],
        ['type_ticket_id', 'int4', t.type],
        ['status_ticket_id', 'int4', t.status],
        ['priority_ticket_id', 'int4', t.priority],
        ['source_ticket_id', 'int4', t.source],
        ['motive_ticket_id', 'int4', t.motive],
        ['user_create_id', 'int4', t.creator],
        ['user_assigned_id', 'int4', t.assigned],
        ['closing_date', 'timestamptz', t.closing],
        ['created_at', 'timestamptz', t.created],
        ['updated_at', 'timestamptz', t.updated],
        ['last_attempt_at', 'timestamptz', t.lastAttempt],
      ],
      progress,
      'tickets',
    );
    await bulkInsert(
      db,
      'ticket_history',
      [
        ['ticket_id', 'int4', h.ticket],
        ['user_id', 'int4', h.user],
        ['action', 'text', h.ticket.map(() => 'create')],
        ['changes', 'jsonb', h.changes],
        ['created_at', 'timestamptz', h.created],
      ],
      progress,
      'ticket history',
    );
    await bulkInsert(
      db,
      'ticket_details',
      [
        ['id', 'int4', d.id],
        ['ticket_id', 'int4', d.ticket],
        ['course_id', 'int4', d.course],
        ['user_created_id', 'int4', d.user],
        ['status_detail_ticket_id', 'int4', d.status],
        ['comment', 'text', d.comment],
        ['created_at', 'timestamptz', d.created],
        ['updated_at', 'timestamptz', d.created],
      ],
      progress,
      'contact attempts',
    );
    for (const o of [t, d, h])
      for (const k of Object.keys(o)) (o as Record<string, unknown[]>)[k]!.length = 0;
  };
  const workingTime = () => {
    for (;;) {
      const day = yearAgo + Math.floor(Math.pow(rng.next(), 0.8) * 365) * DAY;
      const weekday = new Date(day).getUTCDay();
      if ((weekday === 0 || weekday === 6) && !rng.chance(0.1)) continue;
      // 09:00–19:00 Chilean time is about 12:00–23:00 UTC.
      return day - (day % DAY) + (12 * 60 + rng.int(0, 10 * 60)) * 60_000 + rng.int(0, 59_999);
    }
  };
  for (let c = 0; c < opts.courses; c++) {
    const prefix = codePrefix(CATEGORIES[courseCategory[c]!]![1], courseName[c]!);
    const ops = [0, 1, 2].map((k) => operatorIds[(c * 3 + k) % operators]!);
    const list = courseEnrolments[c]!;
    const times = Array.from({ length: courseTickets[c]! }, workingTime).sort((a, b) => a - b);
    let seq = sequences.get(prefix) ?? 0;
    for (const created of times) {
      const id = ticketId++;
      const age = nowMs - created;
      const isClosed = age > 30 * DAY ? rng.chance(0.96) : rng.chance((age / (30 * DAY)) * 0.8);
      const span = Math.min(age - 60_000, Math.floor(Math.pow(rng.next(), 2) * 21 * DAY) + 600_000);
      const closing = isClosed ? created + Math.max(60_000, span) : null;
      const creator = rng.pick(ops);
      const assigned = rng.chance(0.92) ? rng.pick(ops) : null;
      t.id.push(id);
      t.enrolment.push(list[rng.int(0, list.length - 1)]!);
      t.course.push(courseIds[c]!);
      t.code.push(formatCode(prefix, ++seq));
      t.type.push(types[rng.weighted(types.map((_, i) => (i === 0 ? 3 : 1)))]!);
      t.status.push(isClosed ? closed : open);
      t.priority.push(priorities[rng.weighted(priorities.map((_, i) => [1, 3, 2][i] ?? 1))]!);
      t.source.push(sources[rng.weighted(sources.map((_, i) => (i === 0 ? 1 : 3)))]!);
      t.motive.push(motives[rng.weighted(motives.map((_, i) => 1 + ((i * 5) % 4)))]!);
      t.creator.push(creator);
      t.assigned.push(assigned);
      t.closing.push(closing === null ? null : iso(closing));
      t.created.push(iso(created));
      const end = closing ?? Math.min(nowMs, created + 25 * DAY);
      const n = 1 + rng.weighted([3, 3, 2, 1, 1]);
      let last = created;
      for (let k = 0; k < n; k++) {
        const at =
          k === 0
            ? created + rng.int(60_000, 3_600_000)
            : last + Math.floor(rng.next() * Math.max(60_000, (end - last) / (n - k)));
        last = Math.min(at, nowMs - 1000);
        d.id.push(detailId++);
        d.ticket.push(id);
        d.course.push(courseIds[c]!);
        d.user.push(assigned ?? creator);
        d.status.push(k === n - 1 && isClosed ? success : rng.chance(0.35) ? success : failure);
        d.comment.push(rng.pick(COMMENTS));
        d.created.push(iso(last));
        attempts++;
      }
      t.updated.push(iso(Math.max(closing ?? created, last)));
      t.lastAttempt.push(iso(last));
      h.ticket.push(id);
      h.user.push(creator);
      h.created.push(iso(created));
      h.changes.push(
        JSON.stringify({
          ticketCode: [null, t.code[t.code.length - 1]],
          statusTicket: [null, isClosed ? 'Cerrado' : 'Abierto'],
        }),
      );
      if (t.id.length >= 50_000) await flushTickets();
    }
    sequences.set(prefix, seq);
  }
  if (t.id.length) await flushTickets();
  await syncSequence(db, 'tickets');
  await syncSequence(db, 'ticket_details');
  for (const [prefix, last] of sequences) {
    await sql`insert into ticket_code_sequences (prefix, last_value) values (${prefix}, ${last}) on conflict (prefix) do update set last_value = greatest(ticket_code_sequences.last_value, excluded.last_value)`.execute(
      db,
    );
  }
  // Reminders on about one open ticket in five, for its operator: due from three days before the
  // reference moment to a week after it (some overdue, some today, most ahead), a few already done.
  await sql`
    insert into reminders (ticket_id, user_id, created_by, due_at, comment, state, done_at, created_at, updated_at)
    select t.id, coalesce(t.user_assigned_id, t.user_create_id), t.user_create_id,
      ${new Date(nowMs).toISOString()}::timestamptz + ((t.id::bigint * 7919) % 240 - 72) * interval '1 hour', 'Volver a llamar',
      case when t.id % 45 = 0 then 'done' else 'pending' end, case when t.id % 45 = 0 then ${new Date(nowMs).toISOString()}::timestamptz end,
      t.created_at, t.updated_at
    from tickets t
    where t.status_ticket_id = ${open} and t.id % 5 = 0`.execute(db);
  if (fast) {
    await sql`set session_replication_role = origin`.execute(db);
    // What row triggers keep (they do not run under `replica`): the students' folded names (0016).
    await sql`update registered_users set search_name = sigaf_search_name(name, last_name, mother_last_name) where search_name is null`.execute(
      db,
    );
    await verifyForeignKeys(db, [
      'users',
      'categories',
      'courses',
      'activities',
      'registered_users',
      'course_registered_users',
      'activity_course_users',
      'tickets',
      'ticket_details',
      'ticket_history',
      'reminders',
    ]);
    await rebuildSummaries(db);
  }
  progress.done = total - 1;
  progress.tick(1, 'done');
  progress.end();
  // Statistics for the planner, and the visibility map index-only scans need.
  await sql`vacuum analyze`.execute(db);

  const largest = courseTickets.indexOf(Math.max(...courseTickets));
  return {
    courses: opts.courses,
    students: opts.students,
    enrolments,
    activities: act.id.length,
    progressRows: progressFlushed,
    tickets: opts.tickets,
    attempts,
    largestCourseId: courseIds[largest]!,
    ms: Date.now() - t0,
  };
}

// ---------------------------------------------------------------------------------------------
// Command line

const SEED_USAGE = `Uso: npm run seed:large -- [--tickets 1000000] [--students 20000] [--courses 50] [--seed 1] [--now aaaa-mm-dd]
Llena la base de datos del servidor (DATABASE_URL, o la embebida en DATA_DIR) con datos de prueba realistas.
  --tickets <n>     tickets (por omisión 1000000)
  --students <n>    estudiantes (por omisión 20000)
  --courses <n>     cursos (por omisión 50)
  --seed <n>        semilla de los datos al azar (por omisión 1)
  --now <fecha>     el día de hoy de los datos, aaaa-mm-dd (por omisión hoy)
  -h, --help        esta ayuda`;

function commandLine(): LargeOptions {
  const { values } = readCommandLine(SEED_USAGE, {
    options: {
      ...HELP_OPTION,
      tickets: { type: 'string' },
      students: { type: 'string' },
      courses: { type: 'string' },
      seed: { type: 'string' },
      now: { type: 'string' },
    },
  });
  const num = (
    name: 'tickets' | 'students' | 'courses' | 'seed',
    fallback: number,
    min: number,
  ) => {
    const v = Number(values[name] ?? fallback);
    if (!Number.isInteger(v) || v < min)
      usageError(SEED_USAGE, `--${name} debe ser un número entero mayor o igual que ${min}.`);
    return v;
  };
  const now = values.now ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(now))
    usageError(SEED_USAGE, '--now debe ser una fecha aaaa-mm-dd.');
  return {
    tickets: num('tickets', 1_000_000, 0),
    students: num('students', 20_000, 1),
    courses: num('courses', 50, 1),
    seed: num('seed', 1, 0),
    now,
  };
}

const isMain =
  process.argv[1] &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (isMain) {
  const opts = commandLine();
  const url = process.env.DATABASE_URL || undefined;
  const handle = await openDatabase({ url, dataDir: process.env.DATA_DIR ?? './data' });
  try {
    const summary = await seedLarge(handle.db, opts);
    console.log(
      `seed:large done in ${(summary.ms / 1000).toFixed(1)} s on ${handle.kind === 'postgres' ? 'PostgreSQL' : 'the embedded database'}: ` +
        `${summary.courses} courses, ${summary.students} students, ${summary.enrolments} enrolments, ${summary.activities} activities, ` +
        `${summary.progressRows} progress rows, ${summary.tickets} tickets, ${summary.attempts} attempts; largest course id ${summary.largestCourseId}; ` +
        `peak memory ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
    );
  } finally {
    await handle.close();
  }
}
