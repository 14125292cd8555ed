import {
  chileLocalToDate,
  chileParts,
  fileSlug,
  OUTCOME_MSG,
  OUTCOME_SUGGESTION_MIN,
} from '@sigaf/contract';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendProgressHistory } from '../src/modules/outcomes/history-repository.js';
import {
  KEEP_HORIZON_DAYS,
  keepOutcomes,
  OutcomeKeeper,
  similarFrom,
} from '../src/kept/outcomes-keeper.js';
import { up as similarByMedium } from '../src/db/migrations/0048_similar_by_medium.js';
import { lastSettledDay, OUTCOME_SETTLED_AFTER_DAYS } from '../src/modules/outcomes/service.js';
import { createTestContext, type TestContext } from './helpers.js';

/**
 * Contact outcomes and the effectiveness report on a course written out by hand, where every
 * expected figure is known. One Chilean day D, 20 days ago; contacts at noon of D:
 *   S1 phone (operator): before 35 %, last access 10 days earlier; back in Moodle 2 days later, 48 % on day 3.
 *   S2 mail (admin):     before 20 %, 9 days idle; back 9 days later (outside 7 days), 30 % on day 10.
 *   S3 phone (operator): before 50 %, 8 days idle; back 1 hour later, 60 % on day 1.
 * Not contacted, same course, same idle group (7–13 days) at the start of D: B1 back 3 days later,
 * B2 never back; B3 idle 1 day (another group, not in the baseline).
 * Expected: contacts 3, re-engaged 2 (66.7 %, Wilson 20.8 %–93.9 %), mean gain (13 + 0 + 10) / 3 = 7.7
 * points; baseline 1 of 2 (50 %), gain 0. Phone 2/2 (gain 11.5), mail 0/1.
 */

const H = 3_600_000;
const DAY = 24 * H;
let ctx: TestContext;
let admin: { id: number; token: string };
let operator: { id: number; token: string };
let other: { id: number; token: string };
let tutor: { token: string };
let courseId: number;
const enrolment: Record<string, number> = {};
const ticket: Record<string, number> = {};
let day: string;
let noon: Date;
let dayStart: Date;

async function get(url: string, token: string) {
  const res = await ctx.request({ method: 'GET', url, token });
  return {
    status: res.statusCode,
    body: res.headers['content-type']?.toString().includes('json') ? res.json() : null,
    raw: res.rawPayload,
    headers: res.headers,
  };
}

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.userWithRole('admin');
  operator = await ctx.userWithRole('operator');
  other = await ctx.userWithRole('operator');
  tutor = await ctx.userWithRole('tutor');
  day = chileParts(new Date(Date.now() - 20 * DAY)).day;
  noon = chileLocalToDate(day, '12:00')!;
  dayStart = chileLocalToDate(day, '00:00')!;
  const db = ctx.db;
  const platformId = (
    await db
      .selectFrom('platforms')
      .select('id')
      .where('key', '=', 'moodle')
      .executeTakeFirstOrThrow()
  ).id;
  const category = await db
    .insertInto('categories')
    .values({ description: 'Efectividad', category_code: 'EFE', platform_id: platformId })
    .returning('id')
    .executeTakeFirstOrThrow();
  courseId = (
    await db
      .insertInto('courses')
      .values({ description: 'Curso de contactos', category_id: category.id })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const profile = (
    await db
      .selectFrom('profiles')
      .select('id')
      .where('key', '=', 'student')
      .executeTakeFirstOrThrow()
  ).id;
  const key = async (
    table:
      | 'type_tickets'
      | 'status_tickets'
      | 'priority_tickets'
      | 'source_tickets'
      | 'motive_tickets'
      | 'status_detail_tickets',
    k: string,
  ) => (await db.selectFrom(table).select('id').where('key', '=', k).executeTakeFirstOrThrow()).id;
  const ids = {
    phone: await key('type_tickets', 'phone'),
    email: await key('type_tickets', 'email'),
    open: await key('status_tickets', 'open'),
    medium: await key('priority_tickets', 'medium'),
    outgoing: await key('source_tickets', 'outgoing'),
    welcome: await key('motive_tickets', 'welcome'),
    success: await key('status_detail_tickets', 'success'),
  };
  const ruts = [
    '11.111.111-1',
    '12.222.222-3',
    '13.333.333-5',
    '14.444.444-7',
    '15.555.555-9',
    '16.666.666-0',
  ];
  for (const [i, who] of ['S1', 'S2', 'S3', 'B1', 'B2', 'B3'].entries()) {
    const s = await db
      .insertInto('registered_users')
      .values({ rut: ruts[i]!, name: who, last_name: 'Prueba' })
      .returning('id')
      .executeTakeFirstOrThrow();
    enrolment[who] = (
      await db
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
  const history = (who: string, recorded: Date, progress: number, access: Date | null) =>
    db
      .insertInto('enrolment_progress_history')
      .values({
        enrolment_id: enrolment[who]!,
        recorded_at: recorded,
        progress,
        last_access: access,
        completed: 0,
      })
      .execute();
  await history('S1', new Date(noon.getTime() - 10 * DAY), 35, new Date(noon.getTime() - 10 * DAY));
  await history('S1', new Date(noon.getTime() + 3 * DAY), 48, new Date(noon.getTime() + 2 * DAY));
  await history('S2', new Date(noon.getTime() - 9 * DAY), 20, new Date(noon.getTime() - 9 * DAY));
  await history('S2', new Date(noon.getTime() + 10 * DAY), 30, new Date(noon.getTime() + 9 * DAY));
  await history('S3', new Date(noon.getTime() - 8 * DAY), 50, new Date(noon.getTime() - 8 * DAY));
  await history('S3', new Date(noon.getTime() + DAY), 60, new Date(noon.getTime() + H));
  await history(
    'B1',
    new Date(dayStart.getTime() - 10 * DAY),
    10,
    new Date(dayStart.getTime() - 10 * DAY),
  );
  await history(
    'B1',
    new Date(dayStart.getTime() + 4 * DAY),
    10,
    new Date(dayStart.getTime() + 3 * DAY),
  );
  await history(
    'B2',
    new Date(dayStart.getTime() - 12 * DAY),
    15,
    new Date(dayStart.getTime() - 12 * DAY),
  );
  await history('B3', new Date(dayStart.getTime() - DAY), 70, new Date(dayStart.getTime() - DAY));
  const contacts: Array<[string, number, number]> = [
    ['S1', ids.phone, operator.id],
    ['S2', ids.email, admin.id],
    ['S3', ids.phone, operator.id],
  ];
  for (const [i, [who, type, by]] of contacts.entries()) {
    const t = await db
      .insertInto('tickets')
      .values({
        course_registered_user_id: enrolment[who]!,
        course_id: courseId,
        ticket_code: `EFE-${i + 1}`,
        type_ticket_id: type,
        status_ticket_id: ids.open,
        priority_ticket_id: ids.medium,
        source_ticket_id: ids.outgoing,
        motive_ticket_id: ids.welcome,
        user_create_id: by,
        user_assigned_id: by,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ticket[who] = t.id;
    await db
      .insertInto('ticket_details')
      .values({
        ticket_id: t.id,
        user_created_id: by,
        status_detail_ticket_id: ids.success,
        comment: 'Llamado',
        created_at: noon,
        updated_at: noon,
      })
      .execute();
  }
});

afterAll(() => ctx?.close());

describe('the outcome of each contact attempt', () => {
  it('S1: back in Moodle 2 days after, progress 35 % → 48 %', async () => {
    const res = await get(`/api/v2/tickets/${ticket.S1}/outcomes`, operator.token);
    expect(res.status).toBe(200);
    expect(res.body._data.attempts).toEqual([
      expect.objectContaining({
        ticketId: ticket.S1,
        accessDays: 2,
        settled3: true,
        settled7: true,
        settled14: true,
        progressBefore: 35,
        progress7: 48,
        progress14: 48,
      }),
    ]);
    expect(res.body._data.student).toMatchObject({ attempts: 1, settled7: 1, accessed7: 1 });
  });

  it('S2: back only after 9 days; progress unchanged at 7 days, 30 % at 14', async () => {
    const res = await get(`/api/v2/tickets/${ticket.S2}/outcomes`, admin.token);
    expect(res.body._data.attempts[0]).toMatchObject({
      accessDays: 9,
      progressBefore: 20,
      progress7: 20,
      progress14: 30,
    });
    expect(res.body._data.student).toMatchObject({ attempts: 1, accessed7: 0 });
  });

  it('S3: back the same day (0 days)', async () => {
    const res = await get(`/api/v2/tickets/${ticket.S3}/outcomes`, operator.token);
    expect(res.body._data.attempts[0]).toMatchObject({
      accessDays: 0,
      progressBefore: 50,
      progress7: 60,
    });
  });

  it("another operator's ticket: 403; a missing ticket: 404; a tutor: 403", async () => {
    expect((await get(`/api/v2/tickets/${ticket.S1}/outcomes`, other.token)).status).toBe(403);
    expect((await get(`/api/v2/tickets/999999/outcomes`, admin.token)).status).toBe(404);
    expect((await get(`/api/v2/tickets/${ticket.S1}/outcomes`, tutor.token)).status).toBe(403);
  });
});

describe('the effectiveness report', () => {
  const url = () => `/api/v2/outcomes/report?course_id=${courseId}&from=${day}&to=${day}`;

  it('the course: 2 of 3 back within 7 days, Wilson 20.8 %–93.9 %, gain 7.7 points; baseline 1 of 2', async () => {
    const res = await get(url(), admin.token);
    expect(res.status).toBe(200);
    const [all] = res.body._data.dimensions.all;
    expect(all.reengaged.n).toBe(3);
    expect(all.reengaged.rate).toBeCloseTo(2 / 3, 10);
    expect(all.reengaged.low).toBeCloseTo(0.2077, 4);
    expect(all.reengaged.high).toBeCloseTo(0.9385, 4);
    expect(all.gain).toBe(7.7);
    expect(all.gainN).toBe(3);
    expect(all.baseline).toMatchObject({ n: 2, rate: 0.5 });
    expect(all.baselineGain).toBe(0);
    expect(all.small).toBe(true);
  });

  it('by channel: phone 2 of 2 (gain 11.5), mail 0 of 1; both against the same baseline', async () => {
    const res = await get(url(), admin.token);
    const byLabel = Object.fromEntries(
      res.body._data.dimensions.type.map((g: { label: string }) => [g.label, g]),
    );
    expect(byLabel['Contacto telefónico']).toMatchObject({
      reengaged: { n: 2, rate: 1 },
      gain: 11.5,
      baseline: { n: 2, rate: 0.5 },
    });
    expect(byLabel['Correo electrónico']).toMatchObject({
      reengaged: { n: 1, rate: 0 },
      gain: 0,
      baseline: { n: 2, rate: 0.5 },
    });
    expect(res.body._data.dimensions.hour).toEqual([
      expect.objectContaining({ key: '12', reengaged: expect.objectContaining({ n: 3 }) }),
    ]);
    expect(res.body._data.dimensions.idle).toEqual([expect.objectContaining({ key: '7-13' })]);
    const ops = res.body._data.dimensions.operator
      .map((g: { reengaged: { n: number } }) => g.reengaged.n)
      .sort();
    expect(ops).toEqual([1, 2]);
  });

  it('an operator sees their own contacts only (2 of 2), and may not ask for another one', async () => {
    const res = await get(url(), operator.token);
    expect(res.body._data.userId).toBe(operator.id);
    expect(res.body._data.dimensions.all[0].reengaged).toMatchObject({ n: 2, rate: 1 });
    expect((await get(`${url()}&user_id=${admin.id}`, operator.token)).status).toBe(403);
  });

  it('a period without contacts has no groups; the organisation-wide report counts the same contacts', async () => {
    const empty = await get(
      `/api/v2/outcomes/report?course_id=${courseId}&from=2020-01-01&to=2020-01-31`,
      admin.token,
    );
    expect(empty.body._data.dimensions.all).toEqual([]);
    const org = await get(`/api/v2/outcomes/report?from=${day}&to=${day}`, admin.token);
    expect(org.body._data.dimensions.all[0].reengaged.n).toBe(3);
  });

  it('bad input: clear Spanish 4xx', async () => {
    const bad = await get(`/api/v2/outcomes/report?from=2024-13-01`, admin.token);
    expect(bad.status).toBe(422);
    const order = await get(`/api/v2/outcomes/report?from=2024-02-01&to=2024-01-01`, admin.token);
    expect([order.status, order.body.message]).toEqual([
      422,
      'La fecha de inicio debe ser anterior a la de término.',
    ]);
    const long = await get(`/api/v2/outcomes/report?from=2020-01-01&to=2024-01-01`, admin.token);
    expect(long.status).toBe(422);
    const course = await get(`/api/v2/outcomes/report?course_id=999999`, admin.token);
    expect([course.status, course.body.message]).toEqual([404, 'El curso no existe.']);
    expect((await get(`/api/v2/outcomes/report`, tutor.token)).status).toBe(403);
  });

  it('the workbook: a row per group with rates in percent, in Spanish or English, named and ordered as the screen', async () => {
    const { description } = await ctx.db
      .selectFrom('courses')
      .select('description')
      .where('id', '=', courseId)
      .executeTakeFirstOrThrow();
    // The idle groups as the screen names and orders them (outcomes.*.json).
    const IDLE = {
      es: [
        'Nunca ingresó',
        '0–2 días',
        '3–6 días',
        '7–13 días',
        '14–29 días',
        '30 días o más',
        'Sin datos previos',
      ],
      en: [
        'Never accessed',
        '0–2 days',
        '3–6 days',
        '7–13 days',
        '14–29 days',
        '30 days or more',
        'No earlier figures',
      ],
    };
    for (const [lang, total, phone, idleDim, file] of [
      ['es', 'Total', 'Tipo de ticket', 'Días sin acceso', 'efectividad'],
      ['en', 'Total', 'Ticket type', 'Days without access', 'effectiveness'],
    ] as const) {
      const res = await get(
        `/api/v2/outcomes/report/excel?course_id=${courseId}&from=${day}&to=${day}&lang=${lang}`,
        admin.token,
      );
      expect(res.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
      const ws = wb.worksheets[0]!;
      const rows = ws
        .getSheetValues()
        .filter(Boolean)
        .map((r) => (r as unknown[]).slice(1));
      const first = rows.find((r) => r[0] === total)!;
      // Rates are percentage cells (the fraction, shown with one decimal).
      expect(first.slice(2, 5)).toEqual([3, 2, 0.667]);
      expect(first[9]).toBe(0.5);
      const rate = ws.getRow(rows.indexOf(first) + 1).getCell(5);
      expect([rate.type, rate.numFmt]).toEqual([ExcelJS.ValueType.Number, '0.0%']);
      // Named as every export: the course and the days counted.
      expect(res.headers['content-disposition']).toContain(
        `${file}-${fileSlug(description)}-${day.split('-').reverse().join('-')}.xlsx`,
      );
      expect(rows.filter((r) => r[0] === phone)).toHaveLength(2);
      const idle = rows.filter((r) => r[0] === idleDim).map((r) => r[1] as string);
      expect(idle.length).toBeGreaterThan(0);
      expect(idle).toEqual(IDLE[lang].filter((name) => idle.includes(name)));
    }
  });
});

describe('the progress history', () => {
  it('appends a row only for an enrolment whose figures changed (and a first one for one without rows)', async () => {
    const count = async () =>
      Number(
        (
          await ctx.db
            .selectFrom('enrolment_progress_history')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    // Every enrolment here has rows whose figures (no activities: progress null) differ from the hand-made ones: one row each.
    expect(await appendProgressHistory(ctx.db, { courseId, all: true })).toBe(6);
    expect(await count()).toBe(before + 6);
    // Nothing changed since: nothing appended.
    expect(await appendProgressHistory(ctx.db, { courseId, all: true })).toBe(0);
    await ctx.db
      .updateTable('course_registered_users')
      .set({ last_access_registered_moodle: new Date(), final_qualification_moodle: '5,5' })
      .where('id', '=', enrolment.B2!)
      .execute();
    expect(await appendProgressHistory(ctx.db, { courseId, enrolmentIds: [enrolment.B2!] })).toBe(
      1,
    );
    const last = await ctx.db
      .selectFrom('enrolment_progress_history')
      .selectAll()
      .where('enrolment_id', '=', enrolment.B2!)
      .orderBy('recorded_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(Number(last.grade)).toBe(5.5);
    expect(last.last_access).not.toBeNull();
  });

  it("the legacy import's first point is dated at the enrolment's last update", async () => {
    const student = await ctx.db
      .insertInto('registered_users')
      .values({ rut: '17.777.777-2', name: 'Legado', last_name: 'Prueba' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const profile = (
      await ctx.db
        .selectFrom('profiles')
        .select('id')
        .where('key', '=', 'student')
        .executeTakeFirstOrThrow()
    ).id;
    const stamp = new Date('2025-03-04T15:00:00Z');
    const e = await ctx.db
      .insertInto('course_registered_users')
      .values({
        course_id: courseId,
        registered_user_id: student.id,
        profile_id: profile,
        last_access_registered_moodle: new Date('2025-03-01T10:00:00Z'),
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await appendProgressHistory(ctx.db, { courseId, all: true, at: 'updated_at' })).toBe(1);
    const row = await ctx.db
      .selectFrom('enrolment_progress_history')
      .selectAll()
      .where('enrolment_id', '=', e.id)
      .executeTakeFirstOrThrow();
    expect(new Date(row.recorded_at).toISOString()).toBe(stamp.toISOString());
  });
});

describe("Mi agenda's suggestion", () => {
  it('nothing under 30 contacts; with 31 calls at 10:00, 20 of them back within 7 days: calls, 10:00, 64.5 %', async () => {
    const none = await get(`/api/v2/outcomes/suggestion/${courseId}`, operator.token);
    expect(none.body._data).toEqual({
      courseId,
      scope: 'course',
      minContacts: 30,
      channel: null,
      hour: null,
    });
    const db = ctx.db;
    const category = (
      await db
        .selectFrom('courses')
        .select('category_id')
        .where('id', '=', courseId)
        .executeTakeFirstOrThrow()
    ).category_id;
    const second = (
      await db
        .insertInto('courses')
        .values({ description: 'Curso de sugerencias', category_id: category })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const profile = (
      await db
        .selectFrom('profiles')
        .select('id')
        .where('key', '=', 'student')
        .executeTakeFirstOrThrow()
    ).id;
    const catalogue = async (
      table:
        | 'type_tickets'
        | 'status_tickets'
        | 'priority_tickets'
        | 'source_tickets'
        | 'motive_tickets'
        | 'status_detail_tickets',
      k: string,
    ) =>
      (await db.selectFrom(table).select('id').where('key', '=', k).executeTakeFirstOrThrow()).id;
    const phone = await catalogue('type_tickets', 'phone');
    const [open, medium, outgoing, welcome, success] = [
      await catalogue('status_tickets', 'open'),
      await catalogue('priority_tickets', 'medium'),
      await catalogue('source_tickets', 'outgoing'),
      await catalogue('motive_tickets', 'welcome'),
      await catalogue('status_detail_tickets', 'success'),
    ];
    const at = chileLocalToDate(chileParts(new Date(Date.now() - 25 * DAY)).day, '10:00')!;
    for (let i = 0; i < 31; i++) {
      const s = await db
        .insertInto('registered_users')
        .values({
          rut: `3${String(i).padStart(7, '0')}-${i % 10}`,
          name: `Sug${i}`,
          last_name: 'Prueba',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const e = (
        await db
          .insertInto('course_registered_users')
          .values({ course_id: second, registered_user_id: s.id, profile_id: profile })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      await db
        .insertInto('enrolment_progress_history')
        .values({
          enrolment_id: e,
          recorded_at: new Date(at.getTime() - 9 * DAY),
          progress: 10,
          last_access: new Date(at.getTime() - 9 * DAY),
          completed: 0,
        })
        .execute();
      if (i < 20)
        await db
          .insertInto('enrolment_progress_history')
          .values({
            enrolment_id: e,
            recorded_at: new Date(at.getTime() + 3 * DAY),
            progress: 20,
            last_access: new Date(at.getTime() + 2 * DAY),
            completed: 0,
          })
          .execute();
      const t = await db
        .insertInto('tickets')
        .values({
          course_registered_user_id: e,
          course_id: second,
          ticket_code: `SUG-${i}`,
          type_ticket_id: phone,
          status_ticket_id: open,
          priority_ticket_id: medium,
          source_ticket_id: outgoing,
          motive_ticket_id: welcome,
          user_create_id: operator.id,
          user_assigned_id: operator.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('ticket_details')
        .values({
          ticket_id: t.id,
          user_created_id: operator.id,
          status_detail_ticket_id: success,
          comment: 'Llamado',
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    const res = await get(`/api/v2/outcomes/suggestion/${second}`, operator.token);
    // No medium said: a phone ticket's attempts are calls.
    expect(res.body._data.channel).toMatchObject({ key: 'call', label: 'Llamada', n: 31 });
    expect(res.body._data.channel.rate).toBeCloseTo(20 / 31, 10);
    expect(res.body._data.hour).toMatchObject({ key: '10', n: 31 });
    expect((await get(`/api/v2/outcomes/suggestion/${second}`, tutor.token)).status).toBe(403);
    expect((await get(`/api/v2/outcomes/suggestion/999999`, operator.token)).status).toBe(404);
  });

  it('for similar students: the 31 were 9 days without access (7–13), so after calls and at 10:00 20 of 31 of that group came back; no other group', async () => {
    const second = (
      await ctx.db
        .selectFrom('courses')
        .select('id')
        .where('description', '=', 'Curso de sugerencias')
        .executeTakeFirstOrThrow()
    ).id;
    const res = await get(`/api/v2/outcomes/suggestion/${second}/similar`, operator.token);
    expect(res.status).toBe(200);
    expect(res.body._data).toEqual({
      courseId: second,
      scope: 'course',
      minContacts: 30,
      groups: [
        {
          idle: '7-13',
          channel: {
            key: 'call',
            label: 'Llamada',
            n: 31,
            accessed: 20,
            rate: 20 / 31,
          },
          hour: { key: '10', label: '10:00', n: 31, accessed: 20, rate: 20 / 31 },
        },
      ],
      // Over all the course's contacts (the same 31): for the students at risk of other groups.
      course: {
        channel: {
          key: 'call',
          label: 'Llamada',
          n: 31,
          accessed: 20,
          rate: 20 / 31,
        },
        hour: { key: '10', label: '10:00', n: 31, accessed: 20, rate: 20 / 31 },
      },
    });
    // The hand-made course has 3 contacts: nothing to suggest.
    expect(
      (await get(`/api/v2/outcomes/suggestion/${courseId}/similar`, operator.token)).body._data,
    ).toEqual({ courseId, scope: 'course', minContacts: 30, groups: [], course: null });
    expect((await get(`/api/v2/outcomes/suggestion/${second}/similar`, tutor.token)).status).toBe(
      403,
    );
    expect((await get(`/api/v2/outcomes/suggestion/999999/similar`, operator.token)).status).toBe(
      404,
    );
  });
});

describe("Mi agenda's suggestion: whose figures, for whom", () => {
  it('course-wide figures, said so; an operator only for the courses of their agenda, an administrator any', async () => {
    const second = (
      await ctx.db
        .selectFrom('courses')
        .select('id')
        .where('description', '=', 'Curso de sugerencias')
        .executeTakeFirstOrThrow()
    ).id;
    // Another operator, no ticket in the course: neither route, a 403 in Spanish.
    for (const url of [
      `/api/v2/outcomes/suggestion/${second}`,
      `/api/v2/outcomes/suggestion/${second}/similar`,
    ]) {
      const res = await get(url, other.token);
      expect(res.status, url).toBe(403);
      expect(res.body.message).toBe(OUTCOME_MSG.suggestionOwnCourses);
    }
    // An administrator: any course, the same figures, stated as the course's (every staff member's contacts, groups of 30 or more).
    const byAdmin = (await get(`/api/v2/outcomes/suggestion/${second}/similar`, admin.token)).body
      ._data;
    const byOperator = (await get(`/api/v2/outcomes/suggestion/${second}/similar`, operator.token))
      .body._data;
    expect(byAdmin).toEqual(byOperator);
    expect(byAdmin).toMatchObject({ scope: 'course', minContacts: OUTCOME_SUGGESTION_MIN });
    expect(byAdmin.groups[0].channel.n).toBeGreaterThanOrEqual(OUTCOME_SUGGESTION_MIN);
    // Once the other operator works the course (a ticket assigned there), they read its course-wide figures too.
    const t = await ctx.db
      .selectFrom('tickets')
      .select('id')
      .where('course_id', '=', second)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await ctx.db
      .updateTable('tickets')
      .set({ user_assigned_id: other.id })
      .where('id', '=', t.id)
      .execute();
    const theirs = await get(`/api/v2/outcomes/suggestion/${second}/similar`, other.token);
    expect(theirs.status).toBe(200);
    expect(theirs.body._data).toEqual(byAdmin);
    await ctx.db
      .updateTable('tickets')
      .set({ user_assigned_id: operator.id })
      .where('id', '=', t.id)
      .execute();
  });
});

describe('the kept figures of settled days', () => {
  it('the nightly keeping gives the same reports as the live query, for every scope', async () => {
    const today = chileParts(new Date()).day;
    const from = chileParts(new Date(Date.now() - 40 * DAY)).day;
    const urls = [
      [`/api/v2/outcomes/report?from=${from}&to=${today}`, admin.token],
      [`/api/v2/outcomes/report?course_id=${courseId}&from=${from}&to=${today}`, admin.token],
      [`/api/v2/outcomes/report?from=${from}&to=${today}`, operator.token],
      [`/api/v2/outcomes/report?course_id=${courseId}&from=${from}&to=${today}`, operator.token],
      [`/api/v2/outcomes/report?from=${day}&to=${day}&user_id=${admin.id}`, admin.token],
      [`/api/v2/outcomes/report?course_id=${courseId}&from=${day}&to=${day}`, admin.token],
    ] as const;
    const second = (
      await ctx.db
        .selectFrom('courses')
        .select('id')
        .where('description', '=', 'Curso de sugerencias')
        .executeTakeFirstOrThrow()
    ).id;
    const live = await Promise.all(
      urls.map(async ([url, token]) => (await get(url, token)).body._data),
    );
    const liveSuggestion = (await get(`/api/v2/outcomes/suggestion/${second}`, operator.token)).body
      ._data;
    const liveSimilar = (await get(`/api/v2/outcomes/suggestion/${second}/similar`, operator.token))
      .body._data;
    expect(liveSimilar.groups).toHaveLength(1);
    expect(live[0].dimensions.all[0].reengaged.n).toBe(34);

    const kept = await keepOutcomes(ctx.db);
    // Every settled day of the horizon, none of the last 8 days; nothing more to keep afterwards.
    expect(kept).toContain(day);
    expect(kept.sort().at(-1)).toBe(lastSettledDay());
    expect(kept).toHaveLength(KEEP_HORIZON_DAYS - OUTCOME_SETTLED_AFTER_DAYS + 1);
    expect(await keepOutcomes(ctx.db)).toEqual([]);
    // The day's figures as kept for the organisation: 3 contacts, 2 back; baseline 1 of 2.
    const row = await ctx.db
      .selectFrom('outcome_kept_groups')
      .selectAll()
      .where('course_id', '=', 0)
      .where('operator_id', '=', 0)
      .where('day', '=', day)
      .where('dim', '=', 'all')
      .executeTakeFirstOrThrow();
    expect([
      row.n,
      row.accessed,
      row.gain_n,
      Number(row.gain_sum),
      row.base_n,
      row.base_accessed,
    ]).toEqual([3, 2, 3, 23, 2, 1]);

    for (const [i, [url, token]] of urls.entries())
      expect((await get(url, token)).body._data).toEqual(live[i]);
    expect((await get(`/api/v2/outcomes/suggestion/${second}`, operator.token)).body._data).toEqual(
      liveSuggestion,
    );
    expect(
      (await get(`/api/v2/outcomes/suggestion/${second}/similar`, operator.token)).body._data,
    ).toEqual(liveSimilar);
    // The similar students' groups are kept for courses only, for the days Mi agenda reads.
    const similarScopes = await ctx.db
      .selectFrom('outcome_kept_groups')
      .select([
        'course_id',
        'operator_id',
        sql<string>`to_char(min(day), 'YYYY-MM-DD')`.as('first'),
      ])
      .where('dim', 'in', ['medium_idle', 'hour_idle'])
      .groupBy(['course_id', 'operator_id'])
      .execute();
    expect(similarScopes.length).toBeGreaterThan(0);
    expect(
      similarScopes.every(
        (r) => r.course_id !== 0 && r.operator_id === 0 && r.first >= similarFrom(new Date()),
      ),
    ).toBe(true);
  });

  it("a ticket's channel changed after its day was kept: the day is computed live, then kept again", async () => {
    const url = `/api/v2/outcomes/report?course_id=${courseId}&from=${day}&to=${day}`;
    const phone = (
      await ctx.db
        .selectFrom('type_tickets')
        .select('id')
        .where('key', '=', 'phone')
        .executeTakeFirstOrThrow()
    ).id;
    const version = (
      await ctx.db
        .selectFrom('tickets')
        .select('version')
        .where('id', '=', ticket.S2!)
        .executeTakeFirstOrThrow()
    ).version;
    const res = await ctx.request({
      method: 'PUT',
      url: `/api/v2/tickets/${ticket.S2}`,
      token: admin.token,
      payload: { version, type_ticket_id: phone },
    });
    expect(res.statusCode).toBe(200);
    // Marked stale (migration 0043), with the days whose baseline the attempt is part of.
    expect(
      await ctx.db
        .selectFrom('outcome_stale_days')
        .select('day')
        .where('day', '=', day)
        .executeTakeFirst(),
    ).toBeDefined();
    const phoneOnly = (body: {
      dimensions: { type: Array<{ key: string; reengaged: { n: number } }> };
    }) => body.dimensions.type.map((g) => [g.key, g.reengaged.n]);
    const live = (await get(url, admin.token)).body._data;
    expect(phoneOnly(live)).toEqual([[String(phone), 3]]);
    expect(await keepOutcomes(ctx.db)).toContain(day);
    // Kept again: no settled day is still marked.
    const marked = await sql<{
      n: number;
    }>`select count(*)::int as n from outcome_stale_days where day <= ${lastSettledDay()}::date`.execute(
      ctx.db,
    );
    expect(marked.rows[0]!.n).toBe(0);
    expect((await get(url, admin.token)).body._data).toEqual(live);
  });

  it('the next day keeps the day that settled, and no other day without a write that changed it', async () => {
    const tomorrow = new Date(Date.now() + DAY);
    expect(await keepOutcomes(ctx.db, { now: tomorrow })).toEqual([lastSettledDay(tomorrow)]);
    expect(await keepOutcomes(ctx.db, { now: tomorrow })).toEqual([]);
  });

  it("migration 0048: days kept with the similar students' groups by ticket type are computed again, by medium", async () => {
    const db = ctx.db;
    // As the keeper wrote them before: the medium groups as the type groups of old.
    await sql`update outcome_kept_groups set dim = 'type_idle' where dim = 'medium_idle' and day = ${day}::date`.execute(
      db,
    );
    await similarByMedium(db as never);
    expect(
      await db
        .selectFrom('outcome_kept_days')
        .select('day')
        .where('day', '=', day)
        .executeTakeFirst(),
    ).toBeUndefined();
    expect(await keepOutcomes(db)).toEqual([day]);
    expect(
      await db
        .selectFrom('outcome_kept_groups')
        .select('key')
        .where('day', '=', day)
        .where('dim', '=', 'medium_idle')
        .execute(),
    ).not.toHaveLength(0);
    expect(
      await db
        .selectFrom('outcome_kept_groups')
        .select('key')
        .where('dim', '=', 'type_idle')
        .execute(),
    ).toHaveLength(0);
  });

  it("the server's clock: a look with nothing to keep keeps nothing", async () => {
    expect(await new OutcomeKeeper(ctx.db).tick()).toEqual([]);
  });
});

describe('the student box counts contacts one way', () => {
  it('of the contacts whose week has passed, those followed by an access within 7 days: never more re-engaged than contacts ("4 de 3")', async () => {
    const db = ctx.db;
    // Times from the last Chilean noon (within the past day): the days to the access are calendar days in Chile.
    const noon = chileLocalToDate(chileParts(new Date()).day, '12:00')!.getTime();
    const now = noon <= Date.now() ? noon : noon - DAY;
    const s = await db
      .insertInto('registered_users')
      .values({ rut: '18.888.888-8', name: 'S4', last_name: 'Prueba' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const profile = (
      await db
        .selectFrom('profiles')
        .select('id')
        .where('key', '=', 'student')
        .executeTakeFirstOrThrow()
    ).id;
    const e = (
      await db
        .insertInto('course_registered_users')
        .values({ course_id: courseId, registered_user_id: s.id, profile_id: profile })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db
      .insertInto('enrolment_progress_history')
      .values({
        enrolment_id: e,
        recorded_at: new Date(now - 3 * DAY),
        progress: 10,
        last_access: new Date(now - 5 * DAY),
        completed: 0,
      })
      .execute();
    await db
      .insertInto('enrolment_progress_history')
      .values({
        enrolment_id: e,
        recorded_at: new Date(now - H),
        progress: 20,
        last_access: new Date(now - DAY),
        completed: 0,
      })
      .execute();
    const like = await db
      .selectFrom('tickets')
      .selectAll()
      .where('id', '=', ticket.S1!)
      .executeTakeFirstOrThrow();
    const t = await db
      .insertInto('tickets')
      .values({
        ...like,
        id: undefined,
        course_registered_user_id: e,
        ticket_code: 'EFE-4',
        user_create_id: operator.id,
        user_assigned_id: operator.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const success = (
      await db
        .selectFrom('status_detail_tickets')
        .select('id')
        .where('key', '=', 'success')
        .executeTakeFirstOrThrow()
    ).id;
    // One contact 7¼ days ago at 06:00 (back 2 days later at noon), two within their week: at noon
    // (back the next day at noon) and at 06:00 (back the same day at noon).
    for (const back of [7.25, 2, 1.25]) {
      const at = new Date(now - back * DAY);
      await db
        .insertInto('ticket_details')
        .values({
          ticket_id: t.id,
          user_created_id: operator.id,
          status_detail_ticket_id: success,
          comment: 'Llamado',
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    const res = await get(`/api/v2/tickets/${t.id}/outcomes`, operator.token);
    expect(res.body._data.student).toMatchObject({
      scope: 'own',
      attempts: 3,
      settled7: 1,
      accessed7: 1,
    });
    expect(res.body._data.attempts.map((o: { accessDays: number }) => o.accessDays)).toEqual([
      2, 1, 0,
    ]);
    expect(
      (await get(`/api/v2/tickets/${t.id}/outcomes`, admin.token)).body._data.student.scope,
    ).toBe('course');
  });
});
