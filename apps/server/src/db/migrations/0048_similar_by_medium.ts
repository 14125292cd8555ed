import { sql, type Kysely } from 'kysely';

/**
 * Mi agenda's suggestion for similar students groups the contacts by their medium (llamada,
 * WhatsApp…), as Efectividad's "Canal" does, no longer by the ticket's type: the kept days that
 * hold the old groups (`type_idle`) are forgotten, and the keeper computes them again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`with old as (select distinct day from outcome_kept_groups where dim = 'type_idle'),
    gone as (delete from outcome_kept_days k using old where k.day = old.day returning k.day)
    delete from outcome_kept_groups g using gone where g.day = gone.day`.execute(db);
}

export async function down(): Promise<void> {
  // Nothing to put back: the keeper computes the forgotten days again.
}
