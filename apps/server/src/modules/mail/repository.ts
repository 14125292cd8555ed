import type { MailOutboxQuery } from '@sigaf/contract';
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Database } from '../../db/database.js';
import { inChunks, likePattern, paginate } from '../../db/pagination.js';
import type { MailAttachmentTable, MailMessageTable, MailTemplateTable } from '../../db/schema.js';

export type AttachmentRow = Selectable<MailAttachmentTable>;
export type TemplateRow = Selectable<MailTemplateTable>;

/** What a message to a student of a course is made of (about a ticket, or to an enrolment: follow-up). */
export interface MailRecipientRow {
  ticket_id: number | null;
  ticket_code: string | null;
  enrolment_id: number;
  course_id: number;
  course_description: string;
  course_email: string | null;
  course_has_mailbox: boolean;
  rut: string;
  name: string;
  last_name: string;
  mother_last_name: string | null;
  email: string | null;
  classroom: string | null;
}

/** What a message to the student of a ticket is made of. */
export interface MailTicketRow extends MailRecipientRow {
  ticket_id: number;
  ticket_code: string;
  course_id: number;
  course_description: string;
  course_email: string | null;
  course_has_mailbox: boolean;
  rut: string;
  name: string;
  last_name: string;
  mother_last_name: string | null;
  email: string | null;
  classroom: string | null;
}

/** The outbox, attachments and templates (SQL only; the rules live in the service). */
/** What a message needs of its student, enrolment and course (`e`, `r`, `c`, `cl`). */
const RECIPIENT_COLUMNS = [
  'e.id as enrolment_id',
  'e.course_id',
  'c.description as course_description',
  'c.email as course_email',
  sql<boolean>`(c.email is not null and c.password_encrypted is not null)`.as('course_has_mailbox'),
  'r.rut',
  'r.name',
  'r.last_name',
  'r.mother_last_name',
  'r.email',
  'cl.description as classroom',
] as const;

export class MailRepository {
  constructor(private readonly db: Database) {}

  // -- attachments ---------------------------------------------------------------------------

  insertAttachment(row: Insertable<MailAttachmentTable>) {
    return this.db
      .insertInto('mail_attachments')
      .values(row)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  attachmentByName(name: string) {
    return this.db
      .selectFrom('mail_attachments')
      .selectAll()
      .where('stored_name', '=', name)
      .executeTakeFirst();
  }

  attachmentsByName(names: string[]) {
    if (!names.length) return Promise.resolve([] as AttachmentRow[]);
    return this.db
      .selectFrom('mail_attachments')
      .selectAll()
      .where('stored_name', 'in', names)
      .execute();
  }

  /** How many messages use an attachment, by whether they are still to be sent. */
  async attachmentUsage(id: number): Promise<{ pending: number; sent: number }> {
    const row = await this.db
      .selectFrom('mail_message_attachments as ma')
      .innerJoin('mail_messages as m', 'm.id', 'ma.mail_message_id')
      .select([
        sql<number>`count(*) filter (where m.status <> 'sent')`.as('pending'),
        sql<number>`count(*) filter (where m.status = 'sent')`.as('sent'),
      ])
      .where('ma.attachment_id', '=', id)
      .executeTakeFirstOrThrow();
    return { pending: Number(row.pending), sent: Number(row.sent) };
  }

  /** Deletes an attachment nobody uses; false when a message took it in between. */
  async deleteAttachmentIfUnused(id: number): Promise<boolean> {
    const r = await this.db
      .deleteFrom('mail_attachments')
      .where('id', '=', id)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('mail_message_attachments')
              .select('attachment_id')
              .where('attachment_id', '=', id),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Deletes the uploads created before `before` that no message uses; returns their stored names. */
  async deleteUnusedAttachments(before: Date): Promise<string[]> {
    const rows = await this.db
      .deleteFrom('mail_attachments as a')
      .where('a.created_at', '<', before)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('mail_message_attachments as ma')
              .select('ma.attachment_id')
              .whereRef('ma.attachment_id', '=', 'a.id'),
          ),
        ),
      )
      .returning('a.stored_name')
      .execute();
    return rows.map((r) => r.stored_name);
  }

  /**
   * Marks purged the files still kept whose messages are all sent, the last one before `before`;
   * returns their stored names.
   */
  async purgeSentAttachments(before: Date): Promise<string[]> {
    const rows = await this.db
      .updateTable('mail_attachments as a')
      .set({ purged_at: sql`now()` })
      .where('a.purged_at', 'is', null)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('mail_message_attachments as ma')
            .select('ma.attachment_id')
            .whereRef('ma.attachment_id', '=', 'a.id'),
        ),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('mail_message_attachments as ma')
              .innerJoin('mail_messages as m', 'm.id', 'ma.mail_message_id')
              .select('ma.attachment_id')
              .whereRef('ma.attachment_id', '=', 'a.id')
              .where((eb) =>
                eb.or([
                  eb('m.status', '<>', 'sent'),
                  eb('m.sent_at', 'is', null),
                  eb('m.sent_at', '>=', before),
                ]),
              ),
          ),
        ),
      )
      .returning('a.stored_name')
      .execute();
    return rows.map((r) => r.stored_name);
  }

  /** Whether any attachment still has its file (the clean-up has more to look at later). */
  async hasKeptAttachments(): Promise<boolean> {
    return Boolean(
      await this.db
        .selectFrom('mail_attachments')
        .select('id')
        .where('purged_at', 'is', null)
        .limit(1)
        .executeTakeFirst(),
    );
  }

  /** Of these stored names, those whose file is still wanted (a row not purged). */
  async keptAttachmentNames(names: string[]): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < names.length; i += 1000) {
      const chunk = names.slice(i, i + 1000);
      const rows = await this.db
        .selectFrom('mail_attachments')
        .select('stored_name')
        .where('stored_name', 'in', chunk)
        .where('purged_at', 'is', null)
        .execute();
      out.push(...rows.map((r) => r.stored_name));
    }
    return out;
  }

  /** The attachments of messages, in their order. */
  attachmentsOf(messageIds: number[]) {
    if (!messageIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('mail_message_attachments as ma')
      .innerJoin('mail_attachments as a', 'a.id', 'ma.attachment_id')
      .select([
        'ma.mail_message_id',
        'a.id',
        'a.stored_name',
        'a.original_name',
        'a.size',
        'a.mime',
      ])
      .where('ma.mail_message_id', 'in', messageIds)
      .orderBy('ma.mail_message_id')
      .orderBy('ma.position')
      .execute();
  }

  // -- composing -------------------------------------------------------------------------------

  /** The tickets a mail is about, with their student, course and classroom. */
  tickets(ids: number[]): Promise<MailTicketRow[]> {
    return inChunks(ids, 1000, (chunk) =>
      this.recipients()
        .innerJoin('tickets as t', 't.course_registered_user_id', 'e.id')
        .select(['t.id as ticket_id', 't.ticket_code', ...RECIPIENT_COLUMNS])
        .where('t.id', 'in', chunk)
        .execute(),
    );
  }

  /** The students of enrolments (any course): mail from the follow-up or Mi agenda, without a ticket. */
  enrolments(ids: number[]): Promise<MailRecipientRow[]> {
    return inChunks(ids, 1000, (chunk) =>
      this.recipients()
        .select([
          sql<null>`null::int`.as('ticket_id'),
          sql<null>`null::text`.as('ticket_code'),
          ...RECIPIENT_COLUMNS,
        ])
        .where('e.id', 'in', chunk)
        .execute(),
    );
  }

  /**
   * The open tickets of enrolments with their owners, the ones assigned to `callerId` first, then
   * the latest: where a mail to the student is filed (the service keeps those the caller may touch).
   */
  openTickets(enrolmentIds: number[], callerId: number) {
    return inChunks(enrolmentIds, 1000, (chunk) =>
      this.db
        .selectFrom('tickets as t')
        .select([
          't.id as ticket_id',
          't.ticket_code',
          't.course_registered_user_id as enrolment_id',
          't.user_assigned_id',
          't.user_create_id',
        ])
        .where('t.course_registered_user_id', 'in', chunk)
        .where('t.status_ticket_id', '=', (eb) =>
          eb.selectFrom('status_tickets as s').select('s.id').where('s.key', '=', 'open'),
        )
        .orderBy(sql`t.user_assigned_id is not distinct from ${callerId}::int`, 'desc')
        .orderBy('t.updated_at', 'desc')
        .orderBy('t.id', 'desc')
        .execute(),
    );
  }

  /** Enrolments with their student, course and classroom: what RECIPIENT_COLUMNS reads. */
  private recipients() {
    return this.db
      .selectFrom('course_registered_users as e')
      .innerJoin('registered_users as r', 'r.id', 'e.registered_user_id')
      .innerJoin('courses as c', 'c.id', 'e.course_id')
      .leftJoin('classrooms as cl', 'cl.id', 'e.classroom_id');
  }

  /** Inserts messages (in chunks) and links their attachments; returns the new ids in order. */
  async insertMessages(
    rows: Insertable<MailMessageTable>[],
    attachmentIds: number[],
    db: Database,
  ): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      if (!chunk.length) continue;
      const inserted = await db.insertInto('mail_messages').values(chunk).returning('id').execute();
      ids.push(...inserted.map((r) => r.id));
      if (attachmentIds.length) {
        await db
          .insertInto('mail_message_attachments')
          .values(
            inserted.flatMap((m) =>
              attachmentIds.map((a, position) => ({
                mail_message_id: m.id,
                attachment_id: a,
                position,
              })),
            ),
          )
          .execute();
      }
    }
    return ids;
  }

  /** The owners of a message's ticket and the role of the one who wrote it: may they log the attempt there? */
  ticketAndWriter(ticketId: number, userId: number, db: Database) {
    return db
      .selectFrom('tickets as t')
      .innerJoin('users as u', (j) => j.on('u.id', '=', userId))
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .select(['t.id', 't.user_assigned_id', 't.user_create_id', 'r.key as role'])
      .where('t.id', '=', ticketId)
      .executeTakeFirst();
  }

  courseMailbox(courseId: number) {
    return this.db
      .selectFrom('courses')
      .select(['id', 'description', 'email', 'password_encrypted'])
      .where('id', '=', courseId)
      .executeTakeFirst();
  }

  async statusDetailId(key: string): Promise<number | undefined> {
    return (
      await this.db
        .selectFrom('status_detail_tickets')
        .select('id')
        .where('key', '=', key)
        .executeTakeFirst()
    )?.id;
  }

  // -- delivery --------------------------------------------------------------------------------

  /**
   * Takes a message for sending (status 'sending', attempts + 1) unless it is sent already or
   * another attempt started less than `busyMs` ago and may still be in flight.
   */
  startSending(id: number, busyMs: number) {
    return this.db
      .updateTable('mail_messages')
      .set({ status: 'sending', attempts: sql`attempts + 1`, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('status', '<>', 'sent')
      .where((eb) =>
        eb.or([
          eb('status', '<>', 'sending'),
          eb(
            'updated_at',
            '<',
            sql<Date>`now() - ${`${Math.round(busyMs)} milliseconds`}::interval`,
          ),
        ]),
      )
      .returningAll()
      .executeTakeFirst();
  }

  /** The one transition to 'sent' (from 'sending'); false when it is not this attempt's to make. */
  async markSent(id: number, db: Database): Promise<boolean> {
    const r = await db
      .updateTable('mail_messages')
      .set({ status: 'sent', sent_at: sql`now()`, last_error: null, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('status', '=', 'sending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** A failed attempt: back to queued for the next one, or failed for good. */
  async markFailed(id: number, error: string, final: boolean) {
    await this.db
      .updateTable('mail_messages')
      .set({
        status: final ? 'failed' : 'queued',
        last_error: error.slice(0, 2000),
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .where('status', '<>', 'sent')
      .execute();
  }

  /** failed -> queued (a retry by hand); false when the message is not failed. */
  async requeue(id: number, db: Database): Promise<boolean> {
    const r = await db
      .updateTable('mail_messages')
      .set({ status: 'queued', updated_at: sql`now()` })
      .where('id', '=', id)
      .where('status', '=', 'failed')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  // -- outbox ----------------------------------------------------------------------------------

  private messages() {
    return this.db
      .selectFrom('mail_messages as m')
      .leftJoin('tickets as t', 't.id', 'm.ticket_id')
      .leftJoin('courses as c', 'c.id', 'm.course_id')
      .leftJoin('users as u', 'u.id', 'm.created_by')
      .leftJoin('course_registered_users as me', 'me.id', 'm.enrolment_id')
      .leftJoin('registered_users as mr', 'mr.id', 'me.registered_user_id')
      .select([
        'm.enrolment_id',
        sql<
          string | null
        >`nullif(concat_ws(' ', mr.name, mr.last_name, mr.mother_last_name), '')`.as(
          'student_name',
        ),
        'm.id',
        'm.ticket_id',
        't.ticket_code',
        'm.course_id',
        'c.description as course_description',
        'm.to_address',
        'm.cc',
        'm.from_address',
        'm.reply_to',
        'm.subject',
        'm.status',
        'm.attempts',
        'm.last_error',
        'm.message_id',
        'm.sent_at',
        'm.created_at',
        'm.updated_at',
        'm.created_by',
        'u.name as created_by_name',
        't.user_assigned_id as ticket_assigned_id',
        't.user_create_id as ticket_creator_id',
      ]);
  }

  findMessage(id: number) {
    return this.messages().select(['m.html', 'm.text']).where('m.id', '=', id).executeTakeFirst();
  }

  /** The outbox, newest first; `createdBy` limits it to one sender's messages. */
  listMessages(q: MailOutboxQuery & { createdBy?: number }) {
    let query = this.messages();
    if (q.status) query = query.where('m.status', '=', q.status);
    if (q.ticket_id) query = query.where('m.ticket_id', '=', q.ticket_id);
    if (q.course_id) query = query.where('m.course_id', '=', q.course_id);
    if (q.createdBy) query = query.where('m.created_by', '=', q.createdBy);
    if (q.search) {
      const p = likePattern(q.search);
      query = query.where((eb) =>
        eb.or([
          eb('m.subject', 'ilike', p),
          eb('m.to_address', 'ilike', p),
          eb('t.ticket_code', 'ilike', p),
        ]),
      );
    }
    const dir = q.order === 'asc' ? 'asc' : 'desc';
    return paginate(query.orderBy('m.created_at', dir).orderBy('m.id', dir), q);
  }

  // -- templates -------------------------------------------------------------------------------

  templates(courseId?: number) {
    let query = this.db.selectFrom('mail_templates').selectAll();
    if (courseId) query = query.where('course_id', '=', courseId);
    return query
      .orderBy('course_id')
      .orderBy(sql`lower(name)`)
      .limit(1000)
      .execute();
  }

  template(id: number) {
    return this.db.selectFrom('mail_templates').selectAll().where('id', '=', id).executeTakeFirst();
  }

  insertTemplate(row: Insertable<MailTemplateTable>) {
    return this.db
      .insertInto('mail_templates')
      .values(row)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  updateTemplate(id: number, values: Partial<Pick<TemplateRow, 'name' | 'subject' | 'html'>>) {
    return this.db
      .updateTable('mail_templates')
      .set({ ...values, updated_at: sql`now()` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async deleteTemplate(id: number): Promise<boolean> {
    const r = await this.db.deleteFrom('mail_templates').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}

export type MailMessageRow = NonNullable<Awaited<ReturnType<MailRepository['findMessage']>>>;
export type MailListRow = Awaited<ReturnType<MailRepository['listMessages']>>['rows'][number];
