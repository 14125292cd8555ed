import { sql, type Kysely } from 'kysely';

/**
 * Attachment clean-up (modules/mail/service.ts, cleanupFiles): an upload whose file was removed
 * after the retention period keeps its row (the outbox still names it) with `purged_at` set.
 */
const STATEMENTS: string[] = [
  `alter table mail_attachments add column purged_at timestamptz`,
  `create index mail_attachments_kept_idx on mail_attachments (created_at) where purged_at is null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop index if exists mail_attachments_kept_idx').execute(db);
  await sql.raw('alter table mail_attachments drop column if exists purged_at').execute(db);
}
