import { sql, type Kysely } from 'kysely';

/** Saved ticket-list filters per user, and the indexes the ticket workflow reads by. */
const STATEMENTS: string[] = [
  `create table ticket_filter_presets (
    id serial primary key,
    user_id int not null references users(id) on delete cascade,
    name varchar(60) not null,
    filters jsonb not null default '{}'::jsonb,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index ticket_filter_presets_user_name_uq on ticket_filter_presets (user_id, lower(name))`,
  // Locks by holder (user deletes cascade here) and the unlock screen's "active locks" list.
  `create index log_editing_tickets_user_idx on log_editing_tickets (user_id)`,
  `create index log_editing_tickets_expires_idx on log_editing_tickets (expires_at)`,
  // Latest attempt of a ticket (export, summary).
  `create index ticket_details_ticket_created_idx on ticket_details (ticket_id, created_at desc, id desc)`,
  `create index ticket_history_user_idx on ticket_history (user_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['ticket_history_user_idx', 'ticket_details_ticket_created_idx', 'log_editing_tickets_expires_idx', 'log_editing_tickets_user_idx']) {
    await sql.raw(`drop index if exists ${index}`).execute(db);
  }
  await sql.raw('drop table if exists ticket_filter_presets').execute(db);
}
