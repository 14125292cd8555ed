import { sql, type Kysely } from 'kysely';
import { QUIET_MARK, quietStatementTriggers } from './sql-helpers.js';

/**
 * Statement triggers with nothing to do return at once.
 *
 * A statement trigger fires even when its statement touched no row, and the keeping triggers of
 * migrations 0015–0028 write with statements of their own that touch no row most of the time
 * (an attempt's ticket already has its last attempt; an edit that changes no count). Each such
 * write fired the next table's triggers in turn: writing one contact attempt ran some forty
 * statements, half of them over empty transition tables, all inside the transaction that holds
 * the course's answer version and code sequence (the time two colleagues' writes in one course
 * wait for each other).
 *
 * Every trigger function that reads a transition table now first asks whether it holds a row
 * (the name all its triggers give it), and returns when not: the same result, since each of these
 * bodies only derives its writes from those rows. Rewritten in place, so the bodies stay those of
 * their migrations; idempotent (a rewritten body carries the mark and is left alone). A later
 * migration adding such a function runs quietStatementTriggers() after it (sql-helpers.ts).
 *
 * The answer version's triggers (0024, 0025) keep firing first of their table's (triggers of one
 * event fire in name order, theirs are `<table>_answers…`): the course's version row is the first
 * row shared by a course's writers that a statement's triggers lock, so two writes in one course
 * queue on it and never take the other shared rows (counts, an enrolment's figures) in opposite
 * orders. Fired last, a statement writing two tables (an attempt: its row, then its ticket's) took
 * the version row in the first table's triggers and an enrolment's figures in the second's, while
 * a new ticket of that enrolment took them the other way round: a deadlock.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(quietStatementTriggers()).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `do $do$
declare
  f record;
begin
  for f in select p.proname, p.prosrc from pg_proc p join pg_namespace ns on ns.oid = p.pronamespace and ns.nspname = current_schema() where position('${QUIET_MARK}' in p.prosrc) > 0 loop
    execute format('create or replace function %I() returns trigger language plpgsql as %L', f.proname, regexp_replace(f.prosrc, E'\\n  if not exists \\\\(select from [^)]*\\\\) then return null; end if; ${QUIET_MARK}', ''));
  end loop;
end
$do$`,
    )
    .execute(db);
}
