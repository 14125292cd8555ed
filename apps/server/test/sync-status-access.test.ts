import type { MoodleSyncResult } from '@sigaf/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { seedChain } from './data.js';
import { fileContext } from './helpers.js';

/** A course's Moodle sync status: operators read counts; the lists of people (names, RUTs) are the administrators'. */
const file = fileContext();

const person = { source: 'local' as const, id: 7, rut: '11.111.111-1', name: 'Rosa Secreta Pérez' };
const result: MoodleSyncResult = {
  courseId: 0,
  courseMoodleId: 55,
  scope: 'full',
  invalidRuts: [{ ...person, rut: 'abc', detail: 'RUT no válido' }],
  found: 12,
  missingInMoodle: [person],
  missingLocally: [{ source: 'moodle', id: 900, rut: '22.222.222-2', name: 'Pedro Oculto' }],
  identityHidden: [],
  activitiesAdded: 3,
  activitiesUpdated: 1,
  activitiesRemoved: 0,
  suspended: 1,
  suspendedStudents: [{ source: 'moodle', id: 901, rut: '33.333.333-3', name: 'Luisa Suspendida' }],
  rowsWritten: 40,
  errors: ['El RUT 44.444.444-4 está en más de un usuario de Moodle (1 y 2); se usa 1.'],
  moodleCalls: 9,
  startedAt: '2025-03-03T12:00:00.000Z',
  finishedAt: '2025-03-03T12:01:00.000Z',
};

async function syncedCourse() {
  const { ctx } = file;
  const adminId = (
    await ctx.db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow()
  ).id;
  const { course } = await seedChain(ctx.db, adminId, `S${Date.now() % 100000}`);
  await sql`insert into moodle_course_syncs (course_id, state, scope, result, started_at, finished_at)
    values (${course}, 'done', 'full', ${JSON.stringify({ ...result, courseId: course })}::jsonb, now(), now())`.execute(
    ctx.db,
  );
  await ctx.db
    .updateTable('courses')
    .set({ last_sync_at: new Date() })
    .where('id', '=', course)
    .execute();
  return course;
}

describe('a course sync status', () => {
  it('an operator gets the state and the counts, no names, RUTs or error lines', async () => {
    const { ctx } = file;
    const course = await syncedCourse();
    const op = await ctx.userWithRole('operator');
    const res = await ctx.request({
      method: 'GET',
      url: `/api/v2/sync/courses/${course}/status`,
      token: op.token,
    });
    expect(res.statusCode).toBe(200);
    const data = res.json()._data;
    expect(data.state).toBe('done');
    expect(data.lastSyncAt).not.toBeNull();
    expect(data.result).toBeNull();
    expect(data.counts).toMatchObject({
      found: 12,
      invalidRuts: 1,
      missingInMoodle: 1,
      missingLocally: 1,
      suspended: 1,
      activitiesAdded: 3,
      errors: 1,
      rowsWritten: 40,
    });
    for (const secret of [
      'Rosa Secreta',
      'Pedro Oculto',
      'Luisa Suspendida',
      '11.111.111-1',
      '22.222.222-2',
      '44.444.444-4',
    ])
      expect(res.body).not.toContain(secret);
  });

  it('an administrator gets the lists too', async () => {
    const { ctx, admin } = file;
    const course = await syncedCourse();
    const res = await ctx.request({
      method: 'GET',
      url: `/api/v2/sync/courses/${course}/status`,
      token: admin,
    });
    expect(res.statusCode).toBe(200);
    const data = res.json()._data;
    expect(data.result.missingInMoodle).toEqual([person]);
    expect(data.result.errors).toHaveLength(1);
    expect(data.counts.missingInMoodle).toBe(1);
  });

  it('a tutor may not read it; a course never synchronised has no counts', async () => {
    const { ctx } = file;
    const course = await syncedCourse();
    const tutor = await ctx.userWithRole('tutor');
    expect(
      (
        await ctx.request({
          method: 'GET',
          url: `/api/v2/sync/courses/${course}/status`,
          token: tutor.token,
        })
      ).statusCode,
    ).toBe(403);
    const adminId = (
      await ctx.db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow()
    ).id;
    const fresh = (await seedChain(ctx.db, adminId, `N${Date.now() % 100000}`)).course;
    const op = await ctx.userWithRole('operator');
    const never = (
      await ctx.request({
        method: 'GET',
        url: `/api/v2/sync/courses/${fresh}/status`,
        token: op.token,
      })
    ).json()._data;
    expect(never).toMatchObject({ state: null, result: null, counts: null });
  });
});
