import type { Database } from '../src/db/database.js';

/** Builds a small real chain (category, course, student, enrolment, ticket, attempt) from seeded catalogues. */
export async function seedChain(db: Database, creatorId: number, tag = String(Date.now() % 100000)) {
  const key = async (table: 'status_tickets' | 'type_tickets' | 'priority_tickets' | 'source_tickets' | 'motive_tickets' | 'status_detail_tickets' | 'profiles', k: string) =>
    (await db.selectFrom(table).select('id').where('key', '=', k).executeTakeFirstOrThrow()).id;
  const platform = await db.selectFrom('platforms').select('id').executeTakeFirstOrThrow();
  const category = await db.insertInto('categories').values({ description: `Categoría ${tag}`, category_code: 'ABCD', platform_id: platform.id }).returning('id').executeTakeFirstOrThrow();
  const course = await db.insertInto('courses').values({ description: `Curso ${tag}`, category_id: category.id, email: 'curso@sigaf.test' }).returning('id').executeTakeFirstOrThrow();
  const classroom = await db.insertInto('classrooms').values({ description: `Aula X${tag}` }).returning('id').executeTakeFirstOrThrow();
  const finalStatus = await db.insertInto('final_statuses').values({ description: `Final ${tag}` }).returning('id').executeTakeFirstOrThrow();
  const section = await db.insertInto('sections').values({ description: `Unidad ${tag}` }).returning('id').executeTakeFirstOrThrow();
  const motive = await db.insertInto('motive_tickets').values({ description: `Motivo ${tag}` }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('activities').values({ description: `Actividad ${tag}`, course_id: course.id, section_id: section.id }).execute();
  const student = await db
    .insertInto('registered_users')
    .values({ rut: `${tag}-K`, name: 'Pía', last_name: 'Muñoz', email: 'pia@correo.test' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const enrolment = await db
    .insertInto('course_registered_users')
    .values({ course_id: course.id, registered_user_id: student.id, profile_id: await key('profiles', 'student'), classroom_id: classroom.id, final_status_id: finalStatus.id })
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
  await db.insertInto('ticket_details').values({ ticket_id: ticket.id, user_created_id: creatorId, status_detail_ticket_id: await key('status_detail_tickets', 'failure'), comment: 'No contesta' }).execute();
  return { category: category.id, course: course.id, classroom: classroom.id, finalStatus: finalStatus.id, section: section.id, motive: motive.id, student: student.id, enrolment: enrolment.id, ticket: ticket.id };
}
