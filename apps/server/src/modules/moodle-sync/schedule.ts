import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { MinuteClock, type ClockLogger } from '../../jobs/clock.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { MoodleSyncService } from './service.js';

/** How long after the scheduled time a process that was down still runs the day's sync. */
export const CATCH_UP_HOURS = 3;
/** How often a process looks at the clock. */

export interface ScheduleTime {
  hour: number;
  minute: number;
}

/** "02:00" → {hour: 2, minute: 0}; "off" → null. */
export function parseSchedule(value: string): ScheduleTime | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(value.trim());
  if (!m) return null;
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

/** The local calendar day of a moment, as YYYY-MM-DD. */
export function localDay(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Is `now` (local time) inside the window [schedule, schedule + CATCH_UP_HOURS)? */
export function inWindow(now: Date, at: ScheduleTime): boolean {
  const minutes = now.getHours() * 60 + now.getMinutes();
  const start = at.hour * 60 + at.minute;
  const end = start + CATCH_UP_HOURS * 60;
  // A window that runs past midnight belongs to the day it started on; keep it simple and stop at midnight.
  return minutes >= start && minutes < Math.min(end, 24 * 60);
}

/**
 * The nightly sync: at the configured local time every process running the schedule looks for
 * the active courses linked to Moodle on a configured platform, and claims (course, day) rows in
 * moodle_sync_schedule_runs. The primary key lets exactly one process claim each course per day,
 * and the claim and the job are written in one transaction, so several server processes never
 * queue the same course twice in a day. The queued job is the same `moodle.sync` a user starts.
 */
export class MoodleScheduler extends MinuteClock {
  constructor(
    private readonly db: Database,
    private readonly queue: JobQueue,
    private readonly sync: MoodleSyncService,
    private readonly at: ScheduleTime | null,
    log?: ClockLogger,
  ) {
    super('nightly Moodle sync could not be queued', log);
  }

  protected override get enabled(): boolean {
    return this.at !== null;
  }

  /** One look at the clock: the courses queued by this process now (usually none). */
  async tick(now: Date = new Date()): Promise<Array<{ courseId: number; jobId: number }>> {
    if (!this.at || !inWindow(now, this.at)) return [];
    const day = localDay(now);
    const queued = await this.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ course_id: number }>`
        insert into moodle_sync_schedule_runs (course_id, day)
        select c.id, ${day}::date
        from courses c
        join categories cat on cat.id = c.category_id
        join platforms p on p.id = cat.platform_id
        where c.status = 1 and c.id_course_moodle is not null
          and p.url is not null and p.token_encrypted is not null
        order by c.id
        on conflict (course_id, day) do nothing
        returning course_id`.execute(trx);
      const out: Array<{ courseId: number; jobId: number }> = [];
      for (const { course_id } of rows) {
        const job = await this.sync.queueSync(trx, course_id);
        await trx
          .updateTable('moodle_sync_schedule_runs')
          .set({ job_id: job.id })
          .where('course_id', '=', course_id)
          .where('day', '=', day)
          .execute();
        out.push({ courseId: course_id, jobId: job.id });
      }
      // Claims are only needed for the day they guard; keep two months for the record.
      if (out.length)
        await sql`delete from moodle_sync_schedule_runs where day < ${day}::date - 60`.execute(trx);
      return out;
    });
    if (queued.length) {
      this.queue.notify();
      this.log?.info({ day, courses: queued.map((q) => q.courseId) }, 'nightly Moodle sync queued');
    }
    return queued;
  }
}
