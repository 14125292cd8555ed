import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSite, type GeneratedSite } from '../tools/moodle-sim/src/generator.js';
import { startMoodleSim, type SimServer } from '../tools/moodle-sim/src/server.js';
import {
  adminSession,
  api,
  describeE2E,
  launchBrowser,
  screenshot,
  signedInPage,
  startProduct,
  type Product,
} from './harness.js';

/**
 * Estadística and the reports end to end. A course synchronised from the Moodle simulator (so the
 * student charts have data) with tickets made through the API, and a second small course: every
 * chart draws, switching course changes the figures, a slice opens the filtered ticket list, and
 * the reports download files that open.
 */

type Json = Record<string, any>;

const TICKET_CHARTS = [
  'Ticket según origen',
  'Ticket según tipo',
  'Ticket según estado',
  'Ticket según prioridad',
  'Ticket según motivo (%)',
  'Ticket según antigüedad',
  'Estado de ticket según operador',
  'Estado de ticket según motivo',
];
const STUDENT_CHARTS = [
  'Alumnos según estado',
  'Alumnos según último acceso',
  'Progreso de actividades calificadas según unidad (%)',
  'Progreso de actividades realizadas según unidad (%)',
];
const SECTION_OF: Record<string, string> = {
  'Pre Test A': 'pre_test_a',
  'Pre Test B': 'pre_test_b',
  'Post Test A': 'post_test_a',
  'Post Test B': 'post_test_b',
  'Encuesta de satisfacción': 'survey',
  'Formulario de renuncia': 'resign',
};

describeE2E('dashboard and reports', () => {
  let product: Product;
  let browser: Browser;
  let sim: SimServer;
  let site: GeneratedSite;
  let token: string;
  let page: Page;
  let mainCourse: number;
  let smallCourse: number;
  /** Catalogue ids by catalogue and key, and descriptions by id. */
  const keys: Record<string, Record<string, number>> = {};
  const call = (method: string, url: string, body?: unknown) =>
    api<Json>(product.url, method, `/api/v2${url}`, token, body);
  const ok = (res: { status: number; body: Json }, status = 201) =>
    expect(res.status, JSON.stringify(res.body)).toBe(status);

  async function choose(label: string, option: string) {
    await page.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  const figure = (title: string) => page.getByRole('figure', { name: title, exact: true });
  const count = (label: string) =>
    page.getByRole('group', { name: label, exact: true }).getByTestId('count-value');

  beforeAll(async () => {
    site = generateSite({
      seed: 23,
      courses: 1,
      studentsPerCourse: 24,
      units: 2,
      activitiesPerUnit: 2,
      invalidRutRate: 0,
      neverAccessedRate: 0.2,
      withdrawnRate: 0.15,
    });
    sim = await startMoodleSim({ site: site.site });
    product = await startProduct({ SYNC_SCHEDULE: 'off' });
    browser = await launchBrowser();
    token = await adminSession(product);

    const platform = (await call('GET', '/platforms')).body._data.collections[0].properties.id;
    ok(
      await call('PUT', `/platforms/${platform}/moodle`, {
        url: sim.url,
        token: site.tokens.admin,
      }),
      200,
    );
    const category = await call('POST', '/categories', {
      description: 'Estadística E2E',
      category_code: 'EST',
      platform_id: platform,
    });
    ok(category);
    const categoryId = category.body._data.properties.id;
    const main = await call('POST', '/courses', {
      description: 'Curso Uno',
      category_id: categoryId,
      id_course_moodle: site.courseIds[0],
    });
    ok(main);
    mainCourse = main.body._data.properties.id;
    const small = await call('POST', '/courses', {
      description: 'Curso Dos',
      category_id: categoryId,
    });
    ok(small);
    smallCourse = small.body._data.properties.id;

    const people = site.people.filter((p) => p.rut);
    const enrol = async (courseId: number, p: (typeof people)[number]) => {
      const s = await call('POST', '/registered-users/view-store', {
        rut: p.rut,
        name: p.firstname,
        last_name: p.lastname,
        email: p.email,
      });
      const studentId =
        s.status === 201
          ? s.body._data.properties.id
          : (await call('GET', `/registered-user/${encodeURIComponent(p.rut!)}`)).body._data
              .properties.id;
      const e = await call('POST', '/course-registered-users/view-store', {
        course_id: courseId,
        registered_user_id: studentId,
      });
      ok(e);
      return e.body._data.properties.id as number;
    };
    const mainEnrolments: number[] = [];
    for (const p of people.slice(0, 20)) mainEnrolments.push(await enrol(mainCourse, p));
    const smallEnrolments = [
      await enrol(smallCourse, people[20]!),
      await enrol(smallCourse, people[21]!),
    ];

    ok(await call('POST', `/sync/courses/${mainCourse}`, { wait: true }), 200);
    const room = await call('POST', '/classrooms', { description: 'Aula Norte' });
    ok(room);
    ok(
      await call(
        'PUT',
        `/course-registered-user/classroom/${room.body._data.properties.id}/users`,
        { courseRegisteredUsers: mainEnrolments.slice(0, 12) },
      ),
      200,
    );
    // Synchronised activities land in Formativa: put the special ones in their sections, weigh the rest.
    const sections = Object.fromEntries(
      ((await call('GET', '/sections')).body._data.collections as Json[]).map((s) => [
        s.properties.key,
        s.properties.id,
      ]),
    );
    const activities = (await call('GET', `/activities?course_id=${mainCourse}`)).body._data
      .collections as Json[];
    expect(activities.length).toBeGreaterThan(4);
    for (const a of activities.map((x) => x.properties).filter((x) => x.course.id === mainCourse)) {
      const key = SECTION_OF[a.description];
      const res = await call('PUT', `/activities/${a.id}`, {
        description: a.description,
        course_id: mainCourse,
        section_id: key ? sections[key] : sections.formative,
        weighing: key ? 0 : 10,
      });
      ok(res, 200);
    }

    for (const [name, path] of Object.entries({
      status: 'status-tickets',
      type: 'type-tickets',
      priority: 'priority-tickets',
      source: 'source-tickets',
      motive: 'motive-tickets',
      detail: 'status-detail-tickets',
    })) {
      keys[name] = Object.fromEntries(
        ((await call('GET', `/${path}`)).body._data.collections as Json[]).map((c) => [
          c.properties.key,
          c.properties.id,
        ]),
      );
    }
    const me = (await api<Json>(product.url, 'GET', '/api/auth/user', token)).body.user.properties
      .id;
    // [enrolment, source, type, priority, motive, closed]
    const tickets: Array<[number, string, string, string, string, boolean]> = [
      [mainEnrolments[0]!, 'incoming', 'phone', 'high', 'welcome', false],
      [mainEnrolments[1]!, 'incoming', 'email', 'medium', 'problem', true],
      [mainEnrolments[2]!, 'outgoing', 'phone', 'low', 'welcome', false],
      [mainEnrolments[3]!, 'incoming', 'phone', 'high', 'problem', false],
      [mainEnrolments[4]!, 'outgoing', 'email', 'high', 'welcome', true],
      [smallEnrolments[0]!, 'outgoing', 'phone', 'low', 'welcome', false],
    ];
    for (const [enrolment, source, type, priority, motive, closed] of tickets) {
      const t = await call('POST', '/tickets', {
        course_registered_user_id: enrolment,
        source_ticket_id: keys.source![source],
        type_ticket_id: keys.type![type],
        priority_ticket_id: keys.priority![priority],
        motive_ticket_id: keys.motive![motive],
        status_ticket_id: keys.status!.open,
        user_assigned_id: me,
      });
      ok(t);
      const ticket = t.body._data.properties;
      ok(
        await call('POST', '/ticket-details', {
          ticket_id: ticket.id,
          status_detail_ticket_id: keys.detail!.failure,
          comment: `Primer intento ${ticket.ticketCode}`,
        }),
      );
      if (closed) {
        const full = (await call('GET', `/tickets/${ticket.id}`)).body._data.properties;
        ok(
          await call('PUT', `/tickets/${ticket.id}`, {
            status_ticket_id: keys.status!.closed,
            version: full.version,
          }),
          200,
        );
      }
    }
    ({ page } = await signedInPage(browser, product, token));
    // The charts skip their animation for a reader who asks for less motion: drawn at once, they are
    // ready for the pictures below without waiting for them to settle.
    await page.emulateMedia({ reducedMotion: 'reduce' });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    await sim?.close();
  });

  it('draws every chart of a course with data, and the counts', async () => {
    await page.goto('/my/estadistica');
    await page.getByText('Elija una categoría y un curso para ver sus estadísticas.').waitFor();
    await choose('Categorías', 'Estadística E2E');
    await choose('Cursos', 'Curso Uno');
    await expect.poll(() => count('Tickets totales').textContent()).toBe('5');
    expect(await count('Tickets abiertos').textContent()).toBe('3');
    expect(await count('Tickets cerrados').textContent()).toBe('2');
    expect(await count('Tickets nuevos').textContent()).toBe('+5');
    expect(await count('Matrícula inicial').textContent()).toBe('20');
    for (const title of [...TICKET_CHARTS, ...STUDENT_CHARTS]) {
      const f = figure(title);
      await f.locator('[data-state="ready"]').waitFor({ timeout: 15_000 });
      expect(await f.locator('svg').count(), title).toBeGreaterThan(0);
    }
    // The student-status doughnut carries the status colours of docs/development/domain.md#dashboard (#5cb85c, #F9A825, #D32F2F), the light
    // green and amber drawn a shade darker so that every slice reaches 3:1 on the card (WCAG AA).
    const fills = await figure('Alumnos según estado')
      .locator('path.MuiPieChart-arc')
      .evaluateAll((els) => els.map((e) => getComputedStyle(e).fill));
    expect(fills).toContain('rgb(83, 166, 83)');
    expect(fills).toContain('rgb(211, 47, 47)');
    await screenshot(page, 'dashboard-course');
  });

  it('another course changes the figures, and the choice is remembered', async () => {
    await choose('Cursos', 'Curso Dos');
    await expect.poll(() => count('Tickets totales').textContent()).toBe('1');
    expect(await count('Tickets cerrados').textContent()).toBe('0');
    // Nobody synchronised in this course: the student charts say so.
    await figure('Alumnos según estado').getByText('Sin datos').waitFor();
    await figure('Ticket según origen').locator('[data-state="ready"]').waitFor();
    await page.reload();
    await expect.poll(() => count('Tickets totales').textContent()).toBe('1');
    await choose('Cursos', 'Curso Uno');
    await expect.poll(() => count('Tickets totales').textContent()).toBe('5');
  });

  it('a slice opens the ticket list filtered to it', async () => {
    const chart = (await call('GET', `/tickets/${mainCourse}/source-chart`)).body._data.chartData;
    const sources = (await call('GET', '/source-tickets')).body._data.collections.map(
      (c: Json) => c.properties,
    ) as Json[];
    const incoming = sources.find((s) => s.key === 'incoming')!;
    const index = chart.labels.indexOf(incoming.description);
    expect(chart.datasets[0].data[index]).toBe(3);
    await figure('Ticket según origen')
      .locator(`path.MuiPieChart-arc[data-index="${index}"]`)
      .dispatchEvent('click');
    await page.waitForURL(
      (url) =>
        url.pathname === '/my/ticket' &&
        url.searchParams.get('source_ticket_id') === String(incoming.id),
    );
    expect(new URL(page.url()).searchParams.get('course')).toBe(String(mainCourse));
    expect(new URL(page.url()).searchParams.get('status')).toBe('all');
    await page.getByText('Tickets encontrados: 3', { exact: true }).waitFor();
    // The course of the link is the one selected, with its category (no reload needed).
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Cursos' }).textContent())
      .toBe('Curso Uno');
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Categorías' }).textContent())
      .toBe('Estadística E2E');
    await screenshot(page, 'dashboard-filtered-tickets');

    // From the keyboard: the legend entries are buttons.
    await page.goBack();
    const closed = figure('Ticket según estado').getByRole('button', { name: 'Cerrado' });
    await closed.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(
      (url) => url.pathname === '/my/ticket' && url.searchParams.get('status') === 'closed',
    );
    await page.getByText('Tickets encontrados: 2', { exact: true }).waitFor();
  });

  it('the ticket report shows the day and downloads the history workbook and the PDF', async () => {
    await page.goto('/my/reportes/reporte-ticket');
    await choose('Categorías', 'Estadística E2E');
    await choose('Cursos', 'Curso Uno');
    const card = (label: string) =>
      page.getByRole('group', { name: label, exact: true }).getByTestId('count-value');
    await expect.poll(() => card('Tickets totales').textContent()).toBe('5');
    await page
      .getByRole('table', { name: 'Producción del día' })
      .getByRole('row')
      .nth(1)
      .getByRole('cell')
      .nth(3)
      .getByText('5')
      .waitFor();
    await screenshot(page, 'report-ticket');

    const xlsx = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Descargar reporte' }).click();
    const file = await xlsx;
    expect(file.suggestedFilename()).toMatch(
      /^reporte-historico-tickets-curso-uno-\d{2}-\d{2}-\d{4}\.xlsx$/,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile((await file.path())!);
    const ws = wb.worksheets[0]!;
    // Today's range: the tickets created today, and the title says the day.
    expect(ws.getCell('A1').text).toMatch(
      /^REPORTE HISTÓRICO DE TICKET CURSO CURSO UNO · \d{2}-\d{2}-\d{4}$/,
    );
    expect(ws.getCell('B3').text).toBe('CÓDIGO TICKET');
    expect(ws.rowCount).toBe(3 + 5);
    const codes = [4, 5, 6, 7, 8].map((r) => ws.getCell(`B${r}`).text);
    expect(codes.every((c) => /^EST-CUR-\d{4}$/.test(c))).toBe(true);
    expect(ws.getCell('S4').text).toBe(`Primer intento ${codes[0]}`);

    const pdf = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exportar a PDF (.pdf)' }).click();
    const pdfFile = await pdf;
    expect(pdfFile.suggestedFilename()).toMatch(
      /^reporte-ticket-curso-uno-\d{2}-\d{2}-\d{4}\.pdf$/,
    );
    const fs = await import('node:fs');
    expect(
      fs
        .readFileSync((await pdfFile.path())!)
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
  });

  it('the per-student report lists tickets with their attempts and exports them', async () => {
    await page.goto('/my/reportes/reporte-ticket-alumno');
    await page.getByText(/^5 alumnos con tickets$/).waitFor();
    await page
      .getByText(/^\d+ abiertos?$/)
      .first()
      .waitFor();
    await page.getByRole('textbox', { name: 'Buscar por RUT o nombre' }).fill('zzzz-no-existe');
    await page.getByText('Ningún alumno con tickets coincide con la búsqueda.').waitFor();
    await page.getByRole('textbox', { name: 'Buscar por RUT o nombre' }).fill('');
    await page.getByText(/^5 alumnos con tickets$/).waitFor();
    await page.getByRole('button').filter({ hasText: '1 ticket' }).first().click();
    await page
      .getByText(/^Primer intento EST-CUR-\d{4}$/)
      .first()
      .waitFor();
    // Priority and each attempt's result wear their state's colour and glyph, as in the ticket list.
    const attempts = page
      .getByRole('table', { name: /^Intentos de contacto del ticket EST-CUR-/ })
      .first();
    await attempts.locator('[data-state="success"], [data-state="failure"]').first().waitFor();
    await page
      .locator('[data-state="high"], [data-state="medium"], [data-state="low"]')
      .first()
      .waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exportar a Excel (.xlsx)' }).click();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile((await (await download).path())!);
    expect(wb.worksheets[0]!.rowCount).toBe(2 + 5);
    await screenshot(page, 'report-ticket-student');
  });

  it('the follow-up report shows a classroom and downloads its roster', async () => {
    await page.goto('/my/reportes/reporte-seguimiento-alumnos');
    await page.getByText('Seleccione un aula:').waitFor();
    await page
      .getByRole('listbox', { name: 'Seleccione un aula:' })
      .getByRole('option', { name: 'Aula Norte (12)' })
      .click();
    await figure('Alumnos según estado').locator('[data-state="ready"]').waitFor();
    await figure('Progreso de actividades calificadas según unidad (%)')
      .locator('[data-state="ready"]')
      .waitFor();
    const sections = page.getByRole('listbox', { name: 'Seleccione una sección:' });
    expect(await sections.getByRole('option', { name: 'Renuncia' }).count()).toBe(0);
    await sections.getByRole('option', { name: 'Pre Test A' }).click();
    await figure('Progreso de actividades calificadas (%)')
      .locator('[data-state="ready"]')
      .waitFor();
    await figure('Progreso de actividades realizadas (%)')
      .locator('[data-state="ready"]')
      .waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Descargar nómina' }).click();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile((await (await download).path())!);
    const ws = wb.worksheets[0]!;
    expect(ws.getCell('A1').text).toBe('NÓMINA CURSO CURSO UNO — AULA NORTE');
    expect(ws.getCell('B2').text).toBe('RUT');
    expect(ws.rowCount).toBe(2 + 12);
    await expect
      .poll(() =>
        page
          .getByRole('group', { name: 'Matrícula inicial', exact: true })
          .getByTestId('count-value')
          .textContent(),
      )
      .toBe('12');
    await screenshot(page, 'report-follow-student');
  });
});
