import { sql, type Kysely } from 'kysely';

/** Catalogue tables: a description, and a stable key for the rows the system relies on. */
const CATALOGUES = [
  'roles',
  'profiles',
  'classrooms',
  'final_statuses',
  'status_tickets',
  'priority_tickets',
  'motive_tickets',
  'status_detail_tickets',
  'source_tickets',
  'type_tickets',
  'sections',
];

const ts = `created_at timestamptz not null default now(), updated_at timestamptz not null default now()`;

function catalogue(table: string): string[] {
  return [
    `create table ${table} (
      id serial primary key,
      key varchar(40) unique,
      description varchar(100) not null,
      ${ts}
    )`,
    `create unique index ${table}_description_uq on ${table} (lower(description))`,
  ];
}

const STATEMENTS: string[] = [
  ...CATALOGUES.flatMap(catalogue),
  `create table regions (id serial primary key, ordinal int not null unique, name varchar(80) not null unique)`,
  `create table platforms (
    id serial primary key,
    key varchar(40) unique,
    description varchar(100) not null,
    status smallint not null default 1,
    url varchar(500),
    token_encrypted text,
    ${ts}
  )`,
  `create unique index platforms_description_uq on platforms (lower(description))`,
  `create table users (
    id serial primary key,
    rut varchar(12) unique,
    name varchar(200) not null,
    phone varchar(20),
    mobile varchar(20),
    email varchar(255) not null,
    password text not null,
    is_first_login smallint not null default 0,
    role_id int not null references roles(id),
    deleted_at timestamptz,
    ${ts}
  )`,
  `create unique index users_email_uq on users (lower(email))`,
  `create index users_role_idx on users (role_id)`,
  `create table access_tokens (
    id bigserial primary key,
    user_id int not null references users(id) on delete cascade,
    token_hash char(64) not null unique,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    last_used_at timestamptz,
    revoked_at timestamptz,
    ip varchar(64),
    user_agent varchar(300)
  )`,
  `create index access_tokens_user_idx on access_tokens (user_id)`,
  `create table login_attempts (
    id bigserial primary key,
    email varchar(255) not null,
    ip varchar(64) not null,
    success boolean not null,
    created_at timestamptz not null default now()
  )`,
  `create index login_attempts_email_idx on login_attempts (lower(email), created_at)`,
  `create index login_attempts_ip_idx on login_attempts (ip, created_at)`,
  `create table audit_log (
    id bigserial primary key,
    user_id int references users(id) on delete set null,
    action varchar(40) not null,
    entity varchar(60) not null,
    entity_id varchar(60),
    changes jsonb,
    ip varchar(64),
    created_at timestamptz not null default now()
  )`,
  `create index audit_log_entity_idx on audit_log (entity, entity_id)`,
  `create index audit_log_created_idx on audit_log (created_at)`,
  `create table jobs (
    id bigserial primary key,
    type varchar(60) not null,
    payload jsonb not null default '{}'::jsonb,
    status varchar(20) not null default 'queued',
    attempts int not null default 0,
    max_attempts int not null default 5,
    run_at timestamptz not null default now(),
    locked_at timestamptz,
    locked_by varchar(100),
    last_error text,
    progress jsonb,
    result jsonb,
    unique_key varchar(200),
    ${ts},
    constraint jobs_status_ck check (status in ('queued','running','done','failed','cancelled'))
  )`,
  `create index jobs_claim_idx on jobs (status, run_at)`,
  `create unique index jobs_unique_active_uq on jobs (unique_key) where unique_key is not null and status in ('queued','running')`,
  `create table categories (
    id serial primary key,
    description varchar(150) not null,
    platform_id int not null references platforms(id),
    id_category_moodle int,
    category_code varchar(4) not null,
    status smallint not null default 1,
    ${ts}
  )`,
  `create index categories_platform_idx on categories (platform_id)`,
  `create table courses (
    id serial primary key,
    description varchar(150) not null,
    email varchar(255),
    password_encrypted text,
    id_course_moodle int,
    category_id int not null references categories(id),
    status smallint not null default 1,
    last_sync_at timestamptz,
    ${ts}
  )`,
  `create index courses_category_idx on courses (category_id)`,
  `create table activities (
    id serial primary key,
    description varchar(255) not null,
    type varchar(60),
    section_id int references sections(id),
    weighing numeric(6,2) not null default 10,
    id_activity_moodle int,
    course_id int not null references courses(id) on delete cascade,
    ${ts}
  )`,
  `create unique index activities_moodle_uq on activities (course_id, id_activity_moodle) where id_activity_moodle is not null`,
  `create index activities_section_idx on activities (section_id)`,
  `create table registered_users (
    id serial primary key,
    rut varchar(12) not null unique,
    name varchar(100) not null,
    last_name varchar(100) not null,
    mother_last_name varchar(100),
    email varchar(255),
    phone varchar(20),
    mobile varchar(20),
    address varchar(255),
    city varchar(100),
    region varchar(100),
    rbd_school varchar(20),
    name_school varchar(255),
    city_school varchar(100),
    region_school varchar(100),
    phone_school varchar(20),
    id_registered_moodle int,
    rut_registered_moodle varchar(20),
    name_registered_moodle varchar(255),
    email_registered_moodle varchar(255),
    status_moodle varchar(60),
    ${ts}
  )`,
  `create index registered_users_email_idx on registered_users (lower(email))`,
  `create index registered_users_moodle_idx on registered_users (id_registered_moodle)`,
  `create table course_registered_users (
    id serial primary key,
    course_id int not null references courses(id),
    registered_user_id int not null references registered_users(id),
    profile_id int not null references profiles(id),
    classroom_id int references classrooms(id),
    final_status_id int references final_statuses(id),
    final_qualification numeric(6,2),
    final_qualification_moodle varchar(60),
    last_access_registered_moodle timestamptz,
    last_access_text varchar(100),
    is_sincronized boolean not null default false,
    ${ts},
    constraint course_registered_users_uq unique (course_id, registered_user_id)
  )`,
  `create index cru_course_classroom_idx on course_registered_users (course_id, classroom_id)`,
  `create index cru_registered_user_idx on course_registered_users (registered_user_id)`,
  `create table activity_course_users (
    id bigserial primary key,
    activity_id int not null references activities(id) on delete cascade,
    course_registered_user_id int not null references course_registered_users(id) on delete cascade,
    status_moodle varchar(60),
    qualification_moodle varchar(60),
    completion_state smallint,
    grade numeric(10,4),
    ${ts},
    constraint activity_course_users_uq unique (course_registered_user_id, activity_id)
  )`,
  `create index acu_activity_idx on activity_course_users (activity_id)`,
  `create table ticket_code_sequences (prefix varchar(20) primary key, last_value int not null)`,
  `create table tickets (
    id serial primary key,
    course_registered_user_id int not null references course_registered_users(id),
    course_id int not null references courses(id),
    ticket_code varchar(30) not null unique,
    type_ticket_id int not null references type_tickets(id),
    status_ticket_id int not null references status_tickets(id),
    priority_ticket_id int not null references priority_tickets(id),
    source_ticket_id int not null references source_tickets(id),
    motive_ticket_id int not null references motive_tickets(id),
    user_create_id int not null references users(id),
    user_assigned_id int references users(id),
    closing_date timestamptz,
    version int not null default 1,
    ${ts}
  )`,
  `create index tickets_course_status_idx on tickets (course_id, status_ticket_id)`,
  `create index tickets_course_created_idx on tickets (course_id, created_at)`,
  `create index tickets_enrolment_idx on tickets (course_registered_user_id)`,
  `create index tickets_assigned_idx on tickets (user_assigned_id, status_ticket_id)`,
  `create index tickets_created_idx on tickets (created_at)`,
  `create index tickets_type_idx on tickets (type_ticket_id)`,
  `create index tickets_priority_idx on tickets (priority_ticket_id)`,
  `create index tickets_source_idx on tickets (source_ticket_id)`,
  `create index tickets_motive_idx on tickets (motive_ticket_id)`,
  `create index tickets_creator_idx on tickets (user_create_id)`,
  `create table ticket_details (
    id serial primary key,
    ticket_id int not null references tickets(id) on delete cascade,
    user_created_id int not null references users(id),
    status_detail_ticket_id int not null references status_detail_tickets(id),
    comment text not null default '',
    ${ts}
  )`,
  `create index ticket_details_ticket_idx on ticket_details (ticket_id)`,
  `create index ticket_details_created_idx on ticket_details (created_at, user_created_id)`,
  `create index ticket_details_status_idx on ticket_details (status_detail_ticket_id)`,
  `create table log_editing_tickets (
    id serial primary key,
    ticket_id int not null unique references tickets(id) on delete cascade,
    user_id int not null references users(id) on delete cascade,
    expires_at timestamptz not null,
    ${ts}
  )`,
  `create table ticket_history (
    id bigserial primary key,
    ticket_id int not null references tickets(id) on delete cascade,
    user_id int references users(id) on delete set null,
    action varchar(40) not null,
    changes jsonb,
    created_at timestamptz not null default now()
  )`,
  `create index ticket_history_ticket_idx on ticket_history (ticket_id, created_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const tables = [
    'ticket_history', 'log_editing_tickets', 'ticket_details', 'tickets', 'ticket_code_sequences',
    'activity_course_users', 'course_registered_users', 'registered_users', 'activities', 'courses',
    'categories', 'jobs', 'audit_log', 'login_attempts', 'access_tokens', 'users', 'platforms', 'regions',
    ...CATALOGUES,
  ];
  for (const t of tables) await sql.raw(`drop table if exists ${t} cascade`).execute(db);
}
