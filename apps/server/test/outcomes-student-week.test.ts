import { chileLocalToDate, chileParts } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepOutcomes } from '../src/kept/outcomes-keeper.js';
import { ticketKeys } from './data.js';
import { createTestContext, type TestContext } from './helpers.js';

/**
 * The effectiveness report's unit, unknowns, baseline and intervals on courses written out by
 * hand (docs/usage/efectividad.md), one course per case so that each report stands alone. Every
 * expected figure is computed by hand in the case's comment; each fails on the report that
 * counted attempts, counted "sin datos" as failures and summed its baseline unweighted.
 */

const H = 3_600_000;
const DAY = 24 * H;
const Z = 1.959963984540054;
let ctx: TestContext;
let admin: { id: number; token: string };
const ids = { phone: 0, email: 0, open: 0, medium: 0, outgoing: 0, welcome: 0, success: 0 };
let profile = 0;
let category = 0;
let seq = 0;

const today = () => chileParts(new Date()).day;
const dayBack = (back: number) =>
  new Date(Date.parse(`${today()}T12:00:00Z`) - back * DAY).toISOString().slice(0, 10);
/** Noon of the Chilean day `back` days ago. */
const noonBack = (back: number) => chileLocalToDate(dayBack(back), '12:00')!;
const startBack = (back: number) => chileLocalToDate(dayBack(back), '00:00')!;
/** Monday of the ISO week `weeks` weeks before the current one, `back` days ago (never within the last 8 days). */
function mondayBack(weeks: number): number {
  const dow = new Date(`${today()}T12:00:00Z`).getUTCDay() || 7;
  return dow - 1 + 7 * weeks;
}

async function course(): Promise<number> {
  return (
    await ctx.db
      .insertInto('courses')
      .values({ description: `Curso ${++seq}`, category_id: category })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

async function student(courseId: number): Promise<number> {
  const n = ++seq;
  const s = await ctx.db
    .insertInto('registered_users')
    .values({ rut: `${20_000_000 + n}-${n % 10}`, name: `E${n}`, last_name: 'Prueba' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (
    await ctx.db
      .insertInto('course_registered_users')
      .values({
        course_id: courseId,
        registered_user_id: s.id,
        profile_id: profile,
        is_sincronized: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

const history = (enrolment: number, recorded: Date, access: Date | null, progress = 10) =>
  ctx.db
    .insertInto('enrolment_progress_history')
    .values({
      enrolment_id: enrolment,
      recorded_at: recorded,
      progress,
      last_access: access,
      completed: 0,
    })
    .execute();

async function ticket(courseId: number, enrolment: number, type = ids.phone): Promise<number> {
  return (
    await ctx.db
      .insertInto('tickets')
      .values({
        course_registered_user_id: enrolment,
        course_id: courseId,
        ticket_code: `SW-${++seq}`,
        type_ticket_id: type,
        status_ticket_id: ids.open,
        priority_ticket_id: ids.medium,
        source_ticket_id: ids.outgoing,
        motive_ticket_id: ids.welcome,
        user_create_id: admin.id,
        user_assigned_id: admin.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

const attempt = (ticketId: number, at: Date, medium: string | null = null) =>
  ctx.db
    .insertInto('ticket_details')
    .values({
      ticket_id: ticketId,
      user_created_id: admin.id,
      status_detail_ticket_id: ids.success,
      comment: 'Contacto',
      created_at: at,
      updated_at: at,
      medium,
    })
    .execute();

async function report(courseId: number, from: number, to: number) {
  const res = await ctx.request({
    method: 'GET',
    url: `/api/v2/outcomes/report?course_id=${courseId}&from=${dayBack(from)}&to=${dayBack(to)}`,
    token: admin.token,
  });
  expect(res.statusCode).toBe(200);
  return res.json()._data;
}

/** The report computed live, then from kept days: both must say the same. */
async function bothWays(courseId: number, from: number, to: number) {
  const live = await report(courseId, from, to);
  await keepOutcomes(ctx.db, { fromDay: dayBack(60) });
  expect(await report(courseId, from, to)).toEqual(live);
  return live;
}

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.userWithRole('admin');
  const db = ctx.db;
  Object.assign(ids, await ticketKeys(db));
  profile = (
    await db
      .selectFrom('profiles')
      .select('id')
      .where('key', '=', 'student')
      .executeTakeFirstOrThrow()
  ).id;
  const platformId = (
    await db
      .selectFrom('platforms')
      .select('id')
      .where('key', '=', 'moodle')
      .executeTakeFirstOrThrow()
  ).id;
  category = (
    await db
      .insertInto('categories')
      .values({ description: 'Semanas', category_code: 'SEM', platform_id: platformId })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});

afterAll(() => ctx?.close());

describe('the student-week, not the attempt', () => {
  it('a student called three times in a week who came back and one called once who did not: 1 of 2, not 3 of 4', async () => {
    // A: three calls on Monday, Tuesday and Wednesday of a week two weeks back, back in Moodle on Thursday.
    // B: one call that Monday, never back. Student-weeks 2, re-engaged 1 (50 %, Wilson 9.45 %–90.55 %);
    // contacts 4. Each student has one week: design effect 1.
    const c = await course();
    const a = await student(c);
    const b = await student(c);
    const monday = mondayBack(2);
    for (const e of [a, b]) await history(e, noonBack(monday + 20), noonBack(monday + 20));
    await history(a, noonBack(monday - 3), new Date(noonBack(monday - 3).getTime() - H));
    const ta = await ticket(c, a);
    for (const d of [0, 1, 2]) await attempt(ta, noonBack(monday - d));
    await attempt(await ticket(c, b), noonBack(monday));
    const r = await bothWays(c, monday + 1, monday - 6);
    const [all] = r.dimensions.all;
    expect(all.reengaged.n).toBe(2);
    expect(all.reengaged.rate).toBe(0.5);
    expect(all.reengaged.low).toBeCloseTo(0.0945, 4);
    expect(all.reengaged.high).toBeCloseTo(0.9055, 4);
    expect(all.contacts).toBe(4);
    expect([r.students, r.studentWeeks, r.designEffect]).toEqual([2, 2, 1]);
  });

  it("a student's repeated weeks widen the interval: design effect 2.92 on 4 of 8", async () => {
    // P: contacted in three weeks, back each time (y 3, m 3); Q: three weeks, never back (0, 3);
    // R: one week, back (1, 1); S: one week, not (0, 1). M 8, p 0.5, G 4.
    // Σ (y − p m)² = 1.5² + 1.5² + 0.5² + 0.5² = 5; V_cluster = 4/3 · 5 / 64 = 0.104167;
    // V_srs = 0.25 / 7 = 0.035714; deff = 2.916667; Wilson with n 8 / deff = 2.742857: 11.81 %–88.19 %
    // (plain Wilson on 8: 21.5 %–78.5 %).
    const c = await course();
    const [p, q, r1, s] = [await student(c), await student(c), await student(c), await student(c)];
    const weeks = [2, 3, 4].map((w) => mondayBack(w) - 1); // Tuesdays
    for (const e of [p, q, r1, s]) await history(e, noonBack(60), noonBack(60));
    const tp = await ticket(c, p);
    const tq = await ticket(c, q);
    for (const back of weeks) {
      await attempt(tp, noonBack(back));
      await history(p, noonBack(back - 2), noonBack(back - 1));
      await attempt(tq, noonBack(back));
    }
    await attempt(await ticket(c, r1), noonBack(weeks[0]!));
    await history(r1, noonBack(weeks[0]! - 2), noonBack(weeks[0]! - 1));
    await attempt(await ticket(c, s), noonBack(weeks[0]!));
    const r = await bothWays(c, weeks[2]! + 1, weeks[0]! - 1);
    const [all] = r.dimensions.all;
    expect([all.reengaged.n, all.reengaged.rate]).toEqual([8, 0.5]);
    expect([r.students, r.studentWeeks]).toEqual([4, 8]);
    expect(r.designEffect).toBeCloseTo(2.916667, 5);
    expect(all.reengaged.low).toBeCloseTo(0.1181, 4);
    expect(all.reengaged.high).toBeCloseTo(0.8819, 4);
  });
});

describe('unknown is not failure', () => {
  it('a course never synchronised: 3 contacts "sin datos", no rate (not "0 de 3")', async () => {
    const c = await course();
    for (let i = 0; i < 3; i++) await attempt(await ticket(c, await student(c)), noonBack(12));
    const r = await bothWays(c, 13, 11);
    const [all] = r.dimensions.all;
    expect(all.unknown).toBe(3);
    expect(all.reengaged).toEqual({ rate: null, n: 0, low: null, high: null });
    expect(all.difference).toBeNull();
    expect(r.students).toBe(0);
  });

  it('an attempt long before a legacy import’s single point is "sin datos"; one within 7 days of it is known', async () => {
    // The point is recorded 20 days ago with a last access 19 days ago. The attempt 30 days ago has no
    // figures before it nor within its 7 days: sin datos. The attempt 22 days ago has the point within
    // its window, whose access came 3 days after it: re-engaged. 1 of 1, 1 unknown.
    const c = await course();
    const e1 = await student(c);
    const e2 = await student(c);
    await history(e1, noonBack(20), noonBack(19));
    await history(e2, noonBack(20), noonBack(19));
    await attempt(await ticket(c, e1), noonBack(30));
    await attempt(await ticket(c, e2), noonBack(22));
    const [all] = (await bothWays(c, 31, 21)).dimensions.all;
    expect([all.reengaged.n, all.reengaged.rate, all.unknown]).toEqual([1, 1, 1]);
  });
});

describe('a baseline standardised to the contacts', () => {
  it('three contacts idle 0–2 days and one idle 14–29 against a baseline skewed the other way', async () => {
    // Day D, 15 days ago; contacts at noon. Contacts: C1–C3 last in Moodle the day before (0–2),
    // C1 and C2 back within 7 days; C4 idle 20 days (14–29), not back: 2 of 4.
    // Not contacted, idle 0–2 at D's start: B1 back, B2 not (1/2). Idle 14–29: B3–B8, B3 back (1/6).
    // Summed unweighted (the old baseline): 2 of 8 = 25 %. Standardised: (3 · 1/2 + 1 · 1/6) / 4 = 41.67 %,
    // variance Σ k² p (1 − p) / N = 9 · 0.25 / 2 + 1 · (5/36) / 6 = 1.148148, range ± 1.96 √v / 4 = ± 52.50 points.
    // Difference 50 % − 41.67 % = 8.33 points ± 1.96 √(0.25/4 + 1.148148/16): −63.48 to 80.15.
    const c = await course();
    const D = 15;
    const contacts = [await student(c), await student(c), await student(c), await student(c)];
    const base = await Promise.all(Array.from({ length: 8 }, () => student(c)));
    for (const [i, e] of contacts.entries()) {
      const idleSince = i < 3 ? noonBack(D + 1) : noonBack(D + 20);
      await history(e, idleSince, idleSince);
      if (i < 2) await history(e, noonBack(D - 3), noonBack(D - 2));
      await attempt(await ticket(c, e), noonBack(D));
    }
    for (const [i, e] of base.entries()) {
      const idleSince = i < 2 ? startBack(D + 1) : startBack(D + 20);
      await history(e, idleSince, idleSince);
      if (i === 0 || i === 2) await history(e, noonBack(D - 3), noonBack(D - 2));
    }
    const [all] = (await bothWays(c, D, D)).dimensions.all;
    expect([all.reengaged.n, all.reengaged.rate]).toEqual([4, 0.5]);
    expect(all.baseline.n).toBe(8);
    expect(all.baseline.rate).toBeCloseTo(0.416667, 6);
    // The range is clipped at 0: 41.67 − 52.50 < 0.
    expect(all.baseline.low).toBe(0);
    expect(all.baseline.high).toBeCloseTo(0.416667 + (Z * Math.sqrt(1.148148)) / 4, 5);
    expect(all.difference.value).toBeCloseTo(0.083333, 6);
    expect(all.difference.low).toBeCloseTo(-0.634825, 5);
    expect(all.difference.high).toBeCloseTo(0.801492, 5);
  });
});

describe('a baseline of students nobody contacted', () => {
  it('a student mailed from SIGAF without a ticket is not in the baseline', async () => {
    // One contact 14 days ago, idle 1 day, back. Not contacted, idle 1 day at the day's start: B1 back,
    // B2 mailed (no ticket) 2 days later and not back. Baseline 1 of 1 = 100 % (counted with B2: 1 of 2).
    const c = await course();
    const e = await student(c);
    const [b1, b2] = [await student(c), await student(c)];
    await history(e, noonBack(15), noonBack(15));
    await history(e, noonBack(12), noonBack(13));
    await attempt(await ticket(c, e), noonBack(14));
    for (const b of [b1, b2]) await history(b, startBack(15), startBack(15));
    await history(b1, noonBack(11), noonBack(12));
    await ctx.db
      .insertInto('mail_messages')
      .values({
        course_id: c,
        enrolment_id: b2,
        ticket_id: null,
        to_address: 'b2@correo.cl',
        from_address: 'curso@sigaf.test',
        reply_to: null,
        subject: 'Recordatorio',
        html: '<p>Hola</p>',
        text: 'Hola',
        status: 'sent',
        last_error: null,
        message_id: `<sw-${++seq}@sigaf.test>`,
        sent_at: noonBack(12),
        created_by: admin.id,
      })
      .execute();
    const [all] = (await bothWays(c, 14, 14)).dimensions.all;
    expect(all.baseline).toMatchObject({ n: 1, rate: 1 });
  });
});

describe('the medium of each attempt', () => {
  it('a mail on a phone ticket counts as e-mail; an attempt without medium takes the ticket type’s, counted as inferred', async () => {
    // Two students on "Contacto telefónico" tickets 12 days ago: one mailed (medium email, back),
    // one with no medium (call, inferred, not back).
    const c = await course();
    const e1 = await student(c);
    const e2 = await student(c);
    for (const e of [e1, e2]) await history(e, noonBack(20), noonBack(20));
    await history(e1, noonBack(10), noonBack(11));
    await attempt(await ticket(c, e1), noonBack(12), 'email');
    await attempt(await ticket(c, e2), noonBack(12));
    const r = await bothWays(c, 12, 12);
    const byKey = Object.fromEntries(r.dimensions.medium.map((g: { key: string }) => [g.key, g]));
    expect(byKey.email).toMatchObject({ reengaged: { n: 1, rate: 1 }, inferred: 0 });
    expect(byKey.call).toMatchObject({ reengaged: { n: 1, rate: 0 }, inferred: 1 });
    expect(r.dimensions.all[0].inferred).toBe(1);
    // The ticket type stays a dimension of its own: both are phone tickets.
    expect(r.dimensions.type).toEqual([
      expect.objectContaining({
        label: 'Contacto telefónico',
        reengaged: expect.objectContaining({ n: 2 }),
      }),
    ]);
  });
});
