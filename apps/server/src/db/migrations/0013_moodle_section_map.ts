import { sql, type Kysely } from 'kysely';

/**
 * Sections of synchronised activities (issue 22, item 6). Each activity remembers the Moodle
 * section it came from and, while staff have not decided, the SIGAF section the sync proposes for
 * it. A course maps a Moodle section (by name) to a SIGAF section once: every later sync files
 * the new activities of that Moodle section there.
 */
const STATEMENTS: string[] = [
  `alter table activities add column moodle_section varchar(255)`,
  `alter table activities add column proposed_section_id int references sections(id) on delete set null`,
  `create index activities_proposed_idx on activities (course_id) where proposed_section_id is not null`,
  `create table moodle_section_maps (
    id serial primary key,
    course_id int not null references courses(id) on delete cascade,
    moodle_section varchar(255) not null,
    section_id int not null references sections(id) on delete cascade,
    created_by int references users(id) on delete set null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (course_id, moodle_section)
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table moodle_section_maps').execute(db);
  for (const column of ['proposed_section_id', 'moodle_section']) await sql.raw(`alter table activities drop column ${column}`).execute(db);
}
