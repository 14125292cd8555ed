import { sql } from 'kysely';
import type { prng } from '@sigaf/moodle-sim/generator';
import type { Database } from '../db/database.js';
import { OutcomeRepository } from '../modules/outcomes/repository.js';

/**
 * SIMULATED: how the demo's students answer contacts, so that the effectiveness report has
 * something to show (docs/operations/moodle.md#the-demo). Nothing here is measured: the demo's
 * past progress history (migration 0035) is written by this model, day by day over the weeks of
 * the demo's tickets, before the first real sync adds Moodle's own figures.
 *
 * - A contact brings the student back to Moodle, within 2 to 96 hours, with a probability that
 *   depends on its channel (the ticket type) and on how long the student had been away:
 *   RESPONSE_BY_CHANNEL × IDLE_FACTOR.
 * - Any day, a student comes back on their own with SPONTANEOUS_DAILY probability (the baseline).
 * - Coming back after a contact raises progress 4–14 points; on their own, 0–6.
 * - A "sync" each day records the figures when they changed.
 */
export const RESPONSE_BY_CHANNEL: Record<string, number> = { phone: 0.55, email: 0.25 };
export const OTHER_CHANNEL = 0.35;
export const SPONTANEOUS_DAILY = 0.05;

const H = 3_600_000;
const DAY = 24 * H;

/** The factor for days without access before the contact (null: never accessed). */
export function idleFactor(idleDays: number | null): number {
  if (idleDays === null) return 0.4;
  if (idleDays < 7) return 1;
  if (idleDays < 14) return 0.75;
  return 0.5;
}

export const responseProbability = (channel: string, idleDays: number | null) =>
  (RESPONSE_BY_CHANNEL[channel] ?? OTHER_CHANNEL) * idleFactor(idleDays);

export interface SimulatedRow {
  at: number;
  progress: number;
  lastAccess: number | null;
}

/** One student's simulated figures from `from` to `to` (epoch ms), given the contacts they got. */
export function simulateStudent(
  rnd: ReturnType<typeof prng>,
  from: number,
  to: number,
  contacts: ReadonlyArray<{ at: number; channel: string }>,
): SimulatedRow[] {
  let lastAccess: number | null = rnd.next() < 0.1 ? null : from - rnd.int(0, 20) * DAY;
  let progress = rnd.int(0, 40);
  const rows: SimulatedRow[] = [{ at: from, progress, lastAccess }];
  const queue = [...contacts].sort((a, b) => a.at - b.at);
  let pending: number[] = [];
  let next = 0;
  for (let day = from + DAY; day <= to; day += DAY) {
    while (next < queue.length && queue[next]!.at <= day) {
      const c = queue[next++]!;
      const idle = lastAccess === null ? null : Math.max(0, (c.at - lastAccess) / DAY);
      if (rnd.next() < responseProbability(c.channel, idle))
        pending.push(Math.min(to, c.at + rnd.int(2, 96) * H));
    }
    const answered = pending.filter((t) => t <= day);
    pending = pending.filter((t) => t > day);
    const spontaneous = rnd.next() < SPONTANEOUS_DAILY ? [day - rnd.int(1, 23) * H] : [];
    const seen = [...answered, ...spontaneous].filter((t) => lastAccess === null || t > lastAccess);
    if (!seen.length) continue;
    lastAccess = Math.max(...seen);
    progress = Math.min(100, progress + (answered.length ? rnd.int(4, 14) : rnd.int(0, 6)));
    rows.push({ at: day, progress, lastAccess });
  }
  return rows;
}

/**
 * Writes the simulated history of every student enrolment of these courses from `weeks` weeks
 * ago until an hour ago, answering the contact attempts already in the database.
 */
export async function seedSimulatedHistory(
  db: Database,
  rnd: ReturnType<typeof prng>,
  courseIds: number[],
  weeks: number,
  now = Date.now(),
): Promise<number> {
  const { rows: students } = await sql<{ id: number }>`
    select e.id from course_registered_users e join profiles p on p.id = e.profile_id and p.key = 'student'
    where e.course_id = any(${courseIds}::int[]) order by e.id`.execute(db);
  const { rows: attempts } = await sql<{ enrolment_id: number; at: Date; channel: string | null }>`
    select t.course_registered_user_id as enrolment_id, d.created_at as at, y.key as channel
    from ticket_details d join tickets t on t.id = d.ticket_id join type_tickets y on y.id = t.type_ticket_id
    where t.course_id = any(${courseIds}::int[])`.execute(db);
  const byStudent = new Map<number, Array<{ at: number; channel: string }>>();
  for (const a of attempts) {
    const list = byStudent.get(Number(a.enrolment_id)) ?? [];
    list.push({ at: new Date(a.at).getTime(), channel: a.channel ?? '' });
    byStudent.set(Number(a.enrolment_id), list);
  }
  const from = now - weeks * 7 * DAY - 2 * DAY;
  const values = students.flatMap((s) =>
    simulateStudent(rnd, from, now - H, byStudent.get(Number(s.id)) ?? []).map((r) => ({
      enrolment_id: Number(s.id),
      recorded_at: new Date(r.at),
      progress: r.progress,
      last_access: r.lastAccess === null ? null : new Date(r.lastAccess),
      completed: 0,
    })),
  );
  for (let i = 0; i < values.length; i += 1000)
    await db
      .insertInto('enrolment_progress_history')
      .values(values.slice(i, i + 1000))
      .execute();
  // Past history: the effectiveness report's kept days are computed again.
  await new OutcomeRepository(db).forgetKept();
  return values.length;
}
