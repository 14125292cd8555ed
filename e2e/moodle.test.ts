import { chileDateTime } from '@sigaf/contract';
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
 * Actividades against a Moodle simulator started by the test: configure the platform, test the
 * connection, synchronise a course (progress bar, then the report), edit an activity's weighing.
 */

const ENROLLED = 30;

describeE2E('Moodle: connection, sync with progress and report, activity weighing', () => {
  let product: Product;
  let browser: Browser;
  let page: Page;
  let sim: SimServer;
  let token: string;
  let courseId: number;
  let generated: GeneratedSite;

  beforeAll(async () => {
    generated = generateSite({
      seed: 11,
      courses: 1,
      studentsPerCourse: 40,
      units: 3,
      activitiesPerUnit: 2,
      invalidRutRate: 0,
    });
    // Latency keeps the sync running long enough to watch its progress.
    sim = await startMoodleSim({ site: generated.site, latencyMs: 120 });
    product = await startProduct({ SYNC_SCHEDULE: 'off', MOODLE_CONCURRENCY: '2' });
    browser = await launchBrowser();
    token = await adminSession(product);
    const platform = (await api(product.url, 'GET', '/api/v2/platforms', token)).body._data
      .collections[0].properties.id;
    const cat = await api(product.url, 'POST', '/api/v2/categories', token, {
      description: 'Capacitación Moodle',
      category_code: 'MDL',
      platform_id: platform,
    });
    const course = await api(product.url, 'POST', '/api/v2/courses', token, {
      description: 'Curso sincronizado',
      category_id: cat.body._data.properties.id,
      id_course_moodle: generated.courseIds[0],
    });
    courseId = course.body._data.properties.id;
    for (const p of generated.people.filter((x) => x.rut).slice(0, ENROLLED)) {
      const s = await api(product.url, 'POST', '/api/v2/registered-users/view-store', token, {
        rut: p.rut,
        name: p.firstname,
        last_name: p.lastname,
        email: p.email,
      });
      const e = await api(
        product.url,
        'POST',
        '/api/v2/course-registered-users/view-store',
        token,
        { course_id: courseId, registered_user_id: s.body._data.properties.id },
      );
      expect(e.status).toBe(201);
    }
    ({ page } = await signedInPage(browser, product, token));
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    await sim?.close();
  });

  it('configures the platform and tests the connection', async () => {
    await page.goto('/my/configuracion/actividad');
    await page.getByRole('button', { name: 'Conexión Moodle' }).click();
    const dialog = page.getByRole('dialog', { name: 'Conexión con Moodle' });
    await dialog.getByLabel('URL del sitio Moodle').fill(sim.url);
    // A wrong token first: a clear Spanish message.
    await dialog.getByLabel('Token del servicio web').fill('tokeninvalido123');
    await dialog.getByRole('button', { name: 'Probar conexión' }).click();
    await dialog
      .getByTestId('connection-error')
      .getByText('Token de Moodle inválido', { exact: false })
      .waitFor();
    await dialog.getByLabel('Token del servicio web').fill(generated.tokens.admin);
    await dialog.getByRole('button', { name: 'Probar conexión' }).click();
    const result = dialog.getByTestId('connection-result');
    await result.getByText('Conexión exitosa con Moodle.').waitFor();
    await expect(result.getByText('Sitio: Moodle simulado SIGAF').isVisible()).resolves.toBe(true);
    await expect(result.getByText(/^Versión: /).isVisible()).resolves.toBe(true);
    await dialog.getByRole('button', { name: 'ACEPTAR' }).click();
    await page.getByText('Configuración de Moodle guardada.').waitFor();
    const saved = await api(
      product.url,
      'GET',
      `/api/v2/platforms/${(await api(product.url, 'GET', '/api/v2/platforms', token)).body._data.collections[0].properties.id}/moodle`,
      token,
    );
    expect(saved.body._data).toMatchObject({ url: sim.url, hasToken: true });
  });

  it('synchronises the course: progress bar, then the report and the date', async () => {
    await page.getByRole('combobox', { name: 'Categorías' }).click();
    await page.getByRole('option', { name: 'Capacitación Moodle' }).click();
    await page.getByRole('combobox', { name: 'Cursos' }).click();
    await page.getByRole('option', { name: 'Curso sincronizado' }).click();
    await page.getByText('El curso aún no se ha sincronizado.').waitFor();
    await page.getByRole('button', { name: 'Sincronizar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'ACEPTAR' }).click();
    await page.getByTestId('sync-progress').waitFor();
    await page
      .getByTestId('sync-progress-text')
      .getByText(/Leyendo|En cola|Guardando/)
      .waitFor();
    await screenshot(page, 'moodle-sync-progress');
    const report = page.getByTestId('sync-report');
    await report.waitFor({ timeout: 60_000 });
    await expect(report.getByText(`Encontrados: ${ENROLLED}`).isVisible()).resolves.toBe(true);
    await expect(report.getByText(`No están en SIGAF: ${40 - ENROLLED}`).isVisible()).resolves.toBe(
      true,
    );
    await expect(report.getByText('Actividades nuevas: 12').isVisible()).resolves.toBe(true);
    // One date format on every screen: dd-mm-yyyy HH:mm (24 h) in Chilean time, not the browser's zone.
    const lastSync = (await page.getByTestId('last-sync').innerText()).replace(
      /^Última sincronización: /,
      '',
    );
    expect(lastSync).toMatch(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}$/);
    const status = await api(product.url, 'GET', `/api/v2/sync/courses/${courseId}/status`, token);
    expect(lastSync).toBe(chileDateTime(status.body._data.lastSyncAt));
    await screenshot(page, 'moodle-sync-report');
  });

  it("edits an activity's section and weighing", async () => {
    const grid = page.getByRole('grid', { name: 'Actividades' });
    await grid.getByText('Actividad 1.1', { exact: false }).waitFor();
    await grid.getByRole('button', { name: 'Editar' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Editar actividad' });
    await expect(dialog.getByLabel('Nombre').inputValue()).resolves.toMatch(/^Actividad 1\.1/);
    await expect(dialog.getByLabel('Nombre').isDisabled()).resolves.toBe(true);
    await dialog.getByLabel('Ponderación').fill('150');
    await dialog.getByRole('button', { name: 'ACEPTAR' }).click();
    await dialog.getByText('Debe ser menor o igual a 100.').waitFor();
    await dialog.getByLabel('Ponderación').fill('25');
    await dialog.getByRole('combobox', { name: 'Sección' }).click();
    await page.getByRole('option', { name: 'Renuncia' }).click();
    await dialog.getByRole('button', { name: 'ACEPTAR' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const list = await api(
      product.url,
      'GET',
      `/api/v2/activities?course_id=${courseId}&sort=id`,
      token,
    );
    const first = list.body._data.collections[0].properties;
    expect(first).toMatchObject({ weighing: 25, section: { key: 'resign' } });
    await grid.getByRole('gridcell', { name: '25' }).first().waitFor();
    // The section chips group the course's activities.
    await page.getByRole('button', { name: /^Renuncia · 1 · 25%$/ }).click();
    await expect.poll(() => grid.getByRole('row').count(), { timeout: 10_000 }).toBe(2);
  });

  it('a token that may not see hidden activities: the connection test warns; a hidden activity is kept, marked, until an administrator confirms its removal', async () => {
    // The course's teacher, who sees usernames and ID numbers but not hidden activities.
    const site = generated.site;
    const courseMoodleId = generated.courseIds[0]!;
    const teacher = site.users.find((u) => u.username === 'docente1')!;
    const teacherToken = 'e2eteachertoken00000000000000000';
    site.addToken(teacherToken, teacher.id, site.tokens[0]!.functions);
    site.settings.showuseridentity = ['email', 'idnumber', 'username'];
    site.prohibit(3, 'moodle/course:viewhiddenactivities');
    const hidden = site.modulesOf(courseMoodleId).find((m) => m.name.startsWith('Actividad 2.1'))!;
    hidden.visible = 0;

    await page.goto('/my/configuracion/actividad');
    // The stored settings answer late: a token typed meanwhile is neither lost nor overwritten.
    const settingsUrl = /\/api\/v2\/platforms\/\d+\/moodle$/;
    await page.route(settingsUrl, async (route) => {
      await new Promise((r) => setTimeout(r, 1_500));
      await route.continue();
    });
    const settingsAnswered = page.waitForResponse(settingsUrl);
    await page.getByRole('button', { name: 'Conexión Moodle' }).click();
    const dialog = page.getByRole('dialog', { name: 'Conexión con Moodle' });
    const tokenField = dialog.getByLabel('Token del servicio web');
    await tokenField.fill(teacherToken);
    await settingsAnswered;
    await page.unroute(settingsUrl);
    await dialog.getByRole('progressbar').waitFor({ state: 'detached' });
    expect(await tokenField.inputValue()).toBe(teacherToken);
    await dialog.getByRole('button', { name: 'Probar conexión' }).click();
    await dialog
      .getByTestId('hidden-activities-warning')
      .getByText('No se pudo confirmar que el usuario del token vea las actividades ocultas', {
        exact: false,
      })
      .waitFor();
    await dialog.getByRole('button', { name: 'ACEPTAR' }).click();
    await page.getByText('Configuración de Moodle guardada.').waitFor();

    await page.getByRole('button', { name: 'Sincronizar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'ACEPTAR' }).click();
    const report = page.getByTestId('sync-report');
    await report
      .getByText('No visibles para el token: eliminadas u ocultas: 1')
      .waitFor({ timeout: 60_000 });
    const grid = page.getByRole('grid', { name: 'Actividades' });
    const row = grid.getByRole('row').filter({ hasText: hidden.name });
    await row.getByText('No visible para el token: eliminada u oculta').waitFor();
    await screenshot(page, 'moodle-activity-unseen');
    await row.locator('button[aria-haspopup="menu"]').click();
    await page.getByRole('menuitem', { name: 'Confirmar eliminación' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: hidden.name });
    await confirm.getByRole('button', { name: 'Confirmar eliminación' }).click();
    await page.getByText('Eliminación confirmada', { exact: false }).waitFor();
    await row.getByText('Eliminada en Moodle').waitFor();
    const unseen = await row.getByText('No visible para el token').count();
    expect(unseen).toBe(0);
  });
});
