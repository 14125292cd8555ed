import { chileLocalToDate, chileParts, OUTCOME_DIMENSIONS } from '@sigaf/contract';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendProgressHistory } from '../src/modules/outcomes/history-repository.js';
import { keepOutcomes } from '../src/kept/outcomes-keeper.js';
import {
  daysBetween,
  OutcomeRepository,
  STUDENT_DIMENSION,
  type GroupFilter,
} from '../src/modules/outcomes/repository.js';
import { lastSettledDay } from '../src/modules/outcomes/service.js';
import { TicketDetailRepository } from '../src/modules/tickets/detail-repository.js';
import { ticketKeys } from './data.js';
import { createTestContext, type TestContext } from './helpers.js';

/**
 * The kept effectiveness figures are always the computed ones (docs/development/performance.md,
 * "Contact outcomes"): random sequences of the writes staff, syncs and imports make — attempts
 * logged (now, or dated in the past by an import, with or without a medium) and deleted, a medium
 * changed, tickets moved to another student,
 * given another channel or reassigned, a late sync revealing an access weeks ago, history rows
 * dated in the past, a student's profile changed — with the keeper running between them; after
 * each sequence the report (kept days plus live ones) equals the report computed from scratch
 * (a late attempt earlier in a week moves its student-week to another day: both are marked),
 * for the organisation, a course, an operator and a course's operator, over several periods.
 */

const DAY = 86_400_000;
const DIMS = [...OUTCOME_DIMENSIONS, STUDENT_DIMENSION];
const MEDIUM = fc.constantFrom(null, 'call', 'email', 'whatsapp');
let ctx: TestContext;
const courses: number[] = [];
/** Students (one enrolment and one ticket each): five in the first course, three in the second. */
const enrolments: number[] = [];
const enrolmentCourse: number[] = [];
const tickets: number[] = [];
const operators: number[] = [];
const ids = { phone: 0, email: 0, success: 0, student: 0, tutor: 0 };
const today = () => chileParts(new Date()).day;
const dayBack = (back: number) =>
  new Date(Date.parse(`${today()}T12:00:00Z`) - back * DAY).toISOString().slice(0, 10);
/** An instant `back` Chilean days ago at `hour`:`minute`. */
const at = (back: number, hour: number, minute = 0) =>
  chileLocalToDate(
    dayBack(back),
    `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`,
  )!;
/** Days kept in these runs: the last 60 (the keeper's horizon is a year; the rest are empty). */
const keep = () => keepOutcomes(ctx.db, { fromDay: dayBack(60) });

type Action =
  | { kind: 'attempt'; s: number; op: number; back: number; hour: number; medium: string | null }
  | { kind: 'delete'; pick: number }
  | { kind: 'medium'; pick: number; medium: string | null }
  | { kind: 'retype'; s: number; email: boolean }
  | { kind: 'reassign'; s: number; op: number }
  | { kind: 'move'; s: number; to: number }
  | { kind: 'sync'; s: number; back: number; hour: number }
  | { kind: 'history'; s: number; back: number; hour: number; progress: number; idle: number }
  | { kind: 'import'; s: number; back: number }
  | { kind: 'profile'; s: number; student: boolean }
  | { kind: 'keep' };

const S = fc.integer({ min: 0, max: 7 });
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('attempt' as const),
      s: S,
      op: fc.integer({ min: 0, max: 1 }),
      back: fc.integer({ min: 0, max: 40 }),
      hour: fc.integer({ min: 8, max: 20 }),
      medium: MEDIUM,
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('medium' as const), pick: fc.nat(), medium: MEDIUM }),
    weight: 1,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('retype' as const), s: S, email: fc.boolean() }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('reassign' as const),
      s: S,
      op: fc.integer({ min: 0, max: 1 }),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('move' as const), s: S, to: S }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('sync' as const),
      s: S,
      back: fc.integer({ min: 9, max: 40 }),
      hour: fc.integer({ min: 0, max: 23 }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('history' as const),
      s: S,
      back: fc.integer({ min: 9, max: 45 }),
      hour: fc.integer({ min: 0, max: 23 }),
      progress: fc.integer({ min: 0, max: 100 }),
      idle: fc.integer({ min: 0, max: 20 }),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('import' as const),
      s: S,
      back: fc.integer({ min: 9, max: 45 }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('profile' as const), s: S, student: fc.boolean() }),
    weight: 1,
  },
  { arbitrary: fc.constant({ kind: 'keep' as const }), weight: 2 },
);

async function apply(a: Action) {
  const db = ctx.db;
  switch (a.kind) {
    case 'attempt':
      await db
        .insertInto('ticket_details')
        .values({
          ticket_id: tickets[a.s]!,
          user_created_id: operators[a.op]!,
          status_detail_ticket_id: ids.success,
          comment: 'Llamado',
          created_at: a.back === 0 ? new Date() : at(a.back, a.hour),
          medium: a.medium,
        })
        .execute();
      return;
    case 'medium': {
      // A medium said later (or taken back): the attempt's student-week may change group.
      const rows = await db.selectFrom('ticket_details').select('id').orderBy('id').execute();
      if (rows.length)
        await db
          .updateTable('ticket_details')
          .set({ medium: a.medium })
          .where('id', '=', rows[a.pick % rows.length]!.id)
          .execute();
      return;
    }
    case 'delete': {
      const rows = await db.selectFrom('ticket_details').select('id').orderBy('id').execute();
      if (rows.length)
        await new TicketDetailRepository(db).delete(rows[a.pick % rows.length]!.id, db);
      return;
    }
    case 'retype':
      await db
        .updateTable('tickets')
        .set({ type_ticket_id: a.email ? ids.email : ids.phone })
        .where('id', '=', tickets[a.s]!)
        .execute();
      return;
    case 'reassign':
      await db
        .updateTable('tickets')
        .set({ user_assigned_id: operators[a.op]! })
        .where('id', '=', tickets[a.s]!)
        .execute();
      return;
    case 'move':
      await db
        .updateTable('tickets')
        .set({ course_registered_user_id: enrolments[a.to]!, course_id: enrolmentCourse[a.to]! })
        .where('id', '=', tickets[a.s]!)
        .execute();
      return;
    case 'sync':
      // A course synchronised late: Moodle's last access is weeks old; the row is recorded now.
      await db
        .updateTable('course_registered_users')
        .set({ last_access_registered_moodle: at(a.back, a.hour) })
        .where('id', '=', enrolments[a.s]!)
        .execute();
      await appendProgressHistory(db, {
        courseId: enrolmentCourse[a.s]!,
        enrolmentIds: [enrolments[a.s]!],
      });
      return;
    case 'history': {
      const recorded = at(a.back, a.hour, 30);
      await db
        .insertInto('enrolment_progress_history')
        .values({
          enrolment_id: enrolments[a.s]!,
          recorded_at: recorded,
          progress: a.progress,
          last_access: new Date(recorded.getTime() - a.idle * DAY),
          completed: 0,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
      return;
    }
    case 'import':
      // The legacy import: a first point dated at the enrolment's last update, and an attempt that day.
      await db
        .updateTable('course_registered_users')
        .set({ updated_at: at(a.back, 18), last_access_registered_moodle: at(a.back, 9) })
        .where('id', '=', enrolments[a.s]!)
        .execute();
      await appendProgressHistory(db, {
        courseId: enrolmentCourse[a.s]!,
        only: enrolments[a.s]!,
        at: 'updated_at',
      });
      await db
        .insertInto('ticket_details')
        .values({
          ticket_id: tickets[a.s]!,
          user_created_id: operators[0]!,
          status_detail_ticket_id: ids.success,
          comment: 'Importado',
          created_at: at(a.back, 11),
          updated_at: at(a.back, 11),
        })
        .execute();
      return;
    case 'profile':
      await db
        .updateTable('course_registered_users')
        .set({ profile_id: a.student ? ids.student : ids.tutor })
        .where('id', '=', enrolments[a.s]!)
        .execute();
      return;
    case 'keep':
      await keep();
  }
}

/** Every run starts from the same students, tickets, history and attempts, with every day kept. */
async function reset() {
  const db = ctx.db;
  await sql`delete from ticket_details where ticket_id = any(${tickets}::int[])`.execute(db);
  await sql`delete from enrolment_progress_history where enrolment_id = any(${enrolments}::int[])`.execute(
    db,
  );
  await new OutcomeRepository(db).forgetKept();
  for (const [i, e] of enrolments.entries()) {
    await db
      .updateTable('course_registered_users')
      .set({ profile_id: ids.student, last_access_registered_moodle: null })
      .where('id', '=', e)
      .execute();
    await db
      .updateTable('tickets')
      .set({
        course_registered_user_id: e,
        course_id: enrolmentCourse[i]!,
        type_ticket_id: i % 2 ? ids.email : ids.phone,
        user_assigned_id: operators[i % 2]!,
      })
      .where('id', '=', tickets[i]!)
      .execute();
    // Idle since 50 days ago; back every other week for the first half of the students.
    await db
      .insertInto('enrolment_progress_history')
      .values({
        enrolment_id: e,
        recorded_at: at(55, 10),
        progress: 10 + i,
        last_access: at(56, 10),
        completed: 0,
      })
      .execute();
    if (i % 2 === 0)
      await db
        .insertInto('enrolment_progress_history')
        .values({
          enrolment_id: e,
          recorded_at: at(30 - i, 23),
          progress: 30 + i,
          last_access: at(31 - i, 15),
          completed: 1,
        })
        .execute();
    await db
      .insertInto('ticket_details')
      .values({
        ticket_id: tickets[i]!,
        user_created_id: operators[i % 2]!,
        status_detail_ticket_id: ids.success,
        comment: 'Llamado',
        created_at: at(33 - i, 10 + i),
      })
      .execute();
  }
  await keep();
}

/** The report of each scope and period as read (kept days and live ones) and as computed from scratch. */
async function expectKeptEqualsComputed() {
  const repo = new OutcomeRepository(ctx.db);
  const last = lastSettledDay();
  const periods = [
    [dayBack(45), last],
    [dayBack(30), dayBack(23)],
    [dayBack(20), dayBack(20)],
  ] as const;
  const scopes: Array<Omit<GroupFilter, 'fromDay' | 'toDay'>> = [
    {},
    { courseId: courses[0] },
    { operatorId: operators[0] },
    { courseId: courses[1], operatorId: operators[1] },
  ];
  for (const [fromDay, toDay] of periods) {
    for (const scope of scopes) {
      const f = { ...scope, fromDay, toDay };
      const read = await repo.groups(DIMS, f);
      const computed = (
        await repo.groupsQuery(DIMS, f, daysBetween(fromDay, toDay), []).execute(ctx.db)
      ).rows;
      expect(read, JSON.stringify(f)).toEqual(computed);
    }
    // One definition: a course's operator row is that operator's own report of the course.
    const row = (await repo.groups(['operator'], { courseId: courses[0], fromDay, toDay })).find(
      (r) => r.key === String(operators[0]),
    );
    const own = (
      await repo.groups(['all'], { courseId: courses[0], operatorId: operators[0], fromDay, toDay })
    )[0];
    expect(own && { ...own, dim: 'operator', key: row?.key, label: row?.label }).toEqual(row);
  }
}

beforeAll(async () => {
  ctx = await createTestContext();
  const db = ctx.db;
  for (let i = 0; i < 2; i++) operators.push((await ctx.userWithRole('operator')).id);
  const keys = await ticketKeys(db);
  const profile = async (k: string) =>
    (await db.selectFrom('profiles').select('id').where('key', '=', k).executeTakeFirstOrThrow())
      .id;
  Object.assign(ids, {
    phone: keys.phone,
    email: keys.email,
    success: keys.success,
    student: await profile('student'),
    tutor: await profile('tutor'),
  });
  const { open, medium, outgoing, welcome } = keys;
  const platformId = (
    await db
      .selectFrom('platforms')
      .select('id')
      .where('key', '=', 'moodle')
      .executeTakeFirstOrThrow()
  ).id;
  const category = await db
    .insertInto('categories')
    .values({ description: 'Propiedad', category_code: 'PRO', platform_id: platformId })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const name of ['Curso A', 'Curso B'])
    courses.push(
      (
        await db
          .insertInto('courses')
          .values({ description: name, category_id: category.id })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  for (let i = 0; i < 8; i++) {
    const course = courses[i < 5 ? 0 : 1]!;
    const s = await db
      .insertInto('registered_users')
      .values({ rut: `2${String(i).padStart(7, '0')}-${i}`, name: `P${i}`, last_name: 'Prueba' })
      .returning('id')
      .executeTakeFirstOrThrow();
    enrolments.push(
      (
        await db
          .insertInto('course_registered_users')
          .values({
            course_id: course,
            registered_user_id: s.id,
            profile_id: ids.student,
            is_sincronized: true,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    enrolmentCourse.push(course);
    const t = await db
      .insertInto('tickets')
      .values({
        course_registered_user_id: enrolments[i]!,
        course_id: course,
        ticket_code: `PRO-${i}`,
        type_ticket_id: ids.phone,
        status_ticket_id: open,
        priority_ticket_id: medium,
        source_ticket_id: outgoing,
        motive_ticket_id: welcome,
        user_create_id: operators[0]!,
        user_assigned_id: operators[0]!,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    tickets.push(t.id);
  }
});

afterAll(() => ctx?.close());

describe('kept effectiveness days under late writes', () => {
  it(
    'after any sequence of writes and keeping, the report read equals the report computed from scratch',
    { timeout: 120_000 },
    async () => {
      // A late attempt the day before a kept first contact, in the same ISO week: the student-week
      // moves to the earlier day, so both days must be marked stale (student i's attempt is 33 − i days back).
      const i = [0, 1].find((k) => new Date(`${dayBack(33 - k)}T12:00:00Z`).getUTCDay() !== 1)!;
      const late: Action[] = [
        { kind: 'keep' },
        { kind: 'attempt', s: i, op: (i + 1) % 2, back: 34 - i, hour: 9, medium: 'whatsapp' },
      ];
      await fc.assert(
        fc.asyncProperty(
          fc.array(action, { minLength: 4, maxLength: 12 }),
          fc.boolean(),
          async (actions, keepAtEnd) => {
            await reset();
            for (const a of actions) await apply(a);
            if (keepAtEnd) await keep();
            await expectKeptEqualsComputed();
          },
        ),
        {
          numRuns: 8,
          examples: [
            [late, false],
            [late, true],
          ],
        },
      );
    },
  );
});
