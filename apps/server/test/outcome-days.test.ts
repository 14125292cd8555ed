import { chileLocalToDate, chileParts } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';

/**
 * "Ingresó a Moodle el mismo día / N días después" under a contact counts calendar days in Chile
 * (America/Santiago), not 24-hour blocks nor UTC days. Each student is contacted once (day D, 20
 * days ago) and comes back once:
 *   LATE   contact 23:30, back 00:30 the next Chilean day (one hour later): 1 day after.
 *   UTC    contact 30 minutes before a UTC midnight, back 30 minutes after it: one Chilean evening, the same day.
 *   NIGHT  contact 22:00, back 07:00 two Chilean days later (33 hours): 2 days after.
 */

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
let ctx: TestContext;
let admin: { id: number; token: string };
const ticket: Record<string, number> = {};

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.userWithRole('admin');
  const db = ctx.db;
  const day = chileParts(new Date(Date.now() - 20 * DAY)).day;
  const next = (d: string, n: number) =>
    new Date(Date.parse(`${d}T12:00:00Z`) + n * DAY).toISOString().slice(0, 10);
  const utcMidnight = Date.parse(`${next(day, 1)}T00:00:00Z`);
  const cases: Record<string, [Date, Date]> = {
    LATE: [chileLocalToDate(day, '23:30')!, chileLocalToDate(next(day, 1), '00:30')!],
    UTC: [new Date(utcMidnight - 30 * MIN), new Date(utcMidnight + 30 * MIN)],
    NIGHT: [chileLocalToDate(day, '22:00')!, chileLocalToDate(next(day, 2), '07:00')!],
  };
  const id = async (
    table:
      | 'type_tickets'
      | 'status_tickets'
      | 'priority_tickets'
      | 'source_tickets'
      | 'motive_tickets'
      | 'status_detail_tickets',
    key: string,
  ) =>
    (await db.selectFrom(table).select('id').where('key', '=', key).executeTakeFirstOrThrow()).id;
  const platform = await db
    .selectFrom('platforms')
    .select('id')
    .where('key', '=', 'moodle')
    .executeTakeFirstOrThrow();
  const category = await db
    .insertInto('categories')
    .values({ description: 'Días', category_code: 'DIA', platform_id: platform.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const course = await db
    .insertInto('courses')
    .values({ description: 'Curso de días', category_id: category.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const profile = (
    await db
      .selectFrom('profiles')
      .select('id')
      .where('key', '=', 'student')
      .executeTakeFirstOrThrow()
  ).id;
  const ruts = ['11.111.111-1', '12.222.222-3', '13.333.333-5'];
  for (const [i, [who, [contact, back]]] of Object.entries(cases).entries()) {
    const person = await db
      .insertInto('registered_users')
      .values({ rut: ruts[i]!, name: who, last_name: 'Prueba' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const enrolment = await db
      .insertInto('course_registered_users')
      .values({
        course_id: course.id,
        registered_user_id: person.id,
        profile_id: profile,
        is_sincronized: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Idle for 10 days before the contact; the next sync sees the access.
    await db
      .insertInto('enrolment_progress_history')
      .values([
        {
          enrolment_id: enrolment.id,
          recorded_at: new Date(contact.getTime() - DAY),
          progress: 10,
          last_access: new Date(contact.getTime() - 10 * DAY),
          completed: 0,
        },
        {
          enrolment_id: enrolment.id,
          recorded_at: new Date(back.getTime() + MIN),
          progress: 10,
          last_access: back,
          completed: 0,
        },
      ])
      .execute();
    const t = await db
      .insertInto('tickets')
      .values({
        course_registered_user_id: enrolment.id,
        course_id: course.id,
        ticket_code: `DIA-${i + 1}`,
        type_ticket_id: await id('type_tickets', 'phone'),
        status_ticket_id: await id('status_tickets', 'open'),
        priority_ticket_id: await id('priority_tickets', 'medium'),
        source_ticket_id: await id('source_tickets', 'outgoing'),
        motive_ticket_id: await id('motive_tickets', 'welcome'),
        user_create_id: admin.id,
        user_assigned_id: admin.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ticket[who] = t.id;
    await db
      .insertInto('ticket_details')
      .values({
        ticket_id: t.id,
        user_created_id: admin.id,
        status_detail_ticket_id: await id('status_detail_tickets', 'success'),
        comment: 'Llamado',
        medium: 'call',
        direction: 'outgoing',
        created_at: contact,
        updated_at: contact,
      })
      .execute();
  }
});

afterAll(() => ctx?.close());

const accessDays = async (who: string) => {
  const res = await ctx.request({
    method: 'GET',
    url: `/api/v2/tickets/${ticket[who]}/outcomes`,
    token: admin.token,
  });
  expect(res.statusCode).toBe(200);
  return res.json()._data.attempts[0].accessDays as number;
};

describe('the days from a contact to the access, in Chile’s calendar', () => {
  it('contact at 23:30, access at 00:30 the next day in Chile: 1 day after, though one hour later', async () => {
    expect(await accessDays('LATE')).toBe(1);
  });

  it('contact and access across a UTC midnight within one Chilean day: the same day', async () => {
    expect(await accessDays('UTC')).toBe(0);
  });

  it('33 hours, from 22:00 to 07:00 two Chilean days later: 2 days after', async () => {
    expect(await accessDays('NIGHT')).toBe(2);
  });
});
