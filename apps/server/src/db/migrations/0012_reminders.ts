import { sql, type Kysely } from 'kysely';

/**
 * Reminders on tickets (Recordatorios) and the agenda's per-course settings.
 *
 * A reminder belongs to one ticket and one operator (its owner), falls due at `due_at` and is
 * pending, done or dismissed. A contact attempt logged on the ticket at or after a pending
 * reminder's due time marks it done (trigger below), whoever logs it and however it is logged
 * (one attempt, several at once, an import).
 *
 * Agenda settings per course: N days without a contact attempt, D days without Moodle access,
 * P % of the expected progress, and the course's dates (progress expected for the time elapsed).
 */
const STATEMENTS: string[] = [
  `create table reminders (
    id serial primary key,
    ticket_id int not null references tickets(id) on delete cascade,
    user_id int not null references users(id) on delete cascade,
    created_by int references users(id) on delete set null,
    due_at timestamptz not null,
    comment text not null default '',
    state text not null default 'pending' check (state in ('pending', 'done', 'dismissed')),
    done_at timestamptz,
    done_by int references users(id) on delete set null,
    ticket_detail_id int references ticket_details(id) on delete set null,
    legacy_id bigint unique,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  // "My pending reminders that are due" (the badge, every 30 s per user) and the agenda's first section.
  `create index reminders_user_state_due_idx on reminders (user_id, state, due_at)`,
  // The reminders of a ticket (its dialog) and the trigger's lookup.
  `create index reminders_ticket_idx on reminders (ticket_id, state)`,
  `create function reminders_done_on_attempt() returns trigger language plpgsql as $$
   begin
     update reminders set state = 'done', done_at = new.created_at, done_by = new.user_created_id, ticket_detail_id = new.id, updated_at = now()
     where ticket_id = new.ticket_id and state = 'pending' and due_at <= new.created_at;
     return null;
   end $$`,
  `create trigger ticket_details_done_reminders after insert on ticket_details for each row execute function reminders_done_on_attempt()`,
  `create table agenda_course_settings (
    course_id int primary key references courses(id) on delete cascade,
    contact_days int not null default 7 check (contact_days between 1 and 365),
    inactive_days int not null default 7 check (inactive_days between 1 and 365),
    progress_percent int not null default 50 check (progress_percent between 0 and 100),
    starts_on date,
    ends_on date,
    updated_at timestamptz not null default now()
  )`,
  // Per-user settings of the agenda: the optional morning digest by e-mail.
  `create table user_agenda_settings (
    user_id int primary key references users(id) on delete cascade,
    morning_digest boolean not null default false,
    last_digest_on date,
    updated_at timestamptz not null default now()
  )`,
  // SIGAF 1.x reminders kept by an earlier import become reminders (those with a ticket and an operator).
  `insert into reminders (ticket_id, user_id, created_by, due_at, comment, state, done_at, legacy_id, created_at, updated_at)
   select a.ticket_id, a.user_id, a.user_id, coalesce(a.remind_at, a.created_at), a.comment,
     case when a.status_reminder = 0 then 'pending' else 'done' end,
     case when a.status_reminder = 0 then null else a.updated_at end,
     a.id, a.created_at, a.updated_at
   from legacy_alerts a
   where a.ticket_id is not null and a.user_id is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists user_agenda_settings').execute(db);
  await sql.raw('drop table if exists agenda_course_settings').execute(db);
  await sql.raw('drop trigger if exists ticket_details_done_reminders on ticket_details').execute(db);
  await sql.raw('drop function if exists reminders_done_on_attempt()').execute(db);
  await sql.raw('drop table if exists reminders').execute(db);
}
