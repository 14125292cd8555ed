import { sql, type Kysely } from 'kysely';

/**
 * Performance at a million tickets (docs/development/performance.md).
 *
 * 1. Indexes the ticket list reads a page and its total by.
 * 2. ticket_details.course_id: the ticket's course, set by a trigger on insert (and kept if a
 *    ticket ever changes course), so a day's attempts of one course are one index range.
 * 3. ticket_counts: ticket counts per course by dimension, kept by statement triggers on tickets
 *    in the same transaction as the change (never stale). dim: 1 type, 2 priority, 3 source,
 *    4 motive, 5 assigned operator (0 = none) — each split by status —, 6 age in whole days of
 *    the closed tickets, 7 hour of creation, 8 hour by which a ticket was both created and closed
 *    (hours since the epoch: a Chilean day starts and ends on a whole hour), 9 and 10 the same
 *    by UTC day (whole days before a boundary, then its last hours).
 * 4. course_enrolment_stats and course_progress_stats: each enrolment of the student figures'
 *    population (classroom, test form, withdrawal stage, last access), and activity progress per
 *    course, classroom, activity, test form and withdrawal stage. Triggers mark a course dirty in course_stats_state whenever a row its
 *    figures read changes (in the writer's transaction); the dashboard recomputes a dirty course
 *    before reading it (DashboardRepository), so what it answers is never stale.
 */

const DIMS = `(values
  (1, r.type_ticket_id, r.status_ticket_id),
  (2, r.priority_ticket_id, r.status_ticket_id),
  (3, r.source_ticket_id, r.status_ticket_id),
  (4, r.motive_ticket_id, r.status_ticket_id),
  (5, coalesce(r.user_assigned_id, 0), r.status_ticket_id),
  (6, case when r.closing_date is null then null else greatest(0, floor(extract(epoch from (r.closing_date - r.created_at)) / 86400))::int end, 0),
  (7, floor(extract(epoch from r.created_at) / 3600)::int, 0),
  (8, case when r.closing_date is null then null else floor(extract(epoch from greatest(r.created_at, r.closing_date)) / 3600)::int end, 0),
  (9, floor(extract(epoch from r.created_at) / 86400)::int, 0),
  (10, case when r.closing_date is null then null else floor(extract(epoch from greatest(r.created_at, r.closing_date)) / 86400)::int end, 0)
) d(dim, value, status)`;

/** The count rows of a set of ticket rows, each counting `sign`. */
const expand = (rows: string, sign: number) =>
  `select r.course_id, d.dim, d.value, d.status, ${sign} as n from ${rows} r cross join lateral ${DIMS} where d.value is not null`;

/** Adds the deltas of a statement's rows, in key order (the same lock order in every writer). */
const applyDeltas = (parts: string[]) => `
  insert into ticket_counts as c (course_id, dim, value, status_ticket_id, n)
  select course_id, dim, value, status, sum(n) from (${parts.join(' union all ')}) x
  group by course_id, dim, value, status
  having sum(n) <> 0
  order by course_id, dim, value, status
  on conflict (course_id, dim, value, status_ticket_id) do update set n = c.n + excluded.n`;

const fn = (name: string, body: string) => `create or replace function ${name}() returns trigger language plpgsql as $fn$
begin
  ${body};
  return null;
end
$fn$`;

/** Marks the given courses' student figures for recomputation (key order: no lock-order deadlocks). */
const markDirty = (courses: string) => `
  insert into course_stats_state as s (course_id, dirty)
  select distinct course_id, true from (${courses}) x where course_id is not null order by 1
  on conflict (course_id) do update set dirty = true where not s.dirty`;

const STATEMENTS: string[] = [
  // 1. Ticket list: a course's tickets of one status in creation order (the open queue), and every
  // filter column beside the course for counting a page's total from the index alone.
  `create index tickets_course_status_created_idx on tickets (course_id, status_ticket_id, created_at, id)
     include (priority_ticket_id, type_ticket_id, motive_ticket_id, source_ticket_id, user_assigned_id, course_registered_user_id)`,
  `drop index if exists tickets_course_status_idx`,
  `create index tickets_course_cover_idx on tickets (course_id, created_at)
     include (status_ticket_id, priority_ticket_id, type_ticket_id, motive_ticket_id, source_ticket_id, user_assigned_id, course_registered_user_id)`,
  // Age chart: the tickets still without closing date.
  `create index tickets_course_unclosed_idx on tickets (course_id, created_at) where closing_date is null`,

  // 2. The course of each attempt.
  `alter table ticket_details add column course_id int`,
  `update ticket_details d set course_id = t.course_id from tickets t where t.id = d.ticket_id`,
  `alter table ticket_details alter column course_id set not null`,
  fn('sigaf_ticket_details_course', `select t.course_id into new.course_id from tickets t where t.id = new.ticket_id;
  return new`).replace('  return null;\n', ''),
  `create trigger ticket_details_course before insert or update of ticket_id on ticket_details
     for each row execute function sigaf_ticket_details_course()`,
  fn('sigaf_tickets_course_moved', `update ticket_details d set course_id = new.course_id where d.ticket_id = new.id`),
  `create trigger tickets_course_moved after update of course_id on tickets
     for each row when (old.course_id is distinct from new.course_id) execute function sigaf_tickets_course_moved()`,
  `create index ticket_details_course_created_idx on ticket_details (course_id, created_at)`,

  // 3. Ticket counts.
  `create table ticket_counts (
    course_id int not null,
    dim smallint not null,
    value int not null,
    status_ticket_id int not null,
    n int not null,
    primary key (course_id, dim, value, status_ticket_id)
  )`,
  fn('sigaf_ticket_counts_insert', applyDeltas([expand('new_rows', 1)])),
  fn('sigaf_ticket_counts_update', applyDeltas([expand('new_rows', 1), expand('old_rows', -1)])),
  fn('sigaf_ticket_counts_delete', applyDeltas([expand('old_rows', -1)])),
  `create trigger tickets_counts_insert after insert on tickets referencing new table as new_rows for each statement execute function sigaf_ticket_counts_insert()`,
  `create trigger tickets_counts_update after update on tickets referencing old table as old_rows new table as new_rows for each statement execute function sigaf_ticket_counts_update()`,
  `create trigger tickets_counts_delete after delete on tickets referencing old table as old_rows for each statement execute function sigaf_ticket_counts_delete()`,

  // 4. Student progress: the cached figures and which courses must be recomputed.
  `create table course_stats_state (
    course_id int primary key references courses(id) on delete cascade,
    dirty boolean not null default true,
    refreshed_at timestamptz
  )`,
  `create table course_progress_stats (
    course_id int not null references courses(id) on delete cascade,
    classroom_id int not null,
    activity_id int not null,
    form char(1) not null,
    stage smallint not null,
    students int not null,
    graded int not null,
    completed int not null,
    primary key (course_id, classroom_id, activity_id, form, stage)
  )`,
  // The population of the student figures, one row per enrolment (recomputed with the above).
  `create table course_enrolment_stats (
    course_id int not null references courses(id) on delete cascade,
    enrolment_id int not null,
    registered_user_id int not null,
    classroom_id int,
    form char(1) not null,
    stage smallint not null,
    last_access timestamptz,
    primary key (course_id, enrolment_id)
  )`,
  fn('sigaf_dirty_by_progress', markDirty(`select a.course_id from activities a where a.id in (select activity_id from changed)`)),
  fn('sigaf_dirty_by_course', markDirty(`select course_id from changed`)),
  fn('sigaf_dirty_by_person', markDirty(`select e.course_id from course_registered_users e where e.registered_user_id in (select id from changed)`)),
  fn('sigaf_dirty_all', markDirty(`select id as course_id from courses`)),

  // Rebuilds ticket_counts from the tickets, and marks every course's student figures dirty
  // (after a bulk load that bypassed the triggers, or to check the counts).
  `create or replace function sigaf_rebuild_stats() returns void language plpgsql as $fn$
  begin
    delete from ticket_counts;
    insert into ticket_counts (course_id, dim, value, status_ticket_id, n)
    select course_id, dim, value, status, sum(n) from (${expand('tickets', 1)}) x group by 1, 2, 3, 4;
    update course_stats_state set dirty = true;
  end
  $fn$`,
  `select sigaf_rebuild_stats()`,
];

/** Statement triggers marking courses dirty: one per table and event (transition tables need that). */
const DIRTY_TRIGGERS: Array<[table: string, fn: string]> = [
  ['activity_course_users', 'sigaf_dirty_by_progress'],
  ['course_registered_users', 'sigaf_dirty_by_course'],
  ['activities', 'sigaf_dirty_by_course'],
  ['registered_users', 'sigaf_dirty_by_person'],
];

function dirtyTriggers(): string[] {
  const out: string[] = [];
  for (const [table, f] of DIRTY_TRIGGERS) {
    for (const [event, ref] of [['insert', 'new table as changed'], ['update', 'new table as changed'], ['delete', 'old table as changed']] as const) {
      // A person's rut (form) is all that matters of registered_users, and only once enrolled.
      if (table === 'registered_users' && event !== 'update') continue;
      out.push(`create trigger ${table}_dirty_${event} after ${event} on ${table} referencing ${ref} for each statement execute function ${f}()`);
    }
  }
  // Old rows too on update, for enrolments moved between courses.
  out.push(`create trigger course_registered_users_dirty_moved after update on course_registered_users referencing old table as changed for each statement execute function sigaf_dirty_by_course()`);
  out.push(`create trigger activities_dirty_moved after update on activities referencing old table as changed for each statement execute function sigaf_dirty_by_course()`);
  // Section and profile keys decide who and what counts: any change marks every course.
  for (const table of ['sections', 'profiles']) {
    out.push(`create trigger ${table}_dirty after insert or update or delete on ${table} for each statement execute function sigaf_dirty_all()`);
  }
  return out;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [...STATEMENTS, ...dirtyTriggers()]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [table] of DIRTY_TRIGGERS) {
    for (const event of ['insert', 'update', 'delete']) await sql.raw(`drop trigger if exists ${table}_dirty_${event} on ${table}`).execute(db);
  }
  await sql.raw('drop trigger if exists course_registered_users_dirty_moved on course_registered_users').execute(db);
  await sql.raw('drop trigger if exists activities_dirty_moved on activities').execute(db);
  for (const table of ['sections', 'profiles']) await sql.raw(`drop trigger if exists ${table}_dirty on ${table}`).execute(db);
  for (const t of ['insert', 'update', 'delete']) await sql.raw(`drop trigger if exists tickets_counts_${t} on tickets`).execute(db);
  await sql.raw('drop trigger if exists tickets_course_moved on tickets').execute(db);
  await sql.raw('drop trigger if exists ticket_details_course on ticket_details').execute(db);
  for (const f of [
    'sigaf_rebuild_stats', 'sigaf_dirty_all', 'sigaf_dirty_by_person', 'sigaf_dirty_by_course', 'sigaf_dirty_by_progress',
    'sigaf_ticket_counts_insert', 'sigaf_ticket_counts_update', 'sigaf_ticket_counts_delete', 'sigaf_tickets_course_moved', 'sigaf_ticket_details_course',
  ]) {
    await sql.raw(`drop function if exists ${f}()`).execute(db);
  }
  await sql.raw('drop table if exists course_enrolment_stats').execute(db);
  await sql.raw('drop table if exists course_progress_stats').execute(db);
  await sql.raw('drop table if exists course_stats_state').execute(db);
  await sql.raw('drop table if exists ticket_counts').execute(db);
  await sql.raw('drop index if exists ticket_details_course_created_idx').execute(db);
  await sql.raw('alter table ticket_details drop column if exists course_id').execute(db);
  await sql.raw('drop index if exists tickets_course_unclosed_idx').execute(db);
  await sql.raw('drop index if exists tickets_course_cover_idx').execute(db);
  await sql.raw('create index if not exists tickets_course_status_idx on tickets (course_id, status_ticket_id)').execute(db);
  await sql.raw('drop index if exists tickets_course_status_created_idx').execute(db);
}
