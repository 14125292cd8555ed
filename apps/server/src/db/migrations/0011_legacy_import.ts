import { sql, type Kysely } from 'kysely';

/**
 * What an import of a SIGAF 1.x database keeps that has no place elsewhere yet: its ticket
 * reminders (`alerts`), with the original columns and the ids they point to here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table legacy_alerts (
    id bigint primary key,
    ticket_id int references tickets(id) on delete set null,
    user_id int references users(id) on delete set null,
    legacy_ticket_id bigint not null,
    legacy_user_id bigint not null,
    remind_at timestamptz,
    status_reminder int not null default 0,
    status_notification int not null default 1,
    comment text not null default '',
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index legacy_alerts_ticket_idx on legacy_alerts (ticket_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists legacy_alerts`.execute(db);
}
