import { zonedParts } from '@sigaf/contract';
import { sql } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { MinuteClock, type ClockLogger } from '../../jobs/clock.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { MoodleSyncService } from './service.js';

/** How long after the scheduled time a process that was down still runs the day's sync. */
export const CATCH_UP_HOURS = 3;
/** The demo queues no nightly sync this soon after it starts (nor one it would catch up on). */
export const DEMO_QUIET_MS = 60 * 60_000;

export interface ScheduleTime {
  hour: number;
  minute: number;
}

/** When the nightly sync runs: a wall-clock time in the organisation's time zone. */
export interface NightlySchedule {
  at: ScheduleTime;
  timeZone: string;
  /** The first day (YYYY-MM-DD in timeZone) whose sync may be queued; unset, any. */
  firstDay?: string;
}

/** "02:00" → {hour: 2, minute: 0}; "off" → null. */
export function parseSchedule(value: string): ScheduleTime | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(value.trim());
  if (!m) return null;
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

/** The calendar day (YYYY-MM-DD) and minute of the day of a moment in a time zone. */
function wallClock(now: Date, timeZone: string): { day: string; minutes: number } {
  const { day, time } = zonedParts(now, timeZone);
  return { day, minutes: Number(time.slice(0, 2)) * 60 + Number(time.slice(3)) };
}

const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The calendar day of a moment in a time zone, as YYYY-MM-DD. */
export const localDay = (now: Date, timeZone: string): string => zonedParts(now, timeZone).day;

/**
 * The day whose sync is due at `now`, or null: the wall clock in the schedule's zone is inside
 * [at, at + CATCH_UP_HOURS), stopping at midnight. A time a DST change skips runs when the clock
 * jumps past it; a repeated hour is one day, claimed once.
 */
export function dueDay(now: Date, schedule: NightlySchedule): string | null {
  const { day, minutes } = wallClock(now, schedule.timeZone);
  const start = schedule.at.hour * 60 + schedule.at.minute;
  if (minutes < start || minutes >= Math.min(start + CATCH_UP_HOURS * 60, 24 * 60)) return null;
  return schedule.firstDay && day < schedule.firstDay ? null : day;
}

/** The first day whose scheduled time comes `quietMs` or more after `start`. */
export function firstDayAfter(
  start: Date,
  at: ScheduleTime,
  timeZone: string,
  quietMs: number,
): string {
  const { day, minutes } = wallClock(new Date(start.getTime() + quietMs), timeZone);
  return minutes <= at.hour * 60 + at.minute ? day : nextDay(day);
}

/** The nightly schedule of a process started at `startedAt` (null: off); the demo's first night is not in its first hour. */
export function nightlySchedule(
  config: Pick<Config, 'SYNC_SCHEDULE' | 'TIME_ZONE'>,
  startedAt: Date,
  demo: boolean,
): NightlySchedule | null {
  const at = parseSchedule(config.SYNC_SCHEDULE);
  if (!at) return null;
  const schedule: NightlySchedule = { at, timeZone: config.TIME_ZONE };
  if (demo) schedule.firstDay = firstDayAfter(startedAt, at, config.TIME_ZONE, DEMO_QUIET_MS);
  return schedule;
}

/**
 * The nightly sync: at the configured time in the organisation's zone every process running the schedule looks for
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
    private readonly schedule: NightlySchedule | null,
    log?: ClockLogger,
  ) {
    super('nightly Moodle sync could not be queued', log);
  }

  protected override get enabled(): boolean {
    return this.schedule !== null;
  }

  /** One look at the clock: the courses queued by this process now (usually none). */
  async tick(now: Date = new Date()): Promise<Array<{ courseId: number; jobId: number }>> {
    const day = this.schedule && dueDay(now, this.schedule);
    if (!day) return [];
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
