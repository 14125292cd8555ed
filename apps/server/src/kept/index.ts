import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import { bumpAnswerVersions } from '../db/migrations/sql-helpers.js';
import { StudentFiguresRepository } from '../modules/dashboard/student-figures.js';
import { OutcomeRepository } from '../modules/outcomes/repository.js';

/**
 * Every figure the server keeps apart from the data it is computed from, and how to make each
 * true again from that data (docs/development/kept-figures.md: what each is, what keeps it true,
 * what it buys, the test that proves it). A figure kept in memory is made true again by making
 * every server process build it anew; one without a rebuild is true again by itself within its
 * bound.
 */
export interface KeptFigure {
  name: string;
  /** Where it is kept: tables and columns, or the server's memory. */
  where: string;
  /** Where the code that keeps it lives. */
  keeper: string;
  rebuild?: (db: Database) => Promise<void>;
}

const run = (statement: ReturnType<typeof sql>) => async (db: Database) => {
  await statement.execute(db);
};

/** Each attempt's course, from its ticket. */
const attemptCourses = run(
  sql`update ticket_details d set course_id = t.course_id from tickets t where t.id = d.ticket_id and d.course_id <> t.course_id`,
);

/** Each ticket's last attempt, from its attempts (before the enrolments' counts, which read it). */
const lastAttempts = run(sql`
  update tickets t set last_attempt_at = x.last
  from (select k.id, (select max(d.created_at) from ticket_details d where d.ticket_id = k.id) as last from tickets k) x
  where x.id = t.id and t.last_attempt_at is distinct from x.last`);

/** ticket_counts and enrolment_ticket_counts from the tickets (migrations 0008, 0015, 0018, 0024: it also marks every course's student figures and gives every kept answer a new version). */
const ticketTallies = run(sql`select sigaf_rebuild_stats()`);

const searchNames = run(sql`
  update registered_users set search_name = sigaf_search_name(name, last_name, mother_last_name)
  where search_name is distinct from sigaf_search_name(name, last_name, mother_last_name)`);

/** Every course's student figures marked and computed now. */
async function studentFigures(db: Database): Promise<void> {
  await sql`insert into course_stats_state (course_id, dirty) select id, true from courses on conflict (course_id) do update set dirty = true`.execute(
    db,
  );
  const figures = new StudentFiguresRepository(db);
  for (const { id } of await db.selectFrom('courses').select('id').orderBy('id').execute())
    await figures.fresh(id);
}

const answers = run(sql.raw(bumpAnswerVersions('select 0')));

const outcomeDays = (db: Database) => new OutcomeRepository(db).forgetKept();

/** In rebuild order: a figure after those it reads. */
export const KEPT_FIGURES: readonly KeptFigure[] = [
  {
    name: 'ticket_details.course_id',
    where: 'ticket_details.course_id',
    keeper: 'migration 0008 (row triggers on ticket_details and tickets)',
    rebuild: attemptCourses,
  },
  {
    name: 'tickets.last_attempt_at',
    where: 'tickets.last_attempt_at',
    keeper: 'migrations 0018, 0020 (statement triggers on ticket_details)',
    rebuild: lastAttempts,
  },
  {
    name: 'ticket_counts',
    where: 'ticket_counts',
    keeper: 'migration 0008 (statement triggers on tickets)',
    rebuild: ticketTallies,
  },
  {
    name: 'enrolment_ticket_counts',
    where: 'enrolment_ticket_counts',
    keeper: 'migrations 0015, 0018, 0020 (statement triggers on tickets)',
    rebuild: ticketTallies,
  },
  {
    name: 'registered_users.search_name',
    where: 'registered_users.search_name',
    keeper: 'migration 0016 (row trigger on registered_users)',
    rebuild: searchNames,
  },
  {
    name: 'student figures',
    where:
      'course_follow_up_rows, course_enrolment_stats, course_progress_stats, course_stats_state',
    keeper:
      'migrations 0008, 0015, 0020 (marks by statement triggers); modules/dashboard/student-figures.ts (fresh); kept/figures-keeper.ts',
    rebuild: studentFigures,
  },
  {
    name: 'kept answers',
    where: 'memory (modules/answers/cache.ts), versions in answer_versions',
    keeper: 'migration 0024 (statement triggers); modules/answers/cache.ts',
    rebuild: answers,
  },
  {
    name: 'workload at-risk column',
    where: 'memory (kept/at-risk-tally.ts)',
    keeper: 'kept/at-risk-tally.ts: a minute, or the next read after a reassignment',
  },
  {
    name: 'effectiveness kept days',
    where: 'outcome_kept_days, outcome_kept_groups',
    keeper: 'triggers mark the days a write changes (0043); kept/outcomes-keeper.ts',
    rebuild: outcomeDays,
  },
];

/** Makes every kept figure true again from the data, each rebuild once, in order. */
export async function rebuildAll(db: Database): Promise<void> {
  const done = new Set<KeptFigure['rebuild']>();
  for (const { rebuild } of KEPT_FIGURES) {
    if (!rebuild || done.has(rebuild)) continue;
    done.add(rebuild);
    await rebuild(db);
  }
}
