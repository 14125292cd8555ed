import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_STAFF } from '../apps/server/src/demo/seed.js';
import { DEMO_ADMIN, pickDemoCourse, settled } from './demo.js';
import {
  api,
  describeE2E,
  launchBrowser,
  screenshot,
  signedInPage,
  startProduct,
  type Product,
} from './harness.js';

type Json = any;

/**
 * On the demo (its students' history is simulated, docs/operations/moodle.md#the-demo): the
 * Efectividad screen says its data is simulated, heads with students back against the comparable
 * baseline, and has a table per dimension with each row's difference from it, for the
 * organisation and for a course; a ticket's attempts show what the student did after them.
 */
describeE2E('contact effectiveness on the demo', () => {
  let product: Product;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    // The workload table is read below until the demo's first synchronisation has judged its students: counted at every read.
    product = await startProduct({ DEMO: 'true', WORKLOAD_AT_RISK_SECONDS: '0' });
    browser = await launchBrowser();
    token = (await api(product.url, 'POST', '/api/auth/login', undefined, DEMO_ADMIN)).body
      .access_token;
    expect(token).toBeTruthy();
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('Efectividad: the organisation, then a course; every dimension has its table with the difference from the baseline', async () => {
    const { page, context } = await signedInPage(browser, product, token);
    await page.goto('/my/efectividad');
    await page
      .getByRole('heading', { name: 'Efectividad de los contactos' })
      .waitFor({ timeout: 30_000 });
    await settled(page);
    await page.getByText('Toda la organización').first().waitFor();
    const total = page.getByRole('table', { name: 'Total' });
    await total.waitFor({ timeout: 60_000 });
    for (const column of ['Diferencia con la línea base', 'Línea base comparable', 'Sin datos'])
      expect(await total.getByRole('columnheader', { name: column }).count(), column).toBe(1);
    await page.getByText(/^Datos simulados/).waitFor();
    expect(
      await page
        .getByText(/\d+ de \d+ estudiantes? ingres.+ dentro de 7 días después del contacto/)
        .count(),
    ).toBeGreaterThanOrEqual(1);
    for (const dim of [
      'medio de contacto',
      'tipo de ticket',
      'origen',
      'motivo',
      'operador',
      'hora del día',
      'día de la semana',
      'días sin acceso',
    ]) {
      expect(
        await page.getByRole('table', { name: `Por ${dim}` }).count(),
        dim,
      ).toBeGreaterThanOrEqual(1);
    }
    const phone = page
      .getByRole('table', { name: 'Por tipo de ticket' })
      .last()
      .getByRole('row', { name: /Contacto telefónico/ });
    expect(await phone.count()).toBe(1);
    await screenshot(page, 'efectividad-organizacion');
    await pickDemoCourse(page);
    await settled(page);
    await page.getByText('Operación segura de grúa horquilla').first().waitFor();
    await total.waitFor({ timeout: 60_000 });
    // At 1366 × 768 with the menu open, every table fits the page: nothing scrolls sideways.
    await page.setViewportSize({ width: 1366, height: 768 });
    const overflow = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('[role="region"]')]
          .filter((r) => r.querySelector('table'))
          .map((r) => r.scrollWidth - r.clientWidth)
          .filter((d) => d > 0),
      );
    await expect.poll(overflow).toEqual([]);
    // The day fields show their whole day, not "dd-mm-".
    for (const label of ['Desde', 'Hasta']) {
      const field = page.getByRole('textbox', { name: label, exact: true });
      expect(await field.evaluate((e) => (e as HTMLInputElement).scrollWidth - e.clientWidth)).toBe(
        0,
      );
    }
    await screenshot(page, 'efectividad-curso');
    await context.close();
  });

  it("Mi agenda: an operator of the demo is told after which medium the course's students came back, and why", async () => {
    // The demo's first course is synchronised by a job after the start: its students are judged at risk once it ends.
    const workload = async () =>
      (
        await api<Json>(product.url, 'GET', '/api/v2/agenda/workload', token)
      ).body._data.collections.map((c: Json) => c.properties);
    let operator: Json;
    for (
      const deadline = Date.now() + 90_000;
      !(operator = (await workload()).sort((a: Json, b: Json) => b.atRisk - a.atRisk)[0]).atRisk &&
      Date.now() < deadline;
    )
      await new Promise((r) => setTimeout(r, 1000));
    expect(operator.atRisk).toBeGreaterThan(0);
    const staff = DEMO_STAFF.find((s) => s.name === operator.name)!;
    const own = (
      await api(product.url, 'POST', '/api/auth/login', undefined, {
        email: staff.email,
        password: DEMO_ADMIN.password,
      })
    ).body.access_token;
    const { page, context } = await signedInPage(browser, product, own);
    await page.goto('/my/agenda');
    const suggestion = page.getByRole('region', {
      name: 'Sugerencias según resultados anteriores',
    });
    await suggestion.waitFor({ timeout: 30_000 });
    // Its groups are small on the demo: the course's contacts as a whole, with the sample and the caveat.
    expect(await suggestion.innerText()).toMatch(
      /Para estudiantes de .+, tras un contacto (por «.+»|a las \d\d:00) ingresaron a Moodle en 7 días \d+ de \d+/,
    );
    expect(await suggestion.innerText()).toContain('Es una correlación, no una garantía');
    // Each student's own line is reachable by keyboard: the grid's arrow keys land on its bulb.
    await page.locator('[role="row"][data-id] [data-field="name"]').first().click();
    let label: string | null = null;
    for (let i = 0; i < 6 && !label?.match(/^(Para estudiantes|Sin sugerencia)/); i++) {
      await page.keyboard.press('ArrowRight');
      label = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
    }
    expect(label).toMatch(/^(Para estudiantes de .+ ingresaron a Moodle|Sin sugerencia para)/);
    await page.getByRole('tooltip').filter({ hasText: label! }).waitFor();
    await context.close();
  });

  it('a ticket of the demo: the line under an attempt says what the student did in Moodle after it', async () => {
    const list = await api<Json>(
      product.url,
      'GET',
      '/api/v2/tickets?page=1&perPage=50&status=all',
      token,
    );
    const ids: number[] = list.body._data.collections.map((c: Json) => c.properties.id);
    let ticketId: number | undefined;
    for (const id of ids) {
      const o = await api<Json>(product.url, 'GET', `/api/v2/tickets/${id}/outcomes`, token);
      if (o.body._data.attempts.some((a: Json) => a.accessDays !== null)) {
        ticketId = id;
        break;
      }
    }
    expect(ticketId).toBeDefined();
    const { page, context } = await signedInPage(browser, product, token);
    await page.goto(`/my/ticket?ticket=${ticketId}`);
    const dialog = page.getByRole('dialog');
    await dialog.waitFor({ timeout: 30_000 });
    await dialog
      .getByText(/Ingresó a Moodle/)
      .first()
      .waitFor({ timeout: 30_000 });
    expect(await dialog.getByRole('region', { name: 'Contactos y respuesta' }).count()).toBe(1);
    await screenshot(page, 'ticket-resultado-intentos');
    await context.close();
  });
});
