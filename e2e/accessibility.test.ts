import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminSession, api, describeE2E, launchBrowser, newPage, signedInPage, startProduct, type Product } from './harness.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** axe-core, injected into the page as Chromium loads it. */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * What axe-core 4.14 found on the screens staff use first (issue of the first-time user): the
 * contrast of the priority chips, the language button's name against its text, a main landmark
 * on the sign-in page, content outside landmarks, and lists that hold links directly.
 */
const RULES = ['color-contrast', 'label-content-name-mismatch', 'landmark-one-main', 'region', 'list', 'listitem'];

async function violations(page: Page): Promise<string[]> {
  // Evaluated through the browser's debugging protocol: the page's CSP (no inline script) stays as it is.
  await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate(async (rules) => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<Json> } }).axe;
    return axe.run(document, { runOnly: { type: 'rule', values: rules }, resultTypes: ['violations'] });
  }, RULES)) as Json;
  return result.violations
    .filter((v: Json) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'region' || v.id === 'landmark-one-main')
    .map((v: Json) => `${v.id}: ${v.nodes.map((n: Json) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
}

describeE2E('accessibility of the first screens (axe-core)', () => {
  let product: Product;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    product = await startProduct({ DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-a11y-')) });
    browser = await launchBrowser();
    token = await adminSession(product);
    // A course with a ticket of medium priority, so that its orange chip is on the screen.
    const call = (method: string, url: string, body?: unknown) => api<Json>(product.url, method, `/api/v2${url}`, token, body);
    const key = async (p: string, k: string) => (await call('GET', `/${p}`)).body._data.collections.find((c: Json) => c.properties.key === k).properties.id;
    const platform = (await call('GET', '/platforms')).body._data.collections[0].properties.id;
    const cat = (await call('POST', '/categories', { description: 'Accesible', category_code: 'ACCE', platform_id: platform })).body._data.properties.id;
    const course = (await call('POST', '/courses', { description: 'Curso accesible', category_id: cat })).body._data.properties.id;
    const student = (await call('POST', '/registered-users/view-store', { rut: '11.111.111-1', name: 'Ana', last_name: 'Rojas' })).body._data.properties.id;
    const enrolment = (await call('POST', '/course-registered-users/view-store', { course_id: course, registered_user_id: student })).body._data.properties.id;
    const created = await call('POST', '/tickets', {
      course_registered_user_id: enrolment,
      type_ticket_id: await key('type-tickets', 'phone'),
      status_ticket_id: await key('status-tickets', 'open'),
      priority_ticket_id: await key('priority-tickets', 'medium'),
      source_ticket_id: await key('source-tickets', 'outgoing'),
      motive_ticket_id: await key('motive-tickets', 'welcome'),
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('the sign-in page: a main landmark, the language button named by what it shows', async () => {
    const { page, context } = await newPage(browser, product.url);
    await page.goto('/login');
    await page.getByRole('button', { name: /^ES · Idioma$/ }).waitFor();
    expect(await page.locator('main').count()).toBe(1);
    expect(await violations(page)).toEqual([]);
    await context.close();
  });

  it('the application frame and the ticket screen: landmarks, lists, contrast of the priority chips', async () => {
    const { page, context } = await signedInPage(browser, product, token);
    await page.goto('/my/ticket');
    await page.getByRole('combobox', { name: 'Categorías' }).click();
    await page.getByRole('option', { name: 'Accesible' }).click();
    await page.getByRole('combobox', { name: 'Cursos' }).click();
    await page.getByRole('option', { name: 'Curso accesible' }).click();
    await page.getByText('MEDIA', { exact: true }).first().waitFor();
    expect(await violations(page)).toEqual([]);
    await context.close();
  });
});
