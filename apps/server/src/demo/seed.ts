import { chileParts, computeDv, formatRut, normalizeRut } from '@sigaf/contract';
import { sql } from 'kysely';
import { generateSite, prng, type GeneratedSite } from '@sigaf/moodle-sim/generator';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { encryptSecret } from '../lib/crypto.js';
import { hashPassword } from '../lib/passwords.js';
import { codePrefix } from '../modules/tickets/service.js';
import type { Services } from '../services.js';
import { seedSimulatedHistory } from './responses.js';

/**
 * Demo data: a generated Moodle site for the simulator (several courses, ~200 students, units,
 * Pre/Post tests, Renuncia and Encuesta sections, completions and grades) and the matching SIGAF
 * data (the platform wired to the simulator, categories and courses linked by Moodle id,
 * students with the simulator's RUTs, classrooms, staff, and tickets with contact attempts over
 * the past weeks). Deterministic, and idempotent: a second start adds nothing.
 */

export const DEMO_SEED = 2026;
export const DEMO_PASSWORD = 'Demo-SIGAF-2026';
const COURSE_NAMES = [
  ['GRUA', 'Operación segura de grúa horquilla'],
  ['AUX', 'Primeros auxilios en el trabajo'],
  ['EXCEL', 'Excel intermedio para la gestión'],
  ['ATC', 'Atención de clientes y calidad de servicio'],
] as const;
/** Moodle students left out of SIGAF per course (the report shows them as missing locally). */
const NOT_LOCAL_PER_COURSE = 2;
/** SIGAF students per course that Moodle does not have (missing in Moodle). */
const LOCAL_ONLY_PER_COURSE = 2;
/**
 * Enough that a channel of the first course reaches Mi agenda's 30 student-weeks (a student's
 * attempts in one week count once in Efectividad): about 40 settled student-weeks per channel.
 */
const TICKETS_PER_COURSE = 100;
const WEEKS = 6;

/**
 * A moment moved into office hours in Chile (09:00–18:59): to the next morning, or back to the
 * evening before when the morning is later than `latest`. Staff log contacts at work.
 */
export function officeHours(at: Date, latest: number): Date {
  const h = Number(chileParts(at).time.slice(0, 2));
  if (h >= 9 && h <= 18) return at;
  const forward = new Date(at.getTime() + ((9 - h + 24) % 24) * 3_600_000);
  if (forward.getTime() <= latest) return forward;
  return new Date(at.getTime() - ((h - 18 + 24) % 24) * 3_600_000);
}

export const DEMO_STAFF = [
  { email: 'demo.admin@sigaf.cl', name: 'Administración Demo', role: 'admin' },
  { email: 'operador1@sigaf.cl', name: 'Paula Operadora Reyes', role: 'operator' },
  { email: 'operador2@sigaf.cl', name: 'Martín Operador Lagos', role: 'operator' },
  { email: 'operador3@sigaf.cl', name: 'Josefa Operadora Vidal', role: 'operator' },
  { email: 'tutor1@sigaf.cl', name: 'Rodrigo Tutor Fuentes', role: 'tutor' },
  { email: 'tutor2@sigaf.cl', name: 'Carolina Tutora Parra', role: 'tutor' },
] as const;

/** The demo's Moodle site: the simulator's generator with SIGAF-looking course names. */
export function demoSite(): GeneratedSite {
  const generated = generateSite({
    seed: DEMO_SEED,
    courses: COURSE_NAMES.length,
    studentsPerCourse: 50,
    units: 4,
    activitiesPerUnit: 3,
    groupsPerCourse: 3,
  });
  generated.courseIds.forEach((id, i) => {
    const course = generated.site.course(id)!;
    course.shortname = COURSE_NAMES[i]![0];
    course.fullname = COURSE_NAMES[i]![1];
  });
  const category = generated.site.categories.find((c) => c.name === 'Cursos simulados');
  if (category) category.name = 'Capacitación laboral';
  return generated;
}

export interface DemoSummary {
  platformId: number;
  categories: number;
  courses: number;
  students: number;
  enrolments: number;
  staff: number;
  tickets: number;
  attempts: number;
  /** Something was added (false on a second start). */
  created: boolean;
  /** The course whose first sync was queued (first start only). */
  queuedCourseId: number | null;
}

async function idsOf(
  db: Database,
  table:
    | 'status_tickets'
    | 'priority_tickets'
    | 'type_tickets'
    | 'source_tickets'
    | 'motive_tickets'
    | 'status_detail_tickets'
    | 'classrooms',
) {
  return db.selectFrom(table).select(['id', 'key']).orderBy('id').execute();
}

/** Loads the demo data for `generated` into SIGAF, its platform pointing at the simulator at `moodleUrl`. */
export async function seedDemo(
  db: Database,
  config: Config,
  services: Services,
  generated: GeneratedSite,
  moodleUrl: string,
): Promise<DemoSummary> {
  const rnd = prng(DEMO_SEED);
  const { site } = generated;
  const platform = await db
    .selectFrom('platforms')
    .select('id')
    .where('key', '=', 'moodle')
    .executeTakeFirstOrThrow();
  // The simulator's address changes from start to start: always point the platform at it.
  await db
    .updateTable('platforms')
    .set({
      url: moodleUrl,
      token_encrypted: encryptSecret(generated.tokens.admin, config.APP_SECRET),
      updated_at: sql`now()`,
    })
    .where('id', '=', platform.id)
    .execute();

  const counts = {
    categories: 0,
    courses: 0,
    students: 0,
    enrolments: 0,
    staff: 0,
    tickets: 0,
    attempts: 0,
  };
  const moodleCourses = generated.courseIds.map((id) => site.course(id)!);
  const moodleCategory = site.category(moodleCourses[0]!.categoryid)!;

  const result = await db.transaction().execute(async (trx) => {
    let category = await trx
      .selectFrom('categories')
      .select('id')
      .where('platform_id', '=', platform.id)
      .where('id_category_moodle', '=', moodleCategory.id)
      .executeTakeFirst();
    if (!category) {
      category = await trx
        .insertInto('categories')
        .values({
          description: moodleCategory.name,
          category_code: 'CAP',
          platform_id: platform.id,
          id_category_moodle: moodleCategory.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      counts.categories++;
    }
    const courseIds = new Map<number, number>(); // Moodle id -> local id
    for (const mc of moodleCourses) {
      let course = await trx
        .selectFrom('courses')
        .select('id')
        .where('id_course_moodle', '=', mc.id)
        .where('category_id', '=', category.id)
        .executeTakeFirst();
      if (!course) {
        course = await trx
          .insertInto('courses')
          .values({
            description: mc.fullname,
            category_id: category.id,
            id_course_moodle: mc.id,
            email: `${mc.shortname.toLowerCase()}@capacitacion.cl`,
            status: 1,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        counts.courses++;
      }
      courseIds.set(mc.id, course.id);
    }

    // Students: the simulator's people with a valid RUT, less a few per course; plus a few only SIGAF has.
    const profile = (
      await trx
        .selectFrom('profiles')
        .select('id')
        .where('key', '=', 'student')
        .executeTakeFirstOrThrow()
    ).id;
    const classrooms = await idsOf(trx, 'classrooms');
    const people = generated.people.filter((p) => p.rut);
    const skipped = new Set<number>();
    for (const mc of moodleCourses)
      people
        .filter((p) => p.courseIds[0] === mc.id)
        .slice(-NOT_LOCAL_PER_COURSE)
        .forEach((p) => skipped.add(p.moodleId));
    const rows: Array<{
      rut: string;
      name: string;
      last_name: string;
      mother_last_name: string;
      email: string;
      courses: number[];
      index: number;
    }> = [];
    people.forEach((p, i) => {
      if (!skipped.has(p.moodleId))
        rows.push({
          rut: normalizeRut(p.rut!)!,
          name: p.firstname,
          last_name: p.lastname,
          mother_last_name: p.motherLastName,
          email: p.email,
          courses: p.courseIds,
          index: i,
        });
    });
    moodleCourses.forEach((mc, c) => {
      for (let k = 0; k < LOCAL_ONLY_PER_COURSE; k++) {
        const body = 30_000_000 + c * 100 + k;
        rows.push({
          rut: normalizeRut(`${body}-${computeDv(body)}`)!,
          name: 'Alumno',
          last_name: `Sin Moodle ${c + 1}${k + 1}`,
          mother_last_name: 'Demo',
          email: `sin.moodle.${c + 1}${k + 1}@correo.test`,
          courses: [mc.id],
          index: k,
        });
      }
    });
    for (const r of rows) {
      const inserted = await trx
        .insertInto('registered_users')
        .values({
          rut: r.rut,
          name: r.name,
          last_name: r.last_name,
          mother_last_name: r.mother_last_name,
          email: r.email,
          mobile: `+569${String(40_000_000 + r.index * 7919).slice(-8)}`,
          region: 'Metropolitana de Santiago',
        })
        .onConflict((oc) => oc.column('rut').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) counts.students++;
      const student =
        inserted ??
        (await trx
          .selectFrom('registered_users')
          .select('id')
          .where('rut', '=', r.rut)
          .executeTakeFirstOrThrow());
      for (const moodleCourseId of r.courses) {
        const courseId = courseIds.get(moodleCourseId);
        if (!courseId) continue;
        // The classroom matches the Moodle group the generator put the student in (Aula 1..3 in turn).
        const members = site.groups.filter((g) => g.courseid === moodleCourseId);
        const person = generated.people.find((p) => p.rut && normalizeRut(p.rut) === r.rut);
        const groupIndex = person
          ? members.findIndex((g) => g.members.includes(person.moodleId))
          : -1;
        const classroom =
          classrooms[
            groupIndex >= 0 ? groupIndex % classrooms.length : r.index % classrooms.length
          ]!.id;
        const e = await trx
          .insertInto('course_registered_users')
          .values({
            course_id: courseId,
            registered_user_id: student.id,
            profile_id: profile,
            classroom_id: classroom,
          })
          .onConflict((oc) => oc.columns(['course_id', 'registered_user_id']).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (e) counts.enrolments++;
      }
    }

    // Staff.
    const roles = new Map(
      (await trx.selectFrom('roles').select(['id', 'key']).execute()).map((r) => [r.key, r.id]),
    );
    const password = await hashPassword(DEMO_PASSWORD);
    const staff: Array<{ id: number; role: string }> = [];
    for (const [i, s] of DEMO_STAFF.entries()) {
      let user = await trx
        .selectFrom('users')
        .select('id')
        .where(sql`lower(email)`, '=', s.email)
        .executeTakeFirst();
      if (!user) {
        user = await trx
          .insertInto('users')
          .values({
            name: s.name,
            email: s.email,
            password,
            is_first_login: 1,
            role_id: roles.get(s.role)!,
            // Staff have a RUT like everyone the form creates (Mantenedor › Usuario requires one).
            rut: formatRut({ body: 15_100_000 + i * 1_013, dv: computeDv(15_100_000 + i * 1_013) }),
            phone: null,
            mobile: `+5698${String(1_000_000 + i * 1111).padStart(7, '0')}`,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        counts.staff++;
      }
      staff.push({ id: user.id, role: s.role });
    }

    // Each tutor follows one classroom of every demo course (tutor1 Aula 1, tutor2 Aula 2): a tutor signing in sees students.
    const tutors = staff.filter((s) => s.role === 'tutor');
    const follows = tutors.flatMap((tu, i) =>
      [...courseIds.values()].map((course_id) => ({
        course_id,
        classroom_id: classrooms[i % classrooms.length]!.id,
        user_id: tu.id,
      })),
    );
    if (follows.length)
      await trx
        .insertInto('classroom_tutors')
        .values(follows)
        .onConflict((oc) => oc.columns(['course_id', 'classroom_id', 'user_id']).doNothing())
        .execute();

    // Tickets with contact attempts over the past weeks: only when the demo courses have none.
    const localCourses = [...courseIds.values()];
    const existing = await trx
      .selectFrom('tickets')
      .select(sql<number>`count(*)`.as('n'))
      .where('course_id', 'in', localCourses)
      .executeTakeFirstOrThrow();
    if (Number(existing.n) === 0) {
      const [status, priority, type, source, motive, detail] = await Promise.all([
        idsOf(trx, 'status_tickets'),
        idsOf(trx, 'priority_tickets'),
        idsOf(trx, 'type_tickets'),
        idsOf(trx, 'source_tickets'),
        idsOf(trx, 'motive_tickets'),
        idsOf(trx, 'status_detail_tickets'),
      ]);
      const open = status.find((s) => s.key === 'open')!.id;
      const closed =
        status.find((s) => s.key === 'closed')?.id ?? status.find((s) => s.id !== open)!.id;
      const operators = staff.filter((s) => s.role === 'operator').map((s) => s.id);
      const comments = [
        'Se contacta al alumno por avance pendiente.',
        'No contesta; se deja mensaje.',
        'Indica problemas de acceso a la plataforma; se reenvía clave.',
        'Compromete entregar la tarea esta semana.',
        'Consulta por certificado de aprobación.',
        'Se envía recordatorio de la prueba final.',
      ];
      const now = Date.now();
      for (const mc of moodleCourses) {
        const courseId = courseIds.get(mc.id)!;
        const enrolments = await trx
          .selectFrom('course_registered_users')
          .select('id')
          .where('course_id', '=', courseId)
          .orderBy('id')
          .execute();
        const prefix = codePrefix('CAP', mc.fullname);
        const last = await services.repos.tickets.allocateCodes(prefix, TICKETS_PER_COURSE, trx);
        for (let n = 0; n < TICKETS_PER_COURSE; n++) {
          const latest = now - 60_000;
          const created = officeHours(
            new Date(now - rnd.int(1, WEEKS * 7 * 24) * 3_600_000),
            latest,
          );
          const attempts = rnd.int(1, 3);
          const times = Array.from({ length: attempts }, (_, a) => {
            const at = new Date(
              Math.min(latest, created.getTime() + a * rnd.int(4, 72) * 3_600_000),
            );
            return new Date(Math.max(created.getTime(), officeHours(at, latest).getTime()));
          }).sort((x, y) => x.getTime() - y.getTime());
          const isClosed = rnd.next() < 0.55;
          const operator = rnd.pick(operators);
          const ticket = await trx
            .insertInto('tickets')
            .values({
              course_registered_user_id: rnd.pick(enrolments).id,
              course_id: courseId,
              ticket_code: `${prefix}-${String(last - TICKETS_PER_COURSE + 1 + n).padStart(4, '0')}`,
              type_ticket_id: rnd.pick(type).id,
              status_ticket_id: isClosed ? closed : open,
              priority_ticket_id: rnd.pick(priority).id,
              source_ticket_id: rnd.pick(source).id,
              motive_ticket_id: rnd.pick(motive).id,
              user_create_id: operator,
              user_assigned_id: operator,
              closing_date: isClosed ? times[times.length - 1]! : null,
              created_at: created,
              updated_at: times[times.length - 1]!,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          counts.tickets++;
          for (const at of times) {
            await trx
              .insertInto('ticket_details')
              .values({
                ticket_id: ticket.id,
                user_created_id: operator,
                status_detail_ticket_id: rnd.pick(detail).id,
                comment: rnd.pick(comments),
                created_at: at,
                updated_at: at,
              })
              .execute();
            counts.attempts++;
          }
        }
      }
      // SIMULATED: the students' Moodle figures over those weeks, answering the contacts (responses.ts).
      await seedSimulatedHistory(trx, prng(DEMO_SEED + 1), localCourses, WEEKS);
    }
    return { firstCourseId: courseIds.get(moodleCourses[0]!.id)! };
  });

  const created = Object.values(counts).some((n) => n > 0);
  let queuedCourseId: number | null = null;
  if (counts.courses > 0) {
    // The first course arrives synchronised, so the dashboards have Moodle data; the others wait for "Sincronizar".
    await services.moodleSync.queueSync(db, result.firstCourseId);
    services.jobs.queue.notify();
    queuedCourseId = result.firstCourseId;
  }
  return { platformId: platform.id, ...counts, created, queuedCourseId };
}
