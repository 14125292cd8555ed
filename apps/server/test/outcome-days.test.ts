import { chileLocalToDate, chileParts } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCourse, ticketKeys } from './data.js';
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
  const keys = await ticketKeys(db);
  const seeded = await seedCourse(db, {
    categoryCode: 'DIA',
    course: 'Curso de días',
    students: 3,
    firstRut: 11_111_111,
    names: Object.keys(cases),
    synced: true,
  });
  for (const [i, [who, [contact, back]]] of Object.entries(cases).entries()) {
    const enrolment = { id: seeded.enrolments[i]!.id };
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
        course_id: seeded.course,
        ticket_code: `DIA-${i + 1}`,
        type_ticket_id: keys.phone,
        status_ticket_id: keys.open,
        priority_ticket_id: keys.medium,
        source_ticket_id: keys.outgoing,
        motive_ticket_id: keys.welcome,
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
        status_detail_ticket_id: keys.success,
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
