import {
  deleteCourseRegisteredUser,
  getActivitiesCourseRegisteredUsers,
  getActivityCourseRegisteredUser,
  getCourseRegisteredUserCourseEnrolled,
  getCourseRegisteredUserCourseNotEnrolled,
  getCourseRegisteredUserIndex,
  getCourseRegisteredUsers,
  getCourseRegisteredUsersCount,
  getCourseRegisteredUsersLastSync,
  getCourseRegisteredUserUsersAll,
  getCourseRegisteredUserUsersPage,
  getCourseUsersCourses,
  getRegisteredUserByRutFound,
  getRegisteredUserByRutInvalid,
  getRegisteredUserByRutUnknown,
  postCourseRegisteredUserViewStore,
  postMailDeleteFile,
  postMailMassive,
  postMailSingle,
  postMailUploadFile,
  postRegisteredUserViewStore,
  putCourseRegisteredUserClassroom,
  putCourseRegisteredUserClassroomUsers,
  putRegisteredUserViewUpdate,
  syncCourseActivities,
  syncCourseUserContributeActivities,
  syncCourseUsersFound,
  syncCourseUsersNotInMoodle,
  syncUserCourseActivities,
  uploadFile,
  activitiesList,
  authLogin,
  getTicketsOfCourse,
  sectionSave,
  sectionsList,
  PROGRESS_LEFT_OUT,
  UNFILED_SECTION,
} from '../../../../packages/contract/src/legacy/index.js';
import { computeDv, IMPORT_COLUMNS } from '@sigaf/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeXlsx } from '../../src/lib/spreadsheet.js';
import { waitFor } from '../mail-data.js';
import {
  BACKEND,
  demoWorld,
  expectShape,
  originalClient,
  type ClientAnswer,
  type DemoWorld,
  type OriginalClient,
} from './original-client.js';

/**
 * The original SIGAF 1.8.6 client against our server, for students, enrolments, the Moodle
 * synchronisation calls and mail (docs/development/original-api.md §2.13-§2.16, §5.8, §5.9, §5.11, §5.13, §5.14):
 * every call as it sends it, every answer checked against what it reads, and its workflows step
 * by step (Matrícula, Conformar aulas, Seguimiento, Actividades / Gestión de estudiantes).
 */

let world: DemoWorld;
let client: OriginalClient;
/** The demo course synchronised with the simulator, and its Moodle id. */
let course: { id: number; description: string; idCourseMoodle: number };

beforeAll(async () => {
  world = await demoWorld();
  world.worker.start();
  const courseId = world.summary.queuedCourseId!;
  // The first course arrives synchronised with Moodle: its students' results are there once the sync has run.
  await waitFor(
    async () =>
      Number(
        (
          await world.ctx.db
            .selectFrom('course_registered_users')
            .select(sql<number>`count(*)`.as('n'))
            .where('course_id', '=', courseId)
            .where('is_sincronized', '=', true)
            .executeTakeFirstOrThrow()
        ).n,
      ) > 0,
    60_000,
    'the first course synchronised',
  );
  await world.worker.stop({ graceMs: 2000 });
  const row = await world.ctx.db
    .selectFrom('courses')
    .select(['id', 'description', 'id_course_moodle'])
    .where('id', '=', courseId)
    .executeTakeFirstOrThrow();
  course = { id: row.id, description: row.description, idCourseMoodle: row.id_course_moodle! };
  client = originalClient(world.ctx);
  const login = await client.call('POST', '/api/auth/login', {
    email: 'demo.admin@sigaf.cl',
    password: world.password,
    remember_me: false,
  });
  client.token = expectShape(authLogin, login, 'POST /api/auth/login').access_token;
}, 120_000);
afterAll(() => world?.close());

/** An answer that must be HTTP 200 exactly (§1.3: 201/204 are failures for these calls). */
function http200(answer: ClientAnswer, what: string) {
  expect(answer.status, `${what}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(200);
  return answer;
}

/** A multipart upload as the browser sends the client's FormData: axios drops the JSON content type. */
function multipart(
  fields: Record<string, string>,
  file: { name: string; content: Buffer; type: string },
) {
  const boundary = '----WebKitFormBoundary' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.content,
    Buffer.from('\r\n'),
  );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

async function upload(
  url: string,
  fields: Record<string, string>,
  file: { name: string; content: Buffer; type: string },
): Promise<ClientAnswer> {
  const m = multipart(fields, file);
  const res = await world.ctx.app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': m.contentType,
      accept: 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      host: new URL(BACKEND).host,
      authorization: `Bearer ${client.token}`,
    },
    payload: m.payload,
  });
  return {
    status: res.statusCode,
    headers: res.headers,
    body: res.body ? JSON.parse(res.body) : null,
    raw: res.rawPayload,
  };
}

const rutOf = (body: number) =>
  `${String(body).replace(/\B(?=(\d{3})+(?!\d))/g, '.')}-${computeDv(body)}`;

/** A student of the course that Moodle knows (synchronised) and one only SIGAF has. */
async function demoStudents() {
  const rows = await world.ctx.db
    .selectFrom('course_registered_users as e')
    .innerJoin('registered_users as r', 'r.id', 'e.registered_user_id')
    .select(['e.id as enrolmentId', 'r.id', 'r.rut', 'r.id_registered_moodle', 'e.is_sincronized'])
    .where('e.course_id', '=', course.id)
    .orderBy('e.id')
    .execute();
  return {
    synced: rows.find((r) => r.is_sincronized && r.id_registered_moodle)!,
    local: rows.find((r) => !r.id_registered_moodle)!,
  };
}

describe('§2.13 registered users and §2.14 enrolment lookups', () => {
  it('§5.8 the RUT lookup answers HTTP 200 with body statusCode 200 / 204 / 406 and a raw `_data`; then the enrolment, raw with is_sincronized, or null', async () => {
    const { synced } = await demoStudents();
    const found = expectShape(
      getRegisteredUserByRutFound,
      http200(await client.call('GET', `/api/v2/registered-user/${synced.rut}`), 'RUT found'),
      'GET /api/v2/registered-user/{rut}',
    );
    expect(found._data).toMatchObject({ id: synced.id, rut: synced.rut });
    // The operator types the RUT with or without dots: the raw value is sent.
    expect(
      (await client.call('GET', `/api/v2/registered-user/${synced.rut.replace(/\./g, '')}`)).body
        ._data.id,
    ).toBe(synced.id);

    const unknown = http200(
      await client.call('GET', `/api/v2/registered-user/${rutOf(3_456_789)}`),
      'RUT unknown',
    );
    expectShape(
      getRegisteredUserByRutUnknown,
      unknown,
      'GET /api/v2/registered-user/{rut} (unknown)',
    );
    const wrongDv = rutOf(12_345_678).replace(/.$/, (d) => (d === '1' ? '2' : '1'));
    expectShape(
      getRegisteredUserByRutInvalid,
      http200(await client.call('GET', `/api/v2/registered-user/${wrongDv}`), 'RUT invalid'),
      'GET /api/v2/registered-user/{rut} (invalid)',
    );
    expectShape(
      getRegisteredUserByRutInvalid,
      http200(await client.call('GET', '/api/v2/registered-user/hola'), 'RUT garbage'),
      'GET /api/v2/registered-user/{rut} (garbage)',
    );

    // SigafCreateSingleTicket: `_data.id` → the enrolment in the chosen course.
    const enrolment = expectShape(
      getCourseRegisteredUserCourseEnrolled,
      http200(
        await client.call(
          'GET',
          `/api/v2/course-registered-user/${found._data.id}/courses/${course.id}`,
        ),
        'enrolment',
      ),
      'GET /api/v2/course-registered-user/{id}/courses/{course}',
    );
    expect(enrolment._data).toMatchObject({
      id: synced.enrolmentId,
      is_sincronized: 1,
      registered_user: { rut: synced.rut },
    });
    // Every result still in Formativa, and every one listed: the card keeps them (its divisor is never 0, §5.9 below).
    expect(enrolment._data.activity_course_users.length).toBeGreaterThan(0);
    expect(
      enrolment._data.activity_course_users.every(
        (a) => a.activity.section.description === 'Formativa',
      ),
    ).toBe(true);

    const elsewhere = await world.ctx.db
      .selectFrom('courses')
      .select('id')
      .where(
        'id',
        'not in',
        world.ctx.db
          .selectFrom('course_registered_users')
          .select('course_id')
          .where('registered_user_id', '=', synced.id),
      )
      .executeTakeFirst();
    const otherCourse = elsewhere?.id ?? 2_147_480_000;
    const none = http200(
      await client.call(
        'GET',
        `/api/v2/course-registered-user/${found._data.id}/courses/${otherCourse}`,
      ),
      'not enrolled',
    );
    expectShape(
      getCourseRegisteredUserCourseNotEnrolled,
      none,
      'GET /api/v2/course-registered-user/{id}/courses/{course} (not enrolled)',
    );
    expect(none.body._data).toBeNull();

    const count = expectShape(
      getCourseRegisteredUsersCount,
      http200(
        await client.call('GET', `/api/v2/course-registered-users/${course.id}/count`),
        'count',
      ),
      'GET /api/v2/course-registered-users/{c}/count',
    );
    expect(count._data.id).toBe(course.id);
    expect(count._data.count).toBeGreaterThan(0);
    const last = expectShape(
      getCourseRegisteredUsersLastSync,
      http200(
        await client.call('GET', `/api/v2/course-registered-users/${course.id}/last-sync`),
        'last-sync',
      ),
      'GET /api/v2/course-registered-users/{c}/last-sync',
    );
    expect(last._data).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);

    // ManagementStudent (practically unreachable): one enrolment's results, at the top level.
    const results = await client.call(
      'GET',
      `/api/v2/activity-course-registered-user/${synced.enrolmentId}`,
    );
    expect(results.status).toBe(200);
    expect(
      expectShape(
        getActivityCourseRegisteredUser,
        results,
        'GET /api/v2/activity-course-registered-user/{id}',
      ).activityCourseRegisteredUser.length,
    ).toBeGreaterThan(0);
  });

  it('workflow Matrícula (LoadStudent): a file uploaded as multipart, then one student enrolled by RUT (lookup, save, enrolments, enrol); §5.11 delete answers HTTP 200', async () => {
    // "Cargar archivo": multipart `file` + `courseId` (a string).
    const first = 21_000_000 + Math.floor(Math.random() * 1000);
    const rows = [first, first + 1].map((n, i) => [
      String(n),
      computeDv(n),
      `Archivo${i}`,
      'Carga',
      'Demo',
      `archivo${i}.${n}@correo.test`,
      'Calle 1',
      'Región de Los Lagos',
      '',
      '+56911111111',
      '',
      '',
      '',
      '',
      '',
    ]);
    const file = await writeXlsx('Hoja1', [...IMPORT_COLUMNS], rows);
    const uploaded = await upload(
      '/api/v2/upload-file',
      { courseId: String(course.id) },
      {
        name: 'alumnos.xlsx',
        content: file,
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    );
    expectShape(uploadFile, uploaded, 'POST /api/v2/upload-file');
    for (const n of [first, first + 1]) {
      const found = expectShape(
        getRegisteredUserByRutFound,
        http200(await client.call('GET', `/api/v2/registered-user/${rutOf(n)}`), 'loaded student'),
        'GET /api/v2/registered-user/{rut}',
      );
      expectShape(
        getCourseRegisteredUserCourseEnrolled,
        await client.call(
          'GET',
          `/api/v2/course-registered-user/${found._data.id}/courses/${course.id}`,
        ),
        'GET /api/v2/course-registered-user/{id}/courses/{course}',
      );
    }

    // "Matricular usuario": the RUT is unknown (success false, not 406) → the new-student form.
    const rut = rutOf(first + 500);
    const lookup = expectShape(
      getRegisteredUserByRutUnknown,
      http200(await client.call('GET', `/api/v2/registered-user/${rut}`), 'new RUT'),
      'GET /api/v2/registered-user/{rut}',
    );
    expect(lookup.success).toBe(false);
    const form = {
      id: '',
      rut,
      name: 'Nueva',
      last_name: 'Matrícula',
      mother_last_name: 'Demo',
      email: `nueva.${first}@correo.test`,
      phone: '',
      mobile: '+56922222222',
      address: 'Av. Uno 1',
      city: 'Osorno',
      region: 'Región de Los Lagos',
      rbd_school: '',
      name_school: '',
      city_school: '',
      region_school: '',
      phone_school: '',
    };
    const saved = expectShape(
      postRegisteredUserViewStore,
      await client.call('POST', '/api/v2/registered-users/view-store', form),
      'POST /api/v2/registered-users/view-store',
    );
    const studentId = saved._data.properties.id;
    const before = expectShape(
      getCourseUsersCourses,
      http200(
        await client.call('GET', `/api/v2/course-users/${studentId}/courses`),
        'course-users',
      ),
      'GET /api/v2/course-users/{id}/courses',
    );
    expect(before._data.some((e) => e.properties.course.id === course.id)).toBe(false);
    expectShape(
      postCourseRegisteredUserViewStore,
      await client.call('POST', '/api/v2/course-registered-users/view-store', {
        course_id: course.id,
        registered_user_id: studentId,
        profile_id: 1,
        classroom_id: 1,
      }),
      'POST /api/v2/course-registered-users/view-store',
    );
    const after = expectShape(
      getCourseUsersCourses,
      await client.call('GET', `/api/v2/course-users/${studentId}/courses`),
      'GET /api/v2/course-users/{id}/courses',
    );
    // LoadStudent.vue:630: "El usuario ya se encuentra matriculado en el curso".
    expect(after._data.some((e) => e.properties.course.id === course.id)).toBe(true);
    const enrolled = expectShape(
      getCourseRegisteredUserCourseEnrolled,
      await client.call('GET', `/api/v2/course-registered-user/${studentId}/courses/${course.id}`),
      'GET /api/v2/course-registered-user/{id}/courses/{course}',
    );
    // Not synchronised yet: the ticket screen treats it as not registered (`=== 0`).
    expect(enrolled._data.is_sincronized).toBe(0);
    expect(enrolled._data.classroom).toMatchObject({ id: 1, description: expect.any(String) });

    // An existing student: the lookup's `_data` becomes the form model and is posted back whole.
    const again = expectShape(
      getRegisteredUserByRutFound,
      await client.call('GET', `/api/v2/registered-user/${rut}`),
      'GET /api/v2/registered-user/{rut}',
    );
    const resaved = expectShape(
      postRegisteredUserViewStore,
      await client.call('POST', '/api/v2/registered-users/view-store', {
        ...again._data,
        city: 'Puerto Montt',
      }),
      'POST /api/v2/registered-users/view-store (existing)',
    );
    expect(resaved._data.properties.id).toBe(studentId);
    // The quick edit of the student card (SEditUserForm).
    expectShape(
      putRegisteredUserViewUpdate,
      http200(
        await client.call('PUT', `/api/v2/registered-users/${studentId}/view-update`, {
          id: studentId,
          name: 'Nueva',
          last_name: 'Matrícula',
          mother_last_name: 'Demo',
          email: `otra.${first}@correo.test`,
          mobile: '+56933333333',
          phone: '',
        }),
        'view-update',
      ),
      'PUT /api/v2/registered-users/{id}/view-update',
    );

    // Gestión de estudiantes "Eliminar": DELETE with the body `true`, HTTP 200 exactly.
    expectShape(
      deleteCourseRegisteredUser,
      http200(
        await client.call('DELETE', `/api/v2/course-registered-users/${enrolled._data.id}`),
        'delete enrolment',
      ),
      'DELETE /api/v2/course-registered-users/{id}',
    );
    expectShape(
      getCourseRegisteredUserCourseNotEnrolled,
      await client.call('GET', `/api/v2/course-registered-user/${studentId}/courses/${course.id}`),
      'GET /api/v2/course-registered-user/{id}/courses/{course} (deleted)',
    );
  });
});

describe('§2.14 Conformar aulas (BuildClassroom)', () => {
  it('§5.14 the massive classroom PUT echoes rows shaped like /courses/{id}/registered-users, the single PUT returns `_data.properties`, HTTP 200 (§5.11); the roster downloads as a blob', async () => {
    const list = expectShape(
      getCourseRegisteredUsers,
      http200(
        await client.call('GET', `/api/v2/courses/${course.id}/registered-users`),
        'registered-users',
      ),
      'GET /api/v2/courses/{id}/registered-users',
    );
    // The getter (course.js:80-103) adds `status` and `classroomId` onto each row; the rows are then sent back verbatim.
    const rows = list._data.relationships.collection.data.map((item) => ({
      ...item.properties,
      status:
        item.properties.registeredUser.rut_registered_moodle?.toUpperCase() ===
        item.properties.registeredUser.rut,
      classroomId: item.properties.classroom.id,
    }));
    expect(rows.length).toBeGreaterThan(3);
    const classrooms = await world.ctx.db
      .selectFrom('classrooms')
      .select(['id', 'description'])
      .orderBy('id')
      .execute();
    const target = classrooms[2]!;
    const chosen = rows.slice(0, 3);
    const massive = http200(
      await client.call('PUT', `/api/v2/course-registered-user/classroom/${target.id}/users`, {
        courseRegisteredUsers: chosen,
        classroom_id: target.id,
        classroom: target,
      }),
      'massive classroom',
    );
    const echoed = expectShape(
      putCourseRegisteredUserClassroomUsers,
      massive,
      'PUT /api/v2/course-registered-user/classroom/{classroomId}/users',
    );
    expect(echoed._data.map((e) => e.id)).toEqual(chosen.map((r) => r.id));
    for (const e of echoed._data)
      expect(e.classroom).toMatchObject({ id: target.id, description: target.description });
    expect(echoed.message).toContain(target.description);

    // Row "Modificar": the whole row with the chosen classroom and profile.
    const row = rows[3]!;
    const other = classrooms[0]!;
    const profile = { id: row.profile.id, description: row.profile.description };
    const single = http200(
      await client.call('PUT', `/api/v2/course-registered-user/classroom/${row.id}`, {
        ...row,
        classroom: other,
        classroom_id: other.id,
        profile,
        profile_id: profile.id,
      }),
      'single classroom',
    );
    expect(
      expectShape(
        putCourseRegisteredUserClassroom,
        single,
        'PUT /api/v2/course-registered-user/classroom/{id}',
      )._data.properties,
    ).toMatchObject({ id: row.id, classroom: { id: other.id } });
    // …then the screen reloads the enrolments (stored, not read).
    expectShape(
      getCourseRegisteredUserIndex,
      await client.call('GET', '/api/v2/course-registered-user'),
      'GET /api/v2/course-registered-user',
    );
    const reread = (await client.call('GET', `/api/v2/courses/${course.id}/registered-users`)).body
      ._data.relationships.collection.data;
    expect(
      reread.find((i: { properties: { id: number } }) => i.properties.id === row.id).properties
        .classroom.id,
    ).toBe(other.id);

    // "Descargar": the course name raw in the path (the browser percent-encodes it); any bytes are saved as file.xlsx.
    const blob = http200(
      await client.call(
        'GET',
        `/api/v2/download-file/excel/${course.id}/${encodeURIComponent(course.description)}`,
      ),
      'roster',
    );
    expect(blob.raw.subarray(0, 2).toString()).toBe('PK');
  });
});

describe('§2.14 Seguimiento (FollowUp)', () => {
  it('§5.9 the paginator: page 1, then current_page + 1 while next_page_url; Σ data.length reaches total; the raw rows carry the mapUser fields', async () => {
    const pages = [];
    let page = 1;
    for (;;) {
      const answer = http200(
        await client.call('GET', `/api/v2/course-registered-user/${course.id}/users?page=${page}`),
        `page ${page}`,
      );
      const body = expectShape(
        getCourseRegisteredUserUsersPage,
        answer,
        `GET /api/v2/course-registered-user/{c}/users?page=${page}`,
      );
      expect(body._data.current_page).toBe(page);
      pages.push(body._data);
      if (!body._data.next_page_url) break;
      // The next page's URL is a working address of the same list.
      const next = expectShape(
        getCourseRegisteredUserUsersPage,
        await client.follow(body._data.next_page_url),
        'next_page_url',
      );
      expect(next._data.current_page).toBe(page + 1);
      page = body._data.current_page + 1;
    }
    expect(pages.length).toBeGreaterThan(1);
    const total = pages[0]!.total;
    const rows = pages.flatMap((p) => p.data);
    // The progress bar must reach exactly 100 %.
    expect((rows.length / total) * 100).toBe(100);
    expect(new Set(rows.map((r) => r.id)).size).toBe(total);
    // Straight after the first sync (every result in Formativa), Seguimiento shows every student
    // Moodle has, each card a number (one never matched in Moodle has no results: left out, as in 1.x).
    const students = rows.filter(
      (r) => r.profile.description === 'Estudiante' && r.is_sincronized === 1,
    );
    expect(students.length).toBeGreaterThan(rows.length / 2);
    expect(students.filter((r) => !followUpKeeps(r)).map((r) => r.id)).toEqual([]);
    const sections = expectShape(
      sectionsList,
      http200(await client.call('GET', '/api/v2/sections'), 'sections'),
      'GET /api/v2/sections',
    )._data.collections;
    expect(students.map((r) => cardProgress(r, sections)).filter((p) => p !== '0')).toEqual([]);
    for (const r of rows)
      for (const a of r.activity_course_users)
        expect(typeof a.activity.section.description).toBe('string');

    // A tutor on Seguimiento: the same pages, with the students of their own classrooms only.
    const tutor = await world.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'tutor1@sigaf.cl')
      .executeTakeFirstOrThrow();
    const room = rows.find((r) => r.classroom_id !== null)!.classroom_id!;
    // The demo gives its tutors a classroom of every course: this one only, here.
    await world.ctx.db
      .deleteFrom('classroom_tutors')
      .where('user_id', '=', tutor.id)
      .where('course_id', '=', course.id)
      .execute();
    expect(
      (
        await client.call('PUT', `/api/v2/courses/${course.id}/classrooms/${room}/tutors`, {
          user_ids: [tutor.id],
        })
      ).status,
    ).toBe(200);
    const asTutor = originalClient(world.ctx);
    asTutor.token = expectShape(
      authLogin,
      await asTutor.call('POST', '/api/auth/login', {
        email: 'tutor1@sigaf.cl',
        password: world.password,
        remember_me: false,
      }),
      'POST /api/auth/login',
    ).access_token;
    const tutorRows = [];
    for (let p = 1; ; p++) {
      const body = expectShape(
        getCourseRegisteredUserUsersPage,
        http200(
          await asTutor.call('GET', `/api/v2/course-registered-user/${course.id}/users?page=${p}`),
          'tutor page',
        ),
        'GET /api/v2/course-registered-user/{c}/users (tutor)',
      );
      tutorRows.push(...body._data.data);
      if (!body._data.next_page_url) break;
    }
    expect(tutorRows.length).toBe(rows.filter((r) => r.classroom_id === room).length);
    expect(tutorRows.every((r) => r.classroom_id === room)).toBe(true);
    // The toolbar's "Última sincronización el {…}" on every "Buscar", for a tutor as well.
    expectShape(
      getCourseRegisteredUsersLastSync,
      http200(
        await asTutor.call('GET', `/api/v2/course-registered-users/${course.id}/last-sync`),
        'tutor last-sync',
      ),
      'GET /api/v2/course-registered-users/{c}/last-sync (tutor)',
    );

    // Ticket.vue before "Masivo": all of them at once, an array.
    const all = expectShape(
      getCourseRegisteredUserUsersAll,
      http200(
        await client.call('GET', `/api/v2/course-registered-user/${course.id}/users/all`),
        'users/all',
      ),
      'GET /api/v2/course-registered-user/{c}/users/all',
    );
    expect(all._data.map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort());
  });
});

describe('§2.15 Moodle synchronisation (Actividad, Gestión de estudiantes)', () => {
  it("§5.13 users sync by real HTTP 201 / 204, activities sync by top-level success, one student's activities from Moodle, the pending-activity search", async () => {
    // "Usuarios": HTTP 201 ⇒ reload and "Sincronización exitosa".
    const users = await client.call(
      'GET',
      `/api/v2/sync/course-users/${course.idCourseMoodle}/users`,
    );
    expect(users.status).toBe(201);
    expectShape(syncCourseUsersFound, users, 'GET /api/v2/sync/course-users/{m}/users');

    // Row "Sincronizar": by RUT (raw, unencoded), 201 then the student's activities; 204 for someone Moodle does not know.
    const { synced, local } = await demoStudents();
    const one = await client.call(
      'GET',
      `/api/v2/sync/course-users/${course.idCourseMoodle}/users/${synced.rut}`,
    );
    expect(one.status).toBe(201);
    expectShape(syncCourseUsersFound, one, 'GET /api/v2/sync/course-users/{m}/users/{rut}');
    const activities = await client.call(
      'GET',
      `/api/v2/sync/users/${synced.id}/courses/${course.id}/activities`,
    );
    expect(activities.status).toBeGreaterThanOrEqual(200);
    expect(activities.status).toBeLessThan(300);
    expectShape(
      syncUserCourseActivities,
      activities,
      'GET /api/v2/sync/users/{id}/courses/{c}/activities',
    );
    const nobody = await client.call(
      'GET',
      `/api/v2/sync/course-users/${course.idCourseMoodle}/users/${local.rut}`,
    );
    expect(nobody.status).toBe(204);
    expectShape(
      syncCourseUsersNotInMoodle,
      nobody,
      'GET /api/v2/sync/course-users/{m}/users/{rut} (not in Moodle)',
    );

    // Actividad: "Actividades" per course of the category having an idCourseMoodle.
    const courseSync = await client.call(
      'GET',
      `api/v2/sync/course/${course.idCourseMoodle}/activities`,
    );
    expectShape(syncCourseActivities, courseSync, 'GET /api/v2/sync/course/{m}/activities');

    // Gestión de estudiantes "Actividades": the course's non-Formativa activities' Moodle ids, one call per student.
    const all = expectShape(
      activitiesList,
      await client.call('GET', '/api/v2/activities'),
      'GET /api/v2/activities',
    );
    const contributing = all._data.collections
      .map(
        (a) =>
          a.properties as {
            idActivityMoodle: number;
            course: { properties: { id: number } };
            section: { properties: { description: string } };
          },
      )
      .filter(
        (a) =>
          a.course.properties.id === course.id && a.section.properties.description !== 'Formativa',
      )
      .map((a) => a.idActivityMoodle);
    const ids = JSON.stringify(
      contributing.length
        ? contributing
        : all._data.collections
            .map((a) => (a.properties as { idActivityMoodle: number }).idActivityMoodle)
            .slice(0, 3),
    );
    const list = expectShape(
      getCourseRegisteredUsers,
      await client.call('GET', `/api/v2/courses/${course.id}/registered-users`),
      'GET /api/v2/courses/{id}/registered-users',
    );
    const students = list._data.relationships.collection.data.map((i) => i.properties);
    const known = students.find((s) => s.registeredUser.id_registered_moodle)!;
    const mine = await client.call(
      'GET',
      `api/v2/sync/course-users/${known.course.id_course_moodle}/users/${known.registeredUser.id_registered_moodle}/activities/${ids}`,
    );
    expect(mine.status).toBe(200);
    expect(
      expectShape(
        syncCourseUserContributeActivities,
        mine,
        'GET /api/v2/sync/course-users/{m}/users/{moodleUser}/activities/{ids}',
      ).success,
    ).toBe(true);
    const wanted = new Set(JSON.parse(ids) as number[]);
    const got = mine.body._data.activities.collections as Array<{
      properties: { activity: { idActivityMoodle: number } };
    }>;
    expect(got.length).toBeGreaterThan(0);
    for (const a of got) expect(wanted.has(a.properties.activity.idActivityMoodle)).toBe(true);
    // A student never matched in Moodle: the client puts the literal `null` in the path; it must not fail (2xx).
    const never = students.find((s) => !s.registeredUser.id_registered_moodle)!;
    const missing = await client.call(
      'GET',
      `api/v2/sync/course-users/${never.course.id_course_moodle}/users/${never.registeredUser.id_registered_moodle}/activities/${ids}`,
    );
    expect(missing.status).toBe(200);
    expect(
      expectShape(
        syncCourseUserContributeActivities,
        missing,
        'GET /api/v2/sync/course-users/{m}/users/null/activities/{ids}',
      ).success,
    ).toBe(false);
    expect(missing.body.statusCode).toBe(204);
    // An empty list (a course with only Formativa activities) is no error either; a malformed one is a clear 4xx.
    expect(
      (
        await client.call(
          'GET',
          `api/v2/sync/course-users/${course.idCourseMoodle}/users/${known.registeredUser.id_registered_moodle}/activities/[]`,
        )
      ).status,
    ).toBe(200);
    const bad = await client.call(
      'GET',
      `api/v2/sync/course-users/${course.idCourseMoodle}/users/${known.registeredUser.id_registered_moodle}/activities/[1,x`,
    );
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body._data)).toContain('Lista de identificadores no válida.');

    // The massive ticket dialog's "Buscar": top-level usersWithPendingActivities of raw enrolments.
    const pending = await client.call(
      'GET',
      `/api/v2/activities/${ids}/course-registered-users/${course.id}`,
    );
    expect(pending.status).toBe(200);
    const found = expectShape(
      getActivitiesCourseRegisteredUsers,
      pending,
      'GET /api/v2/activities/{ids}/course-registered-users/{c}',
    );
    for (const u of found.usersWithPendingActivities)
      expect(u.registered_user.rut).toMatch(/-[\dK]$/);
    // Pending: one of the chosen activities neither completed nor graded in Moodle (the same answer lists every student's state).
    type Row = {
      id: number;
      activities: Array<{ completionState: number | null; grade: number | null }>;
    };
    const isPending = (r: Row) =>
      r.activities.some(
        (a) => !(a.completionState !== null && a.completionState > 0) && a.grade === null,
      );
    expect(found.usersWithPendingActivities.map((u) => u.id).sort()).toEqual(
      (pending.body._data as Row[])
        .filter(isPending)
        .map((r) => r.id)
        .sort(),
    );
    // "Seleccionados": every student with one pending is offered (none has withdrawn), results all in Formativa as synchronised.
    expect(found.usersWithPendingActivities.length).toBeGreaterThan(0);
    expect(
      found.usersWithPendingActivities
        .filter((u) => !masivoKeeps(u as unknown as RawEnrolment))
        .map((u) => u.id),
    ).toEqual([]);
  });
});

describe('§2.16 Mail', () => {
  it('attachments upload (multipart) and delete (`_data` truthy); single and massive messages as the client posts them', async () => {
    const tickets = await world.ctx.db
      .selectFrom('tickets')
      .select('id')
      .where('course_id', '=', course.id)
      .orderBy('id')
      .limit(3)
      .execute();
    expect(tickets.length).toBe(3);
    const file = {
      name: 'guia.pdf',
      content: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
      type: 'application/pdf',
    };
    const up = expectShape(
      postMailUploadFile,
      await upload('/api/v2/mail/upload/file', {}, file),
      'POST /api/v2/mail/upload/file',
    );
    expect(up._data.size).toBe(file.content.length);
    expectShape(
      postMailDeleteFile,
      await client.call('POST', '/api/v2/mail/delete/file', { name: up._data.name }),
      'POST /api/v2/mail/delete/file',
    );

    const attached = expectShape(
      postMailUploadFile,
      await upload('/api/v2/mail/upload/file', {}, file),
      'POST /api/v2/mail/upload/file',
    );
    // Create: the upload answers themselves in `files`, CC as 'a@b;c@d'.
    expectShape(
      postMailSingle,
      await client.call('POST', '/api/v2/mail/single', {
        ticketId: tickets[0]!.id,
        text: '<p>Hola</p>',
        subject: 'Bienvenida',
        files: [attached._data],
        CCRecipient: 'tutor@correo.test;otro@correo.test',
      }),
      'POST /api/v2/mail/single',
    );
    // Edit: every key, an empty files array.
    expectShape(
      postMailSingle,
      await client.call('POST', '/api/v2/mail/single', {
        subject: 'Recordatorio',
        text: '<p>Recuerde</p>',
        files: [],
        CCRecipient: '',
        ticketId: tickets[1]!.id,
      }),
      'POST /api/v2/mail/single (edit)',
    );
    // Massive: `ticketsId` a JSON string.
    expectShape(
      postMailMassive,
      await client.call('POST', '/api/v2/mail/massive', {
        ticketsId: JSON.stringify(tickets.map((t) => t.id)),
        text: '<p>Aviso</p>',
        subject: 'Aviso',
        files: [],
      }),
      'POST /api/v2/mail/massive',
    );
  });
});

type RawEnrolment = {
  activity_course_users: Array<{
    qualification_moodle: string;
    status_moodle: string;
    activity: { weighing: number; section: { description: string } };
  } | null>;
};

/** Seguimiento (FollowUp.vue mapActivityUserByCourse) adds a student only when they have results. */
function followUpKeeps(e: RawEnrolment) {
  return e.activity_course_users.length !== 0;
}

/** Ticket › Masivo (SigafCreateMultipleTicket.vue filterQuitUser): results, none a withdrawal finished or in course. */
function masivoKeeps(e: RawEnrolment) {
  if (e.activity_course_users.length === 0) return false;
  return !e.activity_course_users.some(
    (a) =>
      a!.activity.section.description === 'Renuncia' &&
      ['Finalizado', 'En curso'].includes(a!.status_moodle),
  );
}

/**
 * "Progreso" as the original client computes it (constants.js mapUser; FollowUp.vue the same):
 * the enrolment's graded activities with a weighing ÷ the activities of every section outside
 * PROGRESS_LEFT_OUT, from GET /api/v2/sections (across every course), as a percentage text.
 */
function cardProgress(
  e: RawEnrolment,
  sections: ReadonlyArray<{ properties: { description: string; activities: unknown[] } }>,
) {
  if (e.activity_course_users.length === 0) return '0';
  const progress = e.activity_course_users.filter(
    (a) => a && !['', '-'].includes(a.qualification_moodle) && a.activity.weighing !== 0,
  ).length;
  const total = sections
    .filter((s) => !PROGRESS_LEFT_OUT.includes(s.properties.description))
    .reduce((n, s) => n + s.properties.activities.length, 0);
  return Number.parseFloat(String((progress / total) * 100)).toFixed(0);
}

describe('§2.14 "Progreso" on the student card (ticket dialogs) and Seguimiento', () => {
  it('§5.9 draws 0 % (never "NaN%") while every activity is still in Formativa, and a percentage once staff file them in units', async () => {
    const sections = async () =>
      expectShape(
        sectionsList,
        http200(await client.call('GET', '/api/v2/sections'), 'sections'),
        'GET /api/v2/sections',
      )._data.collections;
    // As synchronised: every activity in Formativa with weighing 0, and every section the server
    // has is one the client leaves out; the list ends with the activities still outside a unit.
    const before = await sections();
    const unfiledEntry = before.find((s) => s.properties.id === UNFILED_SECTION.id)!;
    expect(unfiledEntry.properties).toMatchObject({
      description: UNFILED_SECTION.description,
      key: UNFILED_SECTION.key,
    });
    expect(unfiledEntry.properties.activities.length).toBeGreaterThan(0);
    expect(
      before
        .filter((s) => s !== unfiledEntry)
        .every((s) => PROGRESS_LEFT_OUT.includes(s.properties.description)),
    ).toBe(true);
    const page = async () =>
      expectShape(
        getCourseRegisteredUserUsersPage,
        http200(
          await client.call('GET', `/api/v2/course-registered-user/${course.id}/users?page=1`),
          'page 1',
        ),
        'Seguimiento page 1',
      )._data.data;
    const ticketCards = async () => {
      const tickets = expectShape(
        getTicketsOfCourse,
        http200(
          await client.call('GET', `/api/v2/tickets/course-registered-users/course/${course.id}`),
          'tickets',
        ),
        'GET /api/v2/tickets/course-registered-users/course/{c}',
      );
      return tickets._data.collections.map(
        (t) => t.properties.courseRegisteredUser as RawEnrolment,
      );
    };
    const unfiled = [...(await page()), ...(await ticketCards())];
    expect(unfiled.length).toBeGreaterThan(0);
    expect(
      unfiled
        .filter((e) => (e as { is_sincronized?: number }).is_sincronized === 1)
        .every(followUpKeeps),
    ).toBe(true);
    expect(unfiled.map((e) => cardProgress(e, before)).filter((p) => p !== '0')).toEqual([]);
    // The results are still there for the screens that list them (Ticket's "Actividades").
    const enrolled = unfiled[0] as RawEnrolment & { id: number };
    const listed = await client.call(
      'GET',
      `/api/v2/activity-course-registered-user/${enrolled.id}`,
    );
    expect(
      expectShape(
        getActivityCourseRegisteredUser,
        listed,
        'GET /api/v2/activity-course-registered-user/{id}',
      ).activityCourseRegisteredUser.length,
    ).toBeGreaterThan(0);

    // What staff do first (Mantenedor › Sección, Configuración › Actividades): the units, each
    // activity in its unit, the graded ones with a weighing.
    const units = new Map<string, { id: number; description: string }>();
    for (const unit of ['Unidad 1', 'Unidad 2', 'Unidad 3', 'Unidad 4']) {
      units.set(
        unit,
        expectShape(
          sectionSave,
          await client.call('POST', '/api/v2/sections', { id: '', description: unit }),
          'POST /api/v2/sections',
        )._data.properties,
      );
    }
    const activities = expectShape(
      activitiesList,
      await client.call('GET', '/api/v2/activities'),
      'GET /api/v2/activities',
    )._data.collections;
    for (const { properties: a } of activities) {
      const unit = units.get(`Unidad ${/^Actividad (\d)\./.exec(a.description)?.[1]}`);
      if (a.course.properties.id !== course.id || !unit) continue;
      const row = {
        id: a.id,
        description: a.description,
        weighing: /\((assign|quiz)\)/.test(a.description) ? 10 : 0,
        section: { ...unit, activities: [], numberActivities: 0 },
        course: a.course.properties,
        idActivityMoodle: a.idActivityMoodle,
        type: a.type,
        section_id: unit.id,
      };
      http200(
        await client.call('PUT', `/api/v2/activities/${a.id}`, row),
        `PUT /api/v2/activities/${a.id}`,
      );
    }
    const after = await sections();
    // Filed: the entry is gone, the units divide.
    expect(after.some((s) => s.properties.id === UNFILED_SECTION.id)).toBe(false);
    const cards = [...(await page()), ...(await ticketCards())].map((e) =>
      Number(cardProgress(e, after)),
    );
    expect(cards.length).toBeGreaterThan(0);
    expect(
      cards.every((p) => Number.isFinite(p) && p >= 0 && p <= 100),
      JSON.stringify(cards),
    ).toBe(true);
    expect(cards.some((p) => p > 0)).toBe(true);
  });
});
