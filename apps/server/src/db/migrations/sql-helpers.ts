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
