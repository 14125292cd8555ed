import { computeDv } from '@sigaf/contract';
import { ALL_FUNCTIONS } from './functions.js';
import { createSite } from './new-site.js';
import type { CompletionRule, Site, SimModule } from './site.js';

/**
 * A generated Moodle site for development and benchmarks: courses of SIGAF's shape (units of
 * activities, plus the Renuncia, Encuesta and Pre/Post Test sections), students whose RUT is
 * their Moodle idnumber or username (in several spellings), groups, completion and grades drawn
 * from configurable distributions. Deterministic for a given seed.
 */

export interface GeneratorOptions {
  seed?: number;
  courses?: number;
  studentsPerCourse?: number;
  /** Units ("Unidad n") per course. */
  units?: number;
  activitiesPerUnit?: number;
  /** Add SIGAF's special sections: Renuncia, Encuesta, Pre/Post Test A and B. */
  specialSections?: boolean;
  /** Per student and activity: share completed, share started (not complete). */
  completion?: { complete: number; inProgress: number };
  /** Grades of completed graded activities: normal distribution, clamped to 0–100. */
  grades?: { mean: number; sd: number };
  /** Where the RUT is: Moodle idnumber, username, or either (half and half). */
  rutIn?: 'idnumber' | 'username' | 'mixed';
  /** Students whose idnumber/username holds no valid RUT. */
  invalidRutRate?: number;
  /** Students who never entered the course. */
  neverAccessedRate?: number;
  /** Students who finished the Renuncia activity (withdrew). */
  withdrawnRate?: number;
  groupsPerCourse?: number;
  /** Generated students also take part in this many other courses (shared people). */
  sharedStudents?: number;
}

export interface GeneratedPerson {
  moodleId: number;
  rut: string | null;
  firstname: string;
  lastname: string;
  motherLastName: string;
  email: string;
  courseIds: number[];
}

export interface GeneratedSite {
  site: Site;
  tokens: { admin: string; student: string };
  people: GeneratedPerson[];
  courseIds: number[];
}

/** Small fast seeded PRNG (mulberry32). */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
    normal: (mean: number, sd: number) =>
      mean + sd * Math.sqrt(-2 * Math.log(next() || 1e-9)) * Math.cos(2 * Math.PI * next()),
    hex: (n: number) =>
      Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join(''),
  };
}

const FIRST = [
  'María',
  'José',
  'Camila',
  'Juan',
  'Valentina',
  'Diego',
  'Francisca',
  'Matías',
  'Javiera',
  'Benjamín',
  'Constanza',
  'Tomás',
  'Catalina',
  'Sebastián',
  'Fernanda',
  'Ignacio',
  'Daniela',
  'Felipe',
  'Antonia',
  'Vicente',
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
];

const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/** A RUT as people type it into Moodle: with or without dots and dash, k in either case. */
function spellRut(body: number, dv: string, style: number, lower: boolean): string {
  const d = lower ? dv.toLowerCase() : dv;
  const dotted = String(body).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return [`${body}-${d}`, `${dotted}-${d}`, `${body}${d}`][style % 3]!;
}

interface ActivityKind {
  modname: string;
  completion: number;
  rules: CompletionRule[];
  graded: boolean;
}

const KINDS: ActivityKind[] = [
  {
    modname: 'assign',
    completion: 2,
    rules: [{ rulename: 'completionusegrade', description: 'Receive a grade' }],
    graded: true,
  },
  {
    modname: 'quiz',
    completion: 2,
    rules: [
      { rulename: 'completionview', description: 'View' },
      { rulename: 'completionusegrade', description: 'Receive a grade' },
    ],
    graded: true,
  },
  {
    modname: 'forum',
    completion: 2,
    rules: [
      { rulename: 'completionview', description: 'View' },
      { rulename: 'completionpostsenabled', description: 'Make forum posts: 1' },
    ],
    graded: false,
  },
  { modname: 'page', completion: 1, rules: [], graded: false },
  {
    modname: 'url',
    completion: 2,
    rules: [{ rulename: 'completionview', description: 'View' }],
    graded: false,
  },
  {
    modname: 'feedback',
    completion: 2,
    rules: [
      { rulename: 'completionview', description: 'View' },
      { rulename: 'completionsubmit', description: 'Submit feedback' },
    ],
    graded: false,
  },
];
const FEEDBACK = KINDS[5]!;
const QUIZ = KINDS[1]!;

export function generateSite(o: GeneratorOptions = {}): GeneratedSite {
  const rnd = prng(o.seed ?? 1);
  const courses = o.courses ?? 3;
  const perCourse = o.studentsPerCourse ?? 30;
  const units = o.units ?? 4;
  const perUnit = o.activitiesPerUnit ?? 3;
  const completion = o.completion ?? { complete: 0.6, inProgress: 0.1 };
  const grades = o.grades ?? { mean: 70, sd: 15 };
  const now = Math.floor(Date.now() / 1000);

  const site = createSite({ sitename: 'Moodle simulado SIGAF', shortname: 'sigafsim' });
  site.functionVersions = Object.fromEntries(ALL_FUNCTIONS.map((f) => [f, site.settings.version]));
  const root = site.addCategory({ name: 'SIGAF', idnumber: 'SIGAF' });
  const category = site.addCategory({ name: 'Cursos simulados', idnumber: 'SIM', parent: root.id });

  const people: GeneratedPerson[] = [];
  const courseIds: number[] = [];
  const usedRuts = new Set<number>();

  const newStudent = (index: number): GeneratedPerson => {
    let body: number;
    do body = rnd.int(5_000_000, 26_999_999);
    while (usedRuts.has(body));
    usedRuts.add(body);
    const dv = computeDv(body);
    const firstname = rnd.pick(FIRST);
    const lastname = rnd.pick(LAST);
    const motherLastName = rnd.pick(LAST);
    const handle = `${ascii(firstname)}.${ascii(lastname)}${index}`;
    const email = `${handle}@correo.test`;
    const invalid = rnd.next() < (o.invalidRutRate ?? 0.02);
    const where =
      o.rutIn === 'idnumber' || o.rutIn === 'username'
        ? o.rutIn
        : rnd.next() < 0.5
          ? 'idnumber'
          : 'username';
    const spelled = spellRut(body, dv, rnd.int(0, 2), where === 'username' || rnd.next() < 0.3);
    const username = !invalid && where === 'username' ? spelled.toLowerCase() : handle;
    const idnumber = invalid
      ? `EMP-${String(index).padStart(5, '0')}`
      : where === 'idnumber'
        ? spelled
        : '';
    const never = rnd.next() < (o.neverAccessedRate ?? 0.1);
    const firstaccess = never ? 0 : now - rnd.int(10, 60) * 86400;
    const user = site.addUser({
      username,
      firstname,
      lastname: `${lastname} ${motherLastName}`,
      email,
      idnumber,
      firstaccess,
      lastaccess: never ? 0 : now - rnd.int(0, 9 * 86400),
    });
    const person = {
      moodleId: user.id,
      rut: invalid ? null : `${body}-${dv}`,
      firstname,
      lastname,
      motherLastName,
      email,
      courseIds: [],
    };
    people.push(person);
    return person;
  };

  const addActivity = (sectionid: number, kind: ActivityKind, name: string) =>
    site.addModule(sectionid, {
      modname: kind.modname,
      name,
      completion: kind.completion,
      rules: kind.rules,
      customdata:
        kind.modname === 'assign' ? '{"customcompletionrules":{"completionsubmit":"0"}}' : '""',
      externalurl: kind.modname === 'url' ? 'https://example.com/recurso' : undefined,
      gradeitem: kind.graded
        ? site.newGradeItem(site.sections.find((s) => s.id === sectionid)!.courseid, {
            gradepass: 60,
          })
        : undefined,
    });

  for (let c = 1; c <= courses; c++) {
    const course = site.addCourse(
      {
        shortname: `SIM${String(c).padStart(3, '0')}`,
        fullname: `Curso simulado ${c}`,
        categoryid: category.id,
        idnumber: `SIM-${c}`,
        startdate: now - 60 * 86400,
        enddate: now + 60 * 86400,
      },
      1,
    );
    courseIds.push(course.id);
    const modules: Array<{
      m: SimModule;
      kind: ActivityKind;
      role: 'unit' | 'resign' | 'survey' | 'test';
    }> = [];
    for (let u = 1; u <= units; u++) {
      const section = site.addSection(course.id, { name: `Unidad ${u}` });
      for (let a = 1; a <= perUnit; a++) {
        const kind = KINDS[(u + a) % KINDS.length]!;
        modules.push({
          m: addActivity(section.id, kind, `Actividad ${u}.${a} (${kind.modname})`),
          kind,
          role: 'unit',
        });
      }
    }
    if (o.specialSections ?? true) {
      for (const name of ['Pre Test A', 'Pre Test B', 'Post Test A', 'Post Test B']) {
        const section = site.addSection(course.id, { name });
        modules.push({ m: addActivity(section.id, QUIZ, name), kind: QUIZ, role: 'test' });
      }
      const survey = site.addSection(course.id, { name: 'Encuesta' });
      modules.push({
        m: addActivity(survey.id, FEEDBACK, 'Encuesta de satisfacción'),
        kind: FEEDBACK,
        role: 'survey',
      });
      const resign = site.addSection(course.id, { name: 'Renuncia' });
      modules.push({
        m: addActivity(resign.id, FEEDBACK, 'Formulario de renuncia'),
        kind: FEEDBACK,
        role: 'resign',
      });
    }
    course.completioncriteria = modules
      .filter((x) => x.role === 'unit' && x.kind.completion > 0)
      .map((x) => x.m.id);

    const groups = Array.from({ length: o.groupsPerCourse ?? 2 }, (_, g) =>
      site.addGroup({ courseid: course.id, name: `Aula ${g + 1}`, description: '' }),
    );
    const shared = people.slice(0, Math.min(o.sharedStudents ?? 0, people.length));
    const members = [
      ...shared,
      ...Array.from({ length: Math.max(0, perCourse - shared.length) }, () =>
        newStudent(people.length + 1),
      ),
    ];
    members.forEach((p, i) => {
      const user = site.user(p.moodleId)!;
      p.courseIds.push(course.id);
      site.enrol(course.id, user.id, 5, { lastaccess: user.lastaccess });
      if (groups.length) groups[i % groups.length]!.members.push(user.id);
      const withdrawn = rnd.next() < (o.withdrawnRate ?? 0.03);
      for (const { m, kind, role } of modules) {
        if (role === 'resign') {
          if (withdrawn) site.setCompletion(m.id, user.id, 1, now - rnd.int(0, 5) * 86400);
          continue;
        }
        if (user.lastaccess === 0) continue;
        const r = rnd.next();
        if (r < completion.complete) {
          if (kind.graded) {
            const grade =
              Math.round(Math.min(100, Math.max(0, rnd.normal(grades.mean, grades.sd))) * 10) / 10;
            site.gradeModule(m.id, user.id, grade);
          } else site.setCompletion(m.id, user.id, 1, now - rnd.int(0, 20) * 86400);
        } else if (r < completion.complete + completion.inProgress && kind.rules.length > 1) {
          site.setCompletion(m.id, user.id, 0, 0, { [kind.rules[0]!.rulename]: 1 });
        }
      }
    });
    const teacher = site.addUser({
      username: `docente${c}`,
      firstname: 'Docente',
      lastname: `Curso ${c}`,
      email: `docente${c}@correo.test`,
    });
    site.enrol(course.id, teacher.id, 3);
  }

  const tokens = { admin: rnd.hex(32), student: rnd.hex(32) };
  site.addToken(tokens.admin, 2, [...ALL_FUNCTIONS]);
  const firstStudent = people[0];
  if (firstStudent) site.addToken(tokens.student, firstStudent.moodleId, [...ALL_FUNCTIONS]);
  return { site, tokens, people, courseIds };
}
