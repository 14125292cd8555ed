import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import bcrypt from 'bcryptjs';
import type mysql from 'mysql2/promise';

const here = path.dirname(fileURLToPath(import.meta.url));

/** What the generated legacy data set plants, for the tests to find again. */
export interface LegacyPlan {
  staff: Array<{ id: number; email: string; password: string; role: string }>;
  /** registered_users ids sharing one RUT written two ways (the lower id is kept). */
  duplicateRut: [number, number];
  invalidRutStudentId: number;
  /** course_registered_users ids: the same student twice in one course (the lower id is kept). */
  duplicateEnrolment: [number, number];
  orphanEnrolmentId: number;
  orphanTicketId: number;
  orphanDetailId: number;
  zeroDateTicketId: number;
  textGradeResultId: number;
  unknownMotive: string;
  courseId: number;
  mailboxPassword: string;
  highestCode: { prefix: string; n: number };
  /** highestCode: the highest imported code (MAT-ALG-0151 belongs to the orphan ticket, not imported). */
  /** A ticket created at a wall-clock time of the repeated hour of the April 2024 DST change. */
  dstTicketId: number;
}

/** Creates the legacy schema (optionally with the drift column) in a new database `name`. */
export async function createLegacyDatabase(
  conn: mysql.Connection,
  name: string,
  opts: { drift: boolean },
) {
  await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await conn.query(`USE \`${name}\``);
  await conn.query(fs.readFileSync(path.join(here, 'legacy-schema.sql'), 'utf8'));
  if (opts.drift) await conn.query(fs.readFileSync(path.join(here, 'legacy-drift.sql'), 'utf8'));
}

const FIRST = [
  'José',
  'María',
  'Ñuño',
  'Sofía',
  'Matías',
  'Inés',
  'Andrés',
  'Begoña',
  'Raúl',
  'Verónica',
];
const LAST = ['Muñoz', 'Núñez', 'González', 'Peña', 'Ibáñez', 'Sepúlveda', 'Rodríguez', 'Catalán'];

function dv(body: number): string {
  let sum = 0;
  let f = 2;
  for (let n = body; n > 0; n = Math.floor(n / 10)) {
    sum += (n % 10) * f;
    f = f === 7 ? 2 : f + 1;
  }
  const r = 11 - (sum % 11);
  return r === 11 ? '0' : r === 10 ? 'K' : String(r);
}

/**
 * Fills a legacy database with `students` students over two courses, their enrolments, results,
 * tickets and attempts, and one of every anomaly the original allowed. Deterministic.
 */
export async function fillLegacyDatabase(
  conn: mysql.Connection,
  opts: { students?: number; drift: boolean },
): Promise<LegacyPlan> {
  const students = opts.students ?? 40;
  const q = (s: string, v: unknown[] = []) => conn.query(s, v);
  const many = async (table: string, cols: string[], rows: unknown[][]) => {
    for (let i = 0; i < rows.length; i += 500) {
      await q(`INSERT INTO ${table} (${cols.join(',')}) VALUES ?`, [rows.slice(i, i + 500)]);
    }
  };
  const at = '2024-03-10 10:15:00';
  const cat = async (table: string, values: string[]) =>
    many(
      table,
      ['description', 'created_at', 'updated_at'],
      values.map((v) => [v, at, at]),
    );
  await cat('roles', ['Administrador', 'Operador', 'Tutor', 'Developer']);
  await cat('profiles', ['Estudiante', 'Tutor']);
  await cat('classrooms', ['Aula 1', 'Aula 2', 'Aula Virtual Ñuble']);
  await cat('final_statuses', ['Aprobado', 'Reprobado', 'Desertor']);
  await cat('status_tickets', ['Abierto', 'Cerrado']);
  await cat('priority_tickets', ['Alta', 'Media', 'Baja']);
  const unknownMotive = 'Consulta académica';
  await cat('motive_tickets', ['Bienvenida', 'Problema', unknownMotive]);
  await cat('status_detail_tickets', ['Exitoso', 'Fallido']);
  await cat('source_tickets', ['Entrante', 'Saliente']);
  await cat('type_tickets', ['Correo electrónico', 'Contacto telefónico']);
  await cat('sections', ['Renuncia', 'Encuesta', 'Formativa', 'Pre Test A']);
  await many(
    'platforms',
    ['description', 'status', 'created_at', 'updated_at'],
    [['Moodle', 1, at, at]],
  );

  const staff = [
    {
      id: 1,
      email: 'admin@legacy.cl',
      password: 'Clave-Admin-1',
      role: 'Administrador',
      rut: '11.111.111-1',
      name: 'Álvaro Pérez',
    },
    {
      id: 2,
      email: 'operadora@legacy.cl',
      password: 'Clave-Ope-2',
      role: 'Operador',
      rut: '12345678-5',
      name: 'Mónica Ñancupil',
    },
    {
      id: 3,
      email: 'tutor@legacy.cl',
      password: 'Clave-Tutor-3',
      role: 'Tutor',
      rut: '99999999-9',
      name: 'Héctor Tutor',
    },
  ];
  const roleId: Record<string, number> = { Administrador: 1, Operador: 2, Tutor: 3 };
  const staffRows = [];
  for (const s of staff) {
    // Laravel writes $2y$; bcryptjs writes $2b$ (same algorithm).
    const h = (await bcrypt.hash(s.password, 10)).replace(/^\$2b\$/, '$2y$');
    staffRows.push([
      s.id,
      s.rut,
      s.name,
      '221234567',
      '+56912345678',
      s.email,
      h,
      1,
      roleId[s.role],
      at,
      at,
    ]);
  }
  await many(
    'users',
    [
      'id',
      'rut',
      'name',
      'phone',
      'mobile',
      'email',
      'password',
      'is_first_login',
      'role_id',
      'created_at',
      'updated_at',
    ],
    staffRows,
  );

  await many(
    'categories',
    [
      'id',
      'description',
      'platform_id',
      'id_category_moodle',
      'category_code',
      'status',
      'created_at',
      'updated_at',
    ],
    [
      [1, 'Matemáticas Básicas', 1, 11, 'MAT', 1, at, at],
      [2, 'Educación Física', 1, 12, 'EDF', 1, at, at],
    ],
  );
  const mailboxPassword = 'buzón-Clave-Ñ';
  await many(
    'courses',
    [
      'id',
      'description',
      'email',
      'password',
      'id_course_moodle',
      'category_id',
      'status',
      'created_at',
      'updated_at',
    ],
    [
      [1, 'Álgebra para Docentes', 'algebra@legacy.cl', mailboxPassword, 101, 1, 1, at, at],
      [2, 'Educación en Movimiento', 'movimiento@legacy.cl', 'otra-clave', 102, 2, 1, at, at],
    ],
  );
  await many(
    'section_courses',
    ['section_id', 'course_id'],
    [
      [1, 1],
      [3, 1],
    ],
  );
  await many(
    'activities',
    [
      'id',
      'description',
      'type',
      'section_id',
      'weighing',
      'id_activity_moodle',
      'course_id',
      'created_at',
      'updated_at',
    ],
    [
      [1, 'Evaluación diagnóstica', 'quiz', 4, 20, 1001, 1, at, at],
      [2, 'Foro de presentación', 'forum', 3, 10, 1002, 1, at, at],
      [3, 'Renuncia al curso', 'choice', 1, 0, 1003, 1, at, at],
      [4, 'Tarea de movimiento', 'assign', 3, 30, 2001, 2, at, at],
    ],
  );

  // Students: ids 1..students; planted: a duplicate RUT (other spelling), an invalid RUT.
  const studentRows: unknown[][] = [];
  for (let i = 1; i <= students; i++) {
    const body = 15_000_000 + i * 7;
    const rut =
      i % 2
        ? `${body}-${dv(body)}`
        : `${String(body).replace(/\B(?=(\d{3})+(?!\d))/g, '.')}-${dv(body)}`;
    const name = FIRST[i % FIRST.length]!;
    const last = LAST[i % LAST.length]!;
    studentRows.push([
      i,
      rut,
      name,
      last,
      LAST[(i + 3) % LAST.length],
      `alumno${i}@correo.cl`,
      '+56987654321',
      'Pasaje Los Ñandúes 12',
      'Ñuñoa',
      'Región Metropolitana de Santiago',
      i,
      `Alumno${i}`,
      1,
      1,
      at,
      at,
    ]);
  }
  const dupA = 3;
  const dupB = students + 1;
  const dupBody = 15_000_000 + dupA * 7;
  studentRows.push([
    dupB,
    `${dupBody}${dv(dupBody)}`.toLowerCase(),
    'Duplicado',
    'Muñoz',
    null,
    'duplicado@correo.cl',
    null,
    null,
    null,
    null,
    null,
    null,
    1,
    1,
    at,
    at,
  ]);
  const invalidId = students + 2;
  studentRows.push([
    invalidId,
    '12.345.678-0',
    'Rut',
    'Inválido',
    null,
    'invalido@correo.cl',
    null,
    null,
    null,
    null,
    null,
    null,
    1,
    1,
    at,
    at,
  ]);
  await many(
    'registered_users',
    [
      'id',
      'rut',
      'name',
      'last_name',
      'mother_last_name',
      'email',
      'mobile',
      'address',
      'city',
      'region',
      'id_registered_moodle',
      'name_registered_moodle',
      'user_create_id',
      'user_update_id',
      'created_at',
      'updated_at',
    ],
    studentRows,
  );

  // Enrolments: every student in course 1 (classroom 1 or 2), the first half also in course 2.
  const enrolRows: unknown[][] = [];
  let eid = 0;
  const enrolOf = new Map<string, number>();
  for (let i = 1; i <= students + 2; i++) {
    const access = i % 5 === 0 ? 'Nunca' : `2024-0${(i % 8) + 1}-1${i % 9} 12:0${i % 9}:00`;
    enrolRows.push([
      ++eid,
      1,
      i,
      1,
      (i % 2) + 1,
      (i % 3) + 1,
      1,
      null,
      access,
      i % 7 === 0 ? 0 : 1,
      at,
      at,
    ]);
    enrolOf.set(`1:${i}`, eid);
    if (i <= students / 2) {
      enrolRows.push([++eid, 2, i, 1, 1, 1, 1, null, access, 1, at, at]);
      enrolOf.set(`2:${i}`, eid);
    }
  }
  const dupEnrolment = ++eid;
  enrolRows.push([dupEnrolment, 1, 5, 1, 2, 1, 1, null, 'Nunca', 1, at, at]);
  const orphanEnrolmentId = ++eid;
  enrolRows.push([orphanEnrolmentId, 1, 99_999, 1, 1, 1, 1, null, null, 1, at, at]);
  const enrolCols = [
    'id',
    'course_id',
    'registered_user_id',
    'profile_id',
    'classroom_id',
    'final_status_id',
    'final_qualification',
    'final_qualification_moodle',
    'last_access_registered_moodle',
    'is_sincronized',
    'created_at',
    'updated_at',
  ];
  await many(
    'course_registered_users',
    opts.drift ? enrolCols : enrolCols.filter((c) => c !== 'is_sincronized'),
    opts.drift ? enrolRows : enrolRows.map((r) => [...r.slice(0, 9), ...r.slice(10)]),
  );

  // Results: course 1's activities for every course-1 enrolment; one with text as its grade.
  const results: unknown[][] = [];
  let rid = 0;
  for (let i = 1; i <= students; i++) {
    const e = enrolOf.get(`1:${i}`)!;
    results.push([
      ++rid,
      1,
      e,
      i % 3 ? 'Finalizado' : 'No finalizado',
      i % 3 ? `${(i % 7) + 1},5` : '-',
      at,
      at,
    ]);
    results.push([++rid, 2, e, i % 2 ? 'Finalizado' : 'No finalizado', '-', at, at]);
  }
  const textGradeResultId = ++rid;
  results.push([
    textGradeResultId,
    3,
    enrolOf.get('1:1')!,
    'Finalizado',
    'Sin calificación',
    at,
    at,
  ]);
  await many(
    'activity_course_users',
    [
      'id',
      'activity_id',
      'course_registered_user_id',
      'status_moodle',
      'qualification_moodle',
      'created_at',
      'updated_at',
    ],
    results,
  );

  // Tickets: one per course-1 student, codes MAT-ALG-0001.., plus one per course-2 student.
  const tickets: unknown[][] = [];
  let tid = 0;
  let n1 = 0;
  for (let i = 1; i <= students; i++) {
    const closed = i % 4 === 0;
    const created = `2024-05-${String((i % 27) + 1).padStart(2, '0')} 09:${String(i % 60).padStart(2, '0')}:00`;
    tickets.push([
      ++tid,
      enrolOf.get(`1:${i}`)!,
      `MAT-ALG-${String(++n1).padStart(4, '0')}`,
      (i % 2) + 1,
      closed ? 2 : 1,
      (i % 3) + 1,
      (i % 2) + 1,
      (i % 3) + 1,
      2,
      i % 6 ? 2 : null,
      closed ? '2024-06-01 18:00:00' : null,
      created,
      created,
    ]);
  }
  for (let i = 1; i <= students / 2; i++) {
    tickets.push([
      ++tid,
      enrolOf.get(`2:${i}`)!,
      `EDF-EDU-${String(i).padStart(4, '0')}`,
      1,
      1,
      2,
      2,
      1,
      1,
      1,
      null,
      at,
      at,
    ]);
  }
  const dstTicketId = ++tid;
  // 2024-04-06 23:30 in Santiago: clocks go back at 24:00 → 23:00, so 23:30 happens twice.
  tickets.push([
    dstTicketId,
    enrolOf.get('1:2')!,
    `MAT-ALG-${String(++n1).padStart(4, '0')}`,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    null,
    '2024-04-06 23:30:00',
    '2024-04-06 23:30:00',
  ]);
  const zeroDateTicketId = ++tid;
  tickets.push([
    zeroDateTicketId,
    enrolOf.get('1:4')!,
    'MAT-ALG-0150',
    1,
    2,
    1,
    1,
    1,
    1,
    null,
    '0000-00-00 00:00:00',
    '0000-00-00 00:00:00',
    '2024-05-02 10:00:00',
  ]);
  const orphanTicketId = ++tid;
  tickets.push([orphanTicketId, 88_888, 'MAT-ALG-0151', 1, 1, 1, 1, 1, 1, null, null, at, at]);
  await many(
    'tickets',
    [
      'id',
      'course_registered_user_id',
      'ticket_code',
      'type_ticket_id',
      'status_ticket_id',
      'priority_ticket_id',
      'source_ticket_id',
      'motive_ticket_id',
      'user_create_id',
      'user_assigned_id',
      'closing_date',
      'created_at',
      'updated_at',
    ],
    tickets,
  );

  // Attempts: two per course-1 ticket, one per course-2 ticket, one on a deleted ticket.
  const details: unknown[][] = [];
  let did = 0;
  for (let t = 1; t <= students; t++) {
    details.push([
      ++did,
      t,
      2,
      2,
      `Llamado sin respuesta, se deja mensaje a ${FIRST[t % FIRST.length]}`,
      `2024-05-${String((t % 27) + 1).padStart(2, '0')} 10:00:00`,
      at,
    ]);
    details.push([
      ++did,
      t,
      2,
      t % 3 ? 1 : 2,
      'Contactado: se compromete a ponerse al día con la evaluación',
      `2024-05-${String((t % 27) + 1).padStart(2, '0')} 11:30:00`,
      at,
    ]);
  }
  for (let t = students + 1; t <= students + students / 2; t++)
    details.push([++did, t, 1, 1, 'Correo enviado', at, at]);
  const orphanDetailId = ++did;
  details.push([orphanDetailId, 77_777, 1, 1, 'Intento de un ticket borrado', at, at]);
  await many(
    'ticket_details',
    [
      'id',
      'ticket_id',
      'user_created_id',
      'status_detail_ticket_id',
      'comment',
      'created_at',
      'updated_at',
    ],
    details,
  );

  await many(
    'course_tutors',
    ['course_id', 'tutor_id', 'created_at', 'updated_at'],
    [[1, 3, at, at]],
  );
  await many(
    'alerts',
    [
      'ticket_id',
      'user_id',
      'time',
      'date',
      'status_reminder',
      'status_notification',
      'comment',
      'created_at',
      'updated_at',
    ],
    [[1, 2, '09:30:00', '2024-06-03', 0, 1, 'Volver a llamar a José', at, at]],
  );
  await many(
    'log_editing_tickets',
    ['ticket_id', 'user_id', 'created_at', 'updated_at'],
    [[1, 2, at, at]],
  );

  return {
    staff: staff.map(({ id, email, password, role }) => ({ id, email, password, role })),
    duplicateRut: [dupA, dupB],
    invalidRutStudentId: invalidId,
    duplicateEnrolment: [enrolOf.get('1:5')!, dupEnrolment],
    orphanEnrolmentId,
    orphanTicketId,
    orphanDetailId,
    zeroDateTicketId,
    textGradeResultId,
    unknownMotive,
    courseId: 1,
    mailboxPassword,
    highestCode: { prefix: 'MAT-ALG', n: 150 },
    dstTicketId,
  };
}
