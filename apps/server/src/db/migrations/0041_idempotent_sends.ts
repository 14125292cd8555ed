import { sql, type Kysely } from 'kysely';

/**
 * Sends made once (docs/development/api.md, "Idempotency"): a user's send under a key (the
 * client's Idempotency-Key, or one made from the content) with its first answer, kept until
 * `expires_at`. The primary key makes a repeat wait for or replay the first, on any server process.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table idempotent_sends (
    user_id integer not null references users (id) on delete cascade,
    key text not null,
    fingerprint text not null,
    status_code integer,
    response text,
    expires_at timestamptz not null,
    created_at timestamptz not null default now(),
    primary key (user_id, key)
  )`.execute(db);
  await sql`create index idempotent_sends_expires_idx on idempotent_sends (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists idempotent_sends`.execute(db);
}
