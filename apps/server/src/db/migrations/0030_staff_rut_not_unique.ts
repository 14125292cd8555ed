import { sql, type Kysely } from 'kysely';

/**
 * A staff RUT may repeat, as in SIGAF 1.x: roles are one per account, so a person who both works
 * tickets and tutors holds two accounts (two e-mails) with one RUT. Staff sign in by e-mail, which
 * stays unique; the RUT is only shown and searched.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop constraint if exists users_rut_key`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add constraint users_rut_key unique (rut)`.execute(db);
}
