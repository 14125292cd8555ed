import { computeDv, formatRut } from '@sigaf/contract';
import type { Database } from '../src/db/database.js';

/** Builds a small real chain (category, course, student, enrolment, ticket, attempt) from seeded catalogues. */
/**
 * The course figures the server recomputes from the data whenever a change has marked a course,
 * and the marks themselves (migrations 0008, 0015): after a write is answered the server
 * recomputes them in the background (FiguresKeeper), whenever that lands, and a restore marks
 * every course. Tests that compare whole databases before and after leave them out.
 */
export const RECOMPUTED_FIGURES = [
  'course_stats_state',
  'course_follow_up_rows',
  'course_enrolment_stats',
  'course_progress_stats',
];

export async function seedChain(
  db: Database,
  creatorId: number,
  tag = String(Date.now() % 100000),
) {
  const key = async (
    table:
      | 'status_tickets'
      | 'type_tickets'
      | 'priority_tickets'
      | 'source_tickets'
      | 'motive_tickets'
      | 'status_detail_tickets'
      | 'profiles',
    k: string,
  ) => (await db.selectFrom(table).select('id').where('key', '=', k).executeTakeFirstOrThrow()).id;
  const platform = await db.selectFrom('platforms').select('id').executeTakeFirstOrThrow();
  const category = await db
    .insertInto('categories')
    .values({ description: `Categoría ${tag}`, category_code: 'ABCD', platform_id: platform.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const course = await db
    .insertInto('courses')
    .values({ description: `Curso ${tag}`, category_id: category.id, email: 'curso@sigaf.test' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const classroom = await db
    .insertInto('classrooms')
    .values({ description: `Aula X${tag}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const finalStatus = await db
    .insertInto('final_statuses')
    .values({ description: `Final ${tag}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const section = await db
    .insertInto('sections')
    .values({ description: `Unidad ${tag}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const motive = await db
    .insertInto('motive_tickets')
    .values({ description: `Motivo ${tag}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('activities')
    .values({ description: `Actividad ${tag}`, course_id: course.id, section_id: section.id })
    .execute();
  const student = await db
    .insertInto('registered_users')
    .values({ rut: `${tag}-K`, name: 'Pía', last_name: 'Muñoz', email: 'pia@correo.test' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const enrolment = await db
    .insertInto('course_registered_users')
    .values({
      course_id: course.id,
      registered_user_id: student.id,
      profile_id: await key('profiles', 'student'),
      classroom_id: classroom.id,
      final_status_id: finalStatus.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ticket = await db
    .insertInto('tickets')
    .values({
      course_registered_user_id: enrolment.id,
      course_id: course.id,
      ticket_code: `ABCD-CUR-${tag}`,
      type_ticket_id: await key('type_tickets', 'phone'),
      status_ticket_id: await key('status_tickets', 'open'),
      priority_ticket_id: await key('priority_tickets', 'high'),
      source_ticket_id: await key('source_tickets', 'outgoing'),
      motive_ticket_id: motive.id,
      user_create_id: creatorId,
      user_assigned_id: creatorId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('ticket_details')
    .values({
      ticket_id: ticket.id,
      user_created_id: creatorId,
      status_detail_ticket_id: await key('status_detail_tickets', 'failure'),
      comment: 'No contesta',
    })
    .execute();
  return {
    category: category.id,
    course: course.id,
    classroom: classroom.id,
    finalStatus: finalStatus.id,
    section: section.id,
    motive: motive.id,
    student: student.id,
    enrolment: enrolment.id,
    ticket: ticket.id,
  };
}

/** The ids of the seeded catalogue rows the ticket workflow relies on, by key. */
export async function ticketKeys(db: Database) {
  const key = async (
    table:
      | 'status_tickets'
      | 'type_tickets'
      | 'priority_tickets'
      | 'source_tickets'
      | 'motive_tickets'
      | 'status_detail_tickets',
    k: string,
  ) => (await db.selectFrom(table).select('id').where('key', '=', k).executeTakeFirstOrThrow()).id;
  return {
    open: await key('status_tickets', 'open'),
    closed: await key('status_tickets', 'closed'),
    phone: await key('type_tickets', 'phone'),
    email: await key('type_tickets', 'email'),
    high: await key('priority_tickets', 'high'),
    medium: await key('priority_tickets', 'medium'),
    low: await key('priority_tickets', 'low'),
    incoming: await key('source_tickets', 'incoming'),
    outgoing: await key('source_tickets', 'outgoing'),
    welcome: await key('motive_tickets', 'welcome'),
    problem: await key('motive_tickets', 'problem'),
    success: await key('status_detail_tickets', 'success'),
    failure: await key('status_detail_tickets', 'failure'),
  };
}

/** A course (its category code given) with `students` enrolled students in one classroom; RUTs are valid. */
export async function seedCourse(
  db: Database,
  opts: {
    categoryCode: string;
    course: string;
    students: number;
    firstRut: number;
    names?: string[];
    /** Enrolments marked as synchronised with Moodle. */
    synced?: boolean;
  },
) {
  const platform = await db.selectFrom('platforms').select('id').executeTakeFirstOrThrow();
  const profile = await db
    .selectFrom('profiles')
    .select('id')
    .where('key', '=', 'student')
    .executeTakeFirstOrThrow();
  const category = await db
    .insertInto('categories')
    .values({
      description: `Categoría ${opts.course}`,
      category_code: opts.categoryCode,
      platform_id: platform.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const course = await db
    .insertInto('courses')
    .values({ description: opts.course, category_id: category.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const classroom = await db
    .insertInto('classrooms')
    .values({ description: `Aula ${opts.course}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const enrolments: Array<{ id: number; rut: string; studentId: number; name: string }> = [];
  for (let i = 0; i < opts.students; i++) {
    const body = opts.firstRut + i;
    const rut = formatRut({ body, dv: computeDv(body) });
    const name = opts.names?.[i] ?? `Alumno${i + 1}`;
    const student = await db
      .insertInto('registered_users')
      .values({
        rut,
        name,
        last_name: 'Prueba',
        mother_last_name: 'Test',
        email: `a${body}@correo.test`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const e = await db
      .insertInto('course_registered_users')
      .values({
        course_id: course.id,
        registered_user_id: student.id,
        profile_id: profile.id,
        classroom_id: classroom.id,
        ...(opts.synced ? { is_sincronized: true } : {}),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    enrolments.push({ id: e.id, rut, studentId: student.id, name });
  }
  return { course: course.id, category: category.id, classroom: classroom.id, enrolments };
}
