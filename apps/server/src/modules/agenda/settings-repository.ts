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
}
