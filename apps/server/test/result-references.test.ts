import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';
import { seedCourse } from './data.js';

/*
 * Students' activity results reference their activity and enrolment by foreign keys (for a while
 * statement triggers stood for them: migrations 0026 and 0038), with their guarantees: checked
 * (23503) on insert and on a change of reference, the referenced rows locked until commit, the
 * results deleted with their activity or enrolment, and the referenced ids fixed.
 */
let ctx: TestContext;
let admin: string;
let course: Awaited<ReturnType<typeof seedCourse>>;
let activities: number[];
const isPostgres = Boolean(process.env.DATABASE_URL);

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  course = await seedCourse(ctx.db, {
    categoryCode: 'REF',
    course: 'Referencias',
    students: 4,
    firstRut: 24_000_000,
  });
  const section = (await ctx.db.selectFrom('sections').select('id').executeTakeFirstOrThrow()).id;
  activities = (
    await ctx.db
      .insertInto('activities')
      .values(
        [1, 2, 3].map((i) => ({
          course_id: course.course,
          section_id: section,
          description: `Actividad ${i}`,
          id_activity_moodle: 9000 + i,
        })),
      )
      .returning('id')
      .execute()
  ).map((a) => a.id);
});
afterAll(() => ctx.close());

const result = (activity: number, enrolment: number) => ({
  activity_id: activity,
  course_registered_user_id: enrolment,
  status_moodle: 'Finalizado',
  completion_state: 1,
});
const results = (where: { activity?: number; enrolment?: number } = {}) => {
  let q = ctx.db
    .selectFrom('activity_course_users')
    .select(['id', 'activity_id', 'course_registered_user_id']);
  if (where.activity) q = q.where('activity_id', '=', where.activity);
  if (where.enrolment) q = q.where('course_registered_user_id', '=', where.enrolment);
  return q.execute();
};
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: string }) => e.code ?? String(e),
  );

describe('references of activity results', () => {
  it('an insert naming a missing activity or enrolment fails whole with the foreign-key error', async () => {
    const [e0, e1] = [course.enrolments[0]!.id, course.enrolments[1]!.id];
    expect(
      await code(
        ctx.db
          .insertInto('activity_course_users')
          .values([result(activities[0]!, e0), result(2_000_000_000, e1)])
          .execute(),
      ),
    ).toBe('23503');
    expect(
      await code(
        ctx.db
          .insertInto('activity_course_users')
          .values([result(activities[0]!, e0), result(activities[1]!, 2_000_000_000)])
          .execute(),
      ),
    ).toBe('23503');
    expect(await results({ enrolment: e0 })).toEqual([]);
    expect(
      await code(
        ctx.db
          .insertInto('activity_course_users')
          .values([result(activities[0]!, e0), result(activities[1]!, e0)])
          .execute(),
      ),
    ).toBe('ok');
    expect(await results({ enrolment: e0 })).toHaveLength(2);
  });

  it('an update that points a result elsewhere is checked; other updates are not refused', async () => {
    const [row] = await results({ enrolment: course.enrolments[0]!.id });
    expect(
      await code(
        ctx.db
          .updateTable('activity_course_users')
          .set({ course_registered_user_id: 2_000_000_000 })
          .where('id', '=', row!.id)
          .execute(),
      ),
    ).toBe('23503');
    expect(
      await code(
        ctx.db
          .updateTable('activity_course_users')
          .set({ activity_id: 2_000_000_000 })
          .where('id', '=', row!.id)
          .execute(),
      ),
    ).toBe('23503');
    expect(
      await code(
        ctx.db
          .updateTable('activity_course_users')
          .set({ grade: '6.5', status_moodle: 'Aprobado' })
          .where('id', '=', row!.id)
          .execute(),
      ),
    ).toBe('ok');
    expect(
      await code(
        ctx.db
          .updateTable('activity_course_users')
          .set({ activity_id: activities[2]! })
          .where('id', '=', row!.id)
          .execute(),
      ),
    ).toBe('ok');
  });

  it("results go with their activity and with their enrolment (the API's delete too); referenced ids do not change", async () => {
    const [e1, e2] = [course.enrolments[1]!.id, course.enrolments[2]!.id];
    await ctx.db
      .insertInto('activity_course_users')
      .values([
        result(activities[0]!, e1),
        result(activities[1]!, e1),
        result(activities[0]!, e2),
        result(activities[1]!, e2),
      ])
      .execute();
    await ctx.db.deleteFrom('activities').where('id', '=', activities[0]!).execute();
    expect(await results({ activity: activities[0]! })).toEqual([]);
    expect(await results({ enrolment: e1 })).toHaveLength(1);
    const deleted = await ctx.request({
      method: 'DELETE',
      url: `/api/v2/course-registered-users/${e1}`,
      token: admin,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await results({ enrolment: e1 })).toEqual([]);
    expect(await results({ enrolment: e2 })).toHaveLength(1);
    expect(
      await code(
        ctx.db
          .updateTable('activities')
          .set({ id: 2_000_000_001 })
          .where('id', '=', activities[1]!)
          .execute(),
      ),
    ).toBe('23503');
    expect(
      await code(
        ctx.db
          .updateTable('course_registered_users')
          .set({ id: 2_000_000_001 })
          .where('id', '=', e2)
          .execute(),
      ),
    ).toBe('23503');
    // No result anywhere references a row that is gone.
    const orphans = await sql<{ n: number }>`select count(*)::int as n from activity_course_users r
      where not exists (select 1 from activities a where a.id = r.activity_id) or not exists (select 1 from course_registered_users e where e.id = r.course_registered_user_id)`.execute(
      ctx.db,
    );
    expect(orphans.rows[0]!.n).toBe(0);
  });

  it.runIf(isPostgres)(
    'concurrent writers: a deletion waits for an uncommitted insert, and an insert for an uncommitted deletion',
    async () => {
      // A transaction that has run `work` and stays open until released.
      const open = async (work: (trx: typeof ctx.db) => Promise<unknown>) => {
        let release!: () => void;
        let ran!: () => void;
        const held = new Promise<void>((r) => (release = r));
        const didRun = new Promise<void>((r) => (ran = r));
        const done = ctx.db.transaction().execute(async (trx) => {
          await work(trx);
          ran();
          await held;
        });
        await didRun;
        return { release, done };
      };
      // Until a statement of this database (its text like `statement`) waits for a lock, or `ended`.
      const waitingForLock = async (statement: string, ended: () => boolean) => {
        for (
          const deadline = Date.now() + 30_000;
          !ended();
          await new Promise((r) => setTimeout(r, 20))
        ) {
          const { rows } = await sql<{
            n: number;
          }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike ${statement}`.execute(
            ctx.db,
          );
          if (rows[0]!.n > 0) return;
          if (Date.now() > deadline) throw new Error(`no wait for a lock by ${statement}`);
        }
      };
      const e3 = course.enrolments[3]!.id;
      // An insert holds the enrolment: its deletion waits, then deletes the committed results with it.
      const writer = await open((trx) =>
        trx.insertInto('activity_course_users').values(result(activities[1]!, e3)).execute(),
      );
      let deletedAt = 0;
      const deleter = ctx.db
        .deleteFrom('course_registered_users')
        .where('id', '=', e3)
        .execute()
        .then(() => (deletedAt = Date.now()));
      await waitingForLock('delete from "course_registered_users"%', () => deletedAt !== 0);
      expect(deletedAt).toBe(0);
      const committedAt = Date.now();
      writer.release();
      await writer.done;
      await deleter;
      expect(deletedAt).toBeGreaterThanOrEqual(committedAt);
      expect(await results({ enrolment: e3 })).toEqual([]);
      // A deletion in progress: an insert naming that row waits for it and then fails.
      const e2 = course.enrolments[2]!.id;
      const remover = await open((trx) =>
        trx.deleteFrom('course_registered_users').where('id', '=', e2).execute(),
      );
      let lateEnded = false;
      const late = code(
        ctx.db.insertInto('activity_course_users').values(result(activities[2]!, e2)).execute(),
      ).finally(() => (lateEnded = true));
      await waitingForLock('insert into "activity_course_users"%', () => lateEnded);
      expect(lateEnded).toBe(false);
      remover.release();
      await remover.done;
      expect(await late).toBe('23503');
      expect(await results({ enrolment: e2 })).toEqual([]);
    },
  );
});
