import { sql, type Kysely } from 'kysely';

/**
 * Mi agenda at scale.
 * - "My courses" (the courses where an operator has tickets assigned): one index-only lookup per
 *   course, whatever the number of the operator's tickets.
 * - Reminders done by a later contact attempt: once per statement over the attempts it inserted
 *   (a transition table) rather than once per row, so bulk inserts (several attempts at once, an
 *   import of millions) pay one join with the pending reminders of their tickets. A reminder is
 *   done by the first of the new attempts at or after its due time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists tickets_assigned_course_idx on tickets (user_assigned_id, course_id)`.execute(db);
  await sql`drop trigger if exists ticket_details_done_reminders on ticket_details`.execute(db);
  await sql.raw(`create or replace function reminders_done_on_attempts() returns trigger language plpgsql as $$
    begin
      update reminders r set state = 'done', done_at = x.created_at, done_by = x.user_created_id, ticket_detail_id = x.detail_id, updated_at = now()
      from (
        select p.id as reminder_id, a.id as detail_id, a.created_at, a.user_created_id
        from reminders p
        cross join lateral (
          select n.id, n.created_at, n.user_created_id from new_attempts n
          where n.ticket_id = p.ticket_id and n.created_at >= p.due_at
          order by n.created_at, n.id limit 1
        ) a
        where p.state = 'pending' and p.ticket_id in (select ticket_id from new_attempts)
      ) x
      where r.id = x.reminder_id;
      return null;
    end $$`).execute(db);
  await sql`create trigger ticket_details_done_reminders after insert on ticket_details referencing new table as new_attempts for each statement execute function reminders_done_on_attempts()`.execute(db);
  await sql`drop function if exists reminders_done_on_attempt()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists ticket_details_done_reminders on ticket_details`.execute(db);
  await sql`drop function if exists reminders_done_on_attempts()`.execute(db);
  await sql.raw(`create or replace function reminders_done_on_attempt() returns trigger language plpgsql as $$
   begin
     update reminders set state = 'done', done_at = new.created_at, done_by = new.user_created_id, ticket_detail_id = new.id, updated_at = now()
     where ticket_id = new.ticket_id and state = 'pending' and due_at <= new.created_at;
     return null;
   end $$`).execute(db);
  await sql`create trigger ticket_details_done_reminders after insert on ticket_details for each row execute function reminders_done_on_attempt()`.execute(db);
  await sql`drop index if exists tickets_assigned_course_idx`.execute(db);
}
