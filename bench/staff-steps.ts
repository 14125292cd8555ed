import { PGlite } from '@electric-sql/pglite';
import { computeDv, formatRut } from '@sigaf/contract';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { migrate, openDatabase, PGLITE_PARSERS } from '../apps/server/src/db/database.js';
import { seed } from '../apps/server/src/db/seed.js';

/**
 * The steps staff wait for on a normal course (300 students, 600 tickets), through the real app
 * (in-process requests, embedded database): a small CSV import's preview (8 rows, budget 300 ms),
 * the ticket Excel report (budget 1 s), Estadística's whole load, the one call it makes (budget
 * 1 s), and "reassign all" of Mi agenda's workload table: an operator's open tickets listed, then
 * moved to another operator with their reminders (budget 1 s). The median of the runs.
 */
const ADMIN = { email: 'bench-steps@sigaf.cl', password: 'Bench-Steps-2026' };
const STUDENTS = 300;
const TICKETS = 600;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function staffStepsBench(quick = false): Promise<Record<string, number>> {
  const handle = await openDatabase({
    dataDir: '',
    pglite: await PGlite.create({ parsers: PGLITE_PARSERS }),
  });
  const db = handle.db;
  await migrate(db);
  await seed(db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, adminName: 'Bench' });
  await db
    .updateTable('users')
    .set({ is_first_login: 1 })
    .where('email', '=', ADMIN.email)
    .execute();
  const app = await buildApp(
    loadConfig(
      {},
      {
        LOG_LEVEL: 'silent',
        SERVE_WEB: false,
        APP_SECRET: 'bench-secret-bench-secret-bench-secret',
        NODE_ENV: 'test',
      },
    ),
    db,
  );
  await app.ready();
  const token = (
    await app.inject({ method: 'POST', url: '/api/auth/login', payload: ADMIN })
  ).json().access_token as string;
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers,
      ...(payload ? { payload: payload as object } : {}),
    });
    if (res.statusCode >= 400)
      throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return res;
  };

  // A normal course: 300 students, 600 tickets across the catalogue values.
  const platform = await db.selectFrom('platforms').select('id').executeTakeFirstOrThrow();
  const profile = await db
    .selectFrom('profiles')
    .select('id')
    .where('key', '=', 'student')
    .executeTakeFirstOrThrow();
  const category = await db
    .insertInto('categories')
    .values({ description: 'Bench', category_code: 'BS', platform_id: platform.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const course = (
    await db
      .insertInto('courses')
      .values({ description: 'Curso normal', category_id: category.id })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const enrolments: number[] = [];
  for (let i = 0; i < STUDENTS; i++) {
    const body = 16_000_000 + i;
    const s = await db
      .insertInto('registered_users')
      .values({
        rut: formatRut({ body, dv: computeDv(body) }),
        name: `Nombre${i}`,
        last_name: `Paterno${i}`,
        email: `a${i}@correo.cl`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    enrolments.push(
      (
        await db
          .insertInto('course_registered_users')
          .values({ course_id: course, registered_user_id: s.id, profile_id: profile.id })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  }
  const ids = async (
    table:
      'status_tickets' | 'type_tickets' | 'priority_tickets' | 'source_tickets' | 'motive_tickets',
  ) => (await db.selectFrom(table).select('id').execute()).map((r) => r.id);
  const [statuses, types, priorities, sources, motives] = await Promise.all([
    ids('status_tickets'),
    ids('type_tickets'),
    ids('priority_tickets'),
    ids('source_tickets'),
    ids('motive_tickets'),
  ]);
  const pick = (xs: number[], i: number) => xs[i % xs.length]!;
  // Two operators; the first has every ticket of the course.
  const operatorRole = (
    await db
      .selectFrom('roles')
      .select('id')
      .where('key', '=', 'operator')
      .executeTakeFirstOrThrow()
  ).id;
  const operators = await db
    .insertInto('users')
    .values(
      [1, 2].map((n) => ({
        name: `Operador ${n}`,
        email: `operador${n}@bench.cl`,
        password: 'x',
        is_first_login: 1,
        role_id: operatorRole,
      })),
    )
    .returning('id')
    .execute();
  for (let i = 0; i < TICKETS; i++) {
    await call('POST', '/api/v2/tickets', {
      course_registered_user_id: enrolments[i % STUDENTS],
      status_ticket_id: pick(statuses, i),
      type_ticket_id: pick(types, i),
      priority_ticket_id: pick(priorities, i),
      source_ticket_id: pick(sources, i),
      motive_ticket_id: pick(motives, i),
      user_assigned_id: operators[0]!.id,
    });
  }

  const runs = quick ? 3 : 7;
  const time = async (step: () => Promise<unknown>) => {
    const out: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await step();
      out.push(performance.now() - t);
    }
    return Math.round(median(out));
  };

  // A CSV of 8 new students, previewed (nothing written).
  const csv = [
    'RUT;Nombre;Paterno;Materno;Email',
    ...Array.from(
      { length: 8 },
      (_, i) =>
        `${formatRut({ body: 19_000_000 + i, dv: computeDv(19_000_000 + i) })};Nuevo${i};Alumno;Prueba;nuevo${i}@correo.cl`,
    ),
  ].join('\r\n');
  const boundary = '----benchsteps';
  const upload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="course_id"\r\n\r\n${course}\r\n`,
    ),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="alumnos.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
    ),
  ]);
  const preview = () =>
    app
      .inject({
        method: 'POST',
        url: '/api/v2/registered-users/import',
        headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: upload,
      })
      .then((res) => {
        if (res.statusCode >= 400)
          throw new Error(`import preview: ${res.statusCode} ${res.body.slice(0, 200)}`);
      });

  // Estadística asks for the whole course in one answer (web: features/dashboard/prefetch.ts).
  const dashboard = [`/api/v2/dashboard/courses/${course}`];

  // "Reassign all", as Mi agenda does it (web: features/agenda/Workload.tsx): the operator's open
  // tickets, then the move; each run moves them back the other way.
  let move = 0;
  const reassignAll = async () => {
    const [from, to] =
      move++ % 2 === 0
        ? [operators[0]!.id, operators[1]!.id]
        : [operators[1]!.id, operators[0]!.id];
    const open = (await call('GET', `/api/v2/tickets/operator/${from}?status=open&compact=true`))
      .json()
      ._data.collections.map((c: { properties: { id: number } }) => c.properties.id);
    await call('POST', '/api/v2/agenda/reassign', {
      to_user_id: to,
      ticket_ids: open.slice(0, 500),
      reminder_ids: [],
    });
  };

  const results = {
    'steps.import.preview.csv8.ms': await time(preview),
    'steps.report.tickets.xlsx.ms': await time(() =>
      call('GET', `/api/v2/reports/courses/${course}/excel-download`),
    ),
    'steps.dashboard.course.ms': await time(() =>
      Promise.all(dashboard.map((url) => call('GET', url))),
    ),
    'steps.dashboard.requests': dashboard.length,
    'steps.agenda.reassign.all.ms': await time(reassignAll),
  };
  await app.close();
  await handle.close();
  return results;
}
