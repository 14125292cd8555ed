import { sql, type Kysely } from 'kysely';

/**
 * Every message of the outbox names its student: mail_messages.enrolment_id (the enrolment the
 * message was written to, with or without a ticket). Mi agenda counts a message not failed as a
 * contact of that student (index by enrolment and date); the outbox shows the student's name.
 * Messages written before are linked through their ticket.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table mail_messages add column enrolment_id int references course_registered_users(id) on delete set null`.execute(db);
  await sql`update mail_messages m set enrolment_id = t.course_registered_user_id from tickets t where t.id = m.ticket_id`.execute(db);
  await sql`create index mail_messages_enrolment_idx on mail_messages (enrolment_id, created_at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists mail_messages_enrolment_idx`.execute(db);
  await sql`alter table mail_messages drop column if exists enrolment_id`.execute(db);
}
