import { chileParts, legacy } from '@sigaf/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TEST_ADMIN } from '../fixtures.js';
import { createTestContext, type TestContext } from '../helpers.js';
import {
  demoWorld,
  firstSyncDone,
  expectShape,
  originalClient,
  type ClientAnswer,
  type DemoWorld,
  type OriginalClient,
} from './original-client.js';

/**
 * docs/development/original-api.md §2.18 Dashboard ("Estadística") and §2.19 Reports, as the original client
 * calls them: on the demo data (every call on load, after "Buscar", on a course change; the ticket
 * report's day chips and download; the follow-up report by classroom and section description), and
 * on an empty database where the course 2 the client asks for on load (§4) does not exist.
 */

/** The course the original Dashboard asks for on mount, before any selection (views/Dashboard.vue:453-454). */
const HARD_CODED_COURSE = 2;

// Reads of other sections that these screens make, checked for what these screens use of them.
/** §2.8 GET /api/v2/courses/{c}/registered-users on the follow-up report: classroom chips from `properties.classroom.description`. */
const registeredUsersForChips = legacy.legacyEnvelope(
  legacy.legacyRelationshipCollection(
    z.looseObject({
      properties: z.looseObject({ classroom: z.looseObject({ description: z.string() }) }),
    }),
  ),
);
/** §2.14 GET /api/v2/course-registered-users/{c}/last-sync, after "Buscar" in the toolbar: a string or nothing yet. */
const lastSync = legacy.legacyEnvelope(z.string().nullable());

type Check = [url: string, schema: z.ZodTypeAny, what: string];

/** The sequence after "Buscar" (Dashboard.vue:462-480), in the client's order; paths written as the client writes them. */
function afterSearch(c: number): Check[] {
  return [
    [`api/v2/tickets/${c}/last-day/count`, legacy.ticketsLastDayCount, '§2.18 #1 last-day/count'],
    [`api/v2/tickets/${c}/open/count`, legacy.ticketsOpenCount, '§2.18 #2 open/count'],
    [`api/v2/tickets/${c}/close/count`, legacy.ticketsCloseCount, '§2.18 #3 close/count'],
    [`api/v2/tickets/${c}/total/count`, legacy.ticketsTotalCount, '§2.18 #4 total/count'],
    [
      `/api/v2/tickets/${c}/status-motive-chart`,
      legacy.ticketsStatusMotiveChart,
      '§2.18 #5 status-motive-chart',
    ],
    [`/api/v2/tickets/${c}/type-chart`, legacy.ticketsTypeChart, '§2.18 #6 type-chart'],
    [`/api/v2/tickets/${c}/motive-chart`, legacy.ticketsMotiveChart, '§2.18 #7 motive-chart'],
    [`/api/v2/tickets/${c}/age-chart`, legacy.ticketsAgeChart, '§2.18 #8 age-chart'],
    [`/api/v2/tickets/${c}/source-chart`, legacy.ticketsSourceChart, '§2.18 #9 source-chart'],
    [
      `/api/v2/tickets/${c}/priority-chart`,
      legacy.ticketsPriorityChart,
      '§2.18 #10 priority-chart',
    ],
    [`/api/v2/tickets/${c}/status-chart`, legacy.ticketsStatusChart, '§2.18 #11 status-chart'],
    [
      `/api/v2/course-registered-users/${c}/status/count`,
      legacy.courseRegisteredUsersStatusCount,
      '§2.18 #12 status/count',
    ],
    [
      `/api/v2/course-registered-users/${c}/logged-time/count`,
      legacy.courseRegisteredUsersLoggedTimeCount,
      '§2.18 #13 logged-time/count',
    ],
    [
      `/api/v2/tickets/${c}/status-operator-chart`,
      legacy.ticketsStatusOperatorChart,
      '§2.18 #14 status-operator-chart',
    ],
    [
      `/api/v2/course-registered-users/${c}/follow-student-card`,
      legacy.courseRegisteredUsersFollowStudentCard,
      '§2.18 #15 follow-student-card',
    ],
    [
      `/api/v2/course-registered-users/${c}/progress-chart`,
      legacy.courseRegisteredUsersProgressChart,
      '§2.18 #16 progress-chart',
    ],
    [
      `/api/v2/course-registered-users/${c}/progress-chart-avance`,
      legacy.courseRegisteredUsersProgressChartAvance,
      '§2.18 #17 progress-chart-avance',
    ],
  ];
}

/** The Dashboard's mount (Dashboard.vue:443-459): the lists, then source-chart and total/count of course 2. */
const onMount: Check[] = [
  ['/api/v2/tickets', legacy.getTickets, 'GET /api/v2/tickets (mount)'],
  ['/api/v2/users', legacy.usersList, 'GET /api/v2/users (mount)'],
  ['/api/v2/categories', legacy.categoriesList, 'GET /api/v2/categories (mount)'],
  ['/api/v2/priority-tickets', legacy.ticketCatalogueList, 'GET /api/v2/priority-tickets (mount)'],
  ['/api/v2/status-tickets', legacy.statusTicketsList, 'GET /api/v2/status-tickets (mount)'],
  [
    `/api/v2/tickets/${HARD_CODED_COURSE}/source-chart`,
    legacy.ticketsSourceChart,
    '§4 source-chart of course 2 (mount)',
  ],
  [
    `api/v2/tickets/${HARD_CODED_COURSE}/total/count`,
    legacy.ticketsTotalCount,
    '§4 total/count of course 2 (mount)',
  ],
];

/** Calls each in turn (the client awaits each before the next), checks HTTP 2xx and the shape; answers by name. */
async function run(client: OriginalClient, checks: Check[]) {
  const out: Record<string, { answer: ClientAnswer; data: any }> = {};
  for (const [url, schema, what] of checks) {
    const answer = await client.call('GET', url);
    expect(answer.status, `${what}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(200);
    out[what] = { answer, data: expectShape(schema, answer, `GET ${url}`) };
  }
  return out;
}

/** Progress bars: "Realizado" and "No realizado" per label, percentages adding up to 100 (or 0 / 0 when nobody has to do it). */
function expectPercentages(chart: {
  labels: string[];
  datasets: Array<{ label?: string; data: number[] }>;
}) {
  expect(chart.datasets.map((d) => d.label)).toEqual(['Realizado', 'No realizado']);
  chart.labels.forEach((label, i) => {
    const [done, notDone] = chart.datasets.map((d) => d.data[i]!);
    expect(done! + notDone!, label).toBeOneOf([0, 100]);
  });
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const valueOf = (chart: { labels: string[]; datasets: Array<{ data: number[] }> }, label: string) =>
  chart.datasets[0]!.data[chart.labels.indexOf(label)] ?? 0;

/** The dashboard's figures of one course, checked against each other. */
function expectConsistent(out: Awaited<ReturnType<typeof run>>) {
  const n = (key: string) => out[key]!.data as number;
  const chartOf = (key: string) => out[key]!.data._data.chartData;
  const total = n('§2.18 #4 total/count');
  // Every count is a bare JSON number: the body itself, as the store commits it.
  for (const key of [
    '§2.18 #1 last-day/count',
    '§2.18 #2 open/count',
    '§2.18 #3 close/count',
    '§2.18 #4 total/count',
  ]) {
    expect(out[key]!.answer.raw.toString()).toBe(String(n(key)));
  }
  const status = chartOf('§2.18 #11 status-chart');
  expect(valueOf(status, 'Abierto')).toBe(n('§2.18 #2 open/count'));
  expect(valueOf(status, 'Cerrado')).toBe(n('§2.18 #3 close/count'));
  for (const key of [
    '§2.18 #11 status-chart',
    '§2.18 #6 type-chart',
    '§2.18 #9 source-chart',
    '§2.18 #10 priority-chart',
    '§2.18 #8 age-chart',
  ]) {
    expect(sum(chartOf(key).datasets[0].data), key).toBe(total);
  }
  for (const key of ['§2.18 #5 status-motive-chart', '§2.18 #14 status-operator-chart']) {
    const chart = chartOf(key);
    expect(chart.datasets.map((d: { label: string }) => d.label)).toEqual(['Abierto', 'Cerrado']);
    expect(sum(chart.datasets.flatMap((d: { data: number[] }) => d.data)), key).toBe(total);
  }
  const card = out['§2.18 #15 follow-student-card']!.data._data;
  // The matrícula holds the students not synchronised too, in no other figure (the domain rules' table of figures).
  expect(card.resign + card.active + card.inactive + card.unsynced).toBe(card.total);
  expect(sum(chartOf('§2.18 #12 status/count').datasets[0].data)).toBe(card.total - card.unsynced);
  expect(sum(chartOf('§2.18 #13 logged-time/count').datasets[0].data)).toBe(
    card.total - card.unsynced,
  );
  return { total, card };
}

describe('§2.18 Estadística and §2.19 reports on the demo data', () => {
  let world: DemoWorld;
  let operator: OriginalClient;
  let admin: OriginalClient;
  /** The demo courses as the toolbar lists them: category → followed courses href (§3 point 1). */
  let courses: Array<{ id: number; description: string }>;

  beforeAll(async () => {
    world = await demoWorld();
    // The first demo course arrives synchronised with Moodle (activities, grades).
    await firstSyncDone(world);
    operator = originalClient(world.ctx);
    admin = originalClient(world.ctx);
    expect((await operator.signIn('operador1@sigaf.cl', world.password)).status).toBe(200);
    expect((await admin.signIn('demo.admin@sigaf.cl', world.password)).status).toBe(200);
    await sortActivities(admin, world.summary.queuedCourseId!);
  }, 120_000);
  afterAll(() => world?.close());

  /**
   * Configuración › Actividades, as staff do before the follow-up report means anything: activities
   * arrive from Moodle in "Formativa"; each is put in its section (units created in Mantenedor ›
   * Sección, the fixed sections by name) and the graded ones get a weighing (§2.5 POST, §2.9 PUT).
   */
  async function sortActivities(client: OriginalClient, courseId: number) {
    const sections = new Map<string, { id: number; description: string }>();
    const list = await client.call('GET', '/api/v2/sections');
    for (const item of list.body._data.collections)
      sections.set(item.properties.description, item.properties);
    for (const unit of ['Unidad 1', 'Unidad 2', 'Unidad 3', 'Unidad 4']) {
      if (sections.has(unit)) continue;
      const created = await client.call('POST', '/api/v2/sections', { id: '', description: unit });
      expect(created.body.success, JSON.stringify(created.body).slice(0, 300)).toBe(true);
      sections.set(unit, created.body._data.properties);
    }
    const fixed: Record<string, string> = {
      'Formulario de renuncia': 'Renuncia',
      'Encuesta de satisfacción': 'Encuesta',
    };
    const activities = await client.call('GET', '/api/v2/activities');
    for (const { properties: a } of activities.body._data.collections) {
      if (a.course.properties.id !== courseId) continue;
      const unit = /^Actividad (\d)\./.exec(a.description)?.[1];
      const name = unit ? `Unidad ${unit}` : (fixed[a.description] ?? a.description);
      const section = sections.get(name);
      if (!section) continue;
      const weighing = /\((assign|quiz)\)/.test(a.description) ? 10 : 0;
      const row = {
        id: a.id,
        description: a.description,
        weighing,
        section: { ...section, activities: [], numberActivities: 0 },
        course: a.course.properties,
        idActivityMoodle: a.idActivityMoodle,
        type: a.type,
        section_id: section.id,
      };
      const saved = await client.call('PUT', `/api/v2/activities/${a.id}`, row);
      expect(saved.status, JSON.stringify(saved.body).slice(0, 300)).toBe(200);
    }
  }

  /** The category/course toolbar (SigafCategoryCourseToolbar): categories, the followed courses href; "Buscar" then asks for the last sync. */
  async function toolbar(client: OriginalClient) {
    const categories = expectShape(
      legacy.categoriesList,
      await client.call('GET', '/api/v2/categories'),
      'GET /api/v2/categories',
    );
    const found: Array<{ id: number; description: string }> = [];
    for (const category of categories._data.collections) {
      const answer = await client.follow(category.relationships.links.href);
      expect(answer.status).toBe(200);
      const list = expectShape(
        legacy.categoryCourses,
        answer,
        `GET ${category.relationships.links.href}`,
      );
      found.push(
        ...list._data.relationships.collections.data.map((c) => ({
          id: c.properties.id,
          description: c.properties.description,
        })),
      );
    }
    return found;
  }

  async function search(client: OriginalClient, course: number) {
    const sync = await client.call('GET', `/api/v2/course-registered-users/${course}/last-sync`);
    expect(sync.status).toBe(200);
    expectShape(lastSync, sync, `GET /api/v2/course-registered-users/${course}/last-sync`);
    return run(client, afterSearch(course));
  }

  it('§4 on load: the lists and course 2 (hard-coded) answer as the Dashboard reads them', async () => {
    const out = await run(operator, onMount);
    const chart = out['§4 source-chart of course 2 (mount)']!.data._data.chartData;
    expect(chart.labels).toEqual(expect.arrayContaining(['Entrante', 'Saliente']));
    expect(sum(chart.datasets[0].data)).toBe(out['§4 total/count of course 2 (mount)']!.data);
  });

  it('§5.10 after "Buscar" and on a course change: the 17 calls in order, bare-number counts, figures that agree', async () => {
    courses = await toolbar(operator);
    expect(courses.length).toBe(world.summary.courses);
    let tickets = 0;
    const seen = new Set<number>();
    // The first course, then a change to each other course.
    for (const course of courses) {
      const { total, card } = expectConsistent(await search(operator, course.id));
      tickets += total;
      seen.add(card.total);
    }
    expect(tickets).toBe(world.summary.tickets);
    expect(tickets).toBeGreaterThan(0);
    // The progress charts: two datasets (Realizado / No realizado), one value per unit.
    const out = await run(operator, afterSearch(world.summary.queuedCourseId!).slice(15));
    for (const { data } of Object.values(out)) {
      const chart = data._data.chartData;
      expect(chart.labels).toEqual(
        expect.arrayContaining(['Encuesta', 'Pre Test A', 'Unidad 3', 'Unidad 4']),
      );
      for (const d of chart.datasets) expect(d.data).toHaveLength(chart.labels.length);
      expectPercentages(chart);
    }
  });

  it('§2.19 ticket report: day chips (DD-MM-YYYY), a chip un-toggled (`undefined`), another chip, and the download', async () => {
    const [course] = await toolbar(admin);
    const c = course!.id;
    // Chips over the days of the demo tickets of this course: the last three days with tickets.
    const rows = await world.ctx.db
      .selectFrom('tickets')
      .select('created_at')
      .where('course_id', '=', c)
      .orderBy('created_at', 'desc')
      .execute();
    const days = [
      ...new Set(rows.map((r) => chileParts(r.created_at as unknown as Date).date)),
    ].slice(0, 3);
    expect(days.length).toBeGreaterThan(0);
    expect(days[0]).toMatch(/^\d{2}-\d{2}-\d{4}$/);

    /** handleChart(): the three calls in order for the chip's date. */
    async function chip(date: string) {
      const charts = expectShape(
        legacy.reportsTypeTicket,
        await admin.call('GET', `/api/v2/reports/courses/${c}/type-ticket/${date}`),
        `GET …/type-ticket/${date}`,
      );
      const table = expectShape(
        legacy.reportsTableOperator,
        await admin.call('GET', `/api/v2/reports/courses/${c}/table-operator/${date}`),
        `GET …/table-operator/${date}`,
      );
      const card = expectShape(
        legacy.reportsDataCard,
        await admin.call('GET', `/api/v2/reports/courses/${c}/data-card/${date}`),
        `GET …/data-card/${date}`,
      );
      for (const answer of [charts, table, card]) expect(answer.success).toBe(true);
      return { charts: charts._data, table: table._data, card: card._data };
    }

    let created = 0;
    for (const date of days) {
      const { charts, table, card } = await chip(date);
      created += card.newTicket;
      expect(card.newTicket).toBeGreaterThan(0);
      expect(card.open + card.close).toBe(card.total);
      for (const key of ['status', 'source', 'type', 'priority', 'motive'] as const)
        expect(sum(charts[key].chartData.datasets[0]!.data), key).toBe(card.newTicket);
      // "Intentos según estado" counts the same attempts as the operators' column; operators appear once each (the row key).
      expect(sum(table.table.map((r) => r.attemps))).toBe(sum(table.chartData.datasets[0]!.data));
      expect(new Set(table.table.map((r) => r.operator)).size).toBe(table.table.length);
      for (const r of table.table) expect(r.close).toBeLessThanOrEqual(r.tickets);
    }
    expect(created).toBe(
      rows.filter((r) => days.includes(chileParts(r.created_at as unknown as Date).date)).length,
    );

    // The chip clicked again: un-toggled, the client sends the literal segment `undefined`.
    const none = await chip('undefined');
    expect(none.card).toMatchObject({ newTicket: 0, total: 0, open: 0, close: 0 });
    expect(none.table.table).toEqual([]);
    // Another chip afterwards works as before.
    expect((await chip(days[0]!)).card.newTicket).toBeGreaterThan(0);

    // "Descargar reporte": `excel` is read for `data.success`, then `excel-download` as a blob saved as file.xlsx.
    const ready = await admin.call('GET', `/api/v2/reports/courses/${c}/excel`);
    expect(ready.status).toBe(200);
    expect(expectShape(legacy.reportsExcel, ready, 'GET …/excel').success).toBe(true);
    const blob = await admin.call('GET', `/api/v2/reports/courses/${c}/excel-download`);
    expect(blob.status).toBe(200);
    expectShape(legacy.reportsExcelDownload, { ...blob, body: blob.raw }, 'GET …/excel-download');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(blob.raw as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(String(ws.getCell('A1').value)).toBe(
      `REPORTE HISTÓRICO DE TICKET CURSO ${course!.description.toUpperCase()}`,
    );
    expect(ws.rowCount - 3).toBe(rows.length);
  });

  it('§2.19 follow-up report: chips from the course, the five calls with the classroom and section descriptions raw in the path', async () => {
    const course = (await toolbar(admin)).find((c) => c.id === world.summary.queuedCourseId);
    const c = course!.id;
    const activities = expectShape(
      legacy.courseActivitiesBySection,
      await admin.call('GET', `/api/v2/courses/${c}/activities`),
      `GET /api/v2/courses/${c}/activities`,
    );
    const users = expectShape(
      registeredUsersForChips,
      await admin.call('GET', `/api/v2/courses/${c}/registered-users`),
      `GET /api/v2/courses/${c}/registered-users`,
    );
    const classrooms = [
      ...new Set(
        users._data.relationships.collection.data.map((u) => u.properties.classroom.description),
      ),
    ].sort();
    const sections = [
      ...new Set(
        activities._data.relationships.collection.data.map((a) => a.properties.section.description),
      ),
    ]
      .filter((d) => d !== 'Formativa')
      .sort();
    expect(classrooms.length).toBeGreaterThan(0);
    expect(sections).toEqual(expect.arrayContaining(['Unidad 1', 'Pre Test A', 'Encuesta']));
    expect(classrooms.some((d) => d.includes(' '))).toBe(true);

    // The path the browser sends: the description with its spaces encoded as %20.
    const raw = (text: string) => encodeURI(text);
    const courseCard = expectShape(
      legacy.courseRegisteredUsersFollowStudentCard,
      await admin.call('GET', `/api/v2/course-registered-users/${c}/follow-student-card`),
      'follow-student-card',
    )._data;
    let students = 0;
    for (const classroom of classrooms) {
      const base = `course-registered-users/${c}/classrooms/${raw(classroom)}`;
      const card = expectShape(
        legacy.courseRegisteredUsersFollowStudentClassroom,
        await admin.call('GET', `api/v2/${base}/follow-student-classroom`),
        `GET …/${classroom}/follow-student-classroom`,
      );
      expect(card.success).toBe(true);
      const unsynced = Number(card._data.unsynced);
      expect(card._data.resign + card._data.active + card._data.inactive + unsynced).toBe(
        card._data.total,
      );
      students += card._data.total;
      const status = expectShape(
        legacy.courseRegisteredUsersStatusUserClassroom,
        await admin.call('GET', `/api/v2/${base}/status-user-classroom`),
        `GET …/${classroom}/status-user-classroom`,
      );
      expect(sum(status._data.chartData.datasets[0]!.data)).toBe(card._data.total - unsynced);
      const progress = expectShape(
        legacy.courseRegisteredUsersProgressClassroomChart,
        await admin.call('GET', `/api/v2/${base}/progress-classroom-chart`),
        `GET …/${classroom}/progress-classroom-chart`,
      );
      expect(progress._data.chartData.labels).toEqual(
        expect.arrayContaining(['Unidad 4', 'Pre Test A']),
      );
      expectPercentages(progress._data.chartData);
      for (const section of sections) {
        for (const [segment, schema] of [
          ['progress-activities', legacy.courseRegisteredUsersProgressActivities],
          ['progress-activities-avance', legacy.courseRegisteredUsersProgressActivitiesAvance],
        ] as const) {
          const answer = await admin.call(
            'GET',
            `/api/v2/${base}/sections/${raw(section)}/${segment}`,
          );
          expect(
            answer.status,
            `${classroom} / ${section} / ${segment}: ${JSON.stringify(answer.body).slice(0, 200)}`,
          ).toBe(200);
          const chart = expectShape(
            schema,
            answer,
            `GET …/${classroom}/sections/${section}/${segment}`,
          )._data.chartData;
          expectPercentages(chart);
        }
      }
    }
    // Every student of the course's matrícula sits in one classroom chip.
    expect(students).toBe(courseCard.total);
  });
});

describe('§4 Estadística for the hard-coded course 2 on an empty database', () => {
  let ctx: TestContext;
  let admin: OriginalClient;
  beforeAll(async () => {
    ctx = await createTestContext();
    admin = originalClient(ctx);
    expect((await admin.signIn(TEST_ADMIN.email, TEST_ADMIN.password)).status).toBe(200);
  });
  afterAll(() => ctx?.close());

  it('§4 course 2 does not exist: on load and after "Buscar" every call is HTTP 200 with zeros and empty charts', async () => {
    expect(
      await ctx.db
        .selectFrom('courses')
        .select('id')
        .where('id', '=', HARD_CODED_COURSE)
        .executeTakeFirst(),
    ).toBeUndefined();
    const mount = await run(admin, onMount);
    expect(mount['GET /api/v2/tickets (mount)']!.data._data.collections).toEqual([]);
    expect(mount['§4 total/count of course 2 (mount)']!.data).toBe(0);
    expect(mount['§4 total/count of course 2 (mount)']!.answer.raw.toString()).toBe('0');
    expect(
      mount['§4 source-chart of course 2 (mount)']!.data._data.chartData.datasets[0].data.every(
        (n: number) => n === 0,
      ),
    ).toBe(true);

    const out = await run(admin, afterSearch(HARD_CODED_COURSE));
    const { total, card } = expectConsistent(out);
    expect(total).toBe(0);
    expect(card).toMatchObject({ resign: 0, active: 0, inactive: 0, total: 0 });
    for (const key of ['§2.18 #1 last-day/count', '§2.18 #2 open/count', '§2.18 #3 close/count'])
      expect(out[key]!.data).toBe(0);
    for (const key of [
      '§2.18 #8 age-chart',
      '§2.18 #16 progress-chart',
      '§2.18 #17 progress-chart-avance',
    ])
      expect(out[key]!.data._data.chartData.labels).toEqual([]);
  });

  it('§4 the same for an operator; a tutor is refused the dashboard whatever the course, and gets 404 for an unknown course on follow-up', async () => {
    const op = await ctx.userWithRole('operator');
    const operator = originalClient(ctx);
    operator.token = op.token;
    await run(operator, [...onMount.slice(5), ...afterSearch(HARD_CODED_COURSE)]);
    const t = await ctx.userWithRole('tutor');
    const tutor = originalClient(ctx);
    tutor.token = t.token;
    for (const [url] of [...onMount.slice(5), ...afterSearch(HARD_CODED_COURSE)]) {
      const answer = await tutor.call('GET', url);
      expect(answer.status, url).toBe(403);
    }
    const unknown = await tutor.call(
      'GET',
      `/api/v2/course-registered-users/${HARD_CODED_COURSE}/classrooms/Aula%201/follow-student-classroom`,
    );
    expect([unknown.status, unknown.body.success]).toEqual([404, false]);
    // Without a session (Authorization: null): 401.
    expect(
      (await originalClient(ctx).call('GET', `api/v2/tickets/${HARD_CODED_COURSE}/total/count`))
        .status,
    ).toBe(401);
  });
});
