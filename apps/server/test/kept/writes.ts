import { computeDv, formatRut } from '@sigaf/contract';
import fc from 'fast-check';
import { expect } from 'vitest';
import { backupDatabase, restoreDatabase } from '../../src/backup/backup.js';
import { MoodleSyncRepository } from '../../src/modules/moodle-sync/repository.js';
import type { TestContext } from '../helpers.js';
import type { ticketKeys } from '../data.js';

/**
 * The writes staff and synchronisations make, as data for fast-check: each names its rows by
 * numbers picked modulo what the database holds when it runs (so a sequence stays valid after a
 * restore or a delete). Staff writes go through the API; Moodle's through the sync's own
 * repository; late attempts, moved tickets and deletes with attempts straight to the tables, as
 * an import or another process makes them. A write the rules refuse (a ticket with attempts
 * deleted through the API) is a write too: nothing may change.
 */
export const KINDS = [
  'ticket',
  'save',
  'save operator',
  'close',
  'assign',
  'reassign',
  'delete',
  'attempt',
  'late attempt',
  'unattempt',
  'move ticket',
  'rename',
  'new rut',
  'classroom',
  'enrol',
  'unenrol',
  'import',
  'moodle',
  'activity',
  'settings',
  'backup',
  'restore',
] as const;
export type Kind = (typeof KINDS)[number];
export interface Write {
  kind: Kind;
  a: number;
  b: number;
  c: number;
}
/** Writes after which the workload table's at-risk column must be counted again. */
export const REASSIGNING: ReadonlySet<Kind> = new Set([
  'assign',
  'reassign',
  'save operator',
  'settings',
]);

/** The writes of a staffed day weigh more: tickets, attempts and Moodle's results. */
const WEIGHT: Partial<Record<Kind, number>> = {
  ticket: 4,
  attempt: 3,
  'late attempt': 2,
  moodle: 4,
  save: 2,
  'save operator': 2,
};
const n = fc.nat({ max: 1000 });
export const writeArb: fc.Arbitrary<Write> = fc.record({
  kind: fc.oneof(
    ...KINDS.map((kind) => ({ arbitrary: fc.constant(kind), weight: WEIGHT[kind] ?? 1 })),
  ),
  a: n,
  b: n,
  c: n,
});

const NAMES = ['Ñandú', 'José María', 'Ángela', 'Pía', 'Úrsula', 'Iñaki'];
const STATUS_TEXT = [null, '', 'En curso', 'Finalizado', 'in progress'];
const pick = <T>(list: readonly T[], i: number): T | undefined =>
  list.length ? list[i % list.length] : undefined;

export interface World {
  ctx: TestContext;
  admin: string;
  operators: number[];
  keys: Awaited<ReturnType<typeof ticketKeys>>;
  backup: string;
}

/** Applies one write; returns what the response said, for the test's messages. */
export async function apply(w: World, { kind, a, b, c }: Write): Promise<string> {
  const { ctx } = w;
  const db = ctx.db;
  const call = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const res = await ctx.request({ method, url, token: w.admin, payload });
    expect(res.statusCode, `${kind} ${method} ${url}: ${res.body}`).toBeLessThan(500);
    return `${res.statusCode}`;
  };
  const tickets = await db
    .selectFrom('tickets')
    .select(['id', 'course_id', 'version', 'status_ticket_id'])
    .orderBy('id')
    .execute();
  const enrolments = await db
    .selectFrom('course_registered_users')
    .select(['id', 'course_id', 'registered_user_id'])
    .orderBy('id')
    .execute();
  const ticket = pick(tickets, a);
  const operator = pick([...w.operators, null], c);
  const k = w.keys;
  switch (kind) {
    case 'ticket': {
      const e = pick(enrolments, a);
      if (!e) return 'no enrolment';
      return call('POST', '/api/v2/tickets', {
        course_registered_user_id: e.id,
        type_ticket_id: pick([k.phone, k.email], b),
        status_ticket_id: pick([k.open, k.open, k.closed], b),
        priority_ticket_id: pick([k.high, k.medium, k.low], c),
        source_ticket_id: pick([k.incoming, k.outgoing], a),
        motive_ticket_id: pick([k.welcome, k.problem], c),
        user_assigned_id: operator,
      });
    }
    case 'save':
      if (!ticket) return 'no ticket';
      return call('PUT', `/api/v2/tickets/${ticket.id}`, {
        version: ticket.version,
        status_ticket_id: ticket.status_ticket_id === k.open ? k.closed : k.open,
        priority_ticket_id: pick([k.high, k.medium, k.low], b),
      });
    case 'save operator':
      return ticket
        ? call('PUT', `/api/v2/tickets/${ticket.id}`, {
            version: ticket.version,
            user_assigned_id: operator,
          })
        : 'no ticket';
    case 'close':
    case 'assign': {
      const ids = [pick(tickets, a), pick(tickets, b)].flatMap((t) => (t ? [t.id] : []));
      if (!ids.length) return 'no ticket';
      return call(
        'POST',
        '/api/v2/tickets/bulk',
        kind === 'close'
          ? { ids, action: 'close' }
          : { ids, action: 'assign', user_assigned_id: pick(w.operators, c) },
      );
    }
    case 'reassign':
      if (!ticket) return 'no ticket';
      return call('POST', '/api/v2/agenda/reassign', {
        to_user_id: pick(w.operators, c),
        ticket_ids: [ticket.id],
      });
    case 'delete':
      if (!ticket) return 'no ticket';
      if (b % 2) return call('DELETE', `/api/v2/tickets/${ticket.id}`);
      await db.deleteFrom('tickets').where('id', '=', ticket.id).execute();
      return 'deleted with its attempts';
    case 'attempt':
      if (!ticket) return 'no ticket';
      return call('POST', '/api/v2/ticket-details', {
        ticket_id: ticket.id,
        status_detail_ticket_id: pick([k.success, k.failure], b),
        comment: 'Llamado',
      });
    case 'late attempt': {
      if (!ticket) return 'no ticket';
      const created = new Date(Date.now() - (b % 40) * 86_400_000 - (c % 24) * 3_600_000);
      await db
        .insertInto('ticket_details')
        .values({
          ticket_id: ticket.id,
          user_created_id: pick(w.operators, c)!,
          status_detail_ticket_id: k.failure,
          comment: 'Importado',
          created_at: created,
        })
        .execute();
      return `dated ${created.toISOString()}`;
    }
    case 'unattempt': {
      const attempt = pick(
        await db.selectFrom('ticket_details').select('id').orderBy('id').execute(),
        a,
      );
      return attempt ? call('DELETE', `/api/v2/ticket-details/${attempt.id}`) : 'no attempt';
    }
    case 'move ticket': {
      // To another student of its course, or (a data fix) of another course.
      const to = pick(
        enrolments.filter((e) => (e.course_id === ticket?.course_id) === (c % 2 === 0)),
        b,
      );
      if (!ticket || !to) return 'no ticket';
      await db
        .updateTable('tickets')
        .set({ course_registered_user_id: to.id, course_id: to.course_id })
        .where('id', '=', ticket.id)
        .execute();
      return `to enrolment ${to.id} of course ${to.course_id}`;
    }
    case 'rename':
    case 'new rut': {
      const student = pick(
        await db.selectFrom('registered_users').select('id').orderBy('id').execute(),
        a,
      );
      if (!student) return 'no student';
      const body = 30_000_000 + ((b * 1009 + c) % 1_000_000);
      const change =
        kind === 'rename'
          ? { name: pick(NAMES, b), mobile: c % 2 ? '' : '+56912345678' }
          : { rut: formatRut({ body, dv: computeDv(body) }) };
      return call('PUT', `/api/v2/registered-users/${student.id}/view-update`, change);
    }
    case 'classroom': {
      const e = pick(enrolments, a);
      const rooms = (await db.selectFrom('classrooms').select('id').orderBy('id').execute()).map(
        (r) => r.id,
      );
      const profiles = (await db.selectFrom('profiles').select('id').orderBy('id').execute()).map(
        (r) => r.id,
      );
      const profile = c % 3 ? {} : { profile_id: pick(profiles, b) };
      return e
        ? call('PUT', `/api/v2/course-registered-user/classroom/${e.id}`, {
            classroom_id: pick([...rooms, null], b),
            ...profile,
          })
        : 'no enrolment';
    }
    case 'enrol': {
      const courses = [...new Set(enrolments.map((e) => e.course_id))].sort((x, y) => x - y);
      const student = pick(
        [...new Set(enrolments.map((e) => e.registered_user_id))].sort((x, y) => x - y),
        a,
      );
      if (!student) return 'no student';
      return call('POST', '/api/v2/course-registered-users/view-store', {
        course_id: pick(courses, b),
        registered_user_id: student,
      });
    }
    case 'unenrol': {
      const e = pick(enrolments, a);
      return e ? call('DELETE', `/api/v2/course-registered-users/${e.id}`) : 'no enrolment';
    }
    case 'import': {
      // The enrolment file: a student of the file renamed (or new), enrolled in a course unsynchronised.
      const courses = [...new Set(enrolments.map((e) => e.course_id))].sort((x, y) => x - y);
      const students = await db
        .selectFrom('registered_users')
        .select('rut')
        .orderBy('id')
        .execute();
      const body = 31_000_000 + (b % 1000);
      const [digits, dv] = (c % 2 ? pick(students, a)?.rut : undefined)
        ?.replace(/\./g, '')
        .split('-') ?? [String(body), computeDv(body)];
      const csv = `${IMPORT_HEADER}\n${digits},${dv},${pick(NAMES, b)},Importado,,importado${b}@correo.test,,,,,,,,,\n`;
      return upload(w, { course_id: String(pick(courses, c)), confirm: '1' }, csv);
    }
    case 'moodle':
      return moodleResults(w, enrolments, a, b, c);
    case 'activity': {
      const activity = pick(
        await db.selectFrom('activities').select('id').orderBy('id').execute(),
        a,
      );
      if (!activity) return 'no activity';
      const section =
        pick(await db.selectFrom('sections').select('id').orderBy('id').execute(), b)?.id ?? null;
      const change = [
        { weighing: b % 3 ? 0 : 10 },
        { excluded_from_progress: b % 2 === 0 },
        { removed_at: b % 2 ? new Date() : null },
        { section_id: section },
      ][c % 4]!;
      await db.updateTable('activities').set(change).where('id', '=', activity.id).execute();
      return JSON.stringify(change);
    }
    case 'settings': {
      const course = pick(
        [...new Set(enrolments.map((e) => e.course_id))].sort((x, y) => x - y),
        a,
      );
      if (!course) return 'no course';
      return call('PUT', `/api/v2/agenda/courses/${course}/settings`, {
        contact_days: 1 + (b % 20),
        inactive_days: 1 + (c % 20),
        progress_percent: (b * c) % 101,
      });
    }
    case 'backup':
      await backupDatabase(db, w.backup);
      return 'backed up';
    case 'restore':
      await restoreDatabase(db, w.backup);
      return 'restored';
  }
}

const IMPORT_HEADER =
  'RUT,DV,Nombre,Paterno,Materno,Email,Dirección,Región,Teléfono,Celular,RBD,Colegio,Región colegio,Ciudad colegio,Fono colegio';

/** Posts the enrolment file (CSV) as the import screen does. */
async function upload(w: World, fields: Record<string, string>, csv: string): Promise<string> {
  const boundary = '----kept';
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="alumnos.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
  );
  const res = await w.ctx.request({
    method: 'POST',
    url: '/api/v2/registered-users/import',
    token: w.admin,
    payload: parts.join(''),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  expect(res.statusCode, res.body).toBeLessThan(500);
  return `${res.statusCode} ${JSON.stringify(res.json()._data?.summary)}`;
}

/**
 * Moodle's results for one student arriving, late or again, as the sync writes them (its
 * repository, in one transaction): the result on one activity inserted or updated, and the
 * enrolment confirmed with a last access (or none).
 */
async function moodleResults(
  w: World,
  enrolments: Array<{ id: number; course_id: number }>,
  a: number,
  b: number,
  c: number,
): Promise<string> {
  const repo = new MoodleSyncRepository(w.ctx.db);
  const e = pick(enrolments, a);
  if (!e) return 'no enrolment';
  const activity = pick(
    await w.ctx.db
      .selectFrom('activities')
      .select('id')
      .where('course_id', '=', e.course_id)
      .orderBy('id')
      .execute(),
    b,
  );
  const values = {
    status_moodle: pick(STATUS_TEXT, c) ?? null,
    qualification_moodle: null,
    completion_state: c % 5 === 4 ? null : c % 4,
    grade: b % 3 ? Math.round((b % 70) / 10 + 1) : null,
  };
  await w.ctx.db.transaction().execute(async (trx) => {
    await repo.lockCourse(trx, e.course_id);
    if (activity) {
      const [old] = await repo
        .results(trx, e.course_id, [e.id])
        .then((rows) => rows.filter((r) => r.activity_id === activity.id));
      if (old) await repo.updateResults(trx, [{ ...old, ...values }]);
      else
        await repo.insertResults(trx, [
          { activity_id: activity.id, course_registered_user_id: e.id, ...values },
        ]);
    }
    const row = await trx
      .selectFrom('course_registered_users')
      .selectAll()
      .where('id', '=', e.id)
      .executeTakeFirstOrThrow();
    const access = c % 3 ? new Date(Date.now() - (b % 15) * 86_400_000) : null;
    await repo.updateEnrolments(trx, [
      {
        id: e.id,
        last_access_registered_moodle: access,
        last_access_text: access ? null : 'Nunca',
        is_sincronized: a % 5 !== 0,
        moodle_suspended: b % 7 === 0,
        moodle_seen: true,
        final_qualification_moodle: row.final_qualification_moodle,
        status_moodle: row.status_moodle,
      },
    ]);
  });
  return `enrolment ${e.id}, activity ${activity?.id}: ${JSON.stringify(values)}`;
}
