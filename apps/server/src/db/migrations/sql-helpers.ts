/** SQL building blocks shared by migrations (not a migration itself: database.ts lists those). */

/** An AFTER trigger function of one statement body (statement triggers return null). */
export const triggerFunction = (name: string, body: string) => `create or replace function ${name}() returns trigger language plpgsql as $fn$
begin
  ${body};
  return null;
end
$fn$`;

/**
 * Creates pg_trgm where PostgreSQL offers it (contrib, trusted: a database owner may) and then
 * the given index statements; where it is missing (the embedded database) nothing is created and
 * the searches read rows instead. `what` names the searches in the notice.
 */
export const withTrigram = (what: string, indexes: string[]) => `do $$
    begin
      if exists (select 1 from pg_available_extensions where name = 'pg_trgm') then
        begin
          create extension if not exists pg_trgm;
        exception when others then
          raise notice 'pg_trgm not created (%): ${what} without trigram indexes', sqlerrm;
        end;
      end if;
      if exists (select 1 from pg_extension where extname = 'pg_trgm') then
        ${indexes.map((i) => `${i};`).join('\n        ')}
      end if;
    end $$`;

/** New values in answer_versions (migration 0024) for the given scopes (a query of one column), locked in key order. */
export const bumpAnswerVersions = (scopes: string) => `
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (${scopes}) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version`;

/** What a statement trigger function's early return is marked with (migration 0029). */
export const QUIET_MARK = '-- quiet: no rows, nothing to do';

/**
 * Gives every statement trigger function that reads a transition table an early return when that
 * table is empty (migration 0029 explains why). Rewrites the functions in place and leaves those
 * already rewritten alone: a migration that adds such a function runs this after it.
 */
export const quietStatementTriggers = () => `do $do$
declare
  f record;
begin
  for f in
    -- Each function with the transition table name that every one of its triggers provides.
    select p.oid, p.proname, p.prosrc, (array_agg(distinct n.name order by n.name))[1] as rows_name
    from pg_proc p
    join pg_namespace ns on ns.oid = p.pronamespace and ns.nspname = current_schema()
    join lateral (
      select x.name from pg_trigger t cross join lateral unnest(array[t.tgnewtable, t.tgoldtable]) x(name)
      where t.tgfoid = p.oid and not t.tgisinternal and x.name is not null
      group by x.name
      having count(distinct t.oid) = (select count(*) from pg_trigger t2 where t2.tgfoid = p.oid and not t2.tgisinternal)
    ) n on true
    where p.prolang = (select oid from pg_language where lanname = 'plpgsql')
      and p.prosrc ~* '^\\s*begin\\s'
      and position('${QUIET_MARK}' in p.prosrc) = 0
      and not exists (select 1 from pg_trigger t where t.tgfoid = p.oid and not t.tgisinternal and t.tgtype & 1 = 1)
    group by p.oid, p.proname, p.prosrc
  loop
    execute format(
      'create or replace function %I() returns trigger language plpgsql as %L',
      f.proname,
      regexp_replace(f.prosrc, '^\\s*begin\\s', format(E'\\nbegin\\n  if not exists (select from %I) then return null; end if; ${QUIET_MARK}\\n', f.rows_name), 'i')
    );
  end loop;
end
$do$`;
