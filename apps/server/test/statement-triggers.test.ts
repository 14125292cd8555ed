import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TEST_ADMIN } from './fixtures.js';
import { seedCourse, ticketKeys } from './data.js';
import { fileContext } from './helpers.js';

/*
 * The statement triggers that keep the figures and the answer versions: the version's fire first,
 * and the figures they keep equal, after every kind of write (statements that touch no row
 * included), what a rebuild from the tickets themselves gives.
 */
const file = fileContext();

/** The figures kept by triggers, in a fixed order. */
async function kept() {
  const counts =
    await sql`select course_id, dim, value, status_ticket_id, n from ticket_counts where n <> 0 order by 1, 2, 3, 4`.execute(
      file.ctx.db,
    );
  const enrolments =
    await sql`select enrolment_id, total, open, last_attempt_at, course_id from enrolment_ticket_counts where total <> 0 or last_attempt_at is not null order by 1`.execute(
      file.ctx.db,
    );
  return { counts: counts.rows, enrolments: enrolments.rows };
}

describe('statement triggers', () => {
  it("the answer version's trigger fires first of its table's for each event, and no row trigger runs on every write before it", async () => {
    // The course's version row is then the first row shared by a course's writers that a statement's
    // triggers lock: two writes in one course queue on it and cannot take the other shared rows in
    // opposite orders (a deadlock). Statement AFTER triggers of one event fire in name order, after
    // every AFTER ROW trigger (tgtype bits: 1 row, 2 before, 4 insert, 8 delete, 16 update, 64 instead);
    // those with a condition fire only when a row moves to another course, and write through
    // statements whose own version trigger comes first.
    const { rows } = await sql<{
      tbl: string;
      event: number;
      first: string;
      version: string;
      after_rows: number;
    }>`
      select t.tgrelid::regclass::text as tbl, e.event,
        min(t.tgname collate "C") filter (where t.tgtype & 1 = 0) as first,
        min(t.tgname collate "C") filter (where p.proname like 'sigaf\_answers\_%') as version,
        count(*) filter (where t.tgtype & 1 <> 0 and t.tgqual is null)::int as after_rows
      from pg_trigger t join pg_proc p on p.oid = t.tgfoid cross join (values (4), (8), (16)) e(event)
      where not t.tgisinternal and t.tgtype & 66 = 0 and t.tgtype & e.event <> 0
      group by 1, 2
      having count(*) filter (where p.proname like 'sigaf\_answers\_%') > 0`.execute(file.ctx.db);
    expect(rows.length).toBeGreaterThan(40);
    expect(rows.filter((r) => r.first !== r.version || r.after_rows > 0)).toEqual([]);
  });

  it('keep the same figures a rebuild from the tickets gives, after every kind of write', async () => {
    const k = await ticketKeys(file.ctx.db);
    const { course, enrolments } = await seedCourse(file.ctx.db, {
      categoryCode: 'QTRG',
      course: 'Curso Disparadores',
      students: 3,
      firstRut: 21_400_000,
    });
    const me = (
      await file.ctx.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', TEST_ADMIN.email)
        .executeTakeFirstOrThrow()
    ).id;
    const call = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
      const res = await file.ctx.request({ method, url, token: file.admin, payload });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      return res.json()._data;
    };
    const ticket = {
      type_ticket_id: k.phone,
      status_ticket_id: k.open,
      priority_ticket_id: k.high,
      source_ticket_id: k.outgoing,
      motive_ticket_id: k.problem,
      user_assigned_id: me,
    };
    const ids: number[] = [];
    const steps: Array<[string, () => Promise<unknown>]> = [
      [
        'tickets created',
        async () => {
          for (const e of enrolments)
            ids.push(
              (
                await call('POST', '/api/v2/tickets', {
                  ...ticket,
                  course_registered_user_id: e.id,
                })
              ).properties.id,
            );
        },
      ],
      [
        'an attempt',
        () =>
          call('POST', '/api/v2/ticket-details', {
            ticket_id: ids[0],
            status_detail_ticket_id: k.failure,
            comment: 'No contesta',
          }),
      ],
      [
        'a second attempt on the same ticket',
        () =>
          call('POST', '/api/v2/ticket-details', {
            ticket_id: ids[0],
            status_detail_ticket_id: k.success,
            comment: 'Contesta',
          }),
      ],
      [
        'an attempt dated in the past',
        () =>
          file.ctx.db
            .insertInto('ticket_details')
            .values({
              ticket_id: ids[1]!,
              user_created_id: me,
              status_detail_ticket_id: k.failure,
              comment: 'Antes',
              created_at: new Date('2024-01-02T12:00:00Z'),
            })
            .execute(),
      ],
      [
        'statements that touch no row',
        () =>
          Promise.all([
            file.ctx.db
              .updateTable('tickets')
              .set({ updated_at: sql`now()` })
              .where('id', '<', 0)
              .execute(),
            file.ctx.db.deleteFrom('ticket_details').where('id', '<', 0).execute(),
            file.ctx.db
              .updateTable('enrolment_ticket_counts')
              .set({ total: 0 })
              .where('enrolment_id', '<', 0)
              .execute(),
          ]),
      ],
      [
        'a ticket closed',
        async () => {
          const t = await call('PUT', `/api/v2/tickets/${ids[2]}`, {
            ...ticket,
            version: 1,
            status_ticket_id: k.closed,
          });
          expect(t.properties.statusTicket.id).toBe(k.closed);
        },
      ],
      [
        'a ticket moved to another student',
        () =>
          file.ctx.db
            .updateTable('tickets')
            .set({ course_registered_user_id: enrolments[2]!.id })
            .where('id', '=', ids[0]!)
            .execute(),
      ],
      [
        'an attempt removed',
        async () => {
          const d = await file.ctx.db
            .selectFrom('ticket_details')
            .select('id')
            .where('ticket_id', '=', ids[0]!)
            .orderBy('id', 'desc')
            .executeTakeFirstOrThrow();
          await call('DELETE', `/api/v2/ticket-details/${d.id}`);
        },
      ],
      ['a ticket without attempts deleted', () => call('DELETE', `/api/v2/tickets/${ids[2]}`)],
    ];
    for (const [what, step] of steps) {
      await step();
      const before = await kept();
      await sql`select sigaf_rebuild_summaries()`.execute(file.ctx.db);
      expect(await kept(), what).toEqual(before);
      const stale = await sql<{
        n: number;
      }>`select count(*)::int as n from tickets t where t.last_attempt_at is distinct from (select max(d.created_at) from ticket_details d where d.ticket_id = t.id)`.execute(
        file.ctx.db,
      );
      expect(stale.rows[0]!.n, what).toBe(0);
    }
    expect(
      (await kept()).enrolments.some((e) => (e as { course_id: number }).course_id === course),
    ).toBe(true);
  });
});
