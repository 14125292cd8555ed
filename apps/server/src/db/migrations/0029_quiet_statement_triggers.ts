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
 * The answer version's triggers (0024, 0025) are renamed `<table>_version…` so that they fire last
 * of their table's (triggers of one event fire in name order): the course's version row, which
 * every write in the course takes, is then held from the end of the statement to its commit
 * rather than through the other keeping triggers too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(quietStatementTriggers()).execute(db);
  await renameVersionTriggers(db, '_answers', '_version');
}

async function renameVersionTriggers(db: Kysely<unknown>, from: string, to: string) {
  await sql
    .raw(
      `do $do$
declare
  r record;
begin
  for r in select t.tgrelid::regclass::text as tbl, t.tgname from pg_trigger t join pg_proc p on p.oid = t.tgfoid
    where not t.tgisinternal and p.proname like 'sigaf\\_answers\\_%' and t.tgname ~ '${from}(_|$)' loop
    execute format('alter trigger %I on %s rename to %I', r.tgname, r.tbl, regexp_replace(r.tgname, '${from}(_|$)', '${to}\\1'));
  end loop;
end
$do$`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await renameVersionTriggers(db, '_version', '_answers');
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
