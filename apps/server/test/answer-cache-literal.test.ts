import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/lib/passwords.js';
import { ticketKeys } from './data.js';
import { createTestContext, type TestContext } from './helpers.js';

/**
 * The kept whole-course answers of the original client (modules/answers/cache.ts), compared with
 * answers written out by hand for a tiny course: two students in one classroom, one open ticket
 * with one contact attempt, one activity with one student's result. Every id and date is inserted
 * here; the open ticket's age, which grows with the clock, is the one value computed. Each caller
 * asks twice: the first answer is built, the second is served from what was kept, and both must
 * be the literal below. (answer-cache.test.ts compares the kept answers with a server that keeps
 * nothing; here the expected answers come from nothing the server computes.)
 */

let ctx: TestContext;
const token: Record<'admin' | 'operator' | 'otherOperator' | 'tutor', string> = {
  admin: '',
  operator: '',
  otherOperator: '',
  tutor: '',
};
/** Every row's id, inserted explicitly (far above the seeded rows). */
const ID = {
  category: 9101,
  course: 9102,
  classroom: 9103,
  section: 9104,
  activity: 9105,
  studentA: 9106,
  studentB: 9107,
  enrolA: 9108,
  enrolB: 9109,
  ticket: 9110,
  attempt: 9111,
  result: 9112,
  operator: 9113,
  tutor: 9114,
  admin: 9115,
  otherOperator: 9116,
};

type Caller = keyof typeof token;
const TICKET_CREATED = '2024-03-02T13:00:00Z';
const TICKETS = `/api/v2/tickets/course-registered-users/course/${ID.course}`;
// Masivo's "Buscar": the Moodle ids of the chosen activities, as the original client sends them.
const ACTIVITIES = `/api/v2/activities/[501]/course-registered-users/${ID.course}`;

/** Asks twice; says how many of the two answers were built and how many served as kept. */
async function twice(url: string, who: Caller) {
  const before = { ...ctx.app.services.answers.counts };
  const answers = [];
  for (let i = 0; i < 2; i++) {
    const res = await ctx.request({ method: 'GET', url, token: token[who] });
    answers.push({ status: res.statusCode, body: res.json() });
  }
  const { built, kept } = ctx.app.services.answers.counts;
  return { answers, built: built - before.built, kept: kept - before.kept };
}
/** The open ticket's age in whole days since it was created, as the client reads `ageTicket`. */
const ageNow = () => Math.floor((Date.now() - Date.parse(TICKET_CREATED)) / 86_400_000);

beforeAll(async () => {
  ctx = await createTestContext();
  const db = ctx.db;
  const role = async (key: string) =>
    (await db.selectFrom('roles').select('id').where('key', '=', key).executeTakeFirstOrThrow()).id;
  const at = '2024-03-01T12:00:00Z';
  const staff = [
    [ID.admin, 'admin', 'admin', 'Ana Literal'],
    [ID.operator, 'operator', 'operator', 'Olga Operadora'],
    [ID.otherOperator, 'otherOperator', 'operator', 'Otto Operador'],
    [ID.tutor, 'tutor', 'tutor', 'Tomás Tutor'],
  ] as const;
  for (const [id, who, key, name] of staff) {
    const email = `${who}.literal@sigaf.test`;
    await db
      .insertInto('users')
      .values({
        id,
        name,
        email,
        password: await hashPassword('Secret-literal-1'),
        is_first_login: 1,
        role_id: await role(key),
        rut: null,
        phone: null,
        mobile: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    token[who] = await ctx.login(email, 'Secret-literal-1');
  }
  const k = await ticketKeys(db);
  const platform = await db
    .selectFrom('platforms')
    .select('id')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const student = (
    await db
      .selectFrom('profiles')
      .select('id')
      .where('key', '=', 'student')
      .executeTakeFirstOrThrow()
  ).id;
  await db
    .insertInto('categories')
    .values({
      id: ID.category,
      description: 'Categoría Literal',
      category_code: 'LITE',
      platform_id: platform.id,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await db
    .insertInto('courses')
    .values({
      id: ID.course,
      description: 'Curso Literal',
      category_id: ID.category,
      email: 'curso@sigaf.test',
      created_at: at,
      updated_at: at,
    })
    .execute();
  await db
    .insertInto('classrooms')
    .values({ id: ID.classroom, description: 'Aula Única', created_at: at, updated_at: at })
    .execute();
  await db
    .insertInto('sections')
    .values({ id: ID.section, description: 'Unidad 1', created_at: at, updated_at: at })
    .execute();
  await db
    .insertInto('activities')
    .values({
      id: ID.activity,
      description: 'Foro de bienvenida',
      course_id: ID.course,
      section_id: ID.section,
      weighing: 1,
      id_activity_moodle: 501,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await db
    .insertInto('registered_users')
    .values([
      {
        id: ID.studentA,
        rut: '12.345.678-5',
        name: 'José',
        last_name: 'Pérez',
        mother_last_name: 'Soto',
        email: 'jose@correo.test',
        created_at: at,
        updated_at: at,
      },
      {
        id: ID.studentB,
        rut: '22.222.222-2',
        name: 'María',
        last_name: 'Núñez',
        mother_last_name: null,
        email: 'maria@correo.test',
        created_at: at,
        updated_at: at,
      },
    ])
    .execute();
  await db
    .insertInto('course_registered_users')
    .values([
      {
        id: ID.enrolA,
        course_id: ID.course,
        registered_user_id: ID.studentA,
        profile_id: student,
        classroom_id: ID.classroom,
        final_status_id: null,
        is_sincronized: true,
        last_access_registered_moodle: '2024-03-10T15:00:00Z',
        status_moodle: 'Activo',
        created_at: at,
        updated_at: at,
      },
      {
        id: ID.enrolB,
        course_id: ID.course,
        registered_user_id: ID.studentB,
        profile_id: student,
        classroom_id: ID.classroom,
        final_status_id: null,
        is_sincronized: true,
        created_at: at,
        updated_at: at,
      },
    ])
    .execute();
  await db
    .insertInto('classroom_tutors')
    .values({ course_id: ID.course, classroom_id: ID.classroom, user_id: ID.tutor })
    .execute();
  await db
    .insertInto('activity_course_users')
    .values({
      id: ID.result,
      activity_id: ID.activity,
      course_registered_user_id: ID.enrolA,
      status_moodle: 'Finalizado',
      completion_state: 1,
      grade: '6.5',
      created_at: at,
      updated_at: at,
    })
    .execute();
  await db
    .insertInto('tickets')
    .values({
      id: ID.ticket,
      course_registered_user_id: ID.enrolA,
      course_id: ID.course,
      ticket_code: 'LITE-CUR-0001',
      type_ticket_id: k.phone,
      status_ticket_id: k.open,
      priority_ticket_id: k.high,
      source_ticket_id: k.outgoing,
      motive_ticket_id: k.welcome,
      user_create_id: ID.admin,
      user_assigned_id: ID.operator,
      closing_date: null,
      created_at: TICKET_CREATED,
      updated_at: '2024-03-04T14:30:00Z',
    })
    .execute();
  await db
    .insertInto('ticket_details')
    .values({
      id: ID.attempt,
      ticket_id: ID.ticket,
      user_created_id: ID.operator,
      status_detail_ticket_id: k.success,
      comment: 'Contestó',
      created_at: '2024-03-04T14:30:00Z',
      updated_at: '2024-03-04T14:30:00Z',
    })
    .execute();
});
afterAll(() => ctx?.close());

/** The course's every ticket, as the administrator and the operator it is assigned to get it. */
const ticketsAnswer = (age: number) => ({
  success: true,
  error: null,
  statusCode: 200,
  message: 'Consulta exitosa.',
  _data: {
    links: {
      href: '/api/v2/tickets/course-registered-users/course/9102',
      title: 'tickets',
      rel: 'self',
    },
    numberOfElements: 1,
    collections: [
      {
        links: { href: '/api/v2/tickets/9110', rel: 'self' },
        properties: {
          id: 9110,
          ticketCode: 'LITE-CUR-0001',
          version: 1,
          statusTicket: { id: 1, description: 'Abierto', key: 'open' },
          typeTicket: { id: 2, description: 'Contacto telefónico', key: 'phone' },
          priorityTicket: { id: 1, description: 'Alta', key: 'high' },
          sourceTicket: { id: 2, description: 'Saliente', key: 'outgoing' },
          motiveTicket: { id: 1, description: 'Bienvenida', key: 'welcome' },
          userCreated: { id: 9115, name: 'Ana Literal' },
          userAssigned: { id: 9113, name: 'Olga Operadora' },
          courseRegisteredUser: {
            id: 9108,
            classroom: { id: 9103, description: 'Aula Única' },
            profile: { id: 1, description: 'Estudiante', key: 'student' },
            finalStatus: null,
            lastAccess: '2024-03-10T15:00:00.000Z',
            lastAccessText: null,
            course: {
              id: 9102,
              description: 'Curso Literal',
              category: { id: 9101, description: 'Categoría Literal', categoryCode: 'LITE' },
              category_id: 9101,
              id_course_moodle: null,
            },
            registeredUser: {
              id: 9106,
              rut: '12.345.678-5',
              name: 'José',
              lastName: 'Pérez',
              motherLastName: 'Soto',
              email: 'jose@correo.test',
              mobile: null,
              phone: null,
            },
            is_sincronized: 1,
            classroom_id: 9103,
            last_access_registered_moodle: '10-03-2024 12:00',
            registered_user: {
              id: 9106,
              rut: '12.345.678-5',
              name: 'José',
              last_name: 'Pérez',
              mother_last_name: 'Soto',
              email: 'jose@correo.test',
              mobile: null,
              phone: null,
            },
            activity_course_users: [
              {
                id: 9112,
                activity_id: 9105,
                course_registered_user_id: 9108,
                status_moodle: 'Finalizado',
                qualification_moodle: '',
                activity: {
                  id: 9105,
                  description: 'Foro de bienvenida',
                  type: '',
                  weighing: 1,
                  id_activity_moodle: 501,
                  section_id: 9104,
                  section: { id: 9104, description: 'Unidad 1' },
                },
              },
            ],
          },
          closingDate: null,
          closingTime: null,
          timeClosingDate: null,
          closingDateIso: null,
          createdAt: '02-03-2024',
          createdTime: '10:00',
          timeCreatedAt: '10:00',
          updatedAt: '02-03-2024',
          createdAtIso: '2024-03-02T13:00:00.000Z',
          ageTicket: age,
          ageText: `${age} días`,
          close: false,
          showDeleteButton: false,
          attempts: 1,
          lock: null,
        },
        relationships: {
          numberOfElements: 1,
          links: { href: '/api/v2/tickets/9110/ticket-details' },
          array: [
            {
              id: 9111,
              ticket_id: 9110,
              comment: 'Contestó',
              status_detail_ticket_id: 1,
              user_created_id: 9113,
              created_at: '2024-03-04T14:30:00.000Z',
              updated_at: '2024-03-04T14:30:00.000Z',
              status_detail_ticket: { id: 1, description: 'Exitoso', key: 'success' },
              user_created: { id: 9113, name: 'Olga Operadora' },
            },
          ],
        },
      },
    ],
  },
});

/** The same for an operator with no ticket of the course assigned. */
const noTickets = {
  success: true,
  error: null,
  statusCode: 200,
  message: 'Consulta exitosa.',
  _data: {
    links: {
      href: '/api/v2/tickets/course-registered-users/course/9102',
      title: 'tickets',
      rel: 'self',
    },
    numberOfElements: 0,
    collections: [],
  },
};

const refused = {
  success: false,
  error: 'No tiene permisos para realizar esta operación.',
  statusCode: 403,
  message: 'No tiene permisos para realizar esta operación.',
  _data: null,
};

/** Every student's results on the chosen activity, and the raw enrolments of those with it pending. */
const activitiesAnswer = {
  success: true,
  error: null,
  statusCode: 200,
  message: 'Consulta exitosa.',
  _data: [
    {
      id: 9109,
      rut: '22.222.222-2',
      name: 'María',
      lastName: 'Núñez',
      motherLastName: null,
      email: 'maria@correo.test',
      classroomId: 9103,
      classroom: 'Aula Única',
      form: 'A',
      activities: [
        {
          activityId: 9105,
          idActivityMoodle: 501,
          description: 'Foro de bienvenida',
          statusMoodle: null,
          qualificationMoodle: null,
          completionState: null,
          grade: null,
        },
      ],
      status: 'Activo',
    },
    {
      id: 9108,
      rut: '12.345.678-5',
      name: 'José',
      lastName: 'Pérez',
      motherLastName: 'Soto',
      email: 'jose@correo.test',
      classroomId: 9103,
      classroom: 'Aula Única',
      form: 'B',
      activities: [
        {
          activityId: 9105,
          idActivityMoodle: 501,
          description: 'Foro de bienvenida',
          statusMoodle: 'Finalizado',
          qualificationMoodle: null,
          completionState: 1,
          grade: 6.5,
        },
      ],
      status: 'Activo',
    },
  ],
  usersWithPendingActivities: [
    {
      id: 9109,
      course_id: 9102,
      registered_user_id: 9107,
      profile_id: 1,
      classroom_id: 9103,
      final_status_id: null,
      final_qualification: null,
      final_qualification_moodle: null,
      last_access_registered_moodle: null,
      is_sincronized: 1,
      created_at: '2024-03-01T12:00:00.000Z',
      updated_at: '2024-03-01T12:00:00.000Z',
      registered_user: {
        id: 9107,
        rut: '22.222.222-2',
        name: 'María',
        last_name: 'Núñez',
        mother_last_name: '',
        email: 'maria@correo.test',
        phone: null,
        mobile: null,
        address: null,
        city: null,
        region: null,
        rbd_school: null,
        name_school: null,
        city_school: null,
        region_school: null,
        phone_school: null,
        id_registered_moodle: null,
        rut_registered_moodle: null,
      },
      classroom: { id: 9103, description: 'Aula Única' },
      profile: { id: 1, description: 'Estudiante' },
      course: { id: 9102, description: 'Curso Literal', category_id: 9101, id_course_moodle: null },
      activity_course_users: [],
      links: { href: '/api/v2/course-registered-users/9109', rel: 'self' },
      properties: {
        id: 9109,
        classroomId: 9103,
        classroom: { id: 9103, description: 'Aula Única' },
        profile: { id: 1, description: 'Estudiante', key: 'student' },
        finalStatus: null,
        finalQualification: null,
        finalQualificationMoodle: null,
        lastAccess: null,
        lastAccessText: null,
        isSincronized: true,
        lastAccessRegisteredMoodle: null,
        course: {
          id: 9102,
          description: 'Curso Literal',
          id_course_moodle: null,
          category_id: 9101,
        },
        registeredUser: {
          id: 9107,
          rut: '22.222.222-2',
          name: 'María',
          last_name: 'Núñez',
          mother_last_name: '',
          email: 'maria@correo.test',
          phone: null,
          mobile: null,
          address: null,
          city: null,
          region: null,
          rbd_school: null,
          name_school: null,
          city_school: null,
          region_school: null,
          phone_school: null,
          id_registered_moodle: null,
          rut_registered_moodle: null,
          lastName: 'Núñez',
          motherLastName: null,
          idRegisteredMoodle: null,
          rutRegisteredMoodle: null,
        },
        ticketsCount: 0,
      },
      relationships: {
        numberOfElements: 0,
        links: { href: '/api/v2/course-registered-user/9109/tickets' },
      },
    },
  ],
};

describe('kept whole-course answers, written out by hand', () => {
  it("the course's every ticket: the administrator's and its operator's answer, another operator's empty one, a tutor refused", async () => {
    for (const who of ['admin', 'operator'] as const) {
      const { answers, built, kept } = await twice(TICKETS, who);
      const age = ageNow();
      expect(age).toBeGreaterThan(600);
      for (const a of answers) expect(a, who).toEqual({ status: 200, body: ticketsAnswer(age) });
      expect({ built, kept }, who).toEqual({ built: 1, kept: 1 });
    }
    const other = await twice(TICKETS, 'otherOperator');
    for (const a of other.answers) expect(a).toEqual({ status: 200, body: noTickets });
    expect({ built: other.built, kept: other.kept }).toEqual({ built: 1, kept: 1 });
    // Access is checked before anything kept is served: nothing built, nothing served.
    const tutor = await twice(TICKETS, 'tutor');
    for (const a of tutor.answers) expect(a).toEqual({ status: 403, body: refused });
    expect({ built: tutor.built, kept: tutor.kept }).toEqual({ built: 0, kept: 0 });
  });

  it("every student's results on chosen activities: the same answer for an administrator, an operator and the classroom's tutor", async () => {
    for (const who of ['admin', 'operator', 'tutor'] as const) {
      const { answers, built, kept } = await twice(ACTIVITIES, who);
      for (const a of answers) expect(a, who).toEqual({ status: 200, body: activitiesAnswer });
      expect({ built, kept }, who).toEqual({ built: 1, kept: 1 });
    }
  });
});
