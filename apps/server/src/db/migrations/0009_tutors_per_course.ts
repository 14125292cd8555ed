import { sql, type Kysely } from 'kysely';

/**
 * Tutors per course and classroom (as the original kept them per course, `course_tutors`): a
 * tutor assigned "Aula 1" of one course no longer sees every course's Aula 1. Existing
 * assignments become one row per course that has students in that classroom, so nobody loses a
 * student they followed; an assignment to a classroom with no students anywhere had nothing to
 * show and is not carried over.
 */
const STATEMENTS: string[] = [
  `alter table classroom_tutors drop constraint classroom_tutors_pk`,
  `alter table classroom_tutors add column course_id int references courses(id) on delete cascade`,
  `insert into classroom_tutors (classroom_id, user_id, course_id, created_at)
     select distinct ct.classroom_id, ct.user_id, e.course_id, ct.created_at
     from classroom_tutors ct
     join course_registered_users e on e.classroom_id = ct.classroom_id
     where ct.course_id is null`,
  `delete from classroom_tutors where course_id is null`,
  `alter table classroom_tutors alter column course_id set not null`,
  `alter table classroom_tutors add constraint classroom_tutors_pk primary key (course_id, classroom_id, user_id)`,
  `drop index if exists classroom_tutors_user_idx`,
  // "Which classrooms of this course does this tutor follow?" on every follow-up call.
  `create index classroom_tutors_user_idx on classroom_tutors (user_id, course_id, classroom_id)`,
  `create index classroom_tutors_classroom_idx on classroom_tutors (classroom_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop index if exists classroom_tutors_classroom_idx').execute(db);
  await sql.raw('drop index if exists classroom_tutors_user_idx').execute(db);
  await sql.raw('alter table classroom_tutors drop constraint classroom_tutors_pk').execute(db);
  await sql.raw('delete from classroom_tutors a using classroom_tutors b where a.classroom_id = b.classroom_id and a.user_id = b.user_id and a.course_id > b.course_id').execute(db);
  await sql.raw('alter table classroom_tutors drop column course_id').execute(db);
  await sql.raw('alter table classroom_tutors add constraint classroom_tutors_pk primary key (classroom_id, user_id)').execute(db);
  await sql.raw('create index classroom_tutors_user_idx on classroom_tutors (user_id, classroom_id)').execute(db);
}
