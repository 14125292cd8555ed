import { sql, type Kysely } from 'kysely';

/**
 * Each administrator's last reassignment of an operator's work (Mi agenda, Carga por operador):
 * who from, who to, and the tickets that moved, so that "Deshacer" still works after a reload.
 * One row per administrator, replaced by the next reassignment and removed by its undo; it can be
 * undone for AGENDA_REASSIGN_UNDO_HOURS after `created_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table agenda_last_reassignments (
    actor_id integer primary key references users (id) on delete cascade,
    from_user_id integer not null references users (id) on delete cascade,
    to_user_id integer not null references users (id) on delete cascade,
    ticket_ids integer[] not null,
    reminders integer not null default 0,
    created_at timestamptz not null default now()
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists agenda_last_reassignments`.execute(db);
}
