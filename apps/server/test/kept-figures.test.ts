import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { KEPT_FIGURES, rebuildAll } from '../src/kept/index.js';
import { AgendaRepository } from '../src/modules/agenda/repository.js';
import { StudentFiguresRepository } from '../src/modules/dashboard/student-figures.js';
import { FollowUpRepository } from '../src/modules/follow-up/repository.js';
import { seedCourse, ticketKeys } from './data.js';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';
import * as scratch from './kept/scratch.js';
import { apply, REASSIGNING, writeArb, type World } from './kept/writes.js';

/**
 * Every kept figure (src/kept/index.ts; docs/development/kept-figures.md) equals the figure
 * computed from the base tables (test/kept/scratch.ts), after random sequences of the writes staff
 * and synchronisations make (test/kept/writes.ts: tickets, attempts, reassignments, names, RUTs,
 * classrooms, enrolments, Moodle's results, activities, backups and restores). The kept whole-course
 * answers equal those a server without kept answers builds; the workload table's at-risk column
 * equals a fresh count right after a reassignment. The state carries over from one sequence to
 * the next; a failure names the writes of its sequence and fast-check's seed.
 */
/** Sequences per run (KEPT_RUNS for a longer search). */
const RUNS = Number(process.env.KEPT_RUNS ?? 16);

let ctx: TestContext;
let fresh: FastifyInstance;
let world: World;
let courses: number[];
let agenda: AgendaRepository;

beforeAll(async () => {
  // The at-risk column kept a minute, as in production: only a reassignment may end it sooner.
  ctx = await createTestContext({ WORKLOAD_AT_RISK_SECONDS: 60 });
  const admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const operators = [
    (await ctx.userWithRole('operator')).id,
    (await ctx.userWithRole('operator')).id,
  ];
  const db = ctx.db;
  const one = await seedCourse(db, {
    categoryCode: 'KEPT',
    course: 'Curso Guardado Uno',
    students: 4,
    firstRut: 21_500_000,
  });
  const two = await seedCourse(db, {
    categoryCode: 'KEPU',
    course: 'Curso Guardado Dos',
    students: 3,
    firstRut: 21_600_000,
  });
  courses = [one.course, two.course];
  const profile = (
    await db
      .selectFrom('profiles')
      .select('id')
      .where('key', '=', 'student')
      .executeTakeFirstOrThrow()
  ).id;
  // Two students in both courses: a change of theirs marks both.
  for (const e of one.enrolments.slice(0, 2)) {
    await db
      .insertInto('course_registered_users')
      .values({
        course_id: two.course,
        registered_user_id: e.studentId,
        profile_id: profile,
        classroom_id: two.classroom,
      })
      .execute();
  }
  await db.insertInto('sections').values({ description: 'Unidad guardada' }).execute();
  const sections = await db.selectFrom('sections').select(['id', 'key', 'description']).execute();
  const section = (key: string) => sections.find((s) => s.key === key || s.description === key)!.id;
  for (const course of courses) {
    await db
      .insertInto('activities')
      .values([
        { course_id: course, description: 'Renuncia', section_id: section('resign') },
        { course_id: course, description: 'Encuesta', section_id: section('survey') },
        { course_id: course, description: 'Pre Test A', section_id: section('pre_test_a') },
        { course_id: course, description: 'Pre Test B', section_id: section('pre_test_b') },
        {
          course_id: course,
          description: 'Unidad 1',
          section_id: section('Unidad guardada'),
          weighing: 20,
        },
        {
          course_id: course,
          description: 'Formativa',
          section_id: section('Unidad guardada'),
          weighing: 0,
        },
        { course_id: course, description: 'Sin sección', section_id: null, weighing: 20 },
      ])
      .execute();
  }
  await db
    .updateTable('course_registered_users')
    .set({ is_sincronized: true })
    .where('course_id', 'in', courses)
    .execute();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-kept-'));
  world = {
    ctx,
    admin,
    operators,
    keys: await ticketKeys(db),
    backup: path.join(dir, 'backup.jsonl.gz'),
  };
  // A ticket for most students, an attempt on some, and the state a restore goes back to.
  for (let a = 0; a < 8; a++) await apply(world, { kind: 'ticket', a, b: a, c: a });
  for (let a = 0; a < 8; a += 2) await apply(world, { kind: 'attempt', a, b: a, c: a });
  await apply(world, { kind: 'backup', a: 0, b: 0, c: 0 });
  fresh = await buildApp({ ...ctx.config, ANSWER_CACHE_MB: 0 }, db);
  await fresh.ready();
  agenda = new AgendaRepository(db, new FollowUpRepository(db, new StudentFiguresRepository(db)));
});
afterAll(async () => {
  await fresh?.close();
  await ctx?.close();
  if (world) fs.rmSync(path.dirname(world.backup), { recursive: true, force: true });
});

/** The workload table's at-risk column per operator, as served. */
async function workload(): Promise<Map<number, number>> {
  const res = await ctx.request({
    method: 'GET',
    url: '/api/v2/agenda/workload',
    token: world.admin,
  });
  expect(res.statusCode, res.body).toBe(200);
  const rows = (
    res.json()._data.collections as Array<{ properties: { userId: number; atRisk: number } }>
  ).map((r) => r.properties);
  return new Map(world.operators.map((id) => [id, rows.find((r) => r.userId === id)?.atRisk ?? 0]));
}
async function countedNow(): Promise<Map<number, number>> {
  const rows = await agenda.atRiskByOperator();
  return new Map(world.operators.map((id) => [id, rows.find((r) => r.userId === id)?.n ?? 0]));
}

const operatorsOfTickets = async () =>
  JSON.stringify(
    await ctx.db.selectFrom('tickets').select(['id', 'user_assigned_id']).orderBy('id').execute(),
  );

/** A whole-course answer as kept, and as a server without kept answers builds it. */
async function answers(url: string) {
  const headers = { authorization: `Bearer ${world.admin}`, accept: 'application/json' };
  const [kept, built] = [
    await ctx.request({ method: 'GET', url, token: world.admin }),
    await fresh.inject({ method: 'GET', url, headers }),
  ];
  expect(kept.statusCode, kept.body).toBe(200);
  return { kept: kept.json(), built: built.json() };
}

/** Every kept figure against its computation from the data; `what` names the writes before. */
async function check(what: string) {
  const db = ctx.db;
  await scratch.expectKeptTablesComputed(
    db,
    courses,
    () => ctx.app.services.figuresKeeper.settle(),
    what,
  );
  const base = await scratch.readBase(db);
  for (const course of courses) {
    const activity = (
      await db
        .selectFrom('activities')
        .select('id')
        .where('course_id', '=', course)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
    const enrolment = base.enrolments.find((e) => e.course_id === course)?.id;
    const urls = [
      `/api/v2/tickets/course-registered-users/course/${course}`,
      `/api/v2/course-registered-user/${course}/users/all`,
      `/api/v2/activities/[${activity}]/course-registered-users/${course}`,
      `/api/v2/reports/courses/${course}/student-tickets?page=1`,
      ...(enrolment ? [`/api/v2/course-registered-user/${enrolment}/tickets`] : []),
    ];
    for (const url of urls) {
      const { kept, built } = await answers(url);
      expect(kept, `${url} kept after\n${what}`).toEqual(built);
    }
  }
}

describe('kept figures', () => {
  it(
    'every kept figure equals the figure computed from the data, after any sequence of writes',
    async () => {
      await check('the course set up');
      await fc.assert(
        fc.asyncProperty(fc.array(writeArb, { minLength: 3, maxLength: 10 }), async (writes) => {
          const done: string[] = [];
          for (const write of writes) {
            // The column holds a count when the write comes; a reassignment or new thresholds must end it.
            const watched = REASSIGNING.has(write.kind);
            const before = watched ? (await workload(), await operatorsOfTickets()) : '';
            const said = await apply(world, write);
            done.push(`${write.kind} ${write.a} ${write.b} ${write.c}: ${said}`);
            const ends =
              write.kind === 'settings'
                ? said === '200'
                : watched && (await operatorsOfTickets()) !== before;
            if (ends)
              expect(
                await workload(),
                `the workload's at-risk column after\n${done.join('\n')}`,
              ).toEqual(await countedNow());
          }
          await check(done.join('\n'));
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
    },
    60_000 + RUNS * 6_000,
  );

  it('the rebuild of every kept figure gives the figures computed from the data, whatever the kept figures held', async () => {
    const db = ctx.db;
    // Every kept figure made wrong by writes that bypass what keeps it (as a bulk load might).
    const untriggered = [
      'tickets',
      'ticket_details',
      'registered_users',
      'enrolment_ticket_counts',
    ];
    for (const table of untriggered)
      await sql`alter table ${sql.table(table)} disable trigger user`.execute(db);
    try {
      await sql`update ticket_counts set n = n + 1`.execute(db);
      await sql`update enrolment_ticket_counts set total = total + 1, last_attempt_at = null`.execute(
        db,
      );
      await sql`update tickets set last_attempt_at = now()`.execute(db);
      await sql`update ticket_details set course_id = ${courses[0]! + courses[1]!}::int - course_id`.execute(
        db,
      );
      await sql`update registered_users set search_name = 'x'`.execute(db);
      await sql`update course_follow_up_rows set name = 'x', graded = graded + 1`.execute(db);
      await sql`update course_progress_stats set students = students + 1`.execute(db);
    } finally {
      for (const table of untriggered)
        await sql`alter table ${sql.table(table)} enable trigger user`.execute(db);
    }
    expect(await scratch.keptTicketCounts(db)).not.toEqual(
      scratch.ticketCounts(await scratch.readBase(db)),
    );
    await rebuildAll(db);
    await check('a rebuild of every kept figure');
    expect(KEPT_FIGURES.filter((f) => !f.rebuild).map((f) => f.name)).toEqual([
      'workload at-risk column',
    ]);
  });
});
