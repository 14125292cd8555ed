import { randomUUID } from 'node:crypto';
import {
  FOLLOW_UP_MSG,
  isEmailAddress,
  MAIL_MAX_ATTEMPTS,
  MAIL_MSG,
  type FieldErrors,
  type FollowUpMailInput,
  type FollowUpMailPreview,
  type FollowUpMailResult,
  type MailMassiveInput,
  type MailOutboxQuery,
  type MailPreviewInput,
  type MailPreviewResult,
  type MailQueuedResult,
  type MailSingleInput,
} from '@sigaf/contract';
import type { Insertable } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { MailMessageTable } from '../../db/schema.js';
import type { AuthUser } from '../../http/auth.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import type { JobQueue, JobRow } from '../../jobs/queue.js';
import { PermanentJobError, type JobContext, type JobHandlers } from '../../jobs/worker.js';
import { decryptSecret } from '../../lib/crypto.js';
import type { TicketAccess } from '../tickets/access.js';
import type { TicketDetailRepository } from '../tickets/detail-repository.js';
import type { TicketRepository } from '../tickets/repository.js';
import {
  htmlToText,
  layout,
  layoutText,
  personalise,
  safeFileName,
  sanitizeBody,
} from './content.js';
import type { MailFileService } from './files.js';
import { MailOutbox } from './outbox.js';
import type { MailRecipientRow, MailRepository, MailTicketRow } from './repository.js';
import { isPermanentSmtpError, type MailboxAuth, type MailTransport } from './transport.js';

export const MAIL_SEND_JOB = 'mail.send';
/** A delivery attempt longer than this is abandoned (docs/development/domain.md#mail: 120 s). */
export const MAIL_SEND_TIMEOUT_MS = 120_000;

export interface MailSendPayload {
  mailId: number;
}

const jobKey = (mailId: number) => `${MAIL_SEND_JOB}:${mailId}`;
const ticketSkipped = (t: MailTicketRow) => ({
  ticketId: t.ticket_id,
  reason: MAIL_MSG.noStudentEmail,
});

/** `"Name" <address>` with the name quoted safely. */
function mailbox(name: string, address: string): string {
  return `"${name.replace(/["\\\r\n]/g, ' ').trim()}" <${address}>`;
}

/** The domain of our Message-IDs: MAIL_FROM's. */
function domainOf(from: string): string {
  const m = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from.trim());
  return m ? m[1]!.toLowerCase() : 'sigaf.local';
}

/**
 * E-mail to students (docs/development/domain.md#mail): single and massive mail through a durable outbox,
 * previews, delivery (the 'mail.send' job) and the contact attempt it leaves on the ticket.
 * Attachments are files.ts's, templates templates.ts's.
 */
export class MailService {
  private readonly idDomain: string;
  private readonly box: MailOutbox;
  private successDetail: { id: number; description: string } | null = null;

  constructor(
    private readonly db: Database,
    private readonly repo: MailRepository,
    private readonly tickets: TicketRepository,
    private readonly details: TicketDetailRepository,
    private readonly access: TicketAccess,
    private readonly queue: JobQueue,
    private readonly transport: MailTransport,
    private readonly files: MailFileService,
    private readonly config: Pick<Config, 'MAIL_FROM' | 'APP_SECRET'>,
    private readonly opts: { busyMs?: number } = {},
  ) {
    this.idDomain = domainOf(config.MAIL_FROM);
    this.box = new MailOutbox(repo, access);
  }

  /** Registers the delivery job with the worker's handlers. */
  registerJobs(handlers: JobHandlers): void {
    handlers.register<MailSendPayload>(MAIL_SEND_JOB, (job) => this.deliver(job), {
      timeoutMs: MAIL_SEND_TIMEOUT_MS,
      onFailed: (job, error) => this.deliveryFailed(job, error),
    });
  }

  close(): void {
    this.transport.close();
  }

  // -- queueing --------------------------------------------------------------------------------

  /** One message to the student of a ticket. */
  async queueSingle(input: MailSingleInput, actor: AuthUser): Promise<MailQueuedResult> {
    await this.access.assert(actor, [input.ticketId], 'skip');
    const rows = await this.repo.tickets([input.ticketId]);
    if (!rows.length) throw notFound(MAIL_MSG.ticketNotFound);
    const result: MailQueuedResult = await this.queueFor(rows, input, actor, ticketSkipped);
    if (result.skipped.length) throw invalid({ ticketId: [MAIL_MSG.noStudentEmail] });
    return result;
  }

  /** One message per ticket; students without an e-mail address are reported as skipped. */
  async queueMassive(input: MailMassiveInput, actor: AuthUser): Promise<MailQueuedResult> {
    await this.access.assert(actor, input.ticketsId, 'skip');
    const rows = await this.repo.tickets(input.ticketsId);
    const found = new Set(rows.map((r) => r.ticket_id));
    const missing = input.ticketsId.filter((id) => !found.has(id));
    if (missing.length) throw invalid({ ticketsId: [MAIL_MSG.ticketsNotFound(missing)] });
    const byId = new Map(rows.map((r) => [r.ticket_id, r]));
    return this.queueFor(
      input.ticketsId.map((id) => byId.get(id)!),
      input,
      actor,
      ticketSkipped,
    );
  }

  private sender(t: MailRecipientRow): { from: string; replyTo: string | null } {
    // A course with its own mailbox (address and password) sends as itself; otherwise MAIL_FROM
    // sends on its behalf and replies go to the course's address.
    if (t.course_has_mailbox && t.course_email && isEmailAddress(t.course_email))
      return { from: mailbox(t.course_description, t.course_email), replyTo: null };
    return {
      from: this.config.MAIL_FROM,
      replyTo: t.course_email && isEmailAddress(t.course_email) ? t.course_email : null,
    };
  }

  /** The sanitised body; 422 when nothing readable is left. */
  private cleanBody(text: string): string {
    const html = sanitizeBody(text);
    if (!htmlToText(html)) throw invalid({ text: [MAIL_MSG.bodyRequired] } satisfies FieldErrors);
    return html;
  }

  /** The message to the student of one ticket (null without an address): sender, placeholders filled. */
  private compose(t: MailRecipientRow, subject: string, html: string) {
    const to = t.email?.trim() ?? '';
    if (!isEmailAddress(to)) return null;
    const content = personalise(subject, html, {
      nombre: t.name,
      apellido: t.last_name,
      curso: t.course_description,
      aula: t.classroom ?? '',
      codigo_ticket: t.ticket_code ?? '',
      rut: t.rut,
    });
    return { to, ...this.sender(t), ...content };
  }

  /** The body as delivered: the message in the layout, HTML and text. */
  private rendered(message: { html: string; text: string }, course: string | null) {
    return { html: layout(message.html, course), text: layoutText(message.text, course) };
  }

  /**
   * What /mail/single or /mail/massive would queue, without queueing it: the number of
   * recipients and the first one's message exactly as the worker will send it.
   */
  async preview(input: MailPreviewInput, actor: AuthUser): Promise<MailPreviewResult> {
    await this.access.assert(actor, input.ticketsId, 'skip');
    const rows = await this.repo.tickets(input.ticketsId);
    const byId = new Map(rows.map((r) => [r.ticket_id, r]));
    const missing = input.ticketsId.filter((id) => !byId.has(id));
    if (missing.length) throw invalid({ ticketsId: [MAIL_MSG.ticketsNotFound(missing)] });
    const html = this.cleanBody(input.text);
    const skipped: MailPreviewResult['skipped'] = [];
    let recipients = 0;
    let sample: MailPreviewResult['sample'] = null;
    for (const id of input.ticketsId) {
      const t = byId.get(id)!;
      const message = this.compose(t, input.subject, html);
      if (!message) {
        skipped.push({ ticketId: id, reason: MAIL_MSG.noStudentEmail });
        continue;
      }
      recipients++;
      if (!sample) {
        const student = [t.name, t.last_name, t.mother_last_name].filter(Boolean).join(' ');
        sample = {
          ticketId: id,
          ticketCode: t.ticket_code,
          student,
          to: message.to,
          from: message.from,
          replyTo: message.replyTo,
          subject: message.subject,
          ...this.rendered(message, t.course_description),
        };
      }
    }
    return { total: input.ticketsId.length, recipients, skipped, sample };
  }

  /**
   * One message per enrolment, without a ticket (massive mail from the student follow-up);
   * students without an e-mail address are reported as skipped. Every enrolment must exist.
   */
  async queueForEnrolments(input: FollowUpMailInput, actor: AuthUser): Promise<FollowUpMailResult> {
    const rows = await this.enrolmentRecipients(input.enrolmentIds, actor);
    if (!rows.some((r) => r.email && isEmailAddress(r.email.trim())))
      throw invalid({ enrolmentIds: [FOLLOW_UP_MSG.noRecipients] });
    return this.queueFor(rows, input, actor, (r) => ({
      enrolmentId: r.enrolment_id,
      reason: MAIL_MSG.noStudentEmail,
    }));
  }

  /** What queueForEnrolments would queue: how many messages, who is skipped, the first message as delivered. */
  async previewForEnrolments(
    input: Pick<FollowUpMailInput, 'enrolmentIds' | 'subject' | 'text'>,
    actor: AuthUser,
  ): Promise<FollowUpMailPreview> {
    const rows = await this.enrolmentRecipients(input.enrolmentIds, actor);
    const html = this.cleanBody(input.text);
    const result: FollowUpMailPreview = { count: 0, skipped: [], sample: null };
    for (const r of rows) {
      const message = this.compose(r, input.subject, html);
      if (!message) {
        result.skipped.push({
          enrolmentId: r.enrolment_id,
          name: [r.name, r.last_name, r.mother_last_name].filter(Boolean).join(' '),
        });
        continue;
      }
      result.count++;
      result.sample ??= {
        to: message.to,
        subject: message.subject,
        ...this.rendered(message, r.course_description),
      };
    }
    return result;
  }

  /**
   * The recipients of enrolments, in the order given; a 422 naming the ones that do not exist.
   * Each comes with the open ticket its mail is filed on: the first one of the student's the caller
   * may touch (TicketAccess; assigned to them first). Without one, the mail is a contact without a ticket.
   */
  private async enrolmentRecipients(ids: number[], actor: AuthUser): Promise<MailRecipientRow[]> {
    const [rows, open] = await Promise.all([
      this.repo.enrolments(ids),
      this.repo.openTickets(ids, actor.id),
    ]);
    const byId = new Map(rows.map((r) => [r.enrolment_id, r]));
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length)
      throw invalid({ enrolmentIds: [FOLLOW_UP_MSG.enrolmentsNotFound(missing)] });
    const ticketOf = new Map<number, { ticket_id: number; ticket_code: string }>();
    for (const t of this.access.allowed(actor, open))
      if (!ticketOf.has(t.enrolment_id)) ticketOf.set(t.enrolment_id, t);
    return ids.map((id) => ({
      ...byId.get(id)!,
      ticket_id: ticketOf.get(id)?.ticket_id ?? null,
      ticket_code: ticketOf.get(id)?.ticket_code ?? null,
    }));
  }

  private async queueFor<R extends MailRecipientRow, S>(
    tickets: R[],
    input: Pick<MailMassiveInput, 'subject' | 'text' | 'CCRecipient' | 'files'>,
    actor: AuthUser,
    skippedAs: (r: R) => S,
  ): Promise<{ queued: number; messages: number[]; skipped: S[] }> {
    const html = this.cleanBody(input.text);
    const files = await this.files.forMessage(input.files, actor);

    const skipped: S[] = [];
    const rows: Insertable<MailMessageTable>[] = [];
    for (const t of tickets) {
      const message = this.compose(t, input.subject, html);
      if (!message) {
        skipped.push(skippedAs(t));
        continue;
      }
      rows.push({
        ticket_id: t.ticket_id,
        course_id: t.course_id,
        enrolment_id: t.enrolment_id,
        to_address: message.to,
        cc: JSON.stringify(input.CCRecipient),
        from_address: message.from,
        reply_to: message.replyTo,
        subject: message.subject,
        html: message.html,
        text: message.text,
        message_id: `<${randomUUID()}@${this.idDomain}>`,
        created_by: actor.id,
      });
    }
    const ids = rows.length
      ? await this.db
          .transaction()
          .execute(async (trx) => {
            const ids = await this.repo.insertMessages(
              rows,
              files.map((f) => f.id),
              trx,
            );
            await this.queue.enqueueMany<MailSendPayload>(
              MAIL_SEND_JOB,
              ids.map((mailId) => ({ payload: { mailId }, uniqueKey: jobKey(mailId) })),
              { maxAttempts: MAIL_MAX_ATTEMPTS },
              trx,
            );
            return ids;
          })
          .catch((err: unknown) => {
            // An attachment removed by the clean-up between the check and the insert.
            if ((err as { code?: string }).code === '23503')
              throw invalid({ files: [MAIL_MSG.fileNotFound] });
            throw err;
          })
      : [];
    if (ids.length) this.queue.notify();
    return { queued: ids.length, messages: ids, skipped };
  }

  // -- delivery --------------------------------------------------------------------------------

  /**
   * The 'mail.send' job: sends one message unless it is sent already. The message keeps its
   * Message-ID on every attempt; marking it sent and logging the contact attempt are one
   * transaction, so a message already 'sent' is never sent again.
   */
  async deliver(job: JobContext<MailSendPayload>) {
    const id = job.payload.mailId;
    const row = await this.repo.startSending(id, this.opts.busyMs ?? MAIL_SEND_TIMEOUT_MS);
    if (!row) {
      const current = await this.repo.findMessage(id);
      if (!current) return { skipped: 'missing' };
      if (current.status === 'sent') return { skipped: 'already sent' };
      throw new Error('Otro intento de envío de este correo sigue en curso.');
    }
    try {
      const files = await this.repo.attachmentsOf([id]);
      const course = row.course_id ? await this.repo.courseMailbox(row.course_id) : undefined;
      let auth: MailboxAuth | undefined;
      if (
        course?.email &&
        course.password_encrypted &&
        row.from_address.includes(`<${course.email}>`)
      ) {
        auth = { user: course.email, pass: this.mailboxPassword(course.password_encrypted) };
      }
      const info = await this.transport.send(
        {
          from: row.from_address,
          to: row.to_address,
          cc: row.cc,
          replyTo: row.reply_to,
          subject: row.subject,
          ...this.rendered(row, course?.description ?? null),
          messageId: row.message_id,
          date: new Date(row.created_at),
          attachments: files.map((f) => ({
            filename: safeFileName(f.original_name),
            path: this.files.filePath(f.stored_name),
            contentType: f.mime,
          })),
        },
        auth,
      );
      await this.recordSent(row);
      return { messageId: row.message_id, response: info.response };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const permanent = err instanceof PermanentJobError || isPermanentSmtpError(err);
      await this.repo.markFailed(id, message, permanent || job.isLastAttempt);
      throw permanent && !(err instanceof PermanentJobError) ? new PermanentJobError(message) : err;
    }
  }

  /** The course mailbox password; unreadable (APP_SECRET changed) is an error no retry fixes. */
  private mailboxPassword(stored: string): string {
    try {
      return decryptSecret(stored, this.config.APP_SECRET);
    } catch {
      throw new PermanentJobError(MAIL_MSG.mailboxPasswordUnreadable);
    }
  }

  /** Marks the message sent and logs a successful contact attempt on its ticket, in one transaction. */
  private async recordSent(row: {
    id: number;
    ticket_id: number | null;
    created_by: number | null;
    subject: string;
  }) {
    const detail = await this.successStatus();
    await this.db.transaction().execute(async (trx) => {
      if (!(await this.repo.markSent(row.id, trx))) return;
      if (!row.ticket_id || !row.created_by || !detail) return;
      // Only on a ticket its writer may still touch (it may have been reassigned since it was queued).
      const ticket = await this.repo.ticketAndWriter(row.ticket_id, row.created_by, trx);
      if (
        !ticket ||
        !this.access.allowed({ id: row.created_by, role: ticket.role as AuthUser['role'] }, [
          ticket,
        ]).length
      )
        return;
      const comment = MAIL_MSG.contactComment(row.subject);
      await this.details.insertMany(
        [
          {
            ticket_id: row.ticket_id,
            user_created_id: row.created_by,
            status_detail_ticket_id: detail.id,
            comment,
            // A mail sent from SIGAF says its own medium, whatever the ticket's type.
            medium: 'email',
            direction: 'outgoing',
          },
        ],
        trx,
      );
      await this.tickets.addHistory(
        [
          {
            ticketId: row.ticket_id,
            userId: row.created_by,
            action: 'add_attempt',
            changes: { statusDetailTicket: [null, detail.description], comment: [null, comment] },
          },
        ],
        trx,
      );
      await this.tickets.touch([row.ticket_id], trx);
    });
  }

  private async successStatus() {
    if (!this.successDetail) {
      const id = await this.repo.statusDetailId('success');
      if (id) {
        const row = await this.db
          .selectFrom('status_detail_tickets')
          .select(['id', 'description'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        this.successDetail = row;
      }
    }
    return this.successDetail;
  }

  /** The job is failed for good (out of attempts, also after a crash): so is the message. */
  private async deliveryFailed(job: JobRow, error: string) {
    const mailId = (job.payload as Partial<MailSendPayload> | null)?.mailId;
    if (typeof mailId === 'number') await this.repo.markFailed(mailId, error, true);
  }

  // -- outbox ----------------------------------------------------------------------------------

  outbox(q: MailOutboxQuery, actor: AuthUser) {
    return this.box.list(q, actor);
  }

  message(id: number, actor: AuthUser) {
    return this.box.message(id, actor);
  }

  attachmentsOf(messageIds: number[]) {
    return this.repo.attachmentsOf(messageIds);
  }

  /** A failed message back to the queue, with a fresh set of attempts. */
  async retry(id: number, actor: AuthUser) {
    await this.message(id, actor);
    await this.db.transaction().execute(async (trx) => {
      if (!(await this.repo.requeue(id, trx))) throw conflict(MAIL_MSG.retryOnlyFailed);
      await this.queue.enqueue<MailSendPayload>(
        MAIL_SEND_JOB,
        { mailId: id },
        { maxAttempts: MAIL_MAX_ATTEMPTS, uniqueKey: jobKey(id) },
        trx,
      );
    });
    this.queue.notify();
    return this.message(id, actor);
  }
}
