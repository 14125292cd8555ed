import { randomUUID } from 'node:crypto';
import { chileDateTime, MAIL_MAX_ATTEMPTS, zonedParts } from '@sigaf/contract';
import { sql } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { MinuteClock, type ClockLogger } from '../../jobs/clock.js';
import type { JobQueue } from '../../jobs/queue.js';
import { StudentFiguresRepository } from '../dashboard/student-figures.js';
import { FollowUpRepository } from '../follow-up/repository.js';
import { MAIL_SEND_JOB, type MailSendPayload } from '../mail/service.js';
import { ReminderRepository } from '../reminders/repository.js';
import { AgendaRepository } from './repository.js';

/** The morning digest goes out from this time of the organisation's zone (TIME_ZONE) on, once a day per user who asked for it. */
export const DIGEST_TIME = '07:30';
/** Most reminders and students a digest lists (the rest are counted). */
const DIGEST_ROWS = 30;

const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * The optional morning digest by e-mail (a per-user setting, `user_agenda_settings.morning_digest`):
 * the user's reminders due today and overdue, and their at-risk students without contact. Each
 * process looks at the clock every minute; from DIGEST_TIME (in TIME_ZONE) it claims the day's
 * digest of each user (`last_digest_on`, one update, so several processes never send it twice) and
 * queues the message in the outbox, delivered by the mail job like every other message.
 */
export class AgendaDigest extends MinuteClock {
  private readonly agenda: AgendaRepository;
  private readonly reminders: ReminderRepository;

  constructor(
    private readonly db: Database,
    private readonly queue: JobQueue,
    private readonly config: Pick<Config, 'MAIL_FROM' | 'PUBLIC_URL' | 'TIME_ZONE'>,
    log?: ClockLogger,
  ) {
    super('morning digests could not be queued', log);
    this.agenda = new AgendaRepository(
      db,
      new FollowUpRepository(db, new StudentFiguresRepository(db)),
    );
    this.reminders = new ReminderRepository(db);
  }

  /** One look at the clock: the mail ids queued now (usually none). */
  async tick(now: Date = new Date()): Promise<number[]> {
    const { day, time } = zonedParts(now, this.config.TIME_ZONE);
    if (time < DIGEST_TIME) return [];
    const { rows: due } = await sql<{ user_id: number; email: string; name: string; role: string }>`
      select s.user_id, u.email, u.name, r.key as role
      from user_agenda_settings s
      join users u on u.id = s.user_id and u.deleted_at is null
      join roles r on r.id = u.role_id
      where s.morning_digest and (s.last_digest_on is null or s.last_digest_on < ${day}::date)
      order by s.user_id`.execute(this.db);
    const queued: number[] = [];
    for (const user of due) {
      const message = await this.compose(user, day, now);
      const id = await this.db.transaction().execute(async (trx) => {
        const claimed = await sql`
          update user_agenda_settings set last_digest_on = ${day}::date, updated_at = now()
          where user_id = ${user.user_id} and morning_digest and (last_digest_on is null or last_digest_on < ${day}::date)`.execute(
          trx,
        );
        if (!Number(claimed.numAffectedRows ?? 0)) return null;
        if (!message) return null;
        const row = await trx
          .insertInto('mail_messages')
          .values({
            ticket_id: null,
            course_id: null,
            to_address: user.email,
            from_address: this.config.MAIL_FROM,
            reply_to: null,
            subject: message.subject,
            html: message.html,
            text: message.text,
            message_id: `<${randomUUID()}@sigaf.digest>`,
            created_by: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await this.queue.enqueue<MailSendPayload>(
          MAIL_SEND_JOB,
          { mailId: row.id },
          { maxAttempts: MAIL_MAX_ATTEMPTS, uniqueKey: `${MAIL_SEND_JOB}:${row.id}` },
          trx,
        );
        return row.id;
      });
      if (id) queued.push(id);
    }
    if (queued.length) {
      this.queue.notify();
      this.log?.info({ day, messages: queued.length }, 'morning digests queued');
    }
    return queued;
  }

  /** The digest of one user, or null when there is nothing to say (no mail then). */
  private async compose(
    user: { user_id: number; name: string; role: string },
    day: string,
    now: Date,
  ) {
    const { rows: reminders } = await this.reminders.list(
      { user_id: user.user_id, state: 'pending', due_to: day, page: 1, perPage: DIGEST_ROWS },
      user.user_id,
    );
    const reminderTotal =
      reminders.length < DIGEST_ROWS
        ? reminders.length
        : await this.reminders.count(
            { user_id: user.user_id, state: 'pending', due_to: day },
            user.user_id,
          );
    const courses =
      user.role === 'tutor'
        ? await this.agenda.tutorCourses(user.user_id)
        : await this.agenda.operatorCourses(user.user_id);
    const students = await this.agenda.atRisk(courses, { page: 1, perPage: DIGEST_ROWS }, now);
    const studentTotal = students.meta.total;
    if (!reminderTotal && !studentTotal) return null;
    const link = this.config.PUBLIC_URL
      ? `${this.config.PUBLIC_URL.replace(/\/+$/, '')}/my/agenda`
      : null;
    const rules = {
      resigning: 'renuncia en curso',
      inactive: 'sin acceso a Moodle',
      behind: 'avance bajo lo esperado',
    } as const;
    const reminderLines = reminders.map(
      (r) =>
        `${chileDateTime(r.due_at)}${new Date(r.due_at).getTime() <= now.getTime() ? ' (vencido)' : ''} · ${r.ticket_code} · ${r.student}${r.comment ? ` · ${r.comment}` : ''}`,
    );
    const studentLines = students.rows.map(
      (s) => `${s.name} ${s.lastName} · ${s.course} · ${s.rules.map((k) => rules[k]).join(', ')}`,
    );
    const more = (shown: number, total: number) =>
      total > shown ? [`… y ${total - shown} más.`] : [];
    const sections: Array<[string, string[]]> = [
      [
        `Recordatorios de hoy y vencidos (${reminderTotal})`,
        [...reminderLines, ...more(reminderLines.length, reminderTotal)],
      ],
      [
        `Estudiantes en riesgo sin contacto (${studentTotal})`,
        [...studentLines, ...more(studentLines.length, studentTotal)],
      ],
    ];
    const text = [
      `Buenos días, ${user.name}.`,
      '',
      ...sections.flatMap(([title, lines]) => [
        title,
        ...(lines.length ? lines.map((l) => `- ${l}`) : ['- Nada pendiente.']),
        '',
      ]),
      link ? `Mi agenda: ${link}` : 'Abra «Mi agenda» en SIGAF.',
    ].join('\n');
    const html = [
      `<p>Buenos días, ${escape(user.name)}.</p>`,
      ...sections.map(
        ([title, lines]) =>
          `<h3>${escape(title)}</h3><ul>${(lines.length ? lines : ['Nada pendiente.']).map((l) => `<li>${escape(l)}</li>`).join('')}</ul>`,
      ),
      link
        ? `<p><a href="${escape(link)}">Abrir Mi agenda</a></p>`
        : '<p>Abra «Mi agenda» en SIGAF.</p>',
    ].join('');
    return {
      subject: `SIGAF: su agenda del ${zonedParts(now, this.config.TIME_ZONE).date}`,
      html,
      text,
    };
  }
}
