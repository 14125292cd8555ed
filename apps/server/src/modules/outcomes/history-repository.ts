import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import { countsTowardProgress, formApplies, percentOf, testForm } from '../dashboard/sql.js';

/** Which enrolments of a course to compare with their last history row. */
export interface HistoryScope {
  courseId: number;
  /** Enrolments whose Moodle figures were just written; with `all` unset, only these (and those without any row yet) are compared. */
  enrolmentIds?: readonly number[];
  /** Every enrolment of the course (a change of its activities changes everybody's progress). */
  all?: boolean;
  /** One enrolment only (a one-student sync). */
  only?: number;
  /** The row's time: now (a sync), or the enrolment's own updated_at (the legacy import's first point). */
  at?: 'now' | 'updated_at';
}

/** The enrolments a sync's plan writes (their figures may have changed). */
export const writtenEnrolments = (plan: {
  enrolments: ReadonlyArray<{ id: number }>;
  resultInserts: ReadonlyArray<{ course_registered_user_id: number }>;
  resultUpdates: ReadonlyArray<{ course_registered_user_id: number }>;
}) => [
  ...new Set([
    ...plan.enrolments.map((x) => x.id),
    ...[...plan.resultInserts, ...plan.resultUpdates].map((x) => x.course_registered_user_id),
  ]),
];

/**
 * Appends a row to enrolment_progress_history (migration 0035) for each student enrolment of the
 * course whose figures differ from its last row (or that has none): progress (percentage of the
 * counting activities graded, as the follow-up table's), last access, activities completed and
 * Moodle's course grade when it is a number. One statement, in the sync's (or the import's)
 * transaction; returns the rows appended.
 */
export async function appendProgressHistory(db: Database, s: HistoryScope): Promise<number> {
  const ids = s.enrolmentIds ?? [];
  const chosen: RawBuilder<unknown> = s.only
    ? sql`e.id = ${s.only}`
    : s.all
      ? sql`true`
      : sql`(e.id = any(${ids as number[]}::int[]) or not exists (select 1 from enrolment_progress_history h0 where h0.enrolment_id = e.id))`;
  const at = s.at === 'updated_at' ? sql`e.updated_at` : sql`now()`;
  const result = await sql`
    with act as (
      select a.id, s.key from activities a join sections s on s.id = a.section_id
      where a.course_id = ${s.courseId} and ${countsTowardProgress('a', 's')}
    ),
    expected as (
      select count(*) filter (where ${formApplies(sql`act.key`, sql`'A'`)})::int as a, count(*) filter (where ${formApplies(sql`act.key`, sql`'B'`)})::int as b from act
    ),
    enr as (
      select e.id, ${at} as at, e.last_access_registered_moodle as last_access, trim(e.final_qualification_moodle) as q, ${testForm(sql`r.rut`)} as form
      from course_registered_users e
      join registered_users r on r.id = e.registered_user_id
      join profiles p on p.id = e.profile_id and p.key = 'student'
      where e.course_id = ${s.courseId} and ${chosen}
    ),
    fig as (
      select enr.id, enr.at, enr.last_access,
        ${percentOf(
          sql`(select count(*)::int from act join activity_course_users acu on acu.activity_id = act.id and acu.course_registered_user_id = enr.id
                where acu.grade is not null and ${formApplies(sql`act.key`, sql`enr.form`)})`,
          sql`(case enr.form when 'A' then x.a else x.b end)`,
        )}::smallint as progress,
        (select count(*) from activity_course_users acu join activities a on a.id = acu.activity_id
          where acu.course_registered_user_id = enr.id and acu.completion_state > 0 and a.removed_at is null)::smallint as completed,
        case when enr.q ~ '^-?[0-9]{1,5}([.,][0-9]+)?$' then replace(enr.q, ',', '.')::numeric(10, 5) end as grade
      from enr cross join expected x
    )
    insert into enrolment_progress_history (enrolment_id, recorded_at, progress, last_access, completed, grade)
    select f.id, f.at, f.progress, f.last_access, f.completed, f.grade
    from fig f
    left join lateral (
      select h.progress, h.last_access, h.completed, h.grade from enrolment_progress_history h
      where h.enrolment_id = f.id order by h.recorded_at desc limit 1
    ) h on true
    where h.completed is null or (f.progress, f.last_access, f.completed, f.grade) is distinct from (h.progress, h.last_access, h.completed, h.grade)
    on conflict (enrolment_id, recorded_at) do update
      set progress = excluded.progress, last_access = excluded.last_access, completed = excluded.completed, grade = excluded.grade`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0);
}
