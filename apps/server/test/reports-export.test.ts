import { computeDv, formatRut, TICKET_REPORT_SCOPE } from '@sigaf/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ticketKeys } from './data.js';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';
import { shownCell } from './workbook-cells.js';
import { pdfText } from './pdf-text.js';

/**
 * A hand-made course; every expected row below is written out from these facts.
 * Santiago is UTC-3 in March 2024.
 *
 *   José Pérez Soto (rut A), Aula Este, synced student, last access 10-03-2024 12:00
 *   María Núñez (rut B), Aula Oeste, synced student, never accessed
 *   Tomás Zúñiga (rut C), Aula Este, synced student, never accessed, no tickets
 *   T1 (José) created 09-03-2024 12:00, closed 11-03-2024 12:00 (2 days): phone, high, incoming,
 *      welcome, created and assigned to the operator; attempts 09-03 13:00 failure "No contesta",
 *      10-03 11:30 failure "Buzón de voz", 11-03 11:00 success "Confirmó asistencia".
 *   T2 (María) created 10-03-2024 10:00, open: e-mail, low, outgoing, problem, created by the
 *      administrator, unassigned, no attempts.
 */
let ctx: TestContext;
let admin: string;
let operator: { id: number; token: string; name: string };
let course: number;
let empty: number;
let este: number;
const rut: Record<'A' | 'B' | 'C', string> = { A: '', B: '', C: '' };
const label: Record<string, string> = {};
const T2_CREATED = '2024-03-10T13:00:00Z';

const get = (url: string, token = admin) => ctx.request({ method: 'GET', url, token });

async function workbook(url: string) {
  const res = await get(url);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toContain('spreadsheetml');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows: string[][] = [];
  ws.eachRow({ includeEmpty: true }, (row) => {
    const cells: string[] = [];
    for (let c = 1; c <= ws.columnCount; c++) cells.push(shownCell(row.getCell(c)));
    rows.push(cells);
  });
  return { rows, ws, disposition: String(res.headers['content-disposition']) };
}

async function pdf(url: string) {
  const res = await get(url);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  return { text: pdfText(res.rawPayload), disposition: String(res.headers['content-disposition']) };
}

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const op = await ctx.userWithRole('operator');
  const db = ctx.db;
  operator = {
    ...op,
    name: (
      await db.selectFrom('users').select('name').where('id', '=', op.id).executeTakeFirstOrThrow()
    ).name,
  };
  const adminId = (
    await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', TEST_ADMIN.email)
      .executeTakeFirstOrThrow()
  ).id;
  const k = await ticketKeys(db);
  for (const [table, id] of [
    ['status_tickets', k.open],
    ['status_tickets', k.closed],
    ['type_tickets', k.phone],
    ['type_tickets', k.email],
    ['priority_tickets', k.high],
    ['priority_tickets', k.low],
    ['source_tickets', k.incoming],
    ['source_tickets', k.outgoing],
    ['motive_tickets', k.welcome],
    ['motive_tickets', k.problem],
    ['status_detail_tickets', k.success],
    ['status_detail_tickets', k.failure],
  ] as const) {
    label[`${table}:${id}`] = (
      await db
        .selectFrom(table)
        .select('description')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).description;
  }
  const platform = await db.selectFrom('platforms').select('id').executeTakeFirstOrThrow();
  const category = (
    await db
      .insertInto('categories')
      .values({ description: 'Informes', category_code: 'REPO', platform_id: platform.id })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  course = (
    await db
      .insertInto('courses')
      .values({ description: 'Curso Ñandú', category_id: category })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  empty = (
    await db
      .insertInto('courses')
      .values({ description: 'Curso sin datos', category_id: category })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  este = (
    await db
      .insertInto('classrooms')
      .values({ description: 'Aula Este' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const oeste = (
    await db
      .insertInto('classrooms')
      .values({ description: 'Aula Oeste' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const student = (
    await db
      .selectFrom('profiles')
      .select('id')
      .where('key', '=', 'student')
      .executeTakeFirstOrThrow()
  ).id;
  const people: Array<
    ['A' | 'B' | 'C', number, string, string, string | null, number, string | null]
  > = [
    ['A', 17_100_000, 'José', 'Pérez', 'Soto', este, '2024-03-10T15:00:00Z'],
    ['B', 17_200_000, 'María', 'Núñez', null, oeste, null],
    ['C', 17_300_000, 'Tomás', 'Zúñiga', null, este, null],
  ];
  const enr: Record<string, number> = {};
  for (const [key, body, name, last_name, mother_last_name, classroom_id, last] of people) {
    rut[key] = formatRut({ body, dv: computeDv(body) });
    const r = (
      await db
        .insertInto('registered_users')
        .values({
          rut: rut[key],
          name,
          last_name,
          mother_last_name,
          email: `${key.toLowerCase()}@correo.test`,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    enr[key] = (
      await db
        .insertInto('course_registered_users')
        .values({
          course_id: course,
          registered_user_id: r,
          profile_id: student,
          classroom_id,
          is_sincronized: true,
          last_access_registered_moodle: last,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }
  // The withdrawal activity: Tomás has it in progress, María finished it (withdrawn); José has no row.
  const resignSection = (
    await db
      .selectFrom('sections')
      .select('id')
      .where('key', '=', 'resign')
      .executeTakeFirstOrThrow()
  ).id;
  const resign = (
    await db
      .insertInto('activities')
      .values({
        description: 'Renuncia',
        course_id: course,
        section_id: resignSection,
        weighing: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  await db
    .insertInto('activity_course_users')
    .values([
      {
        course_registered_user_id: enr.C!,
        activity_id: resign,
        status_moodle: 'En curso',
        completion_state: 0,
        grade: null,
      },
      {
        course_registered_user_id: enr.B!,
        activity_id: resign,
        status_moodle: 'Finalizado',
        completion_state: 1,
        grade: null,
      },
    ])
    .execute();
  const t1 = (
    await db
      .insertInto('tickets')
      .values({
        course_registered_user_id: enr.A!,
        course_id: course,
        ticket_code: 'REPO-CUR-0001',
        created_at: '2024-03-09T15:00:00Z',
        closing_date: '2024-03-11T15:00:00Z',
        status_ticket_id: k.closed,
        type_ticket_id: k.phone,
        priority_ticket_id: k.high,
        source_ticket_id: k.incoming,
        motive_ticket_id: k.welcome,
        user_create_id: operator.id,
        user_assigned_id: operator.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  await db
    .insertInto('tickets')
    .values({
      course_registered_user_id: enr.B!,
      course_id: course,
      ticket_code: 'REPO-CUR-0002',
      created_at: T2_CREATED,
      closing_date: null,
      status_ticket_id: k.open,
      type_ticket_id: k.email,
      priority_ticket_id: k.low,
      source_ticket_id: k.outgoing,
      motive_ticket_id: k.problem,
      user_create_id: adminId,
      user_assigned_id: null,
    })
    .execute();
  const attempts: Array<[string, number, string]> = [
    ['2024-03-09T16:00:00Z', k.failure, 'No contesta'],
    ['2024-03-10T14:30:00Z', k.failure, 'Buzón de voz'],
    ['2024-03-11T14:00:00Z', k.success, 'Confirmó asistencia'],
  ];
  for (const [created_at, status_detail_ticket_id, comment] of attempts) {
    await db
      .insertInto('ticket_details')
      .values({
        ticket_id: t1,
        user_created_id: operator.id,
        status_detail_ticket_id,
        comment,
        created_at,
      })
      .execute();
  }
});
afterAll(() => ctx.close());

describe('ticket history workbook', () => {
  it('has the title, the groups, the header and one row per ticket with its attempts', async () => {
    const k = await ticketKeys(ctx.db);
    const adminName = (
      await ctx.db
        .selectFrom('users')
        .select('name')
        .where('email', '=', TEST_ADMIN.email)
        .executeTakeFirstOrThrow()
    ).name;
    const { rows, ws, disposition } = await workbook(
      `/api/v2/reports/courses/${course}/excel-download`,
    );
    expect(disposition).toContain(`filename*=UTF-8''reporte-historico-tickets-curso-nandu-`);
    expect(rows[0]![0]).toBe('REPORTE HISTÓRICO DE TICKET CURSO CURSO ÑANDÚ');
    expect([...new Set(rows[1])]).toEqual([
      'IDENTIFICADOR',
      'ANTECEDENTES DE ALUMNO',
      'ANTECEDENTES DE TICKET',
      'ANTECEDENTES DE INTENTOS DE CONTACTO',
    ]);
    expect(ws.getCell('C2').isMerged).toBe(true);
    expect(rows[2]).toEqual([
      'N°',
      'CÓDIGO TICKET',
      'RUT',
      'NOMBRE',
      'APELLIDOS',
      'AULA',
      'ÚLTIMO ACCESO',
      'ORIGEN',
      'TIPO',
      'MOTIVO',
      'PRIORIDAD',
      'CREADOR',
      'OPERADOR',
      'ESTADO',
      'FECHA DE CREACIÓN',
      'FECHA DE CIERRE',
      'ANTIGÜEDAD',
      'ESTADO DE ÚLTIMO INTENTO',
      'COMENTARIO',
      'FECHA DE REGISTRO',
      'OPERADOR',
      'HISTÓRICO DE CONTACTOS',
    ]);
    expect(rows).toHaveLength(5);
    const failure = label[`status_detail_tickets:${k.failure}`];
    expect(rows[3]).toEqual([
      '1',
      'REPO-CUR-0001',
      rut.A,
      'José',
      'Pérez Soto',
      'Aula Este',
      '10-03-2024 12:00',
      label[`source_tickets:${k.incoming}`],
      label[`type_tickets:${k.phone}`],
      label[`motive_tickets:${k.welcome}`],
      label[`priority_tickets:${k.high}`],
      operator.name,
      operator.name,
      label[`status_tickets:${k.closed}`],
      '09-03-2024 12:00',
      '11-03-2024 12:00',
      '2 días',
      label[`status_detail_tickets:${k.success}`],
      'Confirmó asistencia',
      '11-03-2024 11:00',
      operator.name,
      `1. 09-03-2024 13:00 - ${failure} - ${operator.name}: No contesta\n2. 10-03-2024 11:30 - ${failure} - ${operator.name}: Buzón de voz`,
    ]);
    const ageDays = Math.floor((Date.now() - Date.parse(T2_CREATED)) / 86_400_000);
    expect(rows[4]).toEqual([
      '2',
      'REPO-CUR-0002',
      rut.B,
      'María',
      'Núñez',
      'Aula Oeste',
      'Nunca',
      label[`source_tickets:${k.outgoing}`],
      label[`type_tickets:${k.email}`],
      label[`motive_tickets:${k.problem}`],
      label[`priority_tickets:${k.low}`],
      adminName,
      '',
      label[`status_tickets:${k.open}`],
      '10-03-2024 10:00',
      '',
      `${ageDays} días`,
      '',
      '',
      '',
      '',
      '',
    ]);
    // Typed cells: dates are dates in Chilean time (sortable, filterable), numbers are numbers.
    const created = ws.getRow(4).getCell(15);
    expect([created.type, created.numFmt, (created.value as Date).toISOString()]).toEqual([
      ExcelJS.ValueType.Date,
      'dd-mm-yyyy hh:mm',
      '2024-03-09T12:00:00.000Z',
    ]);
    expect([ws.getRow(4).getCell(7).type, ws.getRow(5).getCell(7).value]).toEqual([
      ExcelJS.ValueType.Date,
      'Nunca',
    ]);
    expect([ws.getRow(4).getCell(1).type, ws.getRow(4).getCell(1).value]).toEqual([
      ExcelJS.ValueType.Number,
      1,
    ]);
  });

  it('is announced first by `excel` (the envelope, with where to get it), then sent by `excel-download`', async () => {
    const res = await get(`/api/v2/reports/courses/${course}/excel`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const body = res.json();
    expect(body).toMatchObject({ success: true, statusCode: 200 });
    expect(body._data.filename).toMatch(
      /^reporte-historico-tickets-curso-nandu-\d{2}-\d{2}-\d{4}\.xlsx$/,
    );
    expect(body._data.href).toBe(`/api/v2/reports/courses/${course}/excel-download`); // a path from the server root without PUBLIC_URL
  });

  it('is just the headings for a course without tickets', async () => {
    const { rows } = await workbook(`/api/v2/reports/courses/${empty}/excel-download`);
    expect(rows).toHaveLength(3);
    expect(rows[0]![0]).toBe('REPORTE HISTÓRICO DE TICKET CURSO CURSO SIN DATOS');
  });
});

describe('roster workbook', () => {
  it('lists every enrolment by classroom and surname', async () => {
    const { rows, disposition } = await workbook(`/api/v2/reports/courses/${course}/roster`);
    expect(disposition).toContain('nomina-curso-nandu-');
    expect(rows[0]![0]).toBe('NÓMINA CURSO CURSO ÑANDÚ');
    expect(rows[1]).toEqual([
      'N°',
      'RUT',
      'NOMBRE',
      'APELLIDO PATERNO',
      'APELLIDO MATERNO',
      'E-MAIL',
      'AULA',
      'ROL',
      'CURSO',
      'ÚLTIMO ACCESO',
      'ESTADO',
    ]);
    expect(rows.slice(2)).toEqual([
      [
        '1',
        rut.A,
        'José',
        'Pérez',
        'Soto',
        'a@correo.test',
        'Aula Este',
        'Estudiante',
        'Curso Ñandú',
        '10-03-2024 12:00',
        'Activo',
      ],
      [
        '2',
        rut.C,
        'Tomás',
        'Zúñiga',
        '',
        'c@correo.test',
        'Aula Este',
        'Estudiante',
        'Curso Ñandú',
        'Nunca',
        'Renuncia en curso',
      ],
      [
        '3',
        rut.B,
        'María',
        'Núñez',
        '',
        'b@correo.test',
        'Aula Oeste',
        'Estudiante',
        'Curso Ñandú',
        'Nunca',
        'Renunciado',
      ],
    ]);
  });

  it('of one classroom, by description or id', async () => {
    const byName = await workbook(
      `/api/v2/reports/courses/${course}/roster?classroom=${encodeURIComponent('aula oeste')}`,
    );
    expect(byName.rows[0]![0]).toBe('NÓMINA CURSO CURSO ÑANDÚ — AULA OESTE');
    expect(byName.rows.slice(2).map((r) => r[1])).toEqual([rut.B]);
    const byId = await workbook(`/api/v2/reports/courses/${course}/roster?classroom=${este}`);
    expect(byId.rows.slice(2).map((r) => r[1])).toEqual([rut.A, rut.C]);
  });
});

describe('tickets per student', () => {
  it('answers each student with tickets and their numbers, then the tickets and attempts of one', async () => {
    const res = await get(`/api/v2/reports/courses/${course}/student-tickets`);
    expect(res.statusCode).toBe(200);
    const { students, meta } = res.json()._data as {
      meta: unknown;
      students: Array<{
        enrolmentId: number;
        rut: string;
        name: string;
        classroom: string;
        tickets: number;
        openTickets: number;
      }>;
    };
    expect(meta).toEqual({ page: 1, perPage: 10, total: 2, lastPage: 1 });
    expect(students.map((s) => [s.rut, s.name, s.classroom, s.tickets, s.openTickets])).toEqual([
      [rut.B, 'María', 'Aula Oeste', 1, 1],
      [rut.A, 'José', 'Aula Este', 1, 0],
    ]);
    const of = async (enrolmentId: number) =>
      (await get(`/api/v2/reports/courses/${course}/student-tickets/${enrolmentId}`)).json()
        ._data as Array<{
        ticketCode: string;
        closed: boolean;
        attempts: Array<{ comment: string; operator: string }>;
      }>;
    const [maria, jose] = [await of(students[0]!.enrolmentId), await of(students[1]!.enrolmentId)];
    expect(maria.map((t) => [t.ticketCode, t.closed, t.attempts.length])).toEqual([
      ['REPO-CUR-0002', false, 0],
    ]);
    expect(jose[0]!.closed).toBe(true);
    expect(jose[0]!.attempts.map((a) => a.comment)).toEqual([
      'No contesta',
      'Buzón de voz',
      'Confirmó asistencia',
    ]);
    expect(jose[0]!.attempts.every((a) => a.operator === operator.name)).toBe(true);
    const none = await get(`/api/v2/reports/courses/${course}/student-tickets/2147480000`);
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe('El alumno no tiene tickets en este curso.');
  });

  it('finds students by name (any case) or by the digits of their RUT', async () => {
    const students = async (query: string) =>
      (await get(`/api/v2/reports/courses/${course}/student-tickets?${query}`)).json()._data
        .students as Array<{ rut: string }>;
    expect((await students(`search=${encodeURIComponent('PÉREZ')}`)).map((s) => s.rut)).toEqual([
      rut.A,
    ]);
    expect((await students(`search=${rut.B.replace(/[^0-9kK]/g, '')}`)).map((s) => s.rut)).toEqual([
      rut.B,
    ]);
  });

  it('answers a page at a time, in name order, with the number of students', async () => {
    const page = async (n: number) =>
      (await get(`/api/v2/reports/courses/${course}/student-tickets?page=${n}&perPage=1`)).json()
        ._data as { students: Array<{ rut: string }>; meta: unknown };
    const [first, second, third] = [await page(1), await page(2), await page(3)];
    expect(first.students.map((s) => s.rut)).toEqual([rut.B]);
    expect(second.students.map((s) => s.rut)).toEqual([rut.A]);
    expect(second.meta).toEqual({ page: 2, perPage: 1, total: 2, lastPage: 2 });
    expect(third).toEqual({ students: [], meta: { page: 3, perPage: 1, total: 2, lastPage: 2 } });
    const tooMany = await get(`/api/v2/reports/courses/${course}/student-tickets?perPage=101`);
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().success).toBe(false);
  });

  it('a page names the same students as the documents, at once after a change: a new name, a ticket closed, an enrolment of another profile', async () => {
    const db = ctx.db;
    const k = await ticketKeys(db);
    type Row = {
      enrolmentId: number;
      rut: string;
      name: string;
      lastName: string;
      classroom: string | null;
      tickets: number;
      openTickets: number;
    };
    const list = async (query = '') =>
      (await get(`/api/v2/reports/courses/${course}/student-tickets?perPage=100${query}`)).json()
        ._data.students as Row[];
    const before = await list();
    const jose = before.find((r) => r.rut === rut.A)!;
    const maria = before.find((r) => r.rut === rut.B)!;
    const person = (
      await db
        .selectFrom('course_registered_users')
        .select('registered_user_id')
        .where('id', '=', jose.enrolmentId)
        .executeTakeFirstOrThrow()
    ).registered_user_id;
    const mariaTicket = (
      await db
        .selectFrom('tickets')
        .select('id')
        .where('course_registered_user_id', '=', maria.enrolmentId)
        .executeTakeFirstOrThrow()
    ).id;
    // A tutor's enrolment with a ticket (not one of the cached student rows).
    const tutorProfile = (
      await db
        .selectFrom('profiles')
        .select('id')
        .where('key', '=', 'tutor')
        .executeTakeFirstOrThrow()
    ).id;
    const tutorRut = formatRut({ body: 17_400_000, dv: computeDv(17_400_000) });
    const tutorPerson = (
      await db
        .insertInto('registered_users')
        .values({ rut: tutorRut, name: 'Ágata', last_name: 'Alba' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const tutorEnrolment = (
      await db
        .insertInto('course_registered_users')
        .values({
          course_id: course,
          registered_user_id: tutorPerson,
          profile_id: tutorProfile,
          classroom_id: este,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const tutorTicket = (
      await db
        .insertInto('tickets')
        .values({
          course_registered_user_id: tutorEnrolment,
          course_id: course,
          ticket_code: 'REPO-CUR-0090',
          status_ticket_id: k.open,
          type_ticket_id: k.phone,
          priority_ticket_id: k.high,
          source_ticket_id: k.incoming,
          motive_ticket_id: k.welcome,
          user_create_id: operator.id,
          user_assigned_id: operator.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db
      .updateTable('registered_users')
      .set({ name: 'Josué' })
      .where('id', '=', person)
      .execute();
    await db
      .updateTable('tickets')
      .set({ status_ticket_id: k.closed, closing_date: new Date() })
      .where('id', '=', mariaTicket)
      .execute();
    try {
      const after = await list();
      expect(after.map((r) => [r.rut, r.name, r.classroom, r.tickets, r.openTickets])).toEqual([
        [tutorRut, 'Ágata', 'Aula Este', 1, 1],
        [maria.rut, 'María', 'Aula Oeste', 1, 0],
        [jose.rut, 'Josué', 'Aula Este', 1, 0],
      ]);
      // The documents (the whole report) list the same students in the same order.
      const { rows } = await workbook(`/api/v2/reports/courses/${course}/student-tickets/excel`);
      const documentRuts = [
        ...new Set(
          rows
            .slice(2)
            .map((r) => r[0])
            .filter((v) => typeof v === 'string' && /\d-[\dkK]$/.test(v)),
        ),
      ];
      expect(documentRuts).toEqual(after.map((r) => r.rut));
      // Found by the new name, folded, and by the RUT's digits.
      expect((await list(`&search=${encodeURIComponent('JOSUÉ')}`)).map((r) => r.rut)).toEqual([
        jose.rut,
      ]);
      expect((await list(`&search=${encodeURIComponent('agata')}`)).map((r) => r.rut)).toEqual([
        tutorRut,
      ]);
      expect(
        (await list(`&search=${tutorRut.replace(/[^0-9kK]/g, '').slice(0, 6)}`)).map((r) => r.rut),
      ).toEqual([tutorRut]);
    } finally {
      await db.deleteFrom('tickets').where('id', '=', tutorTicket).execute();
      await db.deleteFrom('course_registered_users').where('id', '=', tutorEnrolment).execute();
      await db.deleteFrom('registered_users').where('id', '=', tutorPerson).execute();
      await db
        .updateTable('registered_users')
        .set({ name: 'José' })
        .where('id', '=', person)
        .execute();
      await db
        .updateTable('tickets')
        .set({ status_ticket_id: k.open, closing_date: null })
        .where('id', '=', mariaTicket)
        .execute();
    }
    expect((await list()).map((r) => [r.rut, r.name, r.tickets, r.openTickets])).toEqual(
      before.map((r) => [r.rut, r.name, r.tickets, r.openTickets]),
    );
  });

  it('exports one row per attempt, a ticket without attempts as one row', async () => {
    const k = await ticketKeys(ctx.db);
    const { rows } = await workbook(`/api/v2/reports/courses/${course}/student-tickets/excel`);
    expect(rows[0]![0]).toBe('TICKETS POR ALUMNO CURSO CURSO ÑANDÚ');
    expect(rows[1]).toEqual([
      'RUT',
      'NOMBRE',
      'APELLIDOS',
      'AULA',
      'CÓDIGO TICKET',
      'ESTADO',
      'MOTIVO',
      'TIPO',
      'PRIORIDAD',
      'OPERADOR',
      'FECHA DE CREACIÓN',
      'FECHA DE CIERRE',
      'N° INTENTO',
      'FECHA INTENTO',
      'RESULTADO',
      'REGISTRADO POR',
      'COMENTARIO',
    ]);
    const failure = label[`status_detail_tickets:${k.failure}`];
    const t1 = [
      rut.A,
      'José',
      'Pérez Soto',
      'Aula Este',
      'REPO-CUR-0001',
      label[`status_tickets:${k.closed}`],
      label[`motive_tickets:${k.welcome}`],
      label[`type_tickets:${k.phone}`],
      label[`priority_tickets:${k.high}`],
      operator.name,
      '09-03-2024 12:00',
      '11-03-2024 12:00',
    ];
    expect(rows.slice(2)).toEqual([
      [
        rut.B,
        'María',
        'Núñez',
        'Aula Oeste',
        'REPO-CUR-0002',
        label[`status_tickets:${k.open}`],
        label[`motive_tickets:${k.problem}`],
        label[`type_tickets:${k.email}`],
        label[`priority_tickets:${k.low}`],
        '',
        '10-03-2024 10:00',
        '',
        '0',
        '',
        '',
        '',
        '',
      ],
      [...t1, '1', '09-03-2024 13:00', failure, operator.name, 'No contesta'],
      [...t1, '2', '10-03-2024 11:30', failure, operator.name, 'Buzón de voz'],
      [
        ...t1,
        '3',
        '11-03-2024 11:00',
        label[`status_detail_tickets:${k.success}`],
        operator.name,
        'Confirmó asistencia',
      ],
    ]);
  });
});

/** A sentence as a PDF writes it, wrapped anywhere between its words. */
const words = (sentence: string) =>
  new RegExp(
    sentence
      .split(' ')
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('\\s+'),
  );

describe('report PDFs', () => {
  it('ticket report of a day: data card, charts and the operators table', async () => {
    const k = await ticketKeys(ctx.db);
    const { text, disposition } = await pdf(
      `/api/v2/reports/courses/${course}/pdf/ticket/10-03-2024`,
    );
    expect(disposition).toContain('reporte-ticket-curso-nandu-10-03-2024.pdf');
    expect(text).toContain('Reporte de ticket');
    expect(text).toContain('Informes · Curso Ñandú · 10-03-2024');
    // Created that day: T2; up to the end of it: T1 and T2, none closed by then.
    expect(text).toMatch(
      /Tickets nuevos \+1 Tickets totales 2 Tickets abiertos 2 Tickets cerrados 0/,
    );
    // The cards are the course at the day's end, the charts the day's tickets: the PDF says so.
    expect(text).toMatch(words(TICKET_REPORT_SCOPE.day));
    expect(text).toContain('Ticket según motivo');
    expect(text).toContain(label[`motive_tickets:${k.problem}`]);
    // That day the operator logged one attempt, on T1 (closed now).
    expect(text).toContain(`Producción del día`);
    expect(text).toMatch(new RegExp(`${operator.name} 1 1 1`));
    expect(text).toContain('Página 1 de');
  });

  it('tickets per student: every student, ticket and attempt', async () => {
    const { text } = await pdf(`/api/v2/reports/courses/${course}/pdf/student-tickets`);
    expect(text).toContain('Reporte de tickets por alumno');
    expect(text).toMatch(/Alumnos con tickets 2 Tickets 2 Intentos de contacto 3/);
    for (const s of [
      `${rut.A} · José Pérez Soto · Aula Este`,
      `${rut.B} · María Núñez · Aula Oeste`,
      'REPO-CUR-0001',
      'REPO-CUR-0002',
      'No contesta',
      'Buzón de voz',
      'Confirmó asistencia',
    ]) {
      expect(text).toContain(s);
    }
  });

  it('follow-up of a classroom: card, status, progress and roster', async () => {
    const { text, disposition } = await pdf(
      `/api/v2/reports/courses/${course}/pdf/follow-student/${encodeURIComponent('Aula Este')}`,
    );
    expect(disposition).toContain('seguimiento-curso-nandu-aula-este-');
    expect(text).toContain('Reporte de seguimiento de alumnos');
    // Aula Este: José (accessed) and Tomás (never, withdrawing): 2 synced, none withdrawn; the card's
    // labels are the screens' and its states add up to the chart's (docs/development/domain.md#figures).
    expect(text).toMatch(
      /Matrícula inicial 2 Renuncias 0 Han ingresado 1 Nunca han\s+ingresado 1 Sin sincronizar 0/,
    );
    expect(text).toMatch(/Alumnos según estado Activo 1 Renuncia en curso 1 Renunciado 0/);
    expect(text).toContain('Alumnos según estado');
    expect(text).toContain('Activo');
    expect(text).toContain('José Pérez Soto');
    expect(text).toContain('Tomás Zúñiga');
    expect(text).not.toContain('María');
  });
});

describe('a range of days', () => {
  it('the screen reads the range figures in one answer, in order whatever the order picked', async () => {
    const res = await get(`/api/v2/reports/courses/${course}/range?from=10-03-2024&to=09-03-2024`);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json()._data;
    expect([r.from, r.to]).toEqual(['2024-03-09', '2024-03-10']);
    // Created in the range: T1 and T2; none closed by the end of 10-03.
    expect(r.card).toEqual({ created: 2, total: 2, open: 2, closed: 0 });
    // The operator's attempts of 09-03 and 10-03, both on T1 (closed now).
    expect(r.operators.table).toEqual([
      { operatorId: operator.id, operator: operator.name, tickets: 1, closed: 1, attempts: 2 },
    ]);
    const status = r.charts.status.chartData.datasets[0].data as number[];
    expect(status.reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('the history workbook holds the tickets created in the range, and says it', async () => {
    const { rows, disposition } = await workbook(
      `/api/v2/reports/courses/${course}/excel-download?from=10-03-2024&to=11-03-2024`,
    );
    expect(disposition).toContain(
      "filename*=UTF-8''reporte-historico-tickets-curso-nandu-10-03-2024-al-11-03-2024.xlsx",
    );
    expect(rows[0]![0]).toBe(
      'REPORTE HISTÓRICO DE TICKET CURSO CURSO ÑANDÚ · 10-03-2024 AL 11-03-2024',
    );
    expect(rows.slice(3).map((r) => r[1])).toEqual(['REPO-CUR-0002']);
    const one = await workbook(
      `/api/v2/reports/courses/${course}/excel-download?from=09-03-2024&to=09-03-2024`,
    );
    expect(one.disposition).toContain('reporte-historico-tickets-curso-nandu-09-03-2024.xlsx');
    expect(one.rows.slice(3).map((r) => r[1])).toEqual(['REPO-CUR-0001']);
    const announced = (
      await get(`/api/v2/reports/courses/${course}/excel?from=10-03-2024&to=11-03-2024`)
    ).json()._data;
    expect(announced).toEqual({
      filename: 'reporte-historico-tickets-curso-nandu-10-03-2024-al-11-03-2024.xlsx',
      href: `/api/v2/reports/courses/${course}/excel-download?from=2024-03-10&to=2024-03-11`,
    });
  });

  it('the PDF covers the whole range and says it', async () => {
    const { text, disposition } = await pdf(
      `/api/v2/reports/courses/${course}/pdf/ticket?from=09-03-2024&to=11-03-2024`,
    );
    expect(disposition).toContain('reporte-ticket-curso-nandu-09-03-2024-al-11-03-2024.pdf');
    expect(text).toContain('Informes · Curso Ñandú · 09-03-2024 al 11-03-2024');
    // Created in the range: T1 and T2; by the end of 11-03 T1 is closed.
    expect(text).toMatch(
      /Tickets nuevos \+2 Tickets totales 2 Tickets abiertos 1 Tickets cerrados 1/,
    );
    expect(text).toContain('Producción del período');
    expect(text).toMatch(words(TICKET_REPORT_SCOPE.range));
    // The operator's three attempts on T1.
    expect(text).toMatch(new RegExp(`${operator.name} 1 1 3`));
  });

  it('half a range is a 422', async () => {
    for (const url of [
      `/api/v2/reports/courses/${course}/excel-download?from=09-03-2024`,
      `/api/v2/reports/courses/${course}/excel?to=09-03-2024`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(422);
      expect(res.json().message).toMatch(/[a-záéíóúñ]/i);
    }
    expect((await get(`/api/v2/reports/courses/${course}/range?from=09-03-2024`)).statusCode).toBe(
      422,
    );
    expect(
      (await get(`/api/v2/reports/courses/${course}/pdf/ticket?from=x&to=09-03-2024`)).statusCode,
    ).toBe(422);
  });
});

describe('errors and access', () => {
  it('bad input is a 4xx with a Spanish message, never a 500', async () => {
    const cases: Array<[string, number, string]> = [
      ['/api/v2/reports/courses/2147480000/excel', 404, 'El curso no existe.'],
      ['/api/v2/reports/courses/2147480000/excel-download', 404, 'El curso no existe.'],
      ['/api/v2/reports/courses/abc/roster', 422, ''],
      [
        `/api/v2/reports/courses/${course}/roster?classroom=Aula%20Fantasma`,
        404,
        'El aula no existe.',
      ],
      [`/api/v2/reports/courses/${course}/pdf/ticket/31-02-2024`, 422, ''],
      [
        `/api/v2/reports/courses/${course}/pdf/follow-student/Aula%20Fantasma`,
        404,
        'El aula no existe.',
      ],
      [`/api/v2/reports/courses/${course}/student-tickets?search=${'x'.repeat(101)}`, 422, ''],
      ['/api/v2/reports/courses/2147480000/pdf/student-tickets', 404, 'El curso no existe.'],
    ];
    for (const [url, status, message] of cases) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(status);
      const body = res.json();
      expect(body).toMatchObject({ success: false, statusCode: status });
      if (message) expect(body.message).toBe(message);
      else expect(body.message).toMatch(/[a-záéíóúñ]/i);
    }
  });

  it('only administrators and developers get the documents', async () => {
    expect((await get(`/api/v2/reports/courses/${course}/excel`, operator.token)).statusCode).toBe(
      403,
    );
    expect(
      (await get(`/api/v2/reports/courses/${course}/excel-download`, operator.token)).statusCode,
    ).toBe(403);
    expect(
      (await get(`/api/v2/reports/courses/${course}/pdf/student-tickets`, operator.token))
        .statusCode,
    ).toBe(403);
    const dev = await ctx.userWithRole('developer');
    expect((await get(`/api/v2/reports/courses/${course}/roster`, dev.token)).statusCode).toBe(200);
  });
});
