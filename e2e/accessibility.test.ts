import ExcelJS from 'exceljs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { computeDv, SCREEN_ROUTES } from '@sigaf/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_ADMIN, pickDemoCourse, settled } from './demo.js';
import {
  api,
  describeE2E,
  launchBrowser,
  newPage,
  signedInPage,
  startProduct,
  type Product,
} from './harness.js';

type Json = any;

/** axe-core, injected into the page as Chromium loads it. */
const AXE_SOURCE = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/**
 * Every axe-core 4.14 rule runs; what fails is a serious or critical violation, plus content
 * outside landmarks ('region') and a page without a main landmark ('landmark-one-main').
 */
async function violations(page: Page): Promise<string[]> {
  // Evaluated through the browser's debugging protocol: the page's CSP (no inline script) stays as it is.
  await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<Json> } })
      .axe;
    return axe.run(document, { resultTypes: ['violations'] });
  })) as Json;
  return result.violations
    .filter(
      (v: Json) =>
        v.impact === 'serious' ||
        v.impact === 'critical' ||
        v.id === 'region' ||
        v.id === 'landmark-one-main',
    )
    .map(
      (v: Json) =>
        `${v.id}: ${v.nodes
          .map((n: Json) => `${n.target.join(' ')} ${n.failureSummary?.split('\n')[1] ?? ''}`)
          .slice(0, 4)
          .join(' | ')}`,
    );
}

async function studentsFile(): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Alumnos');
  ws.addRow([
    'RUT',
    'DV',
    'Nombre',
    'Paterno',
    'Materno',
    'Email',
    'Dirección',
    'Región',
    'Teléfono',
    'Celular',
  ]);
  ws.addRow([
    17_111_111,
    computeDv(17_111_111),
    'Ana',
    'Accesible',
    'Demo',
    'ana.accesible@correo.cl',
    '',
    'Maule',
    '',
    '+56900000000',
  ]);
  ws.addRow([12_345_678, '9', 'Malo', 'Rut', '', 'malo@correo.cl']);
  const file = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-a11y-students-')),
    'alumnos.xlsx',
  );
  await wb.xlsx.writeFile(file);
  return file;
}

describeE2E(
  'accessibility of every screen and the main dialogs, on the demo data (axe-core)',
  () => {
    let product: Product;
    let browser: Browser;
    let token: string;

    beforeAll(async () => {
      product = await startProduct({ DEMO: 'true' });
      browser = await launchBrowser();
      token = (await api(product.url, 'POST', '/api/auth/login', undefined, DEMO_ADMIN)).body
        .access_token;
      expect(token).toBeTruthy();
    });
    afterAll(async () => {
      await browser?.close();
      await product?.stop();
    });

    const open = async (route: string) => {
      const { page, context } = await signedInPage(browser, product, token);
      await page.goto(route);
      await page.locator('main').first().waitFor({ timeout: 30_000 });
      return { page, context };
    };

    it('the sign-in page: a main landmark, the language button named by what it shows', async () => {
      const { page, context } = await newPage(browser, product.url);
      await page.goto('/login');
      await page.getByRole('button', { name: /^ES · Idioma$/ }).waitFor();
      expect(await page.locator('main').count()).toBe(1);
      expect(await violations(page)).toEqual([]);
      await context.close();
    });

    it('the first-login password dialog', async () => {
      // A new staff member (the demo has no one-time administrator): their first sign-in asks for a new password.
      const role = (
        await api<{ _data: { collections: Array<{ properties: { id: number; key: string } }> } }>(
          product.url,
          'GET',
          '/api/v2/roles',
          token,
        )
      ).body._data.collections.find((r) => r.properties.key === 'operator')!.properties.id;
      const newcomer = { email: 'primer.ingreso@sigaf.cl', password: 'Primera-Clave-1' };
      expect(
        (
          await api(product.url, 'POST', '/api/v2/users/signup', token, {
            name: 'Persona Nueva',
            email: newcomer.email,
            role_id: role,
            password: newcomer.password,
          })
        ).status,
      ).toBe(201);
      const { page, context } = await newPage(browser, product.url);
      await page.goto('/login');
      await page.getByLabel('E-mail').fill(newcomer.email);
      await page.getByLabel('Contraseña', { exact: true }).fill(newcomer.password);
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.getByRole('dialog', { name: 'Modificar contraseña' }).waitFor();
      await settled(page);
      expect(await violations(page)).toEqual([]);
      await context.close();
    });

    it('the home screen after sign-in (/my)', async () => {
      const { page, context } = await open('/my');
      await settled(page);
      expect(await violations(page)).toEqual([]);
      await context.close();
    });

    for (const screen of SCREEN_ROUTES) {
      it(`screen ${screen.key} (/my/${screen.path})`, async () => {
        const { page, context } = await open(`/my/${screen.path}`);
        await settled(page);
        if ((await page.getByRole('combobox', { name: 'Categorías' }).count()) > 0)
          await pickDemoCourse(page);
        await settled(page);
        expect(await violations(page)).toEqual([]);
        await context.close();
      });
    }

    it('the dashboard of the demo course: charts drawn, their figures in the accessibility tree', async () => {
      const { page, context } = await open('/my/estadistica');
      await pickDemoCourse(page);
      await settled(page);
      await page.locator('[data-state="ready"]').first().waitFor({ timeout: 30_000 });
      const status = page.getByRole('figure', { name: /estado/i }).first();
      // Each chart's numbers are also a table for screen readers.
      const table = status.getByRole('table');
      expect(await table.count()).toBe(1);
      const cells = await table.getByRole('cell').allTextContents();
      expect(cells.some((c) => /^\d+$/.test(c.trim()))).toBe(true);
      expect(await violations(page)).toEqual([]);
      await context.close();
    });

    it('the ticket dialog and the mail composer', async () => {
      const { page, context } = await open('/my/ticket');
      await pickDemoCourse(page);
      await page.getByText(/^Tickets encontrados: \d+$/).waitFor();
      await settled(page);
      await page.getByRole('button', { name: 'Agregar contacto' }).first().click();
      const dialog = page.getByRole('dialog', { name: /^Ticket / });
      await dialog.waitFor();
      await settled(page);
      expect(await violations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Enviar correo' }).click();
      await page.getByRole('dialog', { name: 'Enviar correo' }).waitFor();
      await settled(page);
      expect(await violations(page)).toEqual([]);
      await context.close();
    });

    it('the create-tickets dialogs: Individual and Masivo', async () => {
      const { page, context } = await open('/my/ticket');
      await pickDemoCourse(page);
      await page.getByText(/^Tickets encontrados: \d+$/).waitFor();
      await page.getByRole('button', { name: 'Individual' }).click();
      const individual = page.getByRole('dialog', { name: 'Crear ticket individual' });
      await individual.waitFor();
      await settled(page);
      expect(await violations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await individual.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Masivo' }).click();
      const masivo = page.getByRole('dialog', { name: /^Ticket masivo/ });
      await masivo.waitFor();
      await settled(page);
      expect(await violations(page)).toEqual([]);
      await context.close();
    });

    it('the student record drawer in Seguimiento', async () => {
      const { page, context } = await open('/my/seguimiento-alumnos');
      await pickDemoCourse(page);
      await settled(page);
      const view = page
        .getByRole('menuitem', { name: /^Ver ficha de / })
        .or(page.getByRole('button', { name: /^Ver ficha de / }));
      await view.first().click();
      await page.getByRole('dialog').first().waitFor();
      await settled(page);
      expect(await violations(page)).toEqual([]);
      await context.close();
    });

    it('the import preview in Matrícula', async () => {
      const { page, context } = await open('/my/configuracion/cargar-estudiantes');
      const bulk = page.locator('div.MuiPaper-root').filter({ hasText: 'Carga masiva' }).first();
      await pickDemoCourse(page, bulk);
      await bulk.getByLabel('Archivo de alumnos').setInputFiles(await studentsFile());
      await bulk.getByRole('button', { name: 'Previsualizar' }).click();
      await page.getByText('Rechazados: 1').waitFor();
      await settled(page);
      expect(await violations(page)).toEqual([]);
      await context.close();
    });
  },
);
