import { sql, type Kysely } from 'kysely';

/**
 * The mail outbox: every message to a student with its delivery state, uploaded attachments,
 * and per-course templates. Delivery itself is a 'mail.send' job (the jobs table of 0001).
 */
const ts = `created_at timestamptz not null default now(), updated_at timestamptz not null default now()`;

const STATEMENTS: string[] = [
  `create table mail_attachments (
    id serial primary key,
    stored_name varchar(100) not null,
    original_name varchar(255) not null,
    size int not null check (size >= 0),
    mime varchar(120) not null,
    sha256 char(64) not null,
    uploaded_by int references users(id) on delete set null,
    created_at timestamptz not null default now()
  )`,
  `create unique index mail_attachments_stored_name_uq on mail_attachments (stored_name)`,
  `create index mail_attachments_uploaded_by_idx on mail_attachments (uploaded_by)`,
  `create table mail_messages (
    id serial primary key,
    ticket_id int references tickets(id) on delete set null,
    course_id int references courses(id) on delete set null,
    to_address varchar(320) not null,
    cc jsonb not null default '[]'::jsonb,
    from_address varchar(400) not null,
    reply_to varchar(400),
    subject varchar(255) not null,
    html text not null,
    text text not null,
    status varchar(20) not null default 'queued',
    attempts int not null default 0,
    last_error text,
    message_id varchar(255) not null,
    sent_at timestamptz,
    created_by int references users(id) on delete set null,
    ${ts},
    constraint mail_messages_status_ck check (status in ('queued','sending','sent','failed'))
  )`,
  // Our own Message-ID: a retry after a crash is the same message, never a second distinct one.
  `create unique index mail_messages_message_id_uq on mail_messages (message_id)`,
  `create index mail_messages_status_idx on mail_messages (status, created_at)`,
  `create index mail_messages_ticket_idx on mail_messages (ticket_id)`,
  `create index mail_messages_course_idx on mail_messages (course_id, created_at desc)`,
  `create index mail_messages_created_by_idx on mail_messages (created_by, created_at desc)`,
  `create table mail_message_attachments (
    mail_message_id int not null references mail_messages(id) on delete cascade,
    attachment_id int not null references mail_attachments(id) on delete restrict,
    position smallint not null default 0,
    primary key (mail_message_id, attachment_id)
  )`,
  `create index mail_message_attachments_attachment_idx on mail_message_attachments (attachment_id)`,
  `create table mail_templates (
    id serial primary key,
    course_id int not null references courses(id) on delete cascade,
    name varchar(100) not null,
    subject varchar(255) not null,
    html text not null,
    created_by int references users(id) on delete set null,
    ${ts}
  )`,
  `create unique index mail_templates_course_name_uq on mail_templates (course_id, lower(name))`,
  // The worker's claim reads queued jobs of its types by run_at.
  `create index jobs_type_claim_idx on jobs (type, run_at) where status = 'queued'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop index if exists jobs_type_claim_idx').execute(db);
  for (const table of ['mail_templates', 'mail_message_attachments', 'mail_messages', 'mail_attachments']) {
    await sql.raw(`drop table if exists ${table}`).execute(db);
  }
}
