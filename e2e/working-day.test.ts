import fs from 'node:fs';
import { computeDv, formatRut } from '@sigaf/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  adminSession,
  api,
  checkRow,
  choose,
  describeE2E,
  launchBrowser,
  screenshot,
  signedInPage,
  startProduct,
  type Product,
} from './harness.js';

/**
 * A working day without surprises, in Chromium: a course loaded by hand and never synchronised
 * raises no alarm in Mi agenda and is named there; a ticket is closed right after its call without
 * a second attempt, beside a button that does not read "Cerrar"; a typed observation, a tutor chosen
 * for a classroom and a ticket being created are not dropped by Escape without asking; one ticket
 * opened for one student is not called "masivo".
 */

type Json = Record<string, any>;
const NAMES = ['Iñaki', 'Rosa', 'Tomás'];
const rutOf = (n: number) => formatRut({ body: 18_000_000 + n, dv: computeDv(18_000_000 + n) });

describeE2E('a working day: agenda, closing, unsaved input, wording', () => {
  let product: Product;
  let browser: Browser;
  let adminToken: string;
  let op: { id: number; token: string };
  let courseId: number;
  let enrolments: number[] = [];
  const keys: Record<string, Record<string, number>> = {};

  const call = (method: string, url: string, token: string, body?: unknown) =>
    api<Json>(product.url, method, `/api/v2${url}`, token, body);

  async function staff(name: string, email: string, role: string) {
    const roles = (await call('GET', '/roles', adminToken)).body._data.collections as Json[];
    const role_id = roles.find((r) => r.properties.key === role)!.properties.id;
    const created = await call('POST', '/users/signup', adminToken, {
      name,
      email,
      role_id,
      password: 'Primera-Clave-1',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const first = await api<Json>(product.url, 'POST', '/api/auth/login', undefined, {
      email,
      password: 'Primera-Clave-1',
    });
    const id = created.body._data.properties.id;
    await call('PUT', `/users/${id}`, first.body.access_token, {
      password: 'Segunda-Clave-2',
      isFirstLogin: 1,
    });
    return {
      id,
      token: (
        await api<Json>(product.url, 'POST', '/api/auth/login', undefined, {
          email,
          password: 'Segunda-Clave-2',
        })
      ).body.access_token as string,
    };
  }

  async function ticketFor(enrolment: number) {
    const res = await call('POST', '/tickets', adminToken, {
      course_registered_user_id: enrolment,
      type_ticket_id: keys.type!.phone,
      status_ticket_id: keys.status!.open,
      priority_ticket_id: keys.priority!.high,
      source_ticket_id: keys.source!.outgoing,
      motive_ticket_id: keys.motive!.welcome,
      user_assigned_id: op.id,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body._data.properties as { id: number; ticketCode: string };
  }

  /** A signed-in page; the machine running these may be shared, so waits are generous. */
  async function session(token: string) {
    const opened = await signedInPage(browser, product, token);
    opened.page.setDefaultTimeout(30_000);
    return opened;
  }

  const discardDialog = (page: Page) => page.getByRole('dialog', { name: 'Cambios sin guardar' });

  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
    adminToken = await adminSession(product);
    const platform = (await call('GET', '/platforms', adminToken)).body._data.collections[0]
      .properties.id;
    const category = await call('POST', '/categories', adminToken, {
      description: 'Jornada e2e',
      category_code: 'JOR',
      platform_id: platform,
    });
    // Loaded by hand, never synchronised with Moodle: nobody has "accessed" as far as SIGAF knows.
    courseId = (
      await call('POST', '/courses', adminToken, {
        description: 'Curso recién cargado',
        category_id: category.body._data.properties.id,
      })
    ).body._data.properties.id;
    enrolments = [];
    for (const [i, name] of NAMES.entries()) {
      const student = await call('POST', '/registered-users/view-store', adminToken, {
        rut: rutOf(i),
        name,
        last_name: 'Jornada',
        email: `jornada${i}@correo.cl`,
      });
      expect(student.status, JSON.stringify(student.body)).toBe(201);
      const enrolment = await call('POST', '/course-registered-users/view-store', adminToken, {
        course_id: courseId,
        registered_user_id: student.body._data.properties.id,
      });
      enrolments.push(enrolment.body._data.properties.id);
    }
    for (const [name, path] of Object.entries({
      status: 'status-tickets',
      type: 'type-tickets',
      priority: 'priority-tickets',
      source: 'source-tickets',
      motive: 'motive-tickets',
    })) {
      keys[name] = Object.fromEntries(
        ((await call('GET', `/${path}`, adminToken)).body._data.collections as Json[]).map((c) => [
          c.properties.key,
          c.properties.id,
        ]),
      );
    }
    op = await staff('Olga Operadora', 'olga@sigaf.cl', 'operator');
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('Mi agenda raises no alarm for a course never synchronised, and says why', async () => {
    await ticketFor(enrolments[0]!);
    const { page, context } = await session(op.token);
    await page.goto('/my/agenda');
    const section = page.getByRole('region', { name: 'Estudiantes en riesgo sin contacto' });
    await section
      .getByText('Aún sin sincronizar con Moodle: Curso recién cargado.', { exact: false })
      .waitFor();
    await section.getByText('No hay estudiantes en riesgo sin contacto.').waitFor();
    // Before, each of them was listed "Nunca ha ingresado".
    expect(await section.getByText('Nunca ha ingresado').count()).toBe(0);
    await screenshot(page, 'agenda-unsynced');
    await context.close();
  });

  it('closes a ticket right after its call without a second attempt; the button beside Guardar reads "Salir"', async () => {
    const ticket = await ticketFor(enrolments[1]!);
    const { page, context } = await session(op.token);
    await page.goto(`/my/ticket?ticket=${ticket.id}`);
    const dialog = page.getByRole('dialog', { name: `Ticket ${ticket.ticketCode}` });
    await dialog.getByLabel('Observaciones').waitFor();
    expect(await dialog.getByRole('button', { name: 'Salir' }).count()).toBe(1);
    // The call first.
    await choose(page, dialog, 'Intento de contacto', 'Exitoso');
    await dialog.getByLabel('Observaciones').fill('Contactada: retoma el curso.');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Then closing it: Estado "Cerrado" and Guardar, nothing else asked.
    await page.goto(`/my/ticket?ticket=${ticket.id}`);
    await dialog.getByLabel('Observaciones').waitFor();
    await choose(page, dialog, 'Estado', 'Cerrado');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByText('Ingrese una observación.').count()).toBe(0);
    const after = (await call('GET', `/tickets/${ticket.id}`, adminToken)).body._data.properties;
    expect(after).toMatchObject({ close: true, attempts: 1, statusTicket: { key: 'closed' } });
    // Saving with nothing changed and no attempt still asks for the attempt.
    const other = await ticketFor(enrolments[2]!);
    await page.goto(`/my/ticket?ticket=${other.id}`);
    const second = page.getByRole('dialog', { name: `Ticket ${other.ticketCode}` });
    await second.getByRole('button', { name: 'Guardar' }).click();
    await second.getByText('Ingrese una observación.').waitFor();
    await context.close();
  });

  it('Escape does not drop a typed observation, a chosen tutor or a ticket being created without asking', async () => {
    const ticket = await ticketFor(enrolments[2]!);
    const { page, context } = await session(op.token);
    await page.goto(`/my/ticket?ticket=${ticket.id}`);
    const dialog = page.getByRole('dialog', { name: `Ticket ${ticket.ticketCode}` });
    await dialog.getByLabel('Observaciones').fill('Llamar el lunes a las 10');
    await page.keyboard.press('Escape');
    await discardDialog(page).getByText('no se ha guardado').waitFor();
    await screenshot(page, 'discard-ask');
    await discardDialog(page).getByRole('button', { name: 'Seguir editando' }).click();
    await discardDialog(page).waitFor({ state: 'hidden' });
    expect(await dialog.getByLabel('Observaciones').inputValue()).toBe('Llamar el lunes a las 10');
    // The ✕ asks too; Descartar closes.
    await dialog.getByRole('button', { name: 'Cerrar' }).click();
    await discardDialog(page).getByRole('button', { name: 'Descartar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Nothing typed: Escape closes straight away.
    await page.goto(`/my/ticket?ticket=${ticket.id}`);
    await dialog.getByLabel('Observaciones').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await discardDialog(page).count()).toBe(0);
    await context.close();

    // An administrator choosing a classroom's tutor.
    const room = await call('POST', '/classrooms', adminToken, { description: 'Aula Jornada' });
    expect(room.status, JSON.stringify(room.body)).toBe(201);
    await staff('Tito Tutor', 'tito@sigaf.cl', 'tutor');
    const admin = await session(adminToken);
    await admin.page.goto('/my/mantenedor/aula');
    await admin.page.getByLabel('Buscar').fill('Jornada');
    const row = admin.page.getByRole('row').filter({ hasText: 'Aula Jornada' });
    await row
      .getByRole('menuitem', { name: 'Tutores' })
      .or(row.getByRole('button', { name: 'Tutores' }))
      .click();
    const tutors = admin.page.getByRole('dialog', { name: 'Tutores de Aula Jornada' });
    await choose(admin.page, tutors, 'Categorías', 'Jornada e2e');
    await choose(admin.page, tutors, 'Cursos', 'Curso recién cargado');
    await tutors.getByRole('combobox', { name: 'Tutores' }).click();
    await admin.page.getByRole('option', { name: /Tito Tutor/ }).click();
    await tutors.getByRole('heading', { name: 'Tutores de Aula Jornada' }).click();
    await admin.page.keyboard.press('Escape');
    await discardDialog(admin.page).getByRole('button', { name: 'Seguir editando' }).click();
    await tutors
      .getByRole('button', { name: 'Tito Tutor' })
      .or(tutors.getByText('Tito Tutor'))
      .first()
      .waitFor();
    await tutors.getByRole('button', { name: 'CANCELAR' }).click();
    await discardDialog(admin.page).getByRole('button', { name: 'Descartar' }).click();
    await tutors.waitFor({ state: 'hidden' });
    expect(
      (
        await call(
          'GET',
          `/courses/${courseId}/classrooms/${room.body._data.properties.id}/tutors`,
          adminToken,
        )
      ).body._data.tutors ?? [],
    ).toEqual([]);
    await admin.context.close();
  });

  it("Excel's Spanish CSV previews with its accents, a garbled row is refused, and the refused rows download", async () => {
    const { page, context } = await session(adminToken);
    await page.goto('/my/configuracion/cargar-estudiantes');
    const bulk = page.locator('div.MuiPaper-root').filter({ hasText: 'Carga masiva' }).first();
    await choose(page, bulk, 'Categorías', 'Jornada e2e');
    await choose(page, bulk, 'Cursos', 'Curso recién cargado');
    const line = (n: number, rest: string) =>
      `${18_000_100 + n};${computeDv(18_000_100 + n)};${rest}`;
    // Windows-1252 bytes (ñ = F1, á = E1), not valid UTF-8.
    const file = Buffer.concat([
      Buffer.from(
        `RUT;DV;Nombre;Paterno;Materno\r\n${line(1, 'Iñaki;Muñoz;Cáceres')}\r\n`,
        'latin1',
      ),
    ]);
    await bulk
      .getByLabel('Archivo de alumnos')
      .setInputFiles({ name: 'excel.csv', mimeType: 'text/csv', buffer: file });
    await bulk.getByRole('button', { name: 'Previsualizar' }).click();
    const grid = page.getByRole('grid', { name: 'Resultado de la revisión' });
    await grid.getByText('Iñaki Muñoz Cáceres').waitFor();
    await page.getByText('se leyó como Windows-1252', { exact: false }).waitFor();
    await page.getByText('Nuevos: 1').waitFor();
    await page.getByText('Rechazados: 0').waitFor();
    // The same rows saved as UTF-8 by a program that had already garbled them: refused, with the reason.
    const garbled = Buffer.from(
      `RUT;DV;Nombre;Paterno\r\n${line(3, 'Ana;Rojas')}\r\n${line(4, 'I\uFFFDaki;Mu\uFFFDoz')}\r\n`,
      'utf8',
    );
    await bulk
      .getByLabel('Archivo de alumnos')
      .setInputFiles({ name: 'roto.csv', mimeType: 'text/csv', buffer: garbled });
    await bulk.getByRole('button', { name: 'Previsualizar' }).click();
    await page.getByText('Rechazados: 1').waitFor();
    await grid.getByText(/caracteres ilegibles/).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Descargar filas rechazadas (.csv)' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toMatch(/^filas-rechazadas-\d{2}-\d{2}-\d{4}\.csv$/);
    const text = fs.readFileSync((await saved.path())!, 'utf8');
    expect(text).toContain('caracteres ilegibles');
    expect(text).toContain(`${18_000_104}-${computeDv(18_000_104)}`);
    expect(text).not.toContain('Ana');
    await context.close();
  });

  it('Crear usuario does not offer Developer; the grid menu sorts in words', async () => {
    const { page, context } = await session(adminToken);
    await page.goto('/my/mantenedor/Usuario');
    await page.getByRole('button', { name: 'Crear usuario' }).click();
    const form = page.getByRole('dialog', { name: 'Crear usuario' });
    await form.getByRole('combobox', { name: 'Rol' }).click();
    await page.getByRole('option', { name: 'Operador', exact: true }).waitFor();
    expect(await page.getByRole('option', { name: 'Developer' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'hidden' });
    await page.getByRole('columnheader', { name: 'Nombre' }).hover();
    await page
      .getByRole('columnheader', { name: 'Nombre' })
      .getByRole('button', { name: /menú|menu/i })
      .click();
    await page.getByRole('menuitem', { name: 'Ordenar de menor a mayor (A→Z)' }).waitFor();
    expect(await page.getByText(/Ordenar (ASC|DESC)/).count()).toBe(0);
    await context.close();
  });

  it('the bell forgets a reminder as soon as the attempt that did it is saved', async () => {
    const ticket = await ticketFor(enrolments[0]!);
    expect(
      (
        await call('POST', '/reminders', op.token, {
          ticket_id: ticket.id,
          due_at: new Date(Date.now() - 60_000).toISOString(),
          comment: 'Llamar',
        })
      ).status,
    ).toBe(201);
    const { page, context } = await session(op.token);
    await page.goto(`/my/ticket?ticket=${ticket.id}`);
    const badge = page.getByTestId('reminder-badge');
    await expect
      .poll(() => badge.getAttribute('aria-label'), { timeout: 30_000 })
      .toBe('1 recordatorio vencido');
    const dialog = page.getByRole('dialog', { name: `Ticket ${ticket.ticketCode}` });
    await choose(page, dialog, 'Intento de contacto', 'Fallido');
    await dialog.getByLabel('Observaciones').fill('No contesta.');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Well before the next 30-second poll.
    await expect
      .poll(() => badge.getAttribute('aria-label'), { timeout: 8000, interval: 250 })
      .not.toBe('1 recordatorio vencido');
    await context.close();
  });

  it('"/" and Ctrl+K put the cursor in the search field; printed, a page has no menu or app bar', async () => {
    const { page, context } = await session(adminToken);
    await page.goto('/my/mantenedor/Usuario');
    const search = page.getByRole('textbox', { name: 'Buscar' });
    await search.waitFor();
    const focused = () =>
      page.evaluate(() => document.activeElement?.hasAttribute('data-page-search') ?? false);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    expect(await focused()).toBe(false);
    await page.keyboard.press('/');
    expect(await focused()).toBe(true);
    // The "/" went to the shortcut, not into the field.
    expect(await search.inputValue()).toBe('');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+k');
    expect(await focused()).toBe(true);
    const menu = page.getByRole('complementary', { name: 'Menú de la aplicación' });
    expect(await menu.isVisible()).toBe(true);
    await page.emulateMedia({ media: 'print' });
    expect(await menu.isVisible()).toBe(false);
    expect(await page.locator('header').first().isVisible()).toBe(false);
    await context.close();
  });

  it("a student's record being edited asks before Escape drops the change, and closes freely once saved", async () => {
    const { page, context } = await session(adminToken);
    await page.goto('/my/configuracion/gestion-estudiantes');
    await page.getByLabel('Buscar').fill('Rosa');
    const row = page.getByRole('row').filter({ hasText: 'jornada1@correo.cl' });
    // The list reloads once the search lands (300 ms after typing): click the row it shows then.
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await row.click();
    const dialog = page.getByRole('dialog', { name: /Editar alumno: Rosa Jornada/ });
    await dialog.getByLabel('Apellido materno').fill('Valdés');
    await page.keyboard.press('Escape');
    await discardDialog(page).getByRole('button', { name: 'Seguir editando' }).click();
    expect(await dialog.getByLabel('Apellido materno').inputValue()).toBe('Valdés');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    // Saved (the confirmation shows once the answer is in): the form holds nothing unsaved any more.
    await page.getByRole('alert').filter({ hasText: 'exitosamente' }).first().waitFor();
    await expect
      .poll(
        async () =>
          (
            await call(
              'GET',
              `/registered-users?search=${encodeURIComponent(rutOf(1))}`,
              adminToken,
            )
          ).body._data.collections[0]?.properties.motherLastName,
      )
      .toBe('Valdés');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await discardDialog(page).isVisible()).toBe(false);
    await context.close();
  });

  it('one ticket for one student is "Nuevo ticket" with "Crear ticket", not a "masivo"', async () => {
    const { page, context } = await session(adminToken);
    await page.goto('/my/seguimiento-alumnos');
    // The course chosen on an earlier screen may already be the current one.
    const rosa = page.getByRole('row').filter({ hasText: 'Rosa Jornada' });
    await rosa
      .or(page.getByRole('combobox', { name: 'Categorías' }))
      .first()
      .waitFor();
    if (!(await rosa.isVisible())) {
      await choose(page, page, 'Categorías', 'Jornada e2e');
      await choose(page, page, 'Cursos', 'Curso recién cargado');
    }
    await checkRow(page.getByRole('row').filter({ hasText: 'Rosa Jornada' }));
    await page.getByRole('button', { name: 'Abrir tickets' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuevo ticket · Curso recién cargado' });
    await dialog.getByRole('button', { name: 'Crear ticket' }).waitFor();
    expect(await dialog.getByText(/masivo/i).count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Generar tickets' }).count()).toBe(0);
    // Something chosen, then Cancelar: asked first.
    await choose(page, dialog, 'Prioridad', 'Media');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await discardDialog(page).getByRole('button', { name: 'Descartar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await context.close();
  });
});
