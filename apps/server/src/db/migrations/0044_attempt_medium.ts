import { sql, type Kysely } from 'kysely';

/**
 * How each contact attempt was made, apart from its ticket's type (docs/usage/efectividad.md):
 * `medium` (call, email, whatsapp, sms, in_person, other) and `direction` (outgoing, incoming),
 * both null where the writer did not say (the original client's API, the legacy data): the report
 * then infers the medium from the ticket's type and counts how many it inferred. A change of an
 * attempt's medium makes its kept days stale, as a change of its time does (0043).
 *
 * The kept figures (0037) gain what the student-week unit, the "sin datos" contacts and the
 * standardised baseline need; the days kept before are forgotten so that the keeper computes them
 * again with the new definitions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ticket_details
    add column medium text check (medium in ('call', 'email', 'whatsapp', 'sms', 'in_person', 'other')),
    add column direction text check (direction in ('outgoing', 'incoming'))`.execute(db);
  await sql`create trigger ticket_details_outcome_medium_update after update of medium on ticket_details for each row
    when (old.medium is distinct from new.medium) execute function sigaf_outcome_stale_attempt()`.execute(
    db,
  );
  await sql`delete from outcome_kept_groups`.execute(db);
  await sql`delete from outcome_kept_days`.execute(db);
  await sql`delete from outcome_stale_days`.execute(db);
  await sql`alter table outcome_kept_groups
    add column contacts int not null default 0,
    add column unknown int not null default 0,
    add column inferred int not null default 0,
    add column base_matched int not null default 0,
    add column base_matched_accessed int not null default 0,
    add column base_expected float8 not null default 0,
    add column base_var float8 not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table outcome_kept_groups
    drop column contacts, drop column unknown, drop column inferred, drop column base_matched,
    drop column base_matched_accessed, drop column base_expected, drop column base_var`.execute(db);
  await sql`drop trigger if exists ticket_details_outcome_medium_update on ticket_details`.execute(db);
  await sql`alter table ticket_details drop column medium, drop column direction`.execute(db);
}
