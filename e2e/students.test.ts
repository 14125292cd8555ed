import ExcelJS from 'exceljs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { computeDv, SEARCH_COUNT_CAP } from '@sigaf/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
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

const ruts = [15_111_111, 15_222_222, 15_333_333, 15_444_444];

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
  const names = ['Ana', 'Bruno', 'Carla', 'Diego'];
  ruts.forEach((r, i) =>
    ws.addRow([
      r,
      computeDv(r),
      names[i],
      'Pruebas',
      'E2E',
      `${names[i]!.toLowerCase()}@correo.cl`,
      '',
      'Maule',
      '',
      '+56900000000',
    ]),
  );
  ws.addRow([12_345_678, '9', 'Malo', 'Rut', '', 'malo@correo.cl']);
  ws.addRow([16_000_000, computeDv(16_000_000), '', 'SinNombre', '', 'no-es-correo']);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-students-')), 'alumnos.xlsx');
  await wb.xlsx.writeFile(file);
  return file;
}

async function pickCourse(page: Page, scope: ReturnType<Page['locator']> | Page = page) {
  await scope.getByRole('combobox', { name: 'Categorías' }).first().click();
  await page.getByRole('option', { name: 'Operación de grúas' }).click();
  await scope.getByRole('combobox', { name: 'Cursos' }).first().click();
  await page.getByRole('option', { name: 'Grúa horquilla' }).click();
}

describeE2E('students: load, find, build classrooms', () => {
  let product: Product;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
    const token = await adminSession(product);
    const platform = (await api(product.url, 'GET', '/api/v2/platforms', token)).body._data
      .collections[0].properties.id;
    const cat = await api(product.url, 'POST', '/api/v2/categories', token, {
      description: 'Operación de grúas',
      category_code: 'GRUA',
      platform_id: platform,
    });
    await api(product.url, 'POST', '/api/v2/courses', token, {
      description: 'Grúa horquilla',
      category_id: cat.body._data.properties.id,
    });
    ({ page } = await signedInPage(browser, product, token));
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('uploads a file with good and bad rows, reads the preview, confirms', async () => {
    await page.goto('/my/configuracion/cargar-estudiantes');
    const bulk = page.locator('div.MuiPaper-root').filter({ hasText: 'Carga masiva' }).first();
    await pickCourse(page, bulk);
    await bulk.getByLabel('Archivo de alumnos').setInputFiles(await studentsFile());
    await bulk.getByRole('button', { name: 'Previsualizar' }).click();
    await page.getByText('Rechazados: 2').waitFor();
    await expect(page.getByText('Nuevos: 4').isVisible()).resolves.toBe(true);
    const grid = page.getByRole('grid', { name: 'Resultado de la revisión' });
    await grid.getByText('RUT no válido').waitFor();
    await expect(
      grid.getByText('Falta el nombre; Correo electrónico no válido').isVisible(),
    ).resolves.toBe(true);
    await screenshot(page, 'students-preview');
    // Nothing is written before the confirmation.
    // An unknown RUT: HTTP 200 with the body's statusCode 204 (the original client's contract).
    const unknown = await api(
      product.url,
      'GET',
      `/api/v2/registered-user/15111111-${computeDv(15_111_111)}`,
      await page.evaluate(() => localStorage.getItem('access_token')!),
    );
    expect([unknown.status, (unknown.body as { statusCode: number }).statusCode]).toEqual([
      200, 204,
    ]);
    await page.getByRole('button', { name: 'Confirmar importación' }).click();
    await page
      .getByText('Se guardarán 4 filas válidas en el curso Grúa horquilla.', { exact: false })
      .waitFor();
    await page.getByRole('button', { name: 'ACEPTAR' }).click();
    await page
      .getByRole('alert')
      .filter({
        hasText: 'Importación completada: 4 alumnos nuevos, 4 matriculados, 2 filas rechazadas.',
      })
      .waitFor();
  });

  it('finds the students across courses and shows their enrolment', async () => {
    await page.goto('/my/configuracion/gestion-estudiantes');
    await page.getByLabel('Buscar').fill('carla');
    const row = page.getByRole('row').filter({ hasText: 'carla@correo.cl' });
    await row.waitFor();
    await row.click();
    const dialog = page.getByRole('dialog', { name: /Editar alumno: Carla Pruebas/ });
    await dialog.waitFor();
    await expect(dialog.getByRole('cell', { name: 'Grúa horquilla' }).isVisible()).resolves.toBe(
      true,
    );
    await expect(dialog.getByRole('cell', { name: 'Sin aula' }).isVisible()).resolves.toBe(true);
    await dialog.getByRole('button', { name: 'Cerrar' }).click();
  });

  it('a search matching more students than it counts says so and asks to narrow it', async () => {
    // SEARCH_COUNT_CAP + 2 students named alike, through the original client's one-step upload.
    const token = await page.evaluate(() => localStorage.getItem('access_token')!);
    const category = (await api(product.url, 'GET', '/api/v2/categories', token)).body._data
      .collections[0].properties.id;
    const course = (
      await api(product.url, 'POST', '/api/v2/courses', token, {
        description: 'Curso numeroso',
        category_id: category,
      })
    ).body._data.properties.id;
    const lines = Array.from(
      { length: SEARCH_COUNT_CAP + 2 },
      (_, i) => `${17_000_000 + i};${computeDv(17_000_000 + i)};Numeroso;Alumno ${i};;`,
    );
    const form = new FormData();
    form.append('courseId', String(course));
    form.append(
      'file',
      new Blob([`rut;dv;nombre;paterno;materno;email\r\n${lines.join('\r\n')}\r\n`]),
      'numerosos.csv',
    );
    const uploaded = await fetch(`${product.url}/api/v2/upload-file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(uploaded.status).toBe(200);
    await page.goto('/my/configuracion/gestion-estudiantes');
    await page.getByLabel('Buscar').fill('numeroso');
    await page
      .getByRole('alert')
      .filter({ hasText: /Más de 1\.?000 alumnos coinciden con la búsqueda/ })
      .waitFor();
    await page.getByText(/^1–10 de más de 1\.?000$/).waitFor();
    await screenshot(page, 'students-more-matches');
    await page.getByLabel('Buscar').fill('alumno 1001');
    await page.getByRole('row').filter({ hasText: 'Alumno 1001' }).waitFor();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Más de' }).count()).toBe(0);
  });

  it('builds two classrooms and the chart follows', async () => {
    await page.goto('/my/configuracion/conformar-aulas');
    await pickCourse(page);
    const chart = page.getByRole('figure', { name: 'Estudiantes por aula' });
    await chart.getByText('Sin aula').waitFor();
    await expect(
      chart.getByTestId('classroom-bar').filter({ hasText: 'Sin aula' }).textContent(),
    ).resolves.toContain('4');

    // Two students into Aula 1 by hand.
    const grid = page.getByRole('grid', { name: 'Conformación de aulas' });
    await grid.getByRole('row').filter({ hasText: 'Ana' }).getByRole('checkbox').check();
    await grid.getByRole('row').filter({ hasText: 'Bruno' }).getByRole('checkbox').check();
    await page.getByText('2 seleccionados').waitFor();
    await page.getByRole('combobox', { name: 'Aula destino' }).click();
    await page.getByRole('option', { name: 'Aula 1' }).click();
    await page.getByRole('button', { name: 'Conformar aula' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Se ha conformado el Aula 1 con 2 estudiantes' })
      .waitFor();
    await chart.getByTestId('classroom-bar').filter({ hasText: 'Aula 1' }).waitFor();

    // The other two split automatically into Aula 2.
    await page.getByRole('combobox', { name: 'Aulas' }).click();
    await page.getByRole('option', { name: 'Aula 2' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Vista previa' }).click();
    await page.getByText('Aula 2: 2 estudiantes').waitFor();
    await page.getByRole('button', { name: 'ACEPTAR' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Se distribuyeron 2 estudiantes en 1 aula.' })
      .waitFor();
    await chart.getByTestId('classroom-bar').filter({ hasText: 'Aula 2' }).waitFor();
    expect(await chart.getByTestId('classroom-bar').filter({ hasText: 'Sin aula' }).count()).toBe(
      0,
    );
    await screenshot(page, 'students-classrooms');
  });
});
