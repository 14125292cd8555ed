/**
 * `npm run docs:screenshots`: the staff guide's screenshots (docs/usage/img/*.png), taken from the
 * product in demo mode on a temporary database, signed in as the demo administrator, in Spanish,
 * at 1366×850 (the viewport only, so each picture stays small). Needs the built web app
 * (`npm run build -w @sigaf/web`) and Chromium (see docs/development/tests.md).
 */
import ExcelJS from 'exceljs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { computeDv } from '@sigaf/contract';
import type { Page } from 'playwright-core';
import { DEMO_ADMIN, pickDemoCourse, settled } from '../e2e/demo.js';
import { launchBrowser, newPage, startProduct } from '../e2e/harness.js';
import { HELP_OPTION, readCommandLine } from '../apps/server/src/lib/command-line.js';

readCommandLine(
  `Uso: npm run docs:screenshots
Toma las capturas de la guía de uso (docs/usage/img/*.png) desde la demo, con Chromium.
  -h, --help   esta ayuda`,
  { options: HELP_OPTION },
);

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'docs/usage/img');

async function shot(page: Page, name: string) {
  await settled(page, 800);
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file });
  console.log(`${path.relative(ROOT, file)}  ${Math.round(fs.statSync(file).size / 1024)} KB`);
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
  const people = [
    [17_111_111, 'Ana', 'Contreras', 'Vidal'],
    [17_222_222, 'Bruno', 'Salinas', 'Mora'],
    [17_333_333, 'Carla', 'Fuentes', 'Rojas'],
  ] as const;
  for (const [rut, name, last, mother] of people)
    ws.addRow([
      rut,
      computeDv(rut),
      name,
      last,
      mother,
      `${name.toLowerCase()}.${last.toLowerCase()}@correo.test`,
      '',
      'Maule',
      '',
      '+56912345678',
    ]);
  ws.addRow([12_345_678, '9', 'Diego', 'Rut', 'Erróneo', 'diego@correo.test']);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-shots-')), 'alumnos.xlsx');
  await wb.xlsx.writeFile(file);
  return file;
}

const product = await startProduct({ DEMO: 'true' });
const browser = await launchBrowser();
try {
  fs.mkdirSync(OUT, { recursive: true });
  const { page } = await newPage(browser, product.url);
  page.setDefaultTimeout(30_000);

  await page.goto('/login');
  await page.getByRole('button', { name: 'Entrar' }).waitFor();
  await page.getByLabel('E-mail').fill(DEMO_ADMIN.email);
  await shot(page, 'login');
  await page.getByLabel('Contraseña').fill(DEMO_ADMIN.password);
  await page.getByLabel('Contraseña').press('Enter');
  await page.waitForURL(/\/my/);

  // The first demo course arrives synchronised; its activity charts fill once the sync ends.
  await page.goto('/my/estadistica');
  await pickDemoCourse(page);
  await page.locator('[data-state="ready"]').first().waitFor();
  await page
    .waitForFunction(
      () => document.querySelectorAll('[data-state="empty"]').length === 0,
      undefined,
      { timeout: 60_000, polling: 2000 },
    )
    .catch(() => page.reload().then(() => page.locator('[data-state="ready"]').first().waitFor()));
  await shot(page, 'estadistica');

  await page.goto('/my/ticket');
  await pickDemoCourse(page);
  await page.getByText(/^Tickets encontrados: \d+$/).waitFor();
  await shot(page, 'tickets');

  await page.getByRole('button', { name: 'Agregar contacto' }).first().click();
  const ticket = page.getByRole('dialog', { name: /^Ticket / });
  await ticket.waitFor();
  await shot(page, 'ticket-dialogo');
  await ticket.getByRole('button', { name: 'Enviar correo' }).click();
  const mail = page.getByRole('dialog', { name: 'Enviar correo' });
  await mail.waitFor();
  await mail.getByLabel('Asunto').fill('Recordatorio: actividad pendiente');
  await mail
    .getByRole('textbox', { name: 'Mensaje' })
    .fill('Hola {nombre}, te recordamos completar la actividad de la unidad 2 antes del viernes.');
  await shot(page, 'correo');
  await page.keyboard.press('Escape');
  // A mail being written is dropped only once confirmed.
  await page
    .getByRole('dialog', { name: 'Cambios sin guardar' })
    .getByRole('button', { name: 'Descartar' })
    .click();
  await mail.waitFor({ state: 'detached' });
  await page.keyboard.press('Escape');
  await ticket.waitFor({ state: 'detached' });

  await page.getByRole('button', { name: 'Masivo' }).click();
  const masivo = page.getByRole('dialog', { name: /^Ticket masivo/ });
  await masivo.waitFor();
  await shot(page, 'ticket-masivo');
  await page.keyboard.press('Escape');
  await masivo.waitFor({ state: 'detached' });

  await page.goto('/my/seguimiento-alumnos');
  await pickDemoCourse(page);
  await shot(page, 'seguimiento');

  await page.goto('/my/configuracion/cargar-estudiantes');
  const bulk = page.locator('div.MuiPaper-root').filter({ hasText: 'Carga masiva' }).first();
  await pickDemoCourse(page, bulk);
  await bulk.getByLabel('Archivo de alumnos').setInputFiles(await studentsFile());
  await bulk.getByRole('button', { name: 'Previsualizar' }).click();
  await page.getByText('Rechazados: 1').waitFor();
  await shot(page, 'matricula');

  await page.goto('/my/configuracion/actividad');
  await pickDemoCourse(page);
  await shot(page, 'actividades');

  await page.goto('/my/reportes/reporte-ticket');
  await pickDemoCourse(page);
  await shot(page, 'reportes');
} finally {
  await browser.close();
  await product.stop();
}
