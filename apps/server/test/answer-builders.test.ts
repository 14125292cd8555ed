import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { BUILDS } from '../src/answer-builds.js';
import type { BuildJob } from '../src/modules/answers/build.js';
import { runBuild, ThreadBuilder } from '../src/modules/answers/builders.js';
import { seedChain } from './data.js';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';

/**
 * Where whole-course answers are built (modules/answers/builders.ts): on PostgreSQL a thread of
 * their own with its own connections, on the embedded database the server's thread; the same
 * named build either way, byte for byte, gzipped.
 */
let ctx: TestContext;
let job: (name: string, params: unknown, query?: unknown) => BuildJob;
let course: number;
let enrolment: number;
const onPostgres = Boolean(process.env.DATABASE_URL);
/** A built answer's JSON text (it is built gzipped). */
const text = (built: { body: Uint8Array }) => gunzipSync(built.body).toString('utf8');

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await ctx.db
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select(['u.id', 'u.role_id'])
    .where('u.email', '=', TEST_ADMIN.email)
    .executeTakeFirstOrThrow();
  const chain = await seedChain(ctx.db, admin.id, '72001');
  course = chain.course;
  enrolment = chain.enrolment;
  const auth = { id: admin.id, roleId: admin.role_id, role: 'admin' as const, tokenId: 0 };
  job = (name, params, query = {}) => ({
    name,
    request: {
      url: `/api/v2/${name}`,
      auth: auth as never,
      query,
      params,
      server: { config: { PUBLIC_URL: undefined } },
    },
  });
});
afterAll(async () => {
  await ctx?.close();
});

describe('the builds of kept answers', () => {
  it(`run ${onPostgres ? 'on a thread of their own (PostgreSQL)' : "on the server's thread (embedded database)"}`, () => {
    expect(ctx.app.services.answers.builder instanceof ThreadBuilder).toBe(onPostgres);
  });

  it('give the same bytes and validity wherever they run', async () => {
    const builder = ctx.app.services.answers.builder!;
    for (const j of [
      job('tickets.course', { id: course }),
      job('tickets.enrolment', { id: enrolment }),
      job('enrolments.course', { id: course }),
      job('reports.studentTickets', { id: course }, { page: 1 }),
    ]) {
      const here = await runBuild(BUILDS, ctx.app.services, j);
      const there = await builder.build(j);
      expect(text(there), j.name).toBe(text(here));
      expect(there.validUntil).toBe(here.validUntil);
    }
    // The course's ticket is open: the answer holds until its age changes, within a day.
    const before = Date.now();
    const tickets = await builder.build(job('tickets.course', { id: course }));
    expect(JSON.parse(text(tickets))._data.collections[0].properties.closingDateIso).toBeNull();
    expect(tickets.validUntil).toBeGreaterThan(before);
    expect(tickets.validUntil).toBeLessThanOrEqual(Date.now() + 86_400_000);
  });

  it('a build that fails answers its error, and the next build is served', async () => {
    const builder = ctx.app.services.answers.builder!;
    await expect(builder.build(job('no.such.answer', {}))).rejects.toThrow(
      'Unknown kept answer: no.such.answer',
    );
    const after = await builder.build(job('enrolments.course', { id: course }));
    expect(JSON.parse(text(after))._data).toHaveLength(1);
  });

  it.runIf(onPostgres)(
    'a thread that ends fails only the builds in flight; the next build starts a new one',
    async () => {
      const builder = new ThreadBuilder(ctx.config);
      try {
        // Warmed at the server's start (one thread however often): the first request finds it starting.
        builder.warm();
        builder.warm();
        expect(
          JSON.parse(text(await builder.build(job('enrolments.course', { id: course }))))._data,
        ).toHaveLength(1);
        const inFlight = expect(
          builder.build(job('tickets.course', { id: course })),
        ).rejects.toThrow('The server is closing.');
        await builder.close();
        await inFlight;
        expect(
          JSON.parse(text(await builder.build(job('enrolments.course', { id: course }))))._data,
        ).toHaveLength(1);
      } finally {
        await builder.close();
      }
    },
  );
});
