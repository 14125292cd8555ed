import { computeDv, formatRut } from '@sigaf/contract';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoWorld,
  firstSyncDone,
  originalClient,
  type DemoWorld,
  type OriginalClient,
} from './client-contract/original-client.js';
import { ticketKeys } from './data.js';
import { pdfText as pdfStrings } from './pdf-text.js';

/**
 * One truth per figure (docs/development/domain.md#figures): on the demo and on a generated course
 * (students not yet synchronised, an at-risk mix, three classrooms), for an administrator, an
 * operator and a tutor, every place a figure appears gives the same number for the same course,
 * classroom, operator and day: our API's screens (Seguimiento's classroom buttons, card, charts and
 * table; Mi agenda and its workload table), the original client's answers, the PDF's text and the
 * workbooks' cells.
 */

let world: DemoWorld;
let admin: string;
let paula: { id: number; token: string };
let tutor: { id: number; token: string };
let genOperator: { id: number; token: string };
let original: OriginalClient;
let demoCourse: number;
let genCourse: number;
let tutorRooms: number[] = [];

const DAY = 86_400_000;

async function get(url: string, token = admin) {
  const res = await world.ctx.request({ method: 'GET', url, token });
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
  return res;
}
const data = async (url: string, token = admin) => (await get(url, token)).json()._data;

/** The text drawn in a PDF, a label wrapped over two lines read as one. */
const pdfText = (buf: Buffer) => pdfStrings(buf).replace(/\s+/g, ' ');

/** A workbook's rows as text, below its title and header (the first row whose first cell is `firstHeader`). */
async function sheet(url: string, firstHeader: string) {
  const res = await get(url);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows: string[][] = [];
  ws.eachRow((row) => {
    const cells: string[] = [];
    for (let c = 1; c <= ws.columnCount; c++) cells.push(row.getCell(c).text);
    rows.push(cells);
  });
  const at = rows.findIndex((r) => r[0] === firstHeader);
  expect(at, `${url}: header ${firstHeader}`).toBeGreaterThanOrEqual(0);
  const header = rows[at]!;
  return rows.slice(at + 1).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

const number = (text: string, label: string) => {
  const m = new RegExp(`${label} (\\d+)`).exec(text);
  expect(m, `"${label} N" in the PDF: ${text.slice(0, 500)}`).not.toBeNull();
  return Number(m![1]);
};

interface Student {
  id: number;
  synced: boolean;
  stage: number;
  lastAccess: string | null;
  progress: number | null;
}

/** Seguimiento's table of a classroom, whole (one page of up to 500), with filters. */
async function table(courseId: number, classroomId: number, token = admin, filters = '') {
  const d = await data(
    `/api/v2/follow-up/courses/${courseId}/students?classroom_id=${classroomId}&page=1&perPage=500${filters}`,
    token,
  );
  return {
    total: d.meta.total as number,
    rows: d.collections.map((c: { properties: Student }) => c.properties) as Student[],
  };
}

/**
 * Every place that shows a figure of one classroom, as `who` sees it, against the others. The
 * PDF and the roster workbook are administrators' (reports); the original client's answers are
 * asked as the original client asks them (the classroom's description in the path).
 */
async function checkClassroom(
  courseId: number,
  room: { id: number; description: string },
  token: string,
  reports: boolean,
) {
  const where = `course ${courseId}, ${room.description}`;
  const buttons = (
    await data(`/api/v2/follow-up/courses/${courseId}/classrooms`, token)
  ).collections.map((c: { properties: { id: number; students: number } }) => c.properties);
  const button = buttons.find((b: { id: number }) => b.id === room.id)!.students;
  const base = `/api/v2/course-registered-users/${courseId}/classrooms`;
  const card = await data(`${base}/${room.id}/follow-student-classroom`, token);
  const status: number[] = (await data(`${base}/${room.id}/status-user-classroom`, token)).chartData
    .datasets[0].data;
  const progress = (await data(`${base}/${room.id}/progress-classroom-chart`, token)).chartData;
  const all = await table(courseId, room.id, token);
  const unsynced = all.rows.filter((s) => !s.synced).length;
  const accessed = all.rows.filter((s) => s.synced && s.stage < 2 && s.lastAccess !== null).length;
  const never = all.rows.filter((s) => s.synced && s.stage < 2 && s.lastAccess === null).length;
  const perStage = [0, 1, 2].map(
    (stage) => all.rows.filter((s) => s.synced && s.stage === stage).length,
  );

  // Matrícula: the classroom's button, the card, the table.
  expect(card.total, `${where}: card total = classroom button`).toBe(button);
  expect(all.total, `${where}: table rows = classroom button`).toBe(button);
  expect(card.unsynced, `${where}: not synchronised`).toBe(unsynced);
  // The card and the status chart add up, and match the table's rows.
  expect(status, `${where}: status chart = table`).toEqual(perStage);
  expect(card.resign, `${where}: Renuncias = Renunciado`).toBe(status[2]);
  expect(card.active, `${where}: Han ingresado`).toBe(accessed);
  expect(card.inactive, `${where}: Nunca han ingresado`).toBe(never);
  expect(
    card.active + card.inactive,
    `${where}: ingresado + nunca = Activo + Renuncia en curso`,
  ).toBe(status[0]! + status[1]!);
  expect(card.total, `${where}: matrícula = chart + not synchronised`).toBe(
    status[0]! + status[1]! + status[2]! + card.unsynced,
  );
  // The table's state filter counts what the chart counts.
  const filtered = await Promise.all(
    ['active', 'resigning', 'resigned'].map(
      async (s) => (await table(courseId, room.id, token, `&status=${s}`)).total,
    ),
  );
  expect(filtered, `${where}: state filters = status chart`).toEqual(status);

  // The original client, asking by the classroom's description.
  const raw = (path: string) =>
    original.call(
      'GET',
      `/api/v2/course-registered-users/${courseId}/classrooms/${encodeURIComponent(room.description)}/${path}`,
    );
  const oCard = (await raw('follow-student-classroom')).body._data;
  expect(
    { resign: oCard.resign, active: oCard.active, inactive: oCard.inactive, total: oCard.total },
    `${where}: original client's card`,
  ).toEqual({
    resign: card.resign,
    active: card.active,
    inactive: card.inactive,
    total: card.total,
  });
  expect(
    (await raw('status-user-classroom')).body._data.chartData.datasets[0].data,
    `${where}: original client's status chart`,
  ).toEqual(status);
  expect(
    (await raw('progress-classroom-chart')).body._data.chartData,
    `${where}: original client's progress chart`,
  ).toEqual(progress);

  // The follow-up export: one row per student, its state the table's.
  const exported = await sheet(
    `/api/v2/follow-up/courses/${courseId}/students/export?classroom_id=${room.id}`,
    'RUT',
  );
  expect(exported.length, `${where}: export rows`).toBe(button);
  expect(
    exported.filter((r) => r.Estado === 'Sin sincronizar').length,
    `${where}: export, not synchronised`,
  ).toBe(unsynced);
  expect(
    ['Activo', 'Renuncia en curso', 'Renunciado'].map(
      (s) => exported.filter((r) => r.Estado === s).length,
    ),
    `${where}: export states`,
  ).toEqual(status);
  if (!reports) return;

  // The PDF: its cards, its status chart and its list.
  const pdfRes = await get(
    `/api/v2/reports/courses/${courseId}/pdf/follow-student/${encodeURIComponent(room.description)}`,
  );
  const text = pdfText(pdfRes.rawPayload);
  expect(number(text, 'Matrícula inicial'), `${where}: PDF matrícula`).toBe(card.total);
  expect(number(text, 'Renuncias'), `${where}: PDF renuncias`).toBe(card.resign);
  expect(number(text, 'Han ingresado'), `${where}: PDF han ingresado`).toBe(card.active);
  expect(number(text, 'Nunca han ingresado'), `${where}: PDF nunca han ingresado`).toBe(
    card.inactive,
  );
  expect(number(text, 'Sin sincronizar'), `${where}: PDF sin sincronizar`).toBe(card.unsynced);
  const chart = /Alumnos según estado Activo (\d+) Renuncia en curso (\d+) Renunciado (\d+)/.exec(
    text,
  );
  expect(chart, `${where}: PDF status chart`).not.toBeNull();
  expect(chart!.slice(1).map(Number), `${where}: PDF status chart`).toEqual(status);
  const list = text.slice(text.indexOf('Nómina del aula'));
  expect(all.rows.length).toBe(button);
  const ruts = await world.ctx.db
    .selectFrom('course_registered_users as e')
    .innerJoin('registered_users as r', 'r.id', 'e.registered_user_id')
    .select('r.rut')
    .where(
      'e.id',
      'in',
      all.rows.map((s) => s.id),
    )
    .execute();
  expect(ruts.filter((r) => list.includes(r.rut)).length, `${where}: PDF list`).toBe(button);

  // The roster workbook of the classroom: its students, each in the table's state.
  const roster = (
    await sheet(
      `/api/v2/reports/courses/${courseId}/roster?classroom=${encodeURIComponent(room.description)}`,
      'N°',
    )
  ).filter((r) => r.ROL === 'Estudiante');
  expect(roster.length, `${where}: roster students`).toBe(button);
  expect(
    roster.filter((r) => r.ESTADO === 'Sin sincronizar').length,
    `${where}: roster, not synchronised`,
  ).toBe(unsynced);
  expect(
    ['Activo', 'Renuncia en curso', 'Renunciado'].map(
      (s) => roster.filter((r) => r.ESTADO === s).length,
    ),
    `${where}: roster states`,
  ).toEqual(status);
}

/** The whole course's card (Estadística, ours and the original client's) against its classrooms. */
async function checkCourse(courseId: number, token: string) {
  const rooms = (
    await data(`/api/v2/follow-up/courses/${courseId}/classrooms`, token)
  ).collections.map((c: { properties: { students: number } }) => c.properties);
  const card = await data(`/api/v2/course-registered-users/${courseId}/follow-student-card`, token);
  const overview = await data(`/api/v2/dashboard/courses/${courseId}`, token);
  const oCard = (
    await original.call('GET', `/api/v2/course-registered-users/${courseId}/follow-student-card`)
  ).body._data;
  expect(overview.card).toEqual(card);
  expect(oCard.total).toBe(card.total);
  const all = await data(
    `/api/v2/follow-up/courses/${courseId}/students?page=1&perPage=500`,
    token,
  );
  const withoutRoom = all.collections.filter(
    (c: { properties: { classroomId: number | null } }) => c.properties.classroomId === null,
  ).length;
  expect(card.total, `course ${courseId}: card total = table`).toBe(all.meta.total);
  expect(card.total, `course ${courseId}: card total = classrooms`).toBe(
    rooms.reduce((n: number, r: { students: number }) => n + r.students, 0) + withoutRoom,
  );
  const status: number[] = (
    await data(`/api/v2/course-registered-users/${courseId}/status/count`, token)
  ).chartData.datasets[0].data;
  expect(card.total).toBe(status.reduce((a, b) => a + b, 0) + card.unsynced);
}

/** An operator's at-risk students: the workload table's column, and their agenda shown the same students. */
async function checkOperator(userId: number, token: string) {
  const workload = (await data('/api/v2/agenda/workload')).collections.map(
    (c: { properties: { userId: number; atRisk: number } }) => c.properties,
  );
  const row = workload.find((w: { userId: number }) => w.userId === userId);
  expect(row, `operator ${userId} in the workload table`).toBeDefined();
  const seenByAdmin = await data(
    `/api/v2/agenda/students?user_id=${userId}&own_open_tickets=true&page=1&perPage=100`,
  );
  const own = await data(`/api/v2/agenda/students?own_open_tickets=true&page=1&perPage=100`, token);
  expect(seenByAdmin.meta.total, `operator ${userId}: workload = their agenda filtered`).toBe(
    row.atRisk,
  );
  expect(own.meta.total, `operator ${userId}: workload = own agenda filtered`).toBe(row.atRisk);
  const whole = await data(`/api/v2/agenda/students?page=1&perPage=100`, token);
  expect(whole.meta.total).toBeGreaterThanOrEqual(row.atRisk);
  return { filtered: own, whole };
}

/** Each agenda row's progress, state and access are Seguimiento's for the same student. */
async function checkAgendaRows(
  rows: Array<{
    properties: {
      enrolmentId: number;
      courseId: number;
      progress: number | null;
      status: number;
      lastAccess: string | null;
    };
  }>,
  token: string,
) {
  for (const { properties: a } of rows) {
    const d = await data(`/api/v2/follow-up/enrolments/${a.enrolmentId}`, token);
    expect({
      progress: a.progress,
      stage: a.status,
      lastAccess: a.lastAccess,
      synced: true,
    }).toEqual({
      progress: d.student.progress,
      stage: d.student.stage,
      lastAccess: d.student.lastAccess,
      synced: d.student.synced,
    });
  }
}

/** A course of three classrooms: synchronised students in every state, students not synchronised, an operator's tickets and a tutor's classrooms. */
async function generatedCourse() {
  const db = world.ctx.db;
  const k = await ticketKeys(db);
  const category = (
    await db.selectFrom('categories').select('id').orderBy('id').executeTakeFirstOrThrow()
  ).id;
  const course = (
    await db
      .insertInto('courses')
      .values({ description: 'Curso Generado Cifras', category_id: category })
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
  const section = async (key: string) =>
    (await db.selectFrom('sections').select('id').where('key', '=', key).executeTakeFirstOrThrow())
      .id;
  const resign = (
    await db
      .insertInto('activities')
      .values({
        description: 'Renuncia',
        course_id: course,
        section_id: await section('resign'),
        weighing: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const survey = (
    await db
      .insertInto('activities')
      .values({
        description: 'Encuesta',
        course_id: course,
        section_id: await section('survey'),
        weighing: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const task = (
    await db
      .insertInto('activities')
      .values({
        description: 'Tarea 1',
        course_id: course,
        section_id: await section('formative'),
        weighing: 20,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const rooms: number[] = [];
  for (const name of ['Aula Cifra Norte', 'Aula Cifra Centro', 'Aula Cifra Sur']) {
    rooms.push(
      (
        await db
          .insertInto('classrooms')
          .values({ description: name })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  }
  // Per classroom: [synced, last access days ago (null: never), resign status, grades on survey and task].
  type Kind = [boolean, number | null, string | null, boolean];
  const kinds: Kind[] = [
    [true, 1, null, true], // active, up to date
    [true, 2, null, true],
    [true, null, null, false], // never accessed: at risk
    [true, 40, null, false], // inactive and behind: at risk
    [true, 3, 'En curso', false], // withdrawing: at risk
    [true, 5, 'Finalizado', false], // withdrawn
    [false, null, null, false], // not synchronised
    [false, null, null, false],
  ];
  const now = Date.now();
  const enrolments: Array<{ id: number; room: number; kind: number }> = [];
  let n = 0;
  for (const [r, room] of rooms.entries()) {
    // The last classroom has one student not synchronised fewer (classrooms of different sizes).
    const mine = r === 2 ? kinds.slice(0, 7) : kinds;
    for (const [i, [synced, days, resignStatus, graded]] of mine.entries()) {
      const body = 21_000_000 + n++;
      const reg = (
        await db
          .insertInto('registered_users')
          .values({
            rut: formatRut({ body, dv: computeDv(body) }),
            name: `Cifra${n}`,
            last_name: 'Prueba',
            email: `cifra${n}@correo.test`,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      const e = (
        await db
          .insertInto('course_registered_users')
          .values({
            course_id: course,
            registered_user_id: reg,
            profile_id: student,
            classroom_id: room,
            is_sincronized: synced,
            last_access_registered_moodle:
              days === null ? null : new Date(now - days * DAY).toISOString(),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      enrolments.push({ id: e, room, kind: i });
      if (!synced) continue;
      if (resignStatus)
        await db
          .insertInto('activity_course_users')
          .values({
            course_registered_user_id: e,
            activity_id: resign,
            status_moodle: resignStatus,
            completion_state: resignStatus === 'Finalizado' ? 1 : 0,
            grade: null,
          })
          .execute();
      if (graded) {
        await db
          .insertInto('activity_course_users')
          .values([
            {
              course_registered_user_id: e,
              activity_id: survey,
              status_moodle: 'Finalizado',
              completion_state: 1,
              grade: 7,
            },
            {
              course_registered_user_id: e,
              activity_id: task,
              status_moodle: 'Finalizado',
              completion_state: 1,
              grade: 6,
            },
          ])
          .execute();
      }
    }
  }
  // The generated operator: open tickets on at-risk students of two classrooms, one closed ticket on
  // another at-risk student, one open ticket on an up-to-date student; Paula one open ticket here too.
  let code = 0;
  const ticket = async (enrolment: number, user: number, open: boolean) =>
    db
      .insertInto('tickets')
      .values({
        course_registered_user_id: enrolment,
        course_id: course,
        ticket_code: `CIFRA-GEN-${String(++code).padStart(4, '0')}`,
        status_ticket_id: open ? k.open : k.closed,
        closing_date: open ? null : new Date().toISOString(),
        type_ticket_id: k.phone,
        priority_ticket_id: k.high,
        source_ticket_id: k.outgoing,
        motive_ticket_id: k.problem,
        user_create_id: user,
        user_assigned_id: user,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  const of = (room: number, kind: number) =>
    enrolments.find((e) => e.room === room && e.kind === kind)!.id;
  await ticket(of(rooms[0]!, 2), genOperator.id, true);
  await ticket(of(rooms[0]!, 3), genOperator.id, true);
  await ticket(of(rooms[1]!, 4), genOperator.id, true);
  await ticket(of(rooms[1]!, 2), genOperator.id, false);
  await ticket(of(rooms[2]!, 0), genOperator.id, true);
  await ticket(of(rooms[2]!, 3), paula.id, true);
  // Contacted yesterday: at risk, but not "without contact".
  const contacted = await ticket(of(rooms[2]!, 2), genOperator.id, true);
  await db
    .insertInto('ticket_details')
    .values({
      ticket_id: contacted.id,
      user_created_id: genOperator.id,
      status_detail_ticket_id: k.failure,
      comment: 'No contesta',
      created_at: new Date(now - DAY).toISOString(),
    })
    .execute();
  await db
    .insertInto('classroom_tutors')
    .values(
      rooms
        .slice(0, 2)
        .map((classroom_id) => ({ course_id: course, classroom_id, user_id: tutor.id })),
    )
    .execute();
  return { course, rooms };
}

beforeAll(async () => {
  world = await demoWorld();
  // The first demo course arrives synchronised with Moodle (activities, grades).
  await firstSyncDone(world);
  demoCourse = world.summary.queuedCourseId!;
  const login = async (email: string) => {
    const token = await world.ctx.login(email, world.password);
    const id = (
      await world.ctx.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id;
    return { id, token };
  };
  admin = (await login('demo.admin@sigaf.cl')).token;
  paula = await login('operador1@sigaf.cl');
  tutor = await login('tutor1@sigaf.cl');
  genOperator = await world.ctx.userWithRole('operator');
  original = originalClient(world.ctx);
  expect((await original.signIn('demo.admin@sigaf.cl', world.password)).status).toBe(200);
  const generated = await generatedCourse();
  genCourse = generated.course;
  tutorRooms = generated.rooms.slice(0, 2);
}, 120_000);
afterAll(() => world?.close());

describe('one truth per figure', () => {
  it('the demo course, every classroom, as an administrator: screens, original client, PDF and workbooks agree', async () => {
    const rooms = (
      await data(`/api/v2/follow-up/courses/${demoCourse}/classrooms`)
    ).collections.map((c: { properties: { id: number; description: string } }) => c.properties);
    expect(rooms.length).toBeGreaterThan(1);
    // The demo has students Moodle lacks: not synchronised, yet enrolled.
    const card = await data(`/api/v2/course-registered-users/${demoCourse}/follow-student-card`);
    expect(card.unsynced).toBeGreaterThan(0);
    for (const room of rooms) await checkClassroom(demoCourse, room, admin, true);
    await checkCourse(demoCourse, admin);
  }, 60_000);

  it('the demo course as its operator: the same figures, and the workload column is her agenda filtered', async () => {
    const rooms = (
      await data(`/api/v2/follow-up/courses/${demoCourse}/classrooms`, paula.token)
    ).collections.map((c: { properties: { id: number; description: string } }) => c.properties);
    for (const room of rooms) await checkClassroom(demoCourse, room, paula.token, false);
    await checkCourse(demoCourse, paula.token);
    const { filtered, whole } = await checkOperator(paula.id, paula.token);
    await checkAgendaRows(filtered.collections, paula.token);
    await checkAgendaRows(whole.collections.slice(0, 10), paula.token);
  }, 60_000);

  it('a generated course, as an administrator: not synchronised students in the matrícula, out of every state', async () => {
    const rooms = (await data(`/api/v2/follow-up/courses/${genCourse}/classrooms`)).collections.map(
      (c: { properties: { id: number; description: string; students: number } }) => c.properties,
    );
    expect(rooms.map((r: { students: number }) => r.students)).toEqual([8, 8, 7]);
    for (const room of rooms) await checkClassroom(genCourse, room, admin, true);
    await checkCourse(genCourse, admin);
    const card = await data(`/api/v2/course-registered-users/${genCourse}/follow-student-card`);
    expect(card).toEqual({ total: 23, unsynced: 5, resign: 3, active: 12, inactive: 3 });
  }, 60_000);

  it('a generated course, as its operator: the workload column and the agenda give the same students', async () => {
    const { filtered, whole } = await checkOperator(genOperator.id, genOperator.token);
    // Open tickets of theirs on at-risk students not contacted: two in the first classroom, one in the second.
    expect(filtered.meta.total).toBe(3);
    // Every at-risk student without contact of their course: three per classroom but the one contacted.
    expect(whole.meta.total).toBe(8);
    await checkAgendaRows(filtered.collections, genOperator.token);
    const paulaWhole = await checkOperator(paula.id, paula.token);
    expect(
      paulaWhole.filtered.collections.some(
        (c: { properties: { courseId: number } }) => c.properties.courseId === genCourse,
      ),
    ).toBe(true);
  }, 60_000);

  it("a generated course, as its tutor: their classrooms give the administrator's numbers", async () => {
    const rooms = (
      await data(`/api/v2/follow-up/courses/${genCourse}/classrooms`, tutor.token)
    ).collections.map((c: { properties: { id: number; description: string } }) => c.properties);
    expect(rooms.map((r: { id: number }) => r.id).sort()).toEqual([...tutorRooms].sort());
    for (const room of rooms) {
      await checkClassroom(genCourse, room, tutor.token, false);
      const base = `/api/v2/course-registered-users/${genCourse}/classrooms/${room.id}`;
      expect(await data(`${base}/follow-student-classroom`, tutor.token)).toEqual(
        await data(`${base}/follow-student-classroom`),
      );
    }
    const agenda = await data('/api/v2/agenda/students?page=1&perPage=100', tutor.token);
    const inMine = agenda.collections.filter(
      (c: { properties: { courseId: number } }) => c.properties.courseId === genCourse,
    );
    // Three at-risk students per classroom of theirs, none contacted.
    expect(inMine.length).toBe(6);
    await checkAgendaRows(inMine, tutor.token);
  }, 60_000);

  it("a day of the demo course: the day card, the original client's and the PDF's cards agree", async () => {
    const { rows } = await sql<{
      day: string;
    }>`select to_char(max(created_at) at time zone 'America/Santiago', 'YYYY-MM-DD') as day from tickets where course_id = ${demoCourse}`.execute(
      world.ctx.db,
    );
    const day = rows[0]!.day;
    const card = await data(`/api/v2/reports/courses/${demoCourse}/data-card/${day}`);
    const oCard = (
      await original.call('GET', `/api/v2/reports/courses/${demoCourse}/data-card/${day}`)
    ).body._data;
    expect(oCard).toEqual(card);
    const text = pdfText(
      (await get(`/api/v2/reports/courses/${demoCourse}/pdf/ticket/${day}`)).rawPayload,
    );
    expect(/Tickets nuevos \+(\d+)/.exec(text)?.[1]).toBe(String(card.newTicket));
    expect(number(text, 'Tickets totales')).toBe(card.total);
    expect(number(text, 'Tickets abiertos')).toBe(card.open);
    expect(number(text, 'Tickets cerrados')).toBe(card.close);
  }, 60_000);
});
