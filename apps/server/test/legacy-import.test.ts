import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type mysql from 'mysql2/promise';
import bcrypt from 'bcryptjs';
import { sql } from 'kysely';
import { decryptSecret } from '../src/lib/crypto.js';
import {
  importLegacy,
  LegacyImportRefused,
  type ImportReport,
} from '../src/modules/legacy-import/service.js';
import { reportMarkdown } from '../src/modules/legacy-import/report.js';
import { readFirstAccessFile } from '../src/first-access.js';
import { spawnServer } from './server-process.js';
import { createTestContext, type TestContext } from './helpers.js';
import { TEST_ADMIN } from './fixtures.js';
import { expectKeptTablesComputed } from './kept/scratch.js';
import { mariadbAvailable, startMariaDb, type MariaDbServer } from './mariadb.js';
import { createLegacyDatabase, fillLegacyDatabase, type LegacyPlan } from './legacy/generate.js';

const STUDENTS = 40;
const available = mariadbAvailable();

let server: MariaDbServer;
let legacy: mysql.Connection;
let plan: LegacyPlan;
let ctx: TestContext;
let report: ImportReport;
let dryReport: ImportReport;
let admin: string;

const TABLES = [
  'users',
  'categories',
  'courses',
  'activities',
  'registered_users',
  'course_registered_users',
  'activity_course_users',
  'tickets',
  'ticket_details',
  'classroom_tutors',
  'legacy_alerts',
  'ticket_code_sequences',
  'motive_tickets',
] as const;

async function counts(c: TestContext) {
  const out: Record<string, number> = {};
  for (const t of TABLES)
    out[t] = Number(
      (await sql<{ n: number }>`select count(*)::int as n from ${sql.id(t)}`.execute(c.db)).rows[0]!
        .n,
    );
  return out;
}

async function legacyValue(query: string, params: unknown[] = []): Promise<mysql.RowDataPacket[]> {
  const [rows] = await legacy.query<mysql.RowDataPacket[]>(query, params);
  return rows;
}

const run = (
  c: TestContext,
  from: string,
  extra: Partial<Parameters<typeof importLegacy>[1]> = {},
) => importLegacy(c.db, { from, appSecret: c.config.APP_SECRET, batchSize: 7, ...extra });

type CliResult = { code?: number; stdout: string; stderr: string };

/** `npm run import:legacy -- <args>` with an embedded target in `dir`/data (created only when the import opens it). */
function cliIn(dir: string, extra: NodeJS.ProcessEnv = {}) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'silent',
    DATA_DIR: path.join(dir, 'data'),
    APP_SECRET: 'cli-secret-cli-secret-cli-secret',
    ...extra,
  };
  delete env.DATABASE_URL;
  const root = path.resolve(import.meta.dirname, '../../..');
  return (args: string[]): Promise<CliResult> =>
    promisify(execFile)('npm', ['run', '--silent', 'import:legacy', '--', ...args], {
      cwd: root,
      env,
      timeout: 120_000,
    }).catch((e: CliResult) => e);
}

describe.skipIf(!available)('import of a SIGAF 1.x database (real MariaDB)', () => {
  beforeAll(async () => {
    // Users and passwords are checked: a wrong password is refused as on a real server.
    server = await startMariaDb({ grants: true });
    legacy = await server.connect();
    await createLegacyDatabase(legacy, 'sigaf', { drift: true });
    plan = await fillLegacyDatabase(legacy, { students: STUDENTS, drift: true });
    // A read-only account with a password, as the guide asks for (the CLI cases use it).
    await legacy.query(
      `CREATE USER 'lector'@'%' IDENTIFIED BY 'correcta'; GRANT SELECT ON sigaf.* TO 'lector'@'%'; GRANT SELECT ON sigaf_cli_missing.* TO 'lector'@'%'`,
    );
    ctx = await createTestContext();
    admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  }, 180_000);

  afterAll(async () => {
    await ctx?.close();
    await legacy?.end();
    await server?.stop();
  });

  it('a dry run reads and validates everything and writes nothing', async () => {
    const before = await counts(ctx);
    const dry = await run(ctx, `${server.url}/sigaf`, { dryRun: true });
    dryReport = dry;
    expect(dry.dryRun).toBe(true);
    expect(dry.tables.tickets!.read).toBeGreaterThan(STUDENTS);
    expect(dry.anomalies.length).toBeGreaterThan(5);
    expect(await counts(ctx)).toEqual(before);
  });

  it('a run failing midway leaves the target as it was', async () => {
    const before = await counts(ctx);
    await expect(
      run(ctx, `${server.url}/sigaf`, {
        onProgress: (p) => {
          if (p.table === 'tickets' && p.done > 20) throw new Error('connection lost');
        },
      }),
    ).rejects.toThrow('connection lost');
    expect(await counts(ctx)).toEqual(before);
  });

  it('imports every table: counts per table, with progress', async () => {
    const progress: string[] = [];
    report = await run(ctx, `${server.url}/sigaf`, {
      onProgress: (p) => progress.push(`${p.table} ${p.done}/${p.total}`),
    });
    expect(progress).toContain(
      `tickets ${STUDENTS + STUDENTS / 2 + 3}/${STUDENTS + STUDENTS / 2 + 3}`,
    );
    const c = await counts(ctx);
    // One seeded administrator, the account that holds id 2, and the three legacy staff.
    expect(c.users).toBe(5);
    expect(c.categories).toBe(2);
    expect(c.courses).toBe(2);
    expect(c.activities).toBe(4);
    // Students: all but the duplicate RUT (merged); the invalid RUT is kept.
    expect(c.registered_users).toBe(STUDENTS + 1);
    // Enrolments: course 1 (students + 2) and course 2 (students/2); the duplicate RUT's enrolment
    // merges into its twin's, the planted duplicate enrolment and the orphan are not rows of their own.
    expect(c.course_registered_users).toBe(STUDENTS + 2 + STUDENTS / 2 - 1);
    expect(c.activity_course_users).toBe(STUDENTS * 2 + 1);
    expect(c.tickets).toBe(STUDENTS + STUDENTS / 2 + 2);
    expect(c.ticket_details).toBe(STUDENTS * 2 + STUDENTS / 2);
    expect(c.legacy_alerts).toBe(1);
    expect(c.classroom_tutors).toBeGreaterThan(0);
    for (const t of ['tickets', 'ticket_details', 'registered_users', 'course_registered_users']) {
      const legacyRows = Number((await legacyValue(`SELECT COUNT(*) AS n FROM ${t}`))[0]!.n);
      const a = report.anomalies.filter(
        (x) => x.table === t && ['orphan', 'duplicate_rut', 'duplicate_enrolment'].includes(x.kind),
      ).length;
      expect(report.tables[t], t).toEqual({ read: legacyRows, imported: legacyRows - a });
    }
    // The unknown motive became a new value, and the mapping says so.
    const motive = report.catalogues.motive_tickets!.find(
      (m) => m.description === plan.unknownMotive,
    )!;
    expect(motive.created).toBe(true);
    // The dry run and the failed run before gave back the ids they used: the same mapping.
    expect(report.catalogues).toEqual(dryReport.catalogues);
    const known = report.catalogues.status_tickets!.find((m) => m.description === 'Abierto')!;
    expect(known.created).toBe(false);
    expect(
      await ctx.db
        .selectFrom('status_tickets')
        .select('key')
        .where('id', '=', known.targetId)
        .executeTakeFirst(),
    ).toEqual({ key: 'open' });
  });

  it('after the import every kept figure equals the figure computed from the imported data', async () => {
    const courses = (await ctx.db.selectFrom('courses').select('id').orderBy('id').execute()).map(
      (c) => c.id,
    );
    await expectKeptTablesComputed(
      ctx.db,
      courses,
      () => ctx.app.services.figuresKeeper.settle(),
      'the legacy import',
    );
    // Efectividad's kept days are forgotten: the keeper computes them again from the imported data.
    const kept = await sql<{ n: number }>`select count(*)::int as n from outcome_kept_days`.execute(
      ctx.db,
    );
    expect(kept.rows[0]!.n).toBe(0);
  });

  it('spot checks field by field: a student, a course, a ticket and its attempts', async () => {
    const s = await ctx.db
      .selectFrom('registered_users')
      .selectAll()
      .where('id', '=', 7)
      .executeTakeFirstOrThrow();
    const [ls] = await legacyValue('SELECT * FROM registered_users WHERE id = 7');
    expect(s.rut).toMatch(/^\d{1,2}\.\d{3}\.\d{3}-[\dK]$/);
    expect(s.rut.replace(/\./g, '')).toBe(String(ls!.rut).replace(/\./g, '').toUpperCase());
    expect({
      name: s.name,
      last_name: s.last_name,
      mother_last_name: s.mother_last_name,
      email: s.email,
      city: s.city,
      address: s.address,
    }).toEqual({
      name: ls!.name,
      last_name: ls!.last_name,
      mother_last_name: ls!.mother_last_name,
      email: ls!.email,
      city: 'Ñuñoa',
      address: 'Pasaje Los Ñandúes 12',
    });

    const course = await ctx.db
      .selectFrom('courses')
      .selectAll()
      .where('id', '=', plan.courseId)
      .executeTakeFirstOrThrow();
    expect(course.description).toBe('Álgebra para Docentes');
    expect(course.password_encrypted).not.toContain(plan.mailboxPassword);
    expect(decryptSecret(course.password_encrypted!, ctx.config.APP_SECRET)).toBe(
      plan.mailboxPassword,
    );

    const t = await ctx.db
      .selectFrom('tickets')
      .selectAll()
      .where('id', '=', 4)
      .executeTakeFirstOrThrow();
    const [lt] = await legacyValue('SELECT * FROM tickets WHERE id = 4');
    expect(t.ticket_code).toBe(lt!.ticket_code);
    // 2024-05-05 09:04 in Santiago (UTC-4 in May) is 13:04 UTC.
    expect(t.created_at.toISOString()).toBe('2024-05-05T13:04:00.000Z');
    expect(t.closing_date?.toISOString()).toBe('2024-06-01T22:00:00.000Z');
    const creator = await ctx.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', t.user_create_id)
      .executeTakeFirstOrThrow();
    expect(creator.email).toBe('operadora@legacy.cl');
    expect(t.user_assigned_id).toBe(t.user_create_id);
    const status = await ctx.db
      .selectFrom('status_tickets')
      .select('description')
      .where('id', '=', t.status_ticket_id)
      .executeTakeFirstOrThrow();
    expect(status.description).toBe('Cerrado');
    const details = await ctx.db
      .selectFrom('ticket_details')
      .select(['comment', 'created_at'])
      .where('ticket_id', '=', 4)
      .orderBy('id')
      .execute();
    expect(details.map((d) => d.comment)).toEqual([
      'Llamado sin respuesta, se deja mensaje a Matías',
      'Contactado: se compromete a ponerse al día con la evaluación',
    ]);
    // The repeated hour of the April 2024 change: read as one of its two instants.
    const dst = await ctx.db
      .selectFrom('tickets')
      .select('created_at')
      .where('id', '=', plan.dstTicketId)
      .executeTakeFirstOrThrow();
    expect(['2024-04-07T02:30:00.000Z', '2024-04-07T03:30:00.000Z']).toContain(
      dst.created_at.toISOString(),
    );

    const e = await ctx.db
      .selectFrom('course_registered_users')
      .selectAll()
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    expect(e.last_access_text).toBe('2024-02-11 12:01:00');
    expect(e.last_access_registered_moodle?.toISOString()).toBe('2024-02-11T15:01:00.000Z');
    expect(e.is_sincronized).toBe(true);
    const never = await ctx.db
      .selectFrom('course_registered_users')
      .selectAll()
      .where('registered_user_id', '=', 10)
      .where('course_id', '=', 1)
      .executeTakeFirstOrThrow();
    expect([never.last_access_text, never.last_access_registered_moodle]).toEqual(['Nunca', null]);

    const alert = await ctx.db.selectFrom('legacy_alerts').selectAll().executeTakeFirstOrThrow();
    expect(alert.comment).toBe('Volver a llamar a José');
    expect(alert.remind_at?.toISOString()).toBe('2024-06-03T13:30:00.000Z');
    // It is a pending reminder on its ticket, for its operator.
    const reminder = await ctx.db
      .selectFrom('reminders')
      .selectAll()
      .where('legacy_id', '=', alert.id)
      .executeTakeFirstOrThrow();
    expect(reminder).toMatchObject({
      ticket_id: alert.ticket_id,
      user_id: alert.user_id,
      comment: 'Volver a llamar a José',
      state: 'pending',
    });
    expect(reminder.due_at.toISOString()).toBe('2024-06-03T13:30:00.000Z');
  });

  it('the report lists every planted anomaly with its source ids', async () => {
    const has = (table: string, kind: string, ids: number[]) =>
      expect(
        report.anomalies.some(
          (a) => a.table === table && a.kind === kind && ids.every((id, i) => a.ids[i] === id),
        ),
        `${table} ${kind} ${ids.join(',')}`,
      ).toBe(true);
    has('registered_users', 'duplicate_rut', [plan.duplicateRut[1], plan.duplicateRut[0]]);
    has('registered_users', 'invalid_rut', [plan.invalidRutStudentId]);
    has('course_registered_users', 'duplicate_enrolment', [
      plan.duplicateEnrolment[1],
      plan.duplicateEnrolment[0],
    ]);
    has('course_registered_users', 'orphan', [plan.orphanEnrolmentId]);
    has('tickets', 'orphan', [plan.orphanTicketId]);
    has('ticket_details', 'orphan', [plan.orphanDetailId]);
    has('tickets', 'zero_date', [plan.zeroDateTicketId]);
    has('activity_course_users', 'text_in_number', [plan.textGradeResultId]);
    const invalid = await ctx.db
      .selectFrom('registered_users')
      .select('rut')
      .where('id', '=', plan.invalidRutStudentId)
      .executeTakeFirstOrThrow();
    expect(invalid.rut).toBe('12.345.678-0');
    // The duplicate's enrolment moved to the kept student; its tickets to the kept enrolment.
    const moved = await ctx.db
      .selectFrom('tickets')
      .select('course_registered_user_id')
      .where('id', '=', plan.zeroDateTicketId)
      .executeTakeFirstOrThrow();
    expect(moved.course_registered_user_id).toBeGreaterThan(0);
    const zero = await ctx.db
      .selectFrom('tickets')
      .select(['closing_date', 'created_at'])
      .where('id', '=', plan.zeroDateTicketId)
      .executeTakeFirstOrThrow();
    expect(zero.closing_date).toBeNull();
    expect(zero.created_at.toISOString()).toBe('2024-05-02T14:00:00.000Z');
    const md = reportMarkdown(report);
    expect(md).toContain(
      `| tickets | ${plan.orphanTicketId}, 88888 | Fila huérfana (le falta la fila a la que pertenece) | no se importa: su inscripción no existe; sus intentos también se informan |`,
    );
    expect(md).toContain('Consulta académica');
    // For an administrator: kinds and rules in Spanish, Chilean times, what to do next.
    expect(md).toMatch(
      /^Inicio \d{2}-\d{2}-\d{4} \d{2}:\d{2}, fin \d{2}-\d{2}-\d{4} \d{2}:\d{2} \(hora de Chile\)\.$/m,
    );
    expect(md).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    for (const kind of ['missing_user', 'orphan', 'duplicate_rut', 'invalid_rut', 'zero_date'])
      expect(md).not.toContain(kind);
    expect(md).toContain('- RUT repetido: 1');
    expect(md).not.toMatch(/not imported|merged into|read as no date|does not exist/);
    const next = md.slice(md.indexOf('## Qué hacer ahora'), md.indexOf('## Filas por tabla'));
    expect(next).toContain('Inicie sesión con una cuenta de administrador de SIGAF 1.x');
    expect(next).toContain(`estudiante ${plan.invalidRutStudentId} (12.345.678-0)`);
    expect(next).toContain('Sincronice cada curso con Moodle');
  });

  it("dashboard, daily report and follow-up of an imported course give the legacy database's numbers", async () => {
    const course = plan.courseId;
    // Tickets per status (dashboard).
    const chart = await ctx.request({
      method: 'GET',
      url: `/api/v2/tickets/${course}/status-chart`,
      token: admin,
    });
    const got = chart.json()._data.chartData as {
      labels: string[];
      datasets: Array<{ data: number[] }>;
    };
    const byStatus = await legacyValue(
      `SELECT s.description, COUNT(*) AS n FROM tickets t JOIN course_registered_users e ON e.id = t.course_registered_user_id
      JOIN status_tickets s ON s.id = t.status_ticket_id WHERE e.course_id = ? GROUP BY s.description`,
      [course],
    );
    for (const r of byStatus)
      expect(
        got.datasets[0]!.data[got.labels.indexOf(String(r.description))],
        String(r.description),
      ).toBe(Number(r.n));

    // Tickets created on a day (daily report).
    const [day] = await legacyValue(
      `SELECT COUNT(*) AS n FROM tickets t JOIN course_registered_users e ON e.id = t.course_registered_user_id
      WHERE e.course_id = ? AND DATE(t.created_at) = '2024-05-03'`,
      [course],
    );
    const card = await ctx.request({
      method: 'GET',
      url: `/api/v2/reports/courses/${course}/data-card/03-05-2024`,
      token: admin,
    });
    expect(card.statusCode, card.body).toBe(200);
    expect(card.json()._data.created).toBe(Number(day!.n));

    // Follow-up card: synchronised students (one per person: the lowest enrolment per normalised RUT),
    // resigned = finished the Renuncia activity, active = has a last access, inactive = never.
    const [f] = await legacyValue(
      `
      WITH e AS (
        SELECT e.*, ROW_NUMBER() OVER (PARTITION BY REPLACE(REPLACE(UPPER(r.rut), '.', ''), '-', '') ORDER BY e.id) AS k
        FROM course_registered_users e JOIN registered_users r ON r.id = e.registered_user_id
        WHERE e.course_id = ?),
      p AS (
        SELECT e.id, e.last_access_registered_moodle AS access,
          EXISTS (SELECT 1 FROM activity_course_users acu JOIN activities a ON a.id = acu.activity_id JOIN sections s ON s.id = a.section_id
                  WHERE acu.course_registered_user_id = e.id AND s.description = 'Renuncia' AND acu.status_moodle = 'Finalizado') AS resigned
        FROM e WHERE e.k = 1 AND e.is_sincronized = 1 AND e.profile_id = 1)
      SELECT SUM(resigned) AS resign, SUM(NOT resigned AND access IS NOT NULL AND access <> 'Nunca') AS active,
        SUM(NOT resigned AND (access IS NULL OR access = 'Nunca')) AS inactive, COUNT(*) AS total,
        (SELECT COUNT(*) FROM e WHERE e.k = 1 AND NOT e.is_sincronized AND e.profile_id = 1) AS unsynced FROM p`,
      [course],
    );
    const follow = await ctx.request({
      method: 'GET',
      url: `/api/v2/course-registered-users/${course}/follow-student-card`,
      token: admin,
    });
    expect(follow.statusCode, follow.body).toBe(200);
    // The matrícula counts the students not synchronised too, in no other figure (the domain rules' table of figures).
    expect(follow.json()._data).toEqual({
      resign: Number(f!.resign),
      active: Number(f!.active),
      inactive: Number(f!.inactive),
      total: Number(f!.total) + Number(f!.unsynced),
      unsynced: Number(f!.unsynced),
    });
  });

  it('staff sign in with their legacy bcrypt password once; it becomes argon2id', async () => {
    const staff = plan.staff[1]!;
    const before = await ctx.db
      .selectFrom('users')
      .select('password')
      .where('email', '=', staff.email)
      .executeTakeFirstOrThrow();
    expect(before.password).toMatch(/^\$2y\$10\$/);
    const bad = await ctx.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: staff.email, password: 'otra-clave' },
    });
    expect(bad.statusCode).toBe(401);
    await ctx.login(staff.email, staff.password);
    const after = await ctx.db
      .selectFrom('users')
      .select('password')
      .where('email', '=', staff.email)
      .executeTakeFirstOrThrow();
    expect(after.password).toMatch(/^\$argon2id\$/);
    await ctx.login(staff.email, staff.password);
  });

  it('ticket codes continue after the highest imported number of each prefix', async () => {
    const enrolment = await ctx.db
      .selectFrom('course_registered_users')
      .select('id')
      .where('course_id', '=', plan.courseId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const ids = async (
      t:
        | 'type_tickets'
        | 'status_tickets'
        | 'priority_tickets'
        | 'source_tickets'
        | 'motive_tickets',
    ) => (await ctx.db.selectFrom(t).select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v2/tickets',
      token: admin,
      payload: {
        course_registered_user_id: enrolment.id,
        type_ticket_id: await ids('type_tickets'),
        status_ticket_id: await ids('status_tickets'),
        priority_ticket_id: await ids('priority_tickets'),
        source_ticket_id: await ids('source_tickets'),
        motive_ticket_id: await ids('motive_tickets'),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()._data.properties.ticketCode).toBe(
      `${plan.highestCode.prefix}-${String(plan.highestCode.n + 1).padStart(4, '0')}`,
    );
  });

  it('refuses a target that already has data', async () => {
    await expect(run(ctx, `${server.url}/sigaf`)).rejects.toBeInstanceOf(LegacyImportRefused);
  });

  it('a source without a table SIGAF 1.x always had is refused before anything is written', async () => {
    await createLegacyDatabase(legacy, 'sigaf_missing', { drift: true });
    await fillLegacyDatabase(legacy, { students: 4, drift: true });
    await legacy.query('DROP TABLE sigaf_missing.ticket_details');
    const other = await createTestContext();
    try {
      const before = await counts(other);
      const err = await run(other, `${server.url}/sigaf_missing`).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LegacyImportRefused);
      expect((err as Error).message).toContain('ticket_details');
      expect(await counts(other)).toEqual(before);
      // Once the table is back the same target takes the import: nothing was left behind.
      await legacy.query('CREATE TABLE sigaf_missing.ticket_details LIKE sigaf.ticket_details');
      const r = await run(other, `${server.url}/sigaf_missing`);
      expect(r.tables.tickets!.imported).toBeGreaterThan(4);
    } finally {
      await other.close();
    }
  });

  it('a database without the drift column imports, every enrolment taken as synchronised (reported)', async () => {
    await createLegacyDatabase(legacy, 'sigaf_nodrift', { drift: false });
    await fillLegacyDatabase(legacy, { students: 8, drift: false });
    // A table added in a later version of SIGAF 1.x may be missing: a note, not an error.
    await legacy.query('DROP TABLE sigaf_nodrift.course_tutors');
    // The initial administrator's e-mail is also a SIGAF 1.x account: the person keeps the legacy password.
    const legacyAdminPassword = 'Clave-Vieja-Admin-9';
    const hash = (await bcrypt.hash(legacyAdminPassword, 10)).replace(/^\$2b\$/, '$2y$');
    await legacy.query(
      `INSERT INTO sigaf_nodrift.users (id, rut, name, mobile, email, password, is_first_login, role_id, created_at, updated_at)
      SELECT 10, '11.111.111-1', 'Ana Legacy', '+56911111111', ?, ?, 1, id, '2024-01-02 10:00:00', '2024-01-02 10:00:00' FROM sigaf_nodrift.roles WHERE description = 'Administrador'`,
      [TEST_ADMIN.email.toUpperCase(), hash],
    );
    // Moodle's last access as SIGAF 1.x wrote it: the time elapsed at its last synchronisation.
    await legacy.query(
      `UPDATE sigaf_nodrift.course_registered_users SET last_access_registered_moodle = '3 días 4 horas', updated_at = '2024-06-10 12:00:00' WHERE id = 1`,
    );
    await legacy.query(
      `UPDATE sigaf_nodrift.course_registered_users SET last_access_registered_moodle = '5 horas 10 minutos', updated_at = '2024-06-10 12:00:00' WHERE id = 2`,
    );
    const other = await createTestContext();
    try {
      const r = await run(other, `${server.url}/sigaf_nodrift`);
      expect(r.notes).toContain(
        'La tabla course_tutors no existe en el origen: nada que importar.',
      );

      // The legacy password signs in (and is upgraded); the initial one no longer does.
      expect(r.legacyPasswordKept).toEqual([TEST_ADMIN.email]);
      expect(
        r.notes.some(
          (n) => n.includes(TEST_ADMIN.email) && n.includes('conserva su contraseña de SIGAF 1.x'),
        ),
      ).toBe(true);
      const old = await other.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
      });
      expect(old.statusCode).toBe(401);
      await other.login(TEST_ADMIN.email, legacyAdminPassword);

      // Relative last accesses become approximate dates counted back from updated_at (Santiago, UTC-4 in June).
      const access = await other.db
        .selectFrom('course_registered_users')
        .select(['id', 'last_access_registered_moodle', 'last_access_text'])
        .where('id', 'in', [1, 2])
        .orderBy('id')
        .execute();
      expect(
        access.map((a) => [
          a.id,
          a.last_access_registered_moodle?.toISOString(),
          a.last_access_text,
        ]),
      ).toEqual([
        [1, '2024-06-07T12:00:00.000Z', '3 días 4 horas'],
        [2, '2024-06-10T10:50:00.000Z', '5 horas 10 minutos'],
      ]);
      expect(
        r.anomalies.filter(
          (a) => a.table === 'course_registered_users' && a.kind === 'unreadable_date',
        ),
      ).toEqual([]);
      expect(
        r.notes.some(
          (n) =>
            n.startsWith('course_registered_users: 2 últimos accesos') && n.includes('aproximadas'),
        ),
      ).toBe(true);
      expect(
        r.anomalies.some(
          (a) => a.kind === 'missing_drift_column' && a.table === 'course_registered_users',
        ),
      ).toBe(true);
      const notSynced = await other.db
        .selectFrom('course_registered_users')
        .select('id')
        .where('is_sincronized', '=', false)
        .execute();
      expect(notSynced).toEqual([]);
      expect(r.tables.course_registered_users!.imported).toBeGreaterThan(8);
    } finally {
      await other.close();
    }
  });

  it('npm run import:legacy: a wrong password, an unreachable server, an unknown database or a missing required table is one Spanish line, exit code 1, the target untouched', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-legacy-cli-'));
    const cli = cliIn(dir);
    try {
      // The source is checked first, so the target (DATA_DIR) is never opened. This server checks
      // passwords; the source without ticket_details is otherwise a complete SIGAF 1.x schema.
      const setup = await server.connect();
      try {
        await createLegacyDatabase(setup, 'sigaf_cli_missing', { drift: true });
        await setup.query('DROP TABLE sigaf_cli_missing.ticket_details');
      } finally {
        await setup.end();
      }
      const at = `127.0.0.1:${server.port}`;
      const failures: Array<[string, RegExp]> = [
        [
          `mysql://lector:incorrecta@${at}/sigaf`,
          new RegExp(
            `^El servidor de origen ${at.replace(/\./g, '\\.')} rechazó el usuario o la clave de --from\\.`,
          ),
        ],
        [
          `mysql://lector@${at}/sigaf`,
          /^El servidor de origen .* rechazó el usuario o la clave de --from\./,
        ],
        [
          `mysql://lector:correcta@${at}/mysql`,
          /^El usuario de --from no tiene acceso a la base de datos «mysql»/,
        ],
        [
          'mysql://root@127.0.0.1:1/sigaf',
          /^No se pudo conectar con el servidor de origen 127\.0\.0\.1:1/,
        ],
        [`${server.url}/no_existe`, /^La base de datos «no_existe» no existe/],
        [
          `mysql://lector:correcta@${at}/sigaf_cli_missing`,
          /^A la base de datos de origen le faltan tablas que SIGAF 1\.x siempre tuvo: ticket_details\. /,
        ],
      ];
      for (const [bad, message] of failures) {
        const r = await cli(['--from', bad]);
        expect(r.code, bad).toBe(1);
        // One line on stderr, nothing on stdout: no stack trace, no first administrator's password.
        expect(r.stderr.trimEnd().split('\n'), bad).toHaveLength(1);
        expect(r.stderr, bad).toMatch(message);
        expect(r.stderr, bad).toMatch(/No se modificó la base de datos de destino\.\n?$/);
        expect(r.stdout.trim(), bad).toBe('');
        expect(fs.existsSync(path.join(dir, 'data')), bad).toBe(false);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);

  it('npm run import:legacy: progress, summary and the report files; a second run is refused; no --merge', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-legacy-cli-'));
    const cli = cliIn(dir);
    const from = ['--from', `${server.url}/sigaf`];
    try {
      // The read-only account with the right password reads everything the import needs.
      const reader = ['--from', `mysql://lector:correcta@127.0.0.1:${server.port}/sigaf`];
      const dry = await cli([...reader, '--dry-run', '--report', path.join(dir, 'prueba')]);
      expect(dry.stdout).toContain('Simulación terminada: no se escribió nada.');
      expect(dry.stdout).toMatch(/tickets: \d+\/\d+ filas \(\d+ filas\/s\)/);
      expect(dry.stdout).toContain('Consulta académica → ');
      const json = JSON.parse(
        fs.readFileSync(path.join(dir, 'prueba.json'), 'utf8'),
      ) as ImportReport;
      expect(
        json.anomalies.some((a) => a.kind === 'duplicate_rut' && a.ids[0] === plan.duplicateRut[1]),
      ).toBe(true);
      expect(fs.readFileSync(path.join(dir, 'prueba.md'), 'utf8')).toContain(
        '## Observaciones (ids del origen)',
      );
      // A dry run leaves no one-time password behind (its administrator was undone).
      const firstAccess = path.join(dir, 'data', 'primer-acceso.txt');
      expect(fs.existsSync(firstAccess)).toBe(false);
      const real = await cli([...from, '--report', path.join(dir, 'informe')]);
      expect(real.stdout).toContain('Importación terminada.');
      // The initial administrator's one-time password: on the console, and in the same file
      // (0600) as after a first start, which the report names.
      const printed = /Administrador inicial: (\S+) \/ (\S+)/.exec(real.stdout)!;
      expect(printed).not.toBeNull();
      expect(fs.statSync(firstAccess).mode & 0o777).toBe(0o600);
      expect(readFirstAccessFile(path.join(dir, 'data'))).toEqual({
        email: printed[1],
        password: printed[2],
      });
      const realMd = fs.readFileSync(path.join(dir, 'informe.md'), 'utf8');
      expect(realMd).toContain(`administrador inicial ${printed[1]}`);
      expect(realMd).toContain(firstAccess);
      expect(realMd).not.toContain(printed[2]);
      // The real import gives the ids the dry run's report showed.
      const realJson = JSON.parse(
        fs.readFileSync(path.join(dir, 'informe.json'), 'utf8'),
      ) as ImportReport;
      expect(realJson.catalogues).toEqual(json.catalogues);
      expect(real.stdout).toMatch(/registered_users +leídas +\d+ +importadas +\d+/);
      const again = await cli([...from]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('ya tiene datos');
      const merge = await cli([...from, '--merge']);
      expect(merge.code).toBe(2);
      expect(merge.stderr).toContain('--merge no está disponible');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
  it('npm run import:legacy after a first start: the legacy administrator keeps their password and the one-time password file goes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-legacy-cli-'));
    const dataDir = path.join(dir, 'data');
    const env = {
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      APP_SECRET: 'cli-secret-cli-secret-cli-secret',
      ADMIN_EMAIL: 'admin@legacy.cl',
    };
    try {
      // The server's first start writes the file; the server is stopped before the import.
      const first = await spawnServer(env);
      await first.stop();
      const kept = readFirstAccessFile(dataDir);
      expect(kept?.email).toBe('admin@legacy.cl');
      const cli = cliIn(dir, { ADMIN_EMAIL: 'admin@legacy.cl' });
      const dry = await cli(['--from', `${server.url}/sigaf`, '--dry-run']);
      expect(dry.stdout).toContain('Simulación terminada');
      expect(readFirstAccessFile(dataDir)).toEqual(kept);
      const real = await cli([
        '--from',
        `${server.url}/sigaf`,
        '--report',
        path.join(dir, 'informe'),
      ]);
      expect(real.stdout).toContain(
        'La cuenta admin@legacy.cl ya existía aquí: conserva su contraseña de SIGAF 1.x',
      );
      expect(real.stdout).not.toContain('Administrador inicial');
      // The file held a password that no longer works: it is gone, and the report names none.
      expect(fs.existsSync(path.join(dataDir, 'primer-acceso.txt'))).toBe(false);
      const md = fs.readFileSync(path.join(dir, 'informe.md'), 'utf8');
      expect(md).not.toContain('primer-acceso.txt');
      expect(md).not.toContain('administrador inicial admin@legacy.cl');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
