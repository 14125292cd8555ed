import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSite, type GeneratedSite } from '../tools/moodle-sim/src/generator.js';
import { startMoodleSim, type SimServer } from '../tools/moodle-sim/src/server.js';
import {
  adminSession,
  api,
  describeE2E,
  launchBrowser,
  pickStudent,
  screenshot,
  signedInPage,
  startProduct,
  type Product,
} from './harness.js';

/**
 * What a first-time user tripped over, on a course synchronised from the Moodle simulator:
 * e-mail tickets carry their mail (Individual and Masivo), Masivo narrows its recipients by
 * pending activities, classroom and "Nunca", and the sync report proposes each new activity's
 * section, accepted with one click.
 */

type Json = Record<string, any>;
const STUDENTS = 16;

describeE2E('staff experience: ticket mail, Masivo filters, section proposals', () => {
  let product: Product;
  let browser: Browser;
  let page: Page;
  let sim: SimServer;
  let token: string;
  let courseId: number;
  let generated: GeneratedSite;

  const call = (method: string, url: string, body?: unknown) =>
    api<Json>(product.url, method, `/api/v2${url}`, token, body);

  async function choose(scope: Locator | Page, label: string, option: string) {
    await scope.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  async function openCourse() {
    await page.goto('/my/ticket');
    await choose(page, 'Categorías', 'Capacitación Moodle');
    await choose(page, 'Cursos', 'Curso sincronizado');
    await page.getByText(/^Tickets encontrados: \d+$/).waitFor();
  }

  /** The six options (Tipo "Correo electrónico"), without a first attempt. */
  async function fillEmailTicket(dialog: Locator) {
    for (const [label, option] of [
      ['Origen', 'Saliente'],
      ['Tipo', 'Correo electrónico'],
      ['Motivo', 'Bienvenida'],
      ['Prioridad', 'Media'],
    ] as const)
      await choose(dialog, label, option);
    await dialog.getByLabel('Registrar un primer intento de contacto').uncheck();
  }

  async function writeMail(dialog: Locator, subject: string, body: string) {
    await dialog.getByLabel('Asunto').fill(subject);
    await dialog.getByRole('textbox', { name: 'Mensaje' }).click();
    await page.keyboard.type(body);
  }

  const snack = (text: string | RegExp) => page.getByText(text).first().waitFor();

  beforeAll(async () => {
    generated = generateSite({
      seed: 22,
      courses: 1,
      studentsPerCourse: STUDENTS,
      units: 1,
      activitiesPerUnit: 2,
      invalidRutRate: 0,
      neverAccessedRate: 0.3,
      withdrawnRate: 0,
      completion: { complete: 0.5, inProgress: 0.2 },
    });
    sim = await startMoodleSim({ site: generated.site });
    product = await startProduct({ SYNC_SCHEDULE: 'off' });
    browser = await launchBrowser();
    token = await adminSession(product);
    const platform = (await call('GET', '/platforms')).body._data.collections[0].properties.id;
    expect(
      (
        await call('PUT', `/platforms/${platform}/moodle`, {
          url: sim.url,
          token: generated.tokens.admin,
        })
      ).status,
    ).toBe(200);
    const cat = await call('POST', '/categories', {
      description: 'Capacitación Moodle',
      category_code: 'MDL',
      platform_id: platform,
    });
    const course = await call('POST', '/courses', {
      description: 'Curso sincronizado',
      category_id: cat.body._data.properties.id,
      id_course_moodle: generated.courseIds[0],
    });
    courseId = course.body._data.properties.id;
    for (const p of generated.people.filter((x) => x.rut)) {
      const s = await call('POST', '/registered-users/view-store', {
        rut: p.rut,
        name: p.firstname,
        last_name: p.lastname,
        email: p.email,
      });
      expect(
        (
          await call('POST', '/course-registered-users/view-store', {
            course_id: courseId,
            registered_user_id: s.body._data.properties.id,
          })
        ).status,
      ).toBe(201);
    }
    // Two classrooms share the students.
    const rooms: number[] = [];
    for (const description of ['Aula Norte', 'Aula Sur']) {
      const room = await call('POST', '/classrooms', { description });
      expect(room.status, JSON.stringify(room.body)).toBe(201);
      rooms.push(room.body._data.properties.id);
    }
    const split = await call('POST', '/course-registered-user/classroom/auto-split', {
      course_id: courseId,
      classroom_ids: rooms,
      confirm: true,
    });
    expect(split.status, JSON.stringify(split.body)).toBe(200);
    ({ page } = await signedInPage(browser, product, token));
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    await sim?.close();
  });

  async function syncNow() {
    expect((await call('POST', `/sync/courses/${courseId}`, {})).status).toBe(202);
    await expect
      .poll(async () => (await call('GET', `/sync/courses/${courseId}/status`)).body._data.state, {
        timeout: 60_000,
        interval: 500,
      })
      .toBe('done');
  }

  it('Individual: an e-mail ticket queues its mail to the student', async () => {
    await syncNow();
    const student = generated.people.find((p) => p.rut)!;
    await openCourse();
    await page.getByRole('button', { name: 'Individual' }).click();
    const dialog = page.getByRole('dialog', { name: 'Crear ticket individual' });
    await pickStudent(page, dialog, student.rut!, student.firstname);
    await dialog.getByRole('button', { name: 'Continuar' }).click();
    await choose(dialog, 'Tipo', 'Contacto telefónico');
    expect(await dialog.getByLabel('Asunto').count()).toBe(0);
    await fillEmailTicket(dialog);
    // A body without a subject is refused before anything is created.
    await dialog.getByRole('textbox', { name: 'Mensaje' }).click();
    await page.keyboard.type('Le escribimos para darle la bienvenida.');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.getByText('Ingrese un asunto.').waitFor();
    expect(
      (await call('GET', `/tickets?course_id=${courseId}&status=all&page=1&perPage=5`)).body._data
        .collections,
    ).toHaveLength(0);
    await dialog.getByLabel('Asunto').fill('Bienvenida al curso');
    await screenshot(page, 'tickets-single-mail');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await snack(/El ticket se ha creado correctamente/);
    await dialog.waitFor({ state: 'hidden' });
    const ticket = (await call('GET', `/tickets?course_id=${courseId}&status=all&page=1&perPage=5`))
      .body._data.collections[0].properties;
    const outbox = (
      await call('GET', `/mail/outbox?ticket_id=${ticket.id}`)
    ).body._data.collections.map((c: Json) => c.properties);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ subject: 'Bienvenida al curso', toAddress: student.email });
  });

  it('Masivo: pending activities, classroom and "Nunca" narrow the list; the mail goes to every new ticket', async () => {
    // The survey filed in its section (Formativa and Renuncia are not offered).
    const activities = (
      await call('GET', `/activities?course_id=${courseId}&perPage=100`)
    ).body._data.collections.map((c: Json) => c.properties);
    const survey = activities.find((a: Json) => a.description === 'Encuesta de satisfacción');
    const sections = (await call('GET', '/sections')).body._data.collections.map(
      (c: Json) => c.properties,
    );
    const surveySection = sections.find((s: Json) => s.key === 'survey');
    const put = await call('PUT', `/activities/${survey.id}`, {
      description: survey.description,
      course_id: courseId,
      section_id: surveySection.id,
      weighing: 0,
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);

    const listed = (
      await call('GET', `/course-registered-user/${courseId}/users/all?profile=student`)
    ).body._data;
    const all = (Array.isArray(listed) ? listed : listed.collections).map(
      (c: Json) => c.properties,
    );
    const states = (
      await call(
        'GET',
        `/activities/${encodeURIComponent(JSON.stringify([survey.id]))}/course-registered-users/${courseId}`,
      )
    ).body._data as Json[];
    const pending = states.filter(
      (s) =>
        s.status === 'Activo' &&
        s.activities.some(
          (a: Json) => a.grade === null && a.completionState !== 1 && a.completionState !== 2,
        ),
    );
    const never = all.filter((e: Json) => !e.lastAccess);
    const room = all.find((e: Json) => e.classroom?.id)?.classroom;
    expect(room).toBeTruthy();
    const inRoom = all.filter((e: Json) => e.classroom?.id === room.id);
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.length).toBeLessThan(all.length);
    expect(never.length).toBeGreaterThan(0);

    await openCourse();
    await page.getByRole('button', { name: 'Masivo' }).click();
    const dialog = page.getByRole('dialog', { name: /^Ticket masivo/ });
    const shown = (n: number) =>
      dialog.getByText(`Mostrando ${n} de ${all.length} alumnos`).waitFor();
    await shown(all.length);

    // The picker offers the survey, not Renuncia's form (nor the unit's activities, still in Formativa).
    await dialog.getByRole('combobox', { name: 'Filtrar actividades pendientes' }).click();
    expect(await page.getByRole('option', { name: 'Formulario de renuncia' }).count()).toBe(0);
    await page.getByRole('option', { name: 'Encuesta de satisfacción' }).click();
    await shown(pending.length);

    await dialog.getByLabel('Nunca').check();
    const pendingNever = pending.filter((p) => never.some((e: Json) => e.id === p.id));
    await shown(pendingNever.length);
    await dialog.getByLabel('Nunca').uncheck();
    await shown(pending.length);

    await choose(dialog, 'Filtrar aula', room.description);
    const pendingInRoom = pending.filter((p) => inRoom.some((e: Json) => e.id === p.id));
    await shown(pendingInRoom.length);
    await screenshot(page, 'tickets-massive-filters');

    // Everyone shown is chosen; the summary lists the filters.
    await dialog.getByRole('checkbox', { name: 'Seleccionar todas las filas' }).check();
    await dialog.getByText(`Seleccionados: ${pendingInRoom.length}`).waitFor();
    await dialog.getByRole('button', { name: 'Continuar' }).click();
    await dialog.getByText('1 actividad pendiente seleccionada').waitFor();
    await dialog.getByText('1 aula seleccionada').waitFor();
    await fillEmailTicket(dialog);
    await writeMail(dialog, 'Encuesta pendiente', 'Recuerde responder la encuesta del curso.');
    await dialog.getByRole('button', { name: 'Generar tickets' }).click();
    await snack(/correctamente/);
    await dialog.waitFor({ state: 'hidden' });

    const tickets = (
      await call('GET', `/tickets?course_id=${courseId}&status=all&page=1&perPage=100`)
    ).body._data.collections.map((c: Json) => c.properties);
    const created = tickets.filter(
      (t: Json) =>
        pendingInRoom.some((p) => p.id === t.courseRegisteredUser.id) &&
        t.typeTicket.key === 'email',
    );
    expect(created.length).toBe(pendingInRoom.length);
    const outbox = (
      await call('GET', `/mail/outbox?course_id=${courseId}&perPage=100`)
    ).body._data.collections.map((c: Json) => c.properties);
    expect(outbox.filter((m: Json) => m.subject === 'Encuesta pendiente')).toHaveLength(
      pendingInRoom.length,
    );
  });

  it('Actividades: the sync report proposes sections; "Aplicar propuestas" files them in one click; a Moodle section is mapped once', async () => {
    await page.goto('/my/configuracion/actividad');
    await choose(page, 'Categorías', 'Capacitación Moodle');
    await choose(page, 'Cursos', 'Curso sincronizado');
    const panel = page.getByTestId('section-proposals');
    await panel.waitFor();
    // The tests and the withdrawal form; the survey was filed by hand in the previous test.
    const table = panel.getByRole('table', { name: 'Secciones propuestas' });
    await expect.poll(() => table.getByRole('row').count()).toBe(1 + 5);
    await table
      .getByRole('row')
      .filter({ hasText: 'Formulario de renuncia' })
      .getByText('Renuncia', { exact: true })
      .last()
      .waitFor();
    expect(
      await table.getByRole('row').filter({ hasText: 'Encuesta de satisfacción' }).count(),
    ).toBe(0);
    await screenshot(page, 'moodle-section-proposals');
    await panel.getByRole('button', { name: 'Aplicar propuestas' }).click();
    await snack(
      '5 actividades quedaron en la sección propuesta; 5 secciones de Moodle quedan asociadas para las próximas sincronizaciones.',
    );
    await panel.waitFor({ state: 'hidden' });
    const sectionOf = async () =>
      Object.fromEntries(
        (
          await call('GET', `/activities?course_id=${courseId}&perPage=100`)
        ).body._data.collections.map((c: Json) => [
          c.properties.description,
          c.properties.section?.key ?? null,
        ]),
      );
    expect(await sectionOf()).toMatchObject({
      'Pre Test A': 'pre_test_a',
      'Pre Test B': 'pre_test_b',
      'Post Test A': 'post_test_a',
      'Post Test B': 'post_test_b',
      'Formulario de renuncia': 'resign',
      'Encuesta de satisfacción': 'survey',
    });

    // The unit of the course goes to Encuesta once, for this sync and the next ones.
    await page.getByRole('button', { name: 'Secciones de Moodle (asociadas: 5)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Secciones de Moodle' });
    await expect.poll(() => dialog.getByRole('row').count()).toBe(1 + 5);
    await dialog.getByRole('combobox', { name: 'Sección de Moodle' }).fill('Unidad 1');
    // A mapping typed and not yet added: Escape (out of the field, whose own Escape closes its list) asks before it is lost.
    await dialog.locator('h2').click();
    await page.keyboard.press('Escape');
    await page
      .getByRole('dialog', { name: 'Cambios sin guardar' })
      .getByRole('button', { name: 'Seguir editando' })
      .click();
    expect(await dialog.getByRole('combobox', { name: 'Sección de Moodle' }).inputValue()).toBe(
      'Unidad 1',
    );
    await choose(dialog, 'Sección de SIGAF', 'Encuesta');
    await dialog.getByRole('button', { name: 'Asociar' }).click();
    await snack('Asociación guardada. 2 actividades quedaron en la sección.');
    await expect.poll(() => dialog.getByRole('row').count()).toBe(1 + 6);
    const sections = await sectionOf();
    expect(
      Object.entries(sections)
        .filter(([name]) => name.startsWith('Actividad 1.'))
        .map(([, key]) => key),
    ).toEqual(['survey', 'survey']);
  });
});
