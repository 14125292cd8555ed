-- The current definition of every trigger and function of SIGAF's schema, read from a database
-- migrated from scratch by `npm run db:triggers`. Do not edit: the migrations are the source
-- (apps/server/src/db/migrations), and apps/server/test/migration-record.test.ts checks this file.

-- Triggers, by table and name (statement triggers of one event fire in name order)

-- activities
CREATE TRIGGER activities_answers_delete AFTER DELETE ON public.activities REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_activities();
CREATE TRIGGER activities_answers_insert AFTER INSERT ON public.activities REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_activities();
CREATE TRIGGER activities_answers_update AFTER UPDATE ON public.activities REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_activities_update();
CREATE TRIGGER activities_dirty_delete AFTER DELETE ON public.activities REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_dirty_by_course();
CREATE TRIGGER activities_dirty_insert AFTER INSERT ON public.activities REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_dirty_by_course();
CREATE TRIGGER activities_dirty_moved AFTER UPDATE ON public.activities REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_dirty_by_course();
CREATE TRIGGER activities_dirty_update AFTER UPDATE ON public.activities REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_dirty_by_course();

-- activity_course_users
CREATE TRIGGER activity_course_users_answers_delete AFTER DELETE ON public.activity_course_users REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_activity_course_users();
CREATE TRIGGER activity_course_users_answers_insert AFTER INSERT ON public.activity_course_users REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_activity_course_users();
CREATE TRIGGER activity_course_users_answers_update AFTER UPDATE ON public.activity_course_users REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_activity_course_users_update();
CREATE TRIGGER activity_course_users_dirty_delete AFTER DELETE ON public.activity_course_users REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_dirty_by_progress();
CREATE TRIGGER activity_course_users_dirty_insert AFTER INSERT ON public.activity_course_users REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_dirty_by_progress();
CREATE TRIGGER activity_course_users_dirty_update AFTER UPDATE ON public.activity_course_users REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_dirty_by_progress();

-- categories
CREATE TRIGGER categories_answers AFTER INSERT OR DELETE OR UPDATE ON public.categories FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_global();

-- classroom_tutors
CREATE TRIGGER classroom_tutors_answers_delete AFTER DELETE ON public.classroom_tutors REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_classroom_tutors();
CREATE TRIGGER classroom_tutors_answers_insert AFTER INSERT ON public.classroom_tutors REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_classroom_tutors();
CREATE TRIGGER classroom_tutors_answers_update AFTER UPDATE ON public.classroom_tutors REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_classroom_tutors_update();

-- classrooms
CREATE TRIGGER classrooms_answers AFTER INSERT OR DELETE OR UPDATE ON public.classrooms FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_global();

-- course_registered_users
CREATE TRIGGER course_registered_users_answers_delete AFTER DELETE ON public.course_registered_users REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_course_registered_users();
CREATE TRIGGER course_registered_users_answers_insert AFTER INSERT ON public.course_registered_users REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_course_registered_users();
CREATE TRIGGER course_registered_users_answers_update AFTER UPDATE ON public.course_registered_users REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_course_registered_users_update();
CREATE TRIGGER course_registered_users_counts_moved AFTER UPDATE OF course_id ON public.course_registered_users FOR EACH ROW WHEN ((old.course_id IS DISTINCT FROM new.course_id)) EXECUTE FUNCTION sigaf_enrolment_counts_moved();
CREATE TRIGGER course_registered_users_dirty_delete AFTER DELETE ON public.course_registered_users REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_dirty_by_course();
CREATE TRIGGER course_registered_users_dirty_insert AFTER INSERT ON public.course_registered_users REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_dirty_by_course();
CREATE TRIGGER course_registered_users_dirty_moved AFTER UPDATE ON public.course_registered_users REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_dirty_by_course();
CREATE TRIGGER course_registered_users_dirty_update AFTER UPDATE ON public.course_registered_users REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_dirty_by_course();
CREATE TRIGGER course_registered_users_outcome_update AFTER UPDATE OF profile_id, course_id ON public.course_registered_users FOR EACH ROW WHEN (((old.profile_id IS DISTINCT FROM new.profile_id) OR (old.course_id IS DISTINCT FROM new.course_id))) EXECUTE FUNCTION sigaf_outcome_stale_enrolment();

-- courses
CREATE TRIGGER courses_answers_delete AFTER DELETE ON public.courses REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_courses();
CREATE TRIGGER courses_answers_insert AFTER INSERT ON public.courses REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_courses();
CREATE TRIGGER courses_answers_update AFTER UPDATE ON public.courses REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_courses_update();

-- enrolment_progress_history
CREATE TRIGGER enrolment_progress_history_outcome_delete AFTER DELETE ON public.enrolment_progress_history REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_outcome_stale_history_delete();
CREATE TRIGGER enrolment_progress_history_outcome_insert AFTER INSERT ON public.enrolment_progress_history REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_outcome_stale_history_insert();
CREATE TRIGGER enrolment_progress_history_outcome_update AFTER UPDATE ON public.enrolment_progress_history FOR EACH ROW WHEN ((old.* IS DISTINCT FROM new.*)) EXECUTE FUNCTION sigaf_outcome_stale_history_update();

-- enrolment_ticket_counts
CREATE TRIGGER enrolment_ticket_counts_course BEFORE INSERT ON public.enrolment_ticket_counts FOR EACH ROW EXECUTE FUNCTION sigaf_enrolment_counts_course();
CREATE TRIGGER enrolment_ticket_counts_follow_up_delete AFTER DELETE ON public.enrolment_ticket_counts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sigaf_follow_up_last_delete();
CREATE TRIGGER enrolment_ticket_counts_follow_up_insert AFTER INSERT ON public.enrolment_ticket_counts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sigaf_follow_up_last_insert();
CREATE TRIGGER enrolment_ticket_counts_follow_up_update AFTER UPDATE ON public.enrolment_ticket_counts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sigaf_follow_up_last_update();

-- final_statuses
CREATE TRIGGER final_statuses_answers AFTER INSERT OR DELETE OR UPDATE ON public.final_statuses FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_global();

-- log_editing_tickets
CREATE TRIGGER log_editing_tickets_answers_delete AFTER DELETE ON public.log_editing_tickets REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_log_editing_tickets();
CREATE TRIGGER log_editing_tickets_answers_insert AFTER INSERT ON public.log_editing_tickets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_log_editing_tickets();
CREATE TRIGGER log_editing_tickets_answers_update AFTER UPDATE ON public.log_editing_tickets REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_log_editing_tickets_update();

-- moodle_section_maps
CREATE TRIGGER moodle_section_maps_answers_delete AFTER DELETE ON public.moodle_section_maps REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_moodle_section_maps();
CREATE TRIGGER moodle_section_maps_answers_insert AFTER INSERT ON public.moodle_section_maps REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_moodle_section_maps();
CREATE TRIGGER moodle_section_maps_answers_update AFTER UPDATE ON public.moodle_section_maps REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_moodle_section_maps_update();

-- motive_tickets
CREATE TRIGGER motive_tickets_answers AFTER INSERT OR DELETE OR UPDATE ON public.motive_tickets FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_global();

-- platforms
CREATE TRIGGER platforms_answers AFTER INSERT OR DELETE OR UPDATE ON public.platforms FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_global();

-- priority_tickets
CREATE TRIGGER priority_tickets_answers AFTER INSERT OR DELETE OR UPDATE ON public.priority_tickets FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_global();

-- profiles
CREATE TRIGGER profiles_answers AFTER INSERT OR DELETE OR UPDATE ON public.profiles FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_global();
CREATE TRIGGER profiles_dirty AFTER INSERT OR DELETE OR UPDATE ON public.profiles FOR EACH STATEMENT EXECUTE FUNCTION sigaf_dirty_all();

-- regions
CREATE TRIGGER regions_answers AFTER INSERT OR DELETE OR UPDATE ON public.regions FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_global();

-- registered_users
CREATE TRIGGER registered_users_answers_delete AFTER DELETE ON public.registered_users REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_registered_users();
CREATE TRIGGER registered_users_answers_insert AFTER INSERT ON public.registered_users REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_registered_users();
CREATE TRIGGER registered_users_answers_update AFTER UPDATE ON public.registered_users REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_registered_users_update();
CREATE TRIGGER registered_users_dirty_update AFTER UPDATE ON public.registered_users REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_dirty_by_person();
CREATE TRIGGER registered_users_search_name BEFORE INSERT OR UPDATE OF name, last_name, mother_last_name, search_name ON public.registered_users FOR EACH ROW EXECUTE FUNCTION sigaf_registered_users_search_name();

-- roles
CREATE TRIGGER roles_answers AFTER INSERT OR DELETE OR UPDATE ON public.roles FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_global();

-- sections
CREATE TRIGGER sections_answers AFTER INSERT OR DELETE OR UPDATE ON public.sections FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_global();
CREATE TRIGGER sections_dirty AFTER INSERT OR DELETE OR UPDATE ON public.sections FOR EACH STATEMENT EXECUTE FUNCTION sigaf_dirty_all();

-- source_tickets
CREATE TRIGGER source_tickets_answers AFTER INSERT OR DELETE OR UPDATE ON public.source_tickets FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_global();

-- status_detail_tickets
CREATE TRIGGER status_detail_tickets_answers AFTER INSERT OR DELETE OR UPDATE ON public.status_detail_tickets FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_global();

-- status_tickets
CREATE TRIGGER status_tickets_answers AFTER INSERT OR DELETE OR UPDATE ON public.status_tickets FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_global();

-- ticket_details
CREATE TRIGGER ticket_details_answers_delete AFTER DELETE ON public.ticket_details REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_ticket_details();
CREATE TRIGGER ticket_details_answers_insert AFTER INSERT ON public.ticket_details REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_ticket_details();
CREATE TRIGGER ticket_details_answers_update AFTER UPDATE ON public.ticket_details REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_ticket_details_update();
CREATE TRIGGER ticket_details_course BEFORE INSERT OR UPDATE OF ticket_id ON public.ticket_details FOR EACH ROW EXECUTE FUNCTION sigaf_ticket_details_course();
CREATE TRIGGER ticket_details_done_reminders AFTER INSERT ON public.ticket_details REFERENCING NEW TABLE AS new_attempts FOR EACH STATEMENT EXECUTE FUNCTION reminders_done_on_attempts();
CREATE TRIGGER ticket_details_last_attempt_delete AFTER DELETE ON public.ticket_details REFERENCING OLD TABLE AS changed_attempts FOR EACH STATEMENT EXECUTE FUNCTION sigaf_last_attempt_refresh();
CREATE TRIGGER ticket_details_last_attempt_insert AFTER INSERT ON public.ticket_details REFERENCING NEW TABLE AS new_attempts FOR EACH STATEMENT EXECUTE FUNCTION sigaf_last_attempt_insert();
CREATE TRIGGER ticket_details_last_attempt_moved AFTER UPDATE ON public.ticket_details REFERENCING OLD TABLE AS changed_attempts FOR EACH STATEMENT EXECUTE FUNCTION sigaf_last_attempt_refresh();
CREATE TRIGGER ticket_details_last_attempt_update AFTER UPDATE ON public.ticket_details REFERENCING NEW TABLE AS changed_attempts FOR EACH STATEMENT EXECUTE FUNCTION sigaf_last_attempt_refresh();
CREATE TRIGGER ticket_details_outcome_delete AFTER DELETE ON public.ticket_details REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_outcome_stale_attempts();
CREATE TRIGGER ticket_details_outcome_insert AFTER INSERT ON public.ticket_details REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_outcome_stale_attempts();
CREATE TRIGGER ticket_details_outcome_medium_update AFTER UPDATE OF medium ON public.ticket_details FOR EACH ROW WHEN ((old.medium IS DISTINCT FROM new.medium)) EXECUTE FUNCTION sigaf_outcome_stale_attempt();
CREATE TRIGGER ticket_details_outcome_update AFTER UPDATE OF ticket_id, created_at, user_created_id, course_id ON public.ticket_details FOR EACH ROW WHEN (((((old.ticket_id IS DISTINCT FROM new.ticket_id) OR (old.created_at IS DISTINCT FROM new.created_at)) OR (old.user_created_id IS DISTINCT FROM new.user_created_id)) OR (old.course_id IS DISTINCT FROM new.course_id))) EXECUTE FUNCTION sigaf_outcome_stale_attempt();

-- tickets
CREATE TRIGGER tickets_answers_delete AFTER DELETE ON public.tickets REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_tickets();
CREATE TRIGGER tickets_answers_insert AFTER INSERT ON public.tickets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_tickets();
CREATE TRIGGER tickets_answers_update AFTER UPDATE ON public.tickets REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_tickets_update();
CREATE TRIGGER tickets_counts_delete AFTER DELETE ON public.tickets REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sigaf_ticket_counts_delete();
CREATE TRIGGER tickets_counts_insert AFTER INSERT ON public.tickets REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sigaf_ticket_counts_insert();
CREATE TRIGGER tickets_counts_update AFTER UPDATE ON public.tickets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sigaf_ticket_counts_update();
CREATE TRIGGER tickets_course_moved AFTER UPDATE OF course_id ON public.tickets FOR EACH ROW WHEN ((old.course_id IS DISTINCT FROM new.course_id)) EXECUTE FUNCTION sigaf_tickets_course_moved();
CREATE TRIGGER tickets_enrolment_counts_delete AFTER DELETE ON public.tickets REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sigaf_enrolment_counts_delete();
CREATE TRIGGER tickets_enrolment_counts_insert AFTER INSERT ON public.tickets REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sigaf_enrolment_counts_insert();
CREATE TRIGGER tickets_enrolment_counts_update AFTER UPDATE ON public.tickets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sigaf_enrolment_counts_update();
CREATE TRIGGER tickets_enrolment_last_delete AFTER DELETE ON public.tickets REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sigaf_enrolment_last_delete();
CREATE TRIGGER tickets_enrolment_last_insert AFTER INSERT ON public.tickets REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sigaf_enrolment_last_insert();
CREATE TRIGGER tickets_enrolment_last_update AFTER UPDATE ON public.tickets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sigaf_enrolment_last_update();
CREATE TRIGGER tickets_outcome_update AFTER UPDATE OF course_id, course_registered_user_id, type_ticket_id, source_ticket_id, motive_ticket_id ON public.tickets FOR EACH ROW WHEN ((((((old.course_id IS DISTINCT FROM new.course_id) OR (old.course_registered_user_id IS DISTINCT FROM new.course_registered_user_id)) OR (old.type_ticket_id IS DISTINCT FROM new.type_ticket_id)) OR (old.source_ticket_id IS DISTINCT FROM new.source_ticket_id)) OR (old.motive_ticket_id IS DISTINCT FROM new.motive_ticket_id))) EXECUTE FUNCTION sigaf_outcome_stale_ticket();

-- type_tickets
CREATE TRIGGER type_tickets_answers AFTER INSERT OR DELETE OR UPDATE ON public.type_tickets FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_global();

-- users
CREATE TRIGGER users_answers AFTER INSERT OR DELETE OR UPDATE OF name ON public.users FOR EACH STATEMENT EXECUTE FUNCTION sigaf_answers_global();

-- Trigger functions, by name

CREATE OR REPLACE FUNCTION public.reminders_done_on_attempts()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      update reminders r set state = 'done', done_at = x.created_at, done_by = x.user_created_id, ticket_detail_id = x.detail_id, updated_at = now()
      from (
        select p.id as reminder_id, a.id as detail_id, a.created_at, a.user_created_id
        from reminders p
        cross join lateral (
          select n.id, n.created_at, n.user_created_id from new_attempts n
          where n.ticket_id = p.ticket_id and n.created_at >= p.due_at
          order by n.created_at, n.id limit 1
        ) a
        where p.state = 'pending' and p.ticket_id in (select ticket_id from new_attempts)
      ) x
      where r.id = x.reminder_id;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_activities()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select course_id from changed) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_activities_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select course_id from changed union all select course_id from changed_before) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_activity_course_users()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select a.course_id from activities a where a.id in (select activity_id from changed)) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_activity_course_users_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select a.course_id from activities a where a.id in (select activity_id from changed) union all select a.course_id from activities a where a.id in (select activity_id from changed_before)) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_classroom_tutors()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select course_id from changed) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_classroom_tutors_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select course_id from changed union all select course_id from changed_before) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_course_registered_users()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select course_id from changed) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_course_registered_users_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select course_id from changed union all select course_id from changed_before) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_courses()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select id from changed) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_courses_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select id from changed union all select id from changed_before) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_global()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select 0) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_log_editing_tickets()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select t.course_id from tickets t where t.id in (select ticket_id from changed)) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_log_editing_tickets_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select t.course_id from tickets t where t.id in (select ticket_id from changed) union all select t.course_id from tickets t where t.id in (select ticket_id from changed_before)) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_moodle_section_maps()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select course_id from changed) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_moodle_section_maps_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select course_id from changed union all select course_id from changed_before) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_registered_users()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select e.course_id from course_registered_users e where e.registered_user_id in (select id from changed)) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_registered_users_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select e.course_id from course_registered_users e where e.registered_user_id in (select id from changed) union all select e.course_id from course_registered_users e where e.registered_user_id in (select id from changed_before)) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_ticket_details()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select course_id from changed) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_ticket_details_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select course_id from changed union all select course_id from changed_before) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_tickets()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select course_id from changed) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_answers_tickets_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select course_id from changed union all select course_id from changed_before) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_dirty_all()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into course_stats_state as s (course_id, dirty)
  select distinct course_id, true from (select id as course_id from courses) x where course_id is not null order by 1
  on conflict (course_id) do update set dirty = true where not s.dirty;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_dirty_by_course()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into course_stats_state as s (course_id, dirty)
  select distinct course_id, true from (select course_id from changed) x where course_id is not null order by 1
  on conflict (course_id) do update set dirty = true where not s.dirty;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_dirty_by_person()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into course_stats_state as s (course_id, dirty)
  select distinct course_id, true from (select e.course_id from course_registered_users e where e.registered_user_id in (select id from changed)) x where course_id is not null order by 1
  on conflict (course_id) do update set dirty = true where not s.dirty;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_dirty_by_progress()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into course_stats_state as s (course_id, dirty)
  select distinct course_id, true from (select a.course_id from activities a where a.id in (select activity_id from changed)) x where course_id is not null order by 1
  on conflict (course_id) do update set dirty = true where not s.dirty;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_enrolment_counts_course()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  begin
    select e.course_id into new.course_id from course_registered_users e where e.id = new.enrolment_id;
    return new;
  end
  $function$;

CREATE OR REPLACE FUNCTION public.sigaf_enrolment_counts_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into enrolment_ticket_counts as c (enrolment_id, total, open)
  select id, sum(n), sum(o) from (select r.course_registered_user_id as id, -1 as n, case when r.status_ticket_id = (select st.id from status_tickets st where st.key = 'open') then -1 else 0 end as o from old_rows r) x
  group by id
  having sum(n) <> 0 or sum(o) <> 0
  order by id
  on conflict (enrolment_id) do update set total = c.total + excluded.total, open = c.open + excluded.open;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_enrolment_counts_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into enrolment_ticket_counts as c (enrolment_id, total, open)
  select id, sum(n), sum(o) from (select r.course_registered_user_id as id, 1 as n, case when r.status_ticket_id = (select st.id from status_tickets st where st.key = 'open') then 1 else 0 end as o from new_rows r) x
  group by id
  having sum(n) <> 0 or sum(o) <> 0
  order by id
  on conflict (enrolment_id) do update set total = c.total + excluded.total, open = c.open + excluded.open;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_enrolment_counts_moved()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  begin
    update enrolment_ticket_counts set course_id = new.course_id where enrolment_id = new.id;
    return null;
  end
  $function$;

CREATE OR REPLACE FUNCTION public.sigaf_enrolment_counts_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into enrolment_ticket_counts as c (enrolment_id, total, open)
  select id, sum(n), sum(o) from (select r.course_registered_user_id as id, 1 as n, case when r.status_ticket_id = (select st.id from status_tickets st where st.key = 'open') then 1 else 0 end as o from new_rows r union all select r.course_registered_user_id as id, -1 as n, case when r.status_ticket_id = (select st.id from status_tickets st where st.key = 'open') then -1 else 0 end as o from old_rows r) x
  group by id
  having sum(n) <> 0 or sum(o) <> 0
  order by id
  on conflict (enrolment_id) do update set total = c.total + excluded.total, open = c.open + excluded.open;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_enrolment_last_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  perform 1 from enrolment_ticket_counts c where c.enrolment_id in (select distinct course_registered_user_id from old_rows where last_attempt_at is not null order by 1) order by c.enrolment_id for no key update;
  
  update enrolment_ticket_counts c set last_attempt_at = x.last
  from (
    select e.id, (select max(t.last_attempt_at) from tickets t where t.course_registered_user_id = e.id) as last
    from (select distinct course_registered_user_id from old_rows where last_attempt_at is not null order by 1) e(id)
  ) x
  where c.enrolment_id = x.id and c.last_attempt_at is distinct from x.last;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_enrolment_last_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
    update enrolment_ticket_counts c set last_attempt_at = x.last
    from (select course_registered_user_id as id, max(last_attempt_at) as last from new_rows where last_attempt_at is not null group by 1 order by 1) x
    where c.enrolment_id = x.id and (c.last_attempt_at is null or c.last_attempt_at < x.last);
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_enrolment_last_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  perform 1 from enrolment_ticket_counts c where c.enrolment_id in (
    select distinct id from (
      select o.course_registered_user_id as id from old_rows o join new_rows n on n.id = o.id
        where o.last_attempt_at is distinct from n.last_attempt_at or o.course_registered_user_id <> n.course_registered_user_id
      union all
      select n.course_registered_user_id from old_rows o join new_rows n on n.id = o.id
        where o.last_attempt_at is distinct from n.last_attempt_at or o.course_registered_user_id <> n.course_registered_user_id
    ) m order by id) order by c.enrolment_id for no key update;
  
  update enrolment_ticket_counts c set last_attempt_at = x.last
  from (
    select e.id, (select max(t.last_attempt_at) from tickets t where t.course_registered_user_id = e.id) as last
    from (
    select distinct id from (
      select o.course_registered_user_id as id from old_rows o join new_rows n on n.id = o.id
        where o.last_attempt_at is distinct from n.last_attempt_at or o.course_registered_user_id <> n.course_registered_user_id
      union all
      select n.course_registered_user_id from old_rows o join new_rows n on n.id = o.id
        where o.last_attempt_at is distinct from n.last_attempt_at or o.course_registered_user_id <> n.course_registered_user_id
    ) m order by id) e(id)
  ) x
  where c.enrolment_id = x.id and c.last_attempt_at is distinct from x.last;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_follow_up_last_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  
  insert into course_stats_state (course_id, dirty) select distinct x.course_id, true from (select course_id from old_rows where last_attempt_at is not null) x join courses c on c.id = x.course_id order by 1 on conflict (course_id) do nothing;
  perform 1 from course_stats_state s where s.course_id in (select y.course_id from (select course_id from old_rows where last_attempt_at is not null) y) order by s.course_id for key share;
  update course_follow_up_rows f set last_attempt_at = null
  from old_rows o where f.course_id = o.course_id and f.enrolment_id = o.enrolment_id and f.last_attempt_at is not null;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_follow_up_last_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  
  insert into course_stats_state (course_id, dirty) select distinct x.course_id, true from (select course_id from new_rows where last_attempt_at is not null) x join courses c on c.id = x.course_id order by 1 on conflict (course_id) do nothing;
  perform 1 from course_stats_state s where s.course_id in (select y.course_id from (select course_id from new_rows where last_attempt_at is not null) y) order by s.course_id for key share;
  update course_follow_up_rows f set last_attempt_at = n.last_attempt_at
  from new_rows n where f.course_id = n.course_id and f.enrolment_id = n.enrolment_id and n.last_attempt_at is not null;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_follow_up_last_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  
  insert into course_stats_state (course_id, dirty) select distinct x.course_id, true from (select n.course_id from old_rows o join new_rows n on n.enrolment_id = o.enrolment_id where o.last_attempt_at is distinct from n.last_attempt_at) x join courses c on c.id = x.course_id order by 1 on conflict (course_id) do nothing;
  perform 1 from course_stats_state s where s.course_id in (select y.course_id from (select n.course_id from old_rows o join new_rows n on n.enrolment_id = o.enrolment_id where o.last_attempt_at is distinct from n.last_attempt_at) y) order by s.course_id for key share;
  update course_follow_up_rows f set last_attempt_at = n.last_attempt_at
  from old_rows o join new_rows n on n.enrolment_id = o.enrolment_id
  where o.last_attempt_at is distinct from n.last_attempt_at and f.course_id = n.course_id and f.enrolment_id = n.enrolment_id;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_last_attempt_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  update tickets t set last_attempt_at = x.last
  from (select ticket_id, max(created_at) as last from new_attempts group by ticket_id order by ticket_id) x
  where t.id = x.ticket_id and (t.last_attempt_at is null or t.last_attempt_at < x.last);
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_last_attempt_refresh()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  perform 1 from tickets t where t.id in (select ticket_id from changed_attempts) order by t.id for no key update;
  
  update tickets t set last_attempt_at = x.last
  from (
    select k.id, (select max(d.created_at) from ticket_details d where d.ticket_id = k.id) as last
    from (select ticket_id as id from changed_attempts group by ticket_id order by ticket_id) k
  ) x
  where t.id = x.id and t.last_attempt_at is distinct from x.last;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_outcome_stale_attempt()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  perform sigaf_outcome_stale(array_agg(x.f), array_agg(x.l)) from (select distinct ((c.created_at - interval '8 days') at time zone 'America/Santiago')::date + 1 as f, ((c.created_at + interval '7 days') at time zone 'America/Santiago')::date as l from (select old.created_at union all select new.created_at) c (created_at)) x;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_outcome_stale_attempts()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  perform sigaf_outcome_stale(array_agg(x.f), array_agg(x.l)) from (select distinct ((c.created_at - interval '8 days') at time zone 'America/Santiago')::date + 1 as f, ((c.created_at + interval '7 days') at time zone 'America/Santiago')::date as l from changed c) x;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_outcome_stale_enrolment()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  perform sigaf_outcome_stale(array_agg(x.f), array_agg(x.l)) from (select ((min(h.recorded_at) - interval '8 days') at time zone 'America/Santiago')::date as f, 'infinity'::date as l from enrolment_progress_history h where h.enrolment_id = new.id having count(*) > 0) x;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_outcome_stale_history_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  perform sigaf_outcome_stale(array_agg(x.f), array_agg(x.l)) from (
  select distinct ((n.recorded_at - interval '7 days') at time zone 'America/Santiago')::date as f, 'infinity'::date as l from changed n
  union
  select distinct ((n.last_access - interval '7 days') at time zone 'America/Santiago')::date, ((n.last_access) at time zone 'America/Santiago')::date from changed n
  where n.last_access is not null) x;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_outcome_stale_history_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  perform sigaf_outcome_stale(array_agg(x.f), array_agg(x.l)) from (
  select distinct ((n.recorded_at - interval '7 days') at time zone 'America/Santiago')::date as f, 'infinity'::date as l from changed n
  union
  select distinct ((n.last_access - interval '7 days') at time zone 'America/Santiago')::date, ((n.last_access) at time zone 'America/Santiago')::date from changed n
  where n.last_access is not null and not exists (
    select 1 from (
      select p.recorded_at, p.last_access from enrolment_progress_history p
      where p.enrolment_id = n.enrolment_id and p.recorded_at < n.recorded_at order by p.recorded_at desc limit 1
    ) p where p.last_access = n.last_access and p.last_access <= p.recorded_at)) x;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_outcome_stale_history_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  perform sigaf_outcome_stale(array_agg(x.f), array_agg(x.l)) from (
  select distinct ((n.recorded_at - interval '7 days') at time zone 'America/Santiago')::date as f, 'infinity'::date as l from (select old.recorded_at, old.last_access union all select new.recorded_at, new.last_access) n (recorded_at, last_access)
  union
  select distinct ((n.last_access - interval '7 days') at time zone 'America/Santiago')::date, ((n.last_access) at time zone 'America/Santiago')::date from (select old.recorded_at, old.last_access union all select new.recorded_at, new.last_access) n (recorded_at, last_access)
  where n.last_access is not null) x;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_outcome_stale_ticket()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  perform sigaf_outcome_stale(array_agg(x.f), array_agg(x.l)) from (select distinct ((d.created_at - interval '8 days') at time zone 'America/Santiago')::date + 1 as f, ((d.created_at + interval '7 days') at time zone 'America/Santiago')::date as l from ticket_details d where d.ticket_id = new.id) x;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_registered_users_search_name()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      new.search_name := sigaf_search_name(new.name, new.last_name, new.mother_last_name);
      return new;
    end $function$;

CREATE OR REPLACE FUNCTION public.sigaf_ticket_counts_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into ticket_counts as c (course_id, dim, value, status_ticket_id, n)
  select course_id, dim, value, status, sum(n) from (select r.course_id, d.dim, d.value, d.status, -1 as n from old_rows r cross join lateral (values
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
) d(dim, value, status) where d.value is not null) x
  group by course_id, dim, value, status
  having sum(n) <> 0
  order by course_id, dim, value, status
  on conflict (course_id, dim, value, status_ticket_id) do update set n = c.n + excluded.n;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_ticket_counts_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into ticket_counts as c (course_id, dim, value, status_ticket_id, n)
  select course_id, dim, value, status, sum(n) from (select r.course_id, d.dim, d.value, d.status, 1 as n from new_rows r cross join lateral (values
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
) d(dim, value, status) where d.value is not null) x
  group by course_id, dim, value, status
  having sum(n) <> 0
  order by course_id, dim, value, status
  on conflict (course_id, dim, value, status_ticket_id) do update set n = c.n + excluded.n;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_ticket_counts_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  
  insert into ticket_counts as c (course_id, dim, value, status_ticket_id, n)
  select course_id, dim, value, status, sum(n) from (select r.course_id, d.dim, d.value, d.status, 1 as n from new_rows r cross join lateral (values
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
) d(dim, value, status) where d.value is not null union all select r.course_id, d.dim, d.value, d.status, -1 as n from old_rows r cross join lateral (values
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
) d(dim, value, status) where d.value is not null) x
  group by course_id, dim, value, status
  having sum(n) <> 0
  order by course_id, dim, value, status
  on conflict (course_id, dim, value, status_ticket_id) do update set n = c.n + excluded.n;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_ticket_details_course()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  select t.course_id into new.course_id from tickets t where t.id = new.ticket_id;
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION public.sigaf_tickets_course_moved()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  update ticket_details d set course_id = new.course_id where d.ticket_id = new.id;
  return null;
end
$function$;

-- Other functions (rebuilds, helpers the triggers call), by name

CREATE OR REPLACE FUNCTION public.sigaf_outcome_stale(firsts date[], lasts date[])
 RETURNS void
 LANGUAGE sql
AS $function$
    insert into outcome_stale_days (day)
    select distinct g.day from (
      select ((now()) at time zone 'America/Santiago')::date - 7 as hi, least((select min(day) from outcome_kept_days), ((now()) at time zone 'America/Santiago')::date - 367) as lo
    ) b
    cross join unnest(firsts, lasts) r (f, l)
    cross join lateral (select generate_series(greatest(r.f, b.lo), least(r.l, b.hi), interval '1 day')::date as day) g
    where not exists (select 1 from outcome_stale_days s where s.day = g.day)
  $function$;

CREATE OR REPLACE FUNCTION public.sigaf_rebuild_stats()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
  begin
    perform sigaf_rebuild_summaries();
    
  insert into answer_versions as v (scope, version)
  select s, nextval('answer_version_seq') from (select distinct s from (select 0) x(s) where s is not null order by 1) y
  on conflict (scope) do update set version = excluded.version;
  end
  $function$;

CREATE OR REPLACE FUNCTION public.sigaf_rebuild_summaries()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
  begin
    perform sigaf_rebuild_ticket_stats();
    delete from enrolment_ticket_counts;
    insert into enrolment_ticket_counts (enrolment_id, total, open, last_attempt_at, course_id)
    select x.*, e.course_id
    from (
      select t.course_registered_user_id, count(*), count(*) filter (where t.status_ticket_id = (select st.id from status_tickets st where st.key = 'open')), max(t.last_attempt_at)
      from tickets t group by 1
    ) x
    join course_registered_users e on e.id = x.course_registered_user_id;
  end
  $function$;

CREATE OR REPLACE FUNCTION public.sigaf_rebuild_ticket_stats()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
  begin
    delete from ticket_counts;
    insert into ticket_counts (course_id, dim, value, status_ticket_id, n)
    select course_id, dim, value, status, sum(n) from (select r.course_id, d.dim, d.value, d.status, 1 as n from tickets r cross join lateral (values
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
) d(dim, value, status) where d.value is not null) x group by 1, 2, 3, 4;
    update course_stats_state set dirty = true;
  end
  $function$;

CREATE OR REPLACE FUNCTION public.sigaf_search_name(name text, last_name text, mother_last_name text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$ select translate(lower(name || ' ' || last_name || ' ' || coalesce(mother_last_name, '')), 'áàäâéèëêíìïîóòöôúùüûñçÁÀÄÂÉÈËÊÍÌÏÎÓÒÖÔÚÙÜÛÑÇ', 'aaaaeeeeiiiioooouuuuncaaaaeeeeiiiioooouuuunc') $function$;
