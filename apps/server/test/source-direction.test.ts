import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { up } from '../src/db/migrations/0047_source_direction.js';
import { seedCourse, ticketKeys } from './data.js';
import { fileContext } from './helpers.js';
import * as scratch from './kept/scratch.js';

/*
 * Migration 0047 on a database that still has the sources Teléfono and WhatsApp (as 0046 and the
 * seed before it left them): their tickets become Saliente, their attempts without a medium take
 * the one the source said, and the two sources go; a source staff created stays.
 */
const file = fileContext();

describe('migration 0047: Origen is a direction', () => {
  it('moves the Teléfono and WhatsApp tickets to Saliente and their medium to the attempts', async () => {
    const db = file.ctx.db;
    const k = await ticketKeys(db);
    const source = async (key: string | null, description: string) =>
      (
        await db
          .insertInto('source_tickets')
          .values({ key, description })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const phone = await source('phone', 'Teléfono');
    const whatsapp = await source('whatsapp', 'WhatsApp');
    const own = await source(null, 'Feria vocacional');
    const { course, enrolments } = await seedCourse(db, {
      categoryCode: 'ORIG',
      course: 'Curso del origen',
      students: 4,
      firstRut: 21_000_000,
    });
    const admin = (await db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
    const ticket = async (enrolment: number, source_ticket_id: number) =>
      (
        await db
          .insertInto('tickets')
          .values({
            ticket_code: `ORIG-${enrolment}`,
            course_registered_user_id: enrolment,
            course_id: course,
            source_ticket_id,
            type_ticket_id: k.phone,
            status_ticket_id: k.open,
            priority_ticket_id: k.high,
            motive_ticket_id: k.welcome,
            user_create_id: admin,
            user_assigned_id: admin,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const byPhone = await ticket(enrolments[0]!.id, phone);
    const byWhatsapp = await ticket(enrolments[1]!.id, whatsapp);
    const byOwn = await ticket(enrolments[2]!.id, own);
    const attempt = async (ticket_id: number, medium: string | null) =>
      db
        .insertInto('ticket_details')
        .values({
          ticket_id,
          user_created_id: admin,
          status_detail_ticket_id: k.success,
          comment: 'intento',
          medium,
        })
        .execute();
    await attempt(byPhone, null);
    await attempt(byWhatsapp, null);
    // An attempt that said its medium keeps it.
    await attempt(byWhatsapp, 'email');
    await attempt(byOwn, null);

    await up(db as never);

    const tickets = await db
      .selectFrom('tickets')
      .select(['id', 'source_ticket_id'])
      .where('id', 'in', [byPhone, byWhatsapp, byOwn])
      .orderBy('id')
      .execute();
    expect(tickets.map((t) => t.source_ticket_id)).toEqual([k.outgoing, k.outgoing, own]);
    const attempts = await sql<{
      ticket_id: number;
      medium: string | null;
      direction: string | null;
    }>`
      select ticket_id, medium, direction from ticket_details where ticket_id in (${sql.join([byPhone, byWhatsapp, byOwn])}) order by id`.execute(
      db,
    );
    expect(attempts.rows).toEqual([
      { ticket_id: byPhone, medium: 'call', direction: 'outgoing' },
      { ticket_id: byWhatsapp, medium: 'whatsapp', direction: 'outgoing' },
      { ticket_id: byWhatsapp, medium: 'email', direction: null },
      { ticket_id: byOwn, medium: null, direction: null },
    ]);
    const sources = await db
      .selectFrom('source_tickets')
      .select('description')
      .orderBy('id')
      .execute();
    expect(sources.map((s) => s.description)).toEqual(['Entrante', 'Saliente', 'Feria vocacional']);
    // The course's counts by source followed the move.
    expect(await scratch.keptTicketCounts(db)).toEqual(
      scratch.ticketCounts(await scratch.readBase(db)),
    );
  });
});
