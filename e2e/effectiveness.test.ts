import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_ADMIN, pickDemoCourse, settled } from './demo.js';
import { api, describeE2E, launchBrowser, screenshot, signedInPage, startProduct, type Product } from './harness.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * On the demo (its students' history is simulated, docs/operations/moodle.md#the-demo): the
 * Efectividad screen draws a chart and its table per dimension with the baseline, for the
 * organisation and for a course; a ticket's attempts show what the student did after them.
 */
describeE2E('contact effectiveness on the demo', () => {
  let product: Product;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    product = await startProduct({ DEMO: 'true' });
    browser = await launchBrowser();
    token = (await api(product.url, 'POST', '/api/auth/login', undefined, DEMO_ADMIN)).body.access_token;
    expect(token).toBeTruthy();
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('Efectividad: the organisation, then a course; every dimension has its chart and table with the baseline', async () => {
    const { page, context } = await signedInPage(browser, product, token);
    await page.goto('/my/efectividad');
    await page.getByRole('heading', { name: 'Efectividad de los contactos' }).waitFor({ timeout: 30_000 });
    await settled(page);
    await page.getByText('Toda la organización').first().waitFor();
    const total = page.getByRole('table', { name: 'Total' });
    await total.waitFor({ timeout: 60_000 });
    expect(await total.getByRole('columnheader', { name: 'Línea base reingreso' }).count()).toBe(1);
    for (const dim of ['canal', 'origen', 'motivo', 'operador', 'hora del día', 'día de la semana', 'días sin acceso']) {
      expect(await page.getByRole('table', { name: `Reingreso en 7 días por ${dim}` }).count(), dim).toBeGreaterThanOrEqual(1);
    }
    const phone = page.getByRole('table', { name: 'Reingreso en 7 días por canal' }).last().getByRole('row', { name: /Contacto telefónico/ });
    expect(await phone.count()).toBe(1);
    await screenshot(page, 'efectividad-organizacion');
    await pickDemoCourse(page);
    await settled(page);
    await page.getByText('Operación segura de grúa horquilla').first().waitFor();
    await total.waitFor({ timeout: 60_000 });
    await screenshot(page, 'efectividad-curso');
    await context.close();
  });

  it('a ticket of the demo: the line under an attempt says what the student did in Moodle after it', async () => {
    const list = await api<Json>(product.url, 'GET', '/api/v2/tickets?page=1&perPage=50&status=all', token);
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
    await dialog.getByText(/Ingresó a Moodle/).first().waitFor({ timeout: 30_000 });
    expect(await dialog.getByRole('region', { name: 'Contactos y respuesta' }).count()).toBe(1);
    await screenshot(page, 'ticket-resultado-intentos');
    await context.close();
  });
});
