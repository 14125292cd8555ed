import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { computeDv, formatRut } from '@sigaf/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  adminSession,
  api,
  checkRow,
  describeE2E,
  launchBrowser,
  type Product,
  screenshot,
  signedInPage,
  startProduct,
} from './harness.js';

type Json = any;

describeE2E('student follow-up', () => {
  let product: Product;
  let browser: Browser;
  let adminToken: string;
  let outboxDir: string;
  let tutor: { id: number; token: string };
  let norte: number;
  let sur: number;
  let ticketCode: string;
  let courseId: number;
  const call = (method: string, url: string, token: string, body?: unknown) =>
    api<Json>(product.url, method, `/api/v2${url}`, token, body);

  async function choose(page: Page, label: string, option: string | RegExp) {
    await page.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option }).click();
  }

  async function openCourse(page: Page) {
    await page.goto('/my/seguimiento-alumnos');
    await page.getByRole('combobox', { name: 'Categorías' }).waitFor({ timeout: 30_000 });
    await choose(page, 'Categorías', 'Seguimiento e2e');
    await choose(page, 'Cursos', 'Curso de seguimiento');
  }

  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-follow-e2e-'));
    outboxDir = path.join(dataDir, 'outbox');
    product = await startProduct({ DATA_DIR: dataDir, JOBS_POLL_MS: '200' });
    browser = await launchBrowser();
    adminToken = await adminSession(product);
    const key = async (p: string, k: string) =>
      (await call('GET', `/${p}`, adminToken)).body._data.collections.find(
        (c: Json) => c.properties.key === k,
      ).properties.id;
    const platform = (await call('GET', '/platforms', adminToken)).body._data.collections[0]
      .properties.id;
    const cat = await call('POST', '/categories', adminToken, {
      description: 'Seguimiento e2e',
      category_code: 'SEGE',
      platform_id: platform,
    });
    const course = (
      await call('POST', '/courses', adminToken, {
        description: 'Curso de seguimiento',
        category_id: cat.body._data.properties.id,
        email: 'curso@sigaf.cl',
      })
    ).body._data.properties.id;
    courseId = course;
    norte = (await call('POST', '/classrooms', adminToken, { description: 'Aula Norte' })).body
      ._data.properties.id;
    sur = (await call('POST', '/classrooms', adminToken, { description: 'Aula Sur' })).body._data
      .properties.id;
    const people: Array<[number, string, string, number]> = [
      [18_000_001, 'Ana', 'Pérez', norte],
      [18_000_002, 'Bruno', 'Soto', norte],
      [18_000_003, 'Carla', 'Muñoz', sur],
      [18_000_004, 'Diego', 'Rojas', sur],
    ];
    const enrolment: Record<string, number> = {};
    for (const [body, name, last_name, classroom_id] of people) {
      const s = await call('POST', '/registered-users/view-store', adminToken, {
        rut: formatRut({ body, dv: computeDv(body) }),
        name,
        last_name,
        email: `${name.toLowerCase()}@correo.cl`,
      });
      const e = await call('POST', '/course-registered-users/view-store', adminToken, {
        course_id: course,
        registered_user_id: s.body._data.properties.id,
        classroom_id,
      });
      expect(e.status, JSON.stringify(e.body)).toBe(201);
      enrolment[name] = e.body._data.properties.id;
    }
    const ticket = await call('POST', '/tickets', adminToken, {
      course_registered_user_id: enrolment.Ana,
      type_ticket_id: await key('type-tickets', 'phone'),
      status_ticket_id: await key('status-tickets', 'open'),
      priority_ticket_id: await key('priority-tickets', 'high'),
      source_ticket_id: await key('source-tickets', 'outgoing'),
      motive_ticket_id: await key('motive-tickets', 'welcome'),
    });
    expect(ticket.status).toBe(201);
    ticketCode = ticket.body._data.properties.ticketCode;
    // A tutor, past the first login.
    const role = (await call('GET', '/roles', adminToken)).body._data.collections.find(
      (c: Json) => c.properties.key === 'tutor',
    ).properties.id;
    const created = await call('POST', '/users/signup', adminToken, {
      name: 'Tania Tutora',
      email: 'tania@sigaf.cl',
      role_id: role,
      password: 'Primera-Clave-1',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const first = await api<Json>(product.url, 'POST', '/api/auth/login', undefined, {
      email: 'tania@sigaf.cl',
      password: 'Primera-Clave-1',
    });
    await call('PUT', `/users/${created.body._data.properties.id}`, first.body.access_token, {
      password: 'Segunda-Clave-2',
      isFirstLogin: 1,
    });
    tutor = {
      id: created.body._data.properties.id,
      token: (
        await api<Json>(product.url, 'POST', '/api/auth/login', undefined, {
          email: 'tania@sigaf.cl',
          password: 'Segunda-Clave-2',
        })
      ).body.access_token,
    };
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('an administrator assigns a tutor to a classroom from the Aula maintenance screen', async () => {
    const { page } = await signedInPage(browser, product, adminToken);
    await page.goto('/my/mantenedor/aula');
    await page.getByLabel('Buscar').fill('Norte');
    const row = page.getByRole('row').filter({ hasText: 'Aula Norte' });
    await row
      .getByRole('menuitem', { name: 'Tutores' })
      .or(row.getByRole('button', { name: 'Tutores' }))
      .click();
    const dialog = page.getByRole('dialog', { name: 'Tutores de Aula Norte' });
    // Tutors are assigned per course: the course first.
    await dialog
      .getByText('Elija el curso: los tutores se asignan al aula de cada curso.')
      .waitFor();
    await choose(page, 'Categorías', 'Seguimiento e2e');
    await choose(page, 'Cursos', 'Curso de seguimiento');
    await dialog.getByRole('combobox', { name: 'Tutores' }).click();
    await page.getByRole('option', { name: /Tania Tutora/ }).click();
    await screenshot(page, 'follow-up-tutors');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Se asignó 1 tutor al Aula Norte.').waitFor();
    const saved = await call('GET', `/courses/${courseId}/classrooms/${norte}/tutors`, adminToken);
    expect(saved.body._data.tutors.map((t: Json) => t.id)).toEqual([tutor.id]);
  });

  it('the filters narrow the student table; a student record shows the ticket history', async () => {
    const { page } = await signedInPage(browser, product, adminToken);
    await openCourse(page);
    const total = page.getByTestId('follow-up-total');
    await expect.poll(() => total.textContent(), { timeout: 10_000 }).toBe('4 estudiantes');
    // Never synchronised with Moodle: each row says so (not a green "Activo"), and the cards say why they count nobody.
    const ana = page.getByRole('row').filter({ hasText: 'Ana Pérez' });
    await ana.getByText('Sin sincronizar', { exact: true }).waitFor();
    expect(await ana.getByText('Activo', { exact: true }).count()).toBe(0);
    await page
      .getByTestId('unsynced-note')
      .getByText(/^De la matrícula, 4 estudiantes aún no se han sincronizado con Moodle/)
      .waitFor();
    await page.getByLabel('Con tickets abiertos').check();
    await expect.poll(() => total.textContent()).toBe('1 estudiante');
    await page.getByRole('row').filter({ hasText: 'Ana Pérez' }).waitFor();
    await page.getByRole('button', { name: 'Limpiar filtros' }).click();
    await expect.poll(() => total.textContent()).toBe('4 estudiantes');
    await page.getByLabel('Buscar').fill('munoz');
    await expect.poll(() => total.textContent()).toBe('1 estudiante');
    await page.getByRole('row').filter({ hasText: 'Carla Muñoz' }).waitFor();
    await page.getByRole('button', { name: 'Limpiar filtros' }).click();
    await choose(page, 'Aula', /^Aula Sur/);
    await expect.poll(() => total.textContent()).toBe('2 estudiantes');
    await page.getByLabel('Sin acceso hace más de').fill('7');
    await expect.poll(() => total.textContent()).toBe('2 estudiantes');
    await page.getByLabel('Progreso bajo').fill('50');
    // Nobody has graded activities to do yet: nobody has a progress to be low on.
    await expect.poll(() => total.textContent()).toBe('0 estudiantes');
    await screenshot(page, 'follow-up-filters');

    await choose(page, 'Aula', 'Todas las aulas');
    await expect.poll(() => total.textContent()).toBe('4 estudiantes');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exportar a Excel (.xlsx)' }).click();
    expect((await download).suggestedFilename()).toMatch(
      /^seguimiento-curso-de-seguimiento-\d{2}-\d{2}-\d{4}\.xlsx$/,
    );

    await page
      .getByRole('row')
      .filter({ hasText: 'Ana Pérez' })
      .getByRole('menuitem', { name: /Ver ficha de Ana/ })
      .or(page.getByRole('button', { name: /Ver ficha de Ana/ }))
      .click();
    const drawer = page.getByRole('dialog', { name: 'Ana Pérez' });
    await drawer.getByText(ticketCode).waitFor();
    await drawer.getByText('Historial de tickets').waitFor();
    await screenshot(page, 'follow-up-student');
    // Printed, the ficha is the page: the table behind it is not printed, one page for one student.
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('#root').isVisible()).toBe(false);
    expect(await drawer.getByText('Historial de tickets').isVisible()).toBe(true);
    const pdf = (await page.pdf({ format: 'A4' })).toString('latin1');
    expect(pdf.match(/\/Type\s*\/Page(?!s)/g)).toHaveLength(1);
    await page.emulateMedia({ media: 'screen' });
    await drawer.getByRole('button', { name: 'Cerrar' }).click();
  });

  it('a tutor sees only the classrooms assigned to them', async () => {
    const { page } = await signedInPage(browser, product, tutor.token);
    await openCourse(page);
    await expect
      .poll(() => page.getByTestId('follow-up-total').textContent(), { timeout: 10_000 })
      .toBe('2 estudiantes');
    await page.getByRole('row').filter({ hasText: 'Ana Pérez' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Bruno Soto' }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'Carla' }).count()).toBe(0);
    await page.getByRole('combobox', { name: 'Aula' }).click();
    expect(await page.getByRole('option').allTextContents()).toEqual(['Aula Norte (2)']);
    await page.keyboard.press('Escape');
    // No ticket or mail actions for a tutor, and the server refuses another classroom.
    expect(await page.getByRole('button', { name: 'Enviar correo' }).count()).toBe(0);
    await page
      .getByRole('region', { name: 'Resumen' })
      .getByRole('group', { name: 'Matrícula inicial' })
      .waitFor();
    await screenshot(page, 'follow-up-tutor');
    const other = await call(
      'GET',
      `/follow-up/courses/${(await call('GET', '/follow-up/courses', adminToken)).body._data.collections.find((c: Json) => c.properties.description === 'Curso de seguimiento').properties.id}/students?classroom_id=${sur}`,
      tutor.token,
    );
    expect(other.status).toBe(403);
  });

  it('a box ticked while the list reloads stays ticked', async () => {
    const { page, context } = await signedInPage(browser, product, adminToken);
    await openCourse(page);
    await expect
      .poll(() => page.getByTestId('follow-up-total').textContent(), { timeout: 10_000 })
      .toBe('4 estudiantes');
    // The next answer of the list comes late: the grid shows its bar over the rows meanwhile.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/v2/follow-up/courses/*/students?*', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('columnheader', { name: 'Nombre' }).click();
    await page.getByRole('grid').getByRole('progressbar').waitFor();
    // Where a person clicks, whatever lies on top: the click must reach the box.
    const box = page.getByRole('row').filter({ hasText: 'Bruno Soto' }).getByRole('checkbox');
    await box.click({ force: true });
    release();
    await page.getByRole('grid').getByRole('progressbar').waitFor({ state: 'detached' });
    expect(await box.isChecked()).toBe(true);
    await page.getByText('1 seleccionado').waitFor();
    await context.close();
  });

  it('selected students get a massive mail: count and preview first, then the outbox', async () => {
    const { page } = await signedInPage(browser, product, adminToken);
    await openCourse(page);
    await expect
      .poll(() => page.getByTestId('follow-up-total').textContent(), { timeout: 10_000 })
      .toBe('4 estudiantes');
    for (const name of ['Bruno Soto', 'Diego Rojas'])
      await checkRow(page.getByRole('row').filter({ hasText: name }));
    await page.getByText('2 seleccionados').waitFor();
    await page.getByRole('button', { name: 'Enviar correo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar correo a 2 estudiantes' });
    await dialog.getByLabel('Asunto').fill('Seguimiento de {nombre}');
    await dialog
      .getByRole('textbox', { name: 'Mensaje' })
      .fill('Hola {nombre}, te esperamos en el curso.');
    await dialog.getByRole('button', { name: 'Vista previa' }).click();
    await dialog.getByText('Se enviarán 2 correos.').waitFor();
    expect(await dialog.getByTestId('follow-up-mail-subject').textContent()).toBe(
      'Seguimiento de Bruno',
    );
    await screenshot(page, 'follow-up-mail-preview');
    await dialog.getByRole('button', { name: 'Enviar 2 correos' }).click();
    await dialog.getByTestId('follow-up-mail-result').waitFor();
    await dialog
      .getByText('Enviado', { exact: true })
      .nth(1)
      .waitFor({ timeout: 30_000 })
      .catch(async () => {
        await dialog.getByRole('button', { name: 'Actualizar' }).click();
        await dialog.getByText('Enviado', { exact: true }).nth(1).waitFor({ timeout: 20_000 });
      });
    await screenshot(page, 'follow-up-mail-sent');
    const emls = fs
      .readdirSync(outboxDir)
      .filter((f) => f.endsWith('.eml'))
      .map((f) => fs.readFileSync(path.join(outboxDir, f), 'utf8'));
    expect(emls).toHaveLength(2);
    expect(emls.some((e) => e.includes('bruno@correo.cl'))).toBe(true);
    expect(emls.some((e) => e.includes('diego@correo.cl'))).toBe(true);
  });

  it('selected students get a ticket each; the open-ticket filter then finds them', async () => {
    const { page } = await signedInPage(browser, product, adminToken);
    await openCourse(page);
    const total = page.getByTestId('follow-up-total');
    await expect.poll(() => total.textContent(), { timeout: 10_000 }).toBe('4 estudiantes');
    for (const name of ['Carla Muñoz', 'Diego Rojas'])
      await checkRow(page.getByRole('row').filter({ hasText: name }));
    await page.getByRole('button', { name: 'Abrir tickets' }).click();
    const dialog = page.getByRole('dialog', { name: /^Ticket masivo/ });
    await dialog.getByText('Se crearán 2 tickets, uno por cada alumno seleccionado.').waitFor();
    for (const [label, option] of [
      ['Origen', 'Saliente'],
      ['Tipo', 'Contacto telefónico'],
      ['Motivo', 'Bienvenida'],
      ['Prioridad', 'Media'],
      ['Intento de contacto', 'Fallido'],
    ]) {
      await dialog.getByRole('combobox', { name: label }).click();
      await page.getByRole('option', { name: option, exact: true }).click();
    }
    await dialog.getByLabel('Observaciones').fill('Sin acceso al curso; se le llamó.');
    await dialog.getByRole('button', { name: 'Generar tickets' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByLabel('Con tickets abiertos').check();
    await expect.poll(() => total.textContent()).toBe('3 estudiantes');
    for (const name of ['Ana Pérez', 'Carla Muñoz', 'Diego Rojas'])
      await page.getByRole('row').filter({ hasText: name }).waitFor();
  });
});
