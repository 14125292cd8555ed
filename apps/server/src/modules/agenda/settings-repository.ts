import { AGENDA_DEFAULTS } from '@sigaf/contract';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** The agenda's settings (each course's thresholds, each user's digest) and the moves of reminders (SQL only). */
export class AgendaSettingsRepository {
  constructor(protected readonly db: Database) {}

  // -- settings and reassignment --------------------------------------------------------------------

  async courseSettings(courseId: number) {
    const { rows } = await sql<{
      contactDays: number;
      inactiveDays: number;
      progressPercent: number;
      startsOn: string | null;
      endsOn: string | null;
    }>`
      select coalesce(s.contact_days, ${AGENDA_DEFAULTS.contactDays}) as "contactDays", coalesce(s.inactive_days, ${AGENDA_DEFAULTS.inactiveDays}) as "inactiveDays",
        coalesce(s.progress_percent, ${AGENDA_DEFAULTS.progressPercent}) as "progressPercent", to_char(s.starts_on, 'YYYY-MM-DD') as "startsOn", to_char(s.ends_on, 'YYYY-MM-DD') as "endsOn"
      from courses c left join agenda_course_settings s on s.course_id = c.id where c.id = ${courseId}`.execute(
      this.db,
    );
    return rows[0];
  }

  async saveCourseSettings(
    courseId: number,
    v: {
      contact_days: number;
      inactive_days: number;
      progress_percent: number;
      starts_on: string | null;
      ends_on: string | null;
    },
  ) {
    await this.db
      .insertInto('agenda_course_settings')
      .values({ course_id: courseId, ...v })
      .onConflict((oc) => oc.column('course_id').doUpdateSet({ ...v, updated_at: new Date() }))
      .execute();
  }

  /** Moves pending reminders (by id, or every pending one of the given tickets) to another operator. */
  async moveReminders(
    toUserId: number,
    reminderIds: number[],
    ticketIds: number[],
  ): Promise<number> {
    if (!reminderIds.length && !ticketIds.length) return 0;
    const r = await this.db
      .updateTable('reminders')
      .set({ user_id: toUserId, updated_at: new Date() })
      .where('state', '=', 'pending')
      .where((eb) =>
        eb.or([
          ...(reminderIds.length ? [eb('id', 'in', reminderIds)] : []),
          ...(ticketIds.length ? [eb('ticket_id', 'in', ticketIds)] : []),
        ]),
      )
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  digest(userId: number) {
    return this.db
      .selectFrom('user_agenda_settings')
      .select(['morning_digest'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async saveDigest(userId: number, on: boolean) {
    await this.db
      .insertInto('user_agenda_settings')
      .values({ user_id: userId, morning_digest: on })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ morning_digest: on, updated_at: new Date() }),
      )
      .execute();
  }

  // -- the last reassignment of each administrator (to undo it) -----------------------------------

  /** Keeps `actorId`'s last reassignment, replacing the one before. */
  async saveLastReassign(
    actorId: number,
    move: { fromUserId: number; toUserId: number; ticketIds: number[]; reminders: number },
  ) {
    await sql`insert into agenda_last_reassignments (actor_id, from_user_id, to_user_id, ticket_ids, reminders)
      values (${actorId}, ${move.fromUserId}, ${move.toUserId}, ${sql.val(move.ticketIds)}::integer[], ${move.reminders})
      on conflict (actor_id) do update set from_user_id = excluded.from_user_id, to_user_id = excluded.to_user_id,
        ticket_ids = excluded.ticket_ids, reminders = excluded.reminders, created_at = now()`.execute(
      this.db,
    );
  }

  /** `actorId`'s last reassignment if made within the last `hours`, with both operators' names. */
  async lastReassign(actorId: number, hours: number) {
    const { rows } = await sql<{
      fromId: number;
      fromName: string;
      toId: number;
      toName: string;
      ticketIds: number[];
      reminders: number;
      at: Date;
    }>`select r.from_user_id as "fromId", f.name as "fromName", r.to_user_id as "toId", t.name as "toName",
        r.ticket_ids as "ticketIds", r.reminders, r.created_at as at
      from agenda_last_reassignments r
      join users f on f.id = r.from_user_id
      join users t on t.id = r.to_user_id
      where r.actor_id = ${actorId} and r.created_at > now() - make_interval(hours => ${hours})`.execute(
      this.db,
    );
    return rows[0];
  }

  async dropLastReassign(actorId: number) {
    await this.db.deleteFrom('agenda_last_reassignments').where('actor_id', '=', actorId).execute();
  }

  /** Of these tickets, those still assigned to `userId` (an undo leaves alone the ones moved since). */
  async ticketsAssignedTo(ticketIds: number[], userId: number): Promise<number[]> {
    if (!ticketIds.length) return [];
    const rows = await this.db
      .selectFrom('tickets')
      .select('id')
      .where('id', 'in', ticketIds)
      .where('user_assigned_id', '=', userId)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  }
}
