import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import type { CatalogueTableName } from '../../db/schema.js';
import { appendProgressHistory } from '../outcomes/history-repository.js';
import { OutcomeRepository } from '../outcomes/repository.js';

/** A target column: its type in the batch, and whether it holds a Santiago wall-clock time. */
export type Column = [
  name: string,
  type: 'int' | 'bigint' | 'text' | 'numeric' | 'boolean' | 'wallclock',
];

const ident = (s: string) => sql.id(s);

/** Set-based writes of the legacy import, inside the caller's transaction. */
export class LegacyImportRepository {
  constructor(private readonly db: Database) {}

  /** True when the target already holds organisational data (courses, students or tickets). */
  async hasData(): Promise<boolean> {
    const r = await sql<{ n: number }>`
      select (select count(*) from categories) + (select count(*) from courses) + (select count(*) from registered_users) + (select count(*) from tickets) as n`.execute(
      this.db,
    );
    return Number(r.rows[0]!.n) > 0;
  }

  /**
   * Inserts a batch in one statement: the rows travel as one JSON array, wall-clock columns are
   * read as America/Santiago local time (PostgreSQL's zone rules, DST included) and stored as instants.
   */
  async insert(
    table: string,
    columns: Column[],
    rows: Record<string, unknown>[],
    returning?: string,
  ): Promise<Array<Record<string, unknown>>> {
    if (!rows.length) return [];
    const spec = columns.map(
      ([c, t]) => sql`${ident(c)} ${sql.raw(t === 'wallclock' ? 'text' : t)}`,
    );
    const values = columns.map(([c, t]) =>
      t === 'wallclock'
        ? sql`(x.${ident(c)}::timestamp at time zone 'America/Santiago')`
        : sql`x.${ident(c)}`,
    );
    const ret: RawBuilder<unknown> = returning ? sql` returning ${sql.raw(returning)}` : sql``;
    const r = await sql<Record<string, unknown>>`
      insert into ${ident(table)} (${sql.join(columns.map(([c]) => ident(c)))})
      select ${sql.join(values)} from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(${sql.join(spec)})${ret}`.execute(
      this.db,
    );
    return r.rows;
  }

  async catalogue(table: CatalogueTableName | 'platforms') {
    return this.db.selectFrom(table).select(['id', 'key', 'description']).orderBy('id').execute();
  }

  async addCatalogueValue(
    table: CatalogueTableName | 'platforms',
    description: string,
  ): Promise<number> {
    const r = await this.db
      .insertInto(table)
      .values({ description, key: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  async usersByEmail(): Promise<Map<string, number>> {
    const rows = await this.db.selectFrom('users').select(['id', 'email']).execute();
    return new Map(rows.map((r) => [r.email.toLowerCase(), r.id]));
  }

  /** An account that already existed takes its SIGAF 1.x password (bcrypt) and first-login flag; its sessions end. */
  async takeLegacyPassword(userId: number, password: string, isFirstLogin: number) {
    await this.db
      .updateTable('users')
      .set({ password, is_first_login: isFirstLogin })
      .where('id', '=', userId)
      .execute();
    await this.db.deleteFrom('access_tokens').where('user_id', '=', userId).execute();
  }

  async firstAdminId(): Promise<number | undefined> {
    const r = await this.db
      .selectFrom('users')
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select('users.id')
      .where('roles.key', 'in', ['admin', 'developer'])
      .where('users.deleted_at', 'is', null)
      .orderBy('users.id')
      .executeTakeFirst();
    return r?.id;
  }

  /** Serial columns continue after the highest id imported with its original value. */
  async resetSequence(table: string) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), greatest((select coalesce(max(id), 0) from ${ident(table)}), 1))`.execute(
      this.db,
    );
  }

  /** Every code prefix's sequence continues after the highest number imported with it. */
  async continueCodeSequences() {
    await sql`
      insert into ticket_code_sequences as s (prefix, last_value)
      select substring(ticket_code from '^(.*)-\\d{1,9}$'), max(substring(ticket_code from '-(\\d{1,9})$')::int)
      from tickets where ticket_code ~ '^.+-\\d{1,9}$' group by 1
      on conflict (prefix) do update set last_value = greatest(s.last_value, excluded.last_value)`.execute(
      this.db,
    );
  }

  /**
   * The kept SIGAF 1.x reminders that have a ticket and an operator here become reminders
   * (status_reminder 0: pending; otherwise done); the others stay only in legacy_alerts.
   */
  async remindersFromAlerts(): Promise<number> {
    const r = await sql`
      insert into reminders (ticket_id, user_id, created_by, due_at, comment, state, done_at, legacy_id, created_at, updated_at)
      select a.ticket_id, a.user_id, a.user_id, coalesce(a.remind_at, a.created_at), a.comment,
        case when a.status_reminder = 0 then 'pending' else 'done' end, case when a.status_reminder = 0 then null else a.updated_at end,
        a.id, a.created_at, a.updated_at
      from legacy_alerts a
      where a.ticket_id is not null and a.user_id is not null
      on conflict (legacy_id) do nothing`.execute(this.db);
    return Number(r.numAffectedRows ?? 0);
  }

  /** A course tutor (`course_tutors`) becomes the tutor of the classrooms that course's enrolments use, in that course. */
  async assignTutor(courseId: number, userId: number): Promise<number[]> {
    const r = await sql<{ classroom_id: number }>`
      insert into classroom_tutors (course_id, classroom_id, user_id)
      select distinct ${courseId}::int, classroom_id, ${userId}::int from course_registered_users where course_id = ${courseId} and classroom_id is not null
      on conflict do nothing returning classroom_id`.execute(this.db);
    return r.rows.map((x) => x.classroom_id);
  }

  /** Each student's imported figures as the first point of their progress history, at the enrolment's last update (migration 0035). */
  firstProgressPoints(courseId: number): Promise<number> {
    return appendProgressHistory(this.db, { courseId, all: true, at: 'updated_at' });
  }

  /** The effectiveness report's kept days are computed again: the import wrote past attempts and history. */
  forgetKeptOutcomes(): Promise<void> {
    return new OutcomeRepository(this.db).forgetKept();
  }

  async count(table: string): Promise<number> {
    const r = await sql<{ n: number }>`select count(*)::int as n from ${ident(table)}`.execute(
      this.db,
    );
    return Number(r.rows[0]!.n);
  }
}
