import { sql, type Kysely } from 'kysely';

/**
 * Student follow-up: the tutors of each classroom (a user with role tutor follows only the
 * classrooms assigned to them), and the indexes the follow-up student table filters and sorts by.
 */
const STATEMENTS: string[] = [
  `create table classroom_tutors (
    classroom_id int not null references classrooms(id) on delete cascade,
    user_id int not null references users(id) on delete cascade,
    created_at timestamptz not null default now(),
    constraint classroom_tutors_pk primary key (classroom_id, user_id)
  )`,
  // "Which classrooms does this tutor follow?" on every follow-up call.
  `create index classroom_tutors_user_idx on classroom_tutors (user_id, classroom_id)`,
  // Open tickets per enrolment (the table's count and its "con tickets abiertos" filter).
  `create index tickets_enrolment_status_idx on tickets (course_registered_user_id, status_ticket_id)`,
  // "Sin acceso hace más de N días" and the last-access sort within a course.
  `create index cru_course_last_access_idx on course_registered_users (course_id, last_access_registered_moodle)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop index if exists cru_course_last_access_idx').execute(db);
  await sql.raw('drop index if exists tickets_enrolment_status_idx').execute(db);
  await sql.raw('drop table if exists classroom_tutors').execute(db);
}
