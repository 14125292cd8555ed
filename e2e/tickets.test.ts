import ExcelJS from 'exceljs';
import { computeDv, formatRut } from '@sigaf/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  adminSession,
  api,
  checkRow,
  choose,
  describeE2E,
  launchBrowser,
  pickStudent,
  screenshot,
  signedInPage,
  startProduct,
  type Product,
} from './harness.js';

/** Ticket screens end to end: two operators and the edit lock, unlocking, single and massive creation, bulk close, administration. */

const NAMES = ['Valentina', 'Benjamín', 'Catalina', 'Diego', 'Emilia', 'Felipe'];
const rutOf = (n: number) => formatRut({ body: 17_000_000 + n, dv: computeDv(17_000_000 + n) });

type Json = Record<string, any>;
interface Person {
  id: number;
  name: string;
  token: string;
}

describeE2E('tickets: the support and follow-up workflow', () => {
  let product: Product;
  let browser: Browser;
  let adminToken: string;
  let admin: Page;
  let enrolments: number[] = [];
  let anaOp: Person;
  let brunoOp: Person;
  /** Catalogue ids by catalogue and key. */
  const keys: Record<string, Record<string, number>> = {};

  const call = (method: string, url: string, token: string, body?: unknown) =>
    api<Json>(product.url, method, `/api/v2${url}`, token, body);

  async function operator(name: string, email: string, roleId: number): Promise<Person> {
    const created = await call('POST', '/users/signup', adminToken, {
      name,
      email,
      role_id: roleId,
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
    const token = (
      await api<Json>(product.url, 'POST', '/api/auth/login', undefined, {
        email,
        password: 'Segunda-Clave-2',
      })
    ).body.access_token;
    return { id, name, token };
  }

  /** A ticket assigned to `assigned`, created by `creator` (an administrator unless given): both may work it. */
  async function ticketFor(enrolment: number, assigned: Person, creator?: Person): Promise<Json> {
    const res = await call('POST', '/tickets', creator?.token ?? adminToken, {
      course_registered_user_id: enrolment,
      type_ticket_id: keys.type!.phone,
      status_ticket_id: keys.status!.open,
      priority_ticket_id: keys.priority!.high,
      source_ticket_id: keys.source!.outgoing,
      motive_ticket_id: keys.motive!.welcome,
      user_assigned_id: assigned.id,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body._data.properties;
  }

  /** The create form on the administrator's page: Origen, Tipo, Motivo, Prioridad, Operador (searched), then the attempt. */
  async function fillTicket(
    dialog: Locator,
    [source, type, motive, priority, operatorName]: string[],
    [outcome, comment]: [string, string],
  ) {
    for (const [label, option] of [
      ['Origen', source],
      ['Tipo', type],
      ['Motivo', motive],
      ['Prioridad', priority],
    ] as const)
      await choose(admin, dialog, label, option!);
    await dialog.getByRole('combobox', { name: 'Operador' }).fill(operatorName!.split(' ')[0]!);
    await admin.getByRole('option', { name: operatorName }).click();
    await choose(admin, dialog, 'Intento de contacto', outcome);
    await dialog.getByLabel('Observaciones').fill(comment);
  }

  async function openCourse(page: Page) {
    await page.goto('/my/ticket');
    await choose(page, page, 'Categorías', 'Formación Docente');
    await choose(page, page, 'Cursos', 'Matemática Inicial');
    await page.getByText(/^Tickets encontrados: \d+$/).waitFor();
  }

  /** The snackbar's message (by text: while a dialog is open, the rest of the page is aria-hidden). */
  const snack = (page: Page, text: string) =>
    page.getByText(text, { exact: true }).first().waitFor();

  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
    adminToken = await adminSession(product);
    const platform = (await call('GET', '/platforms', adminToken)).body._data.collections[0]
      .properties.id;
    const category = await call('POST', '/categories', adminToken, {
      description: 'Formación Docente',
      category_code: 'FD',
      platform_id: platform,
    });
    const course = await call('POST', '/courses', adminToken, {
      description: 'Matemática Inicial',
      category_id: category.body._data.properties.id,
    });
    const courseId = course.body._data.properties.id;
    enrolments = [];
    for (const [i, name] of NAMES.entries()) {
      const student = await call('POST', '/registered-users/view-store', adminToken, {
        rut: rutOf(i),
        name,
        last_name: 'Prueba',
        mother_last_name: 'E2E',
        email: `alumno${i}@correo.cl`,
        ...(i % 2 === 0 ? { mobile: `+5699000000${i}` } : {}),
      });
      expect(student.status, JSON.stringify(student.body)).toBe(201);
      const enrolment = await call('POST', '/course-registered-users/view-store', adminToken, {
        course_id: courseId,
        registered_user_id: student.body._data.properties.id,
      });
      expect(enrolment.status, JSON.stringify(enrolment.body)).toBe(201);
      enrolments.push(enrolment.body._data.properties.id);
    }
    // Someone registered but not enrolled in the course.
    await call('POST', '/registered-users/view-store', adminToken, {
      rut: rutOf(50),
      name: 'Gaspar',
      last_name: 'Externo',
    });
    const roles = (await call('GET', '/roles', adminToken)).body._data.collections as Json[];
    const roleId = roles.find((r) => r.properties.key === 'operator')!.properties.id;
    anaOp = await operator('Ana Operadora', 'ana@sigaf.cl', roleId);
    brunoOp = await operator('Bruno Operador', 'bruno@sigaf.cl', roleId);
    for (const [name, path] of Object.entries({
      status: 'status-tickets',
      type: 'type-tickets',
      priority: 'priority-tickets',
      source: 'source-tickets',
      motive: 'motive-tickets',
    })) {
      const items = (await call('GET', `/${path}`, adminToken)).body._data.collections as Json[];
      keys[name] = Object.fromEntries(items.map((c) => [c.properties.key, c.properties.id]));
    }
    ({ page: admin } = await signedInPage(browser, product, adminToken));
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('operator A edits while B sees the lock and cannot save; A saves an attempt; B reloads and closes the ticket', async () => {
    // Created by Bruno, assigned to Ana: both may work it, one at a time.
    const ticket = await ticketFor(enrolments[0]!, anaOp, brunoOp);
    const a = await signedInPage(browser, product, anaOp.token);
    const b = await signedInPage(browser, product, brunoOp.token);

    await openCourse(a.page);
    const row = a.page.getByRole('row').filter({ hasText: ticket.ticketCode });
    await row.getByRole('button', { name: 'Agregar contacto' }).click();
    const dialogA = a.page.getByRole('dialog', { name: `Ticket ${ticket.ticketCode}` });
    await dialogA.getByLabel('Observaciones').waitFor();
    await dialogA.getByText('+56990000000').waitFor();
    // Viewing takes no lock; the first change does. A free ticket answers statusCode 204 in the body.
    expect(
      (await call('GET', `/log-editing-tickets/ticket/${ticket.id}`, adminToken)).body.statusCode,
    ).toBe(204);
    await choose(a.page, dialogA, 'Intento de contacto', 'Fallido');
    await expect
      .poll(
        async () =>
          (await call('GET', `/log-editing-tickets/ticket/${ticket.id}`, adminToken)).body._data
            ?.properties?.user?.name,
      )
      .toBe('Ana Operadora');
    await screenshot(a.page, 'tickets-dialog-editing');

    // B opens the same ticket from its link: read-only, with who holds it and since when.
    await b.page.goto(`/my/ticket?ticket=${ticket.id}`);
    const dialogB = b.page.getByRole('dialog', { name: `Ticket ${ticket.ticketCode}` });
    await dialogB.getByText(/^Bloqueado por Ana Operadora desde \d{2}:\d{2}$/).waitFor();
    expect(await dialogB.getByRole('button', { name: 'Guardar' }).isDisabled()).toBe(true);
    expect(await dialogB.getByLabel('Observaciones').count()).toBe(0);
    await screenshot(b.page, 'tickets-dialog-locked');

    // A records a failed attempt; Enter in the comment saves.
    await dialogA.getByRole('button', { name: 'Guardar' }).click();
    await dialogA.getByText('Ingrese una observación.').waitFor();
    await dialogA.getByLabel('Observaciones').fill('No contesta; <b>volver a llamar</b> mañana');
    await dialogA.getByLabel('Observaciones').press('Enter');
    await snack(a.page, 'El ticket se ha editado correctamente.');
    await dialogA.waitFor({ state: 'hidden' });
    await row.getByLabel('1 intento de contacto').waitFor();

    // B reloads: now B holds the lock, reads A's attempt as plain text, and closes the ticket.
    await b.page.reload();
    await dialogB.getByText('No contesta; <b>volver a llamar</b> mañana').waitFor();
    expect(await dialogB.getByText(/^Bloqueado por/).count()).toBe(0);
    await choose(b.page, dialogB, 'Estado', 'Cerrado');
    await choose(b.page, dialogB, 'Intento de contacto', 'Exitoso');
    await dialogB.getByLabel('Observaciones').fill('Contactada: retoma el curso esta semana.');
    await dialogB.getByRole('button', { name: 'Guardar' }).click();
    await snack(b.page, 'El ticket se ha cerrado correctamente.');
    await dialogB.waitFor({ state: 'hidden' });

    const after = (await call('GET', `/tickets/${ticket.id}`, adminToken)).body._data.properties;
    expect(after).toMatchObject({
      close: true,
      attempts: 2,
      lock: null,
      statusTicket: { key: 'closed' },
    });
    await a.context.close();
    await b.context.close();
  });

  it('an administrator frees a stale lock on Desbloqueo ticket; then another operator can edit', async () => {
    const ticket = await ticketFor(enrolments[1]!, anaOp, brunoOp);
    // A's browser died while the ticket was open: the lock stays behind.
    expect(
      (await call('POST', '/log-editing-tickets', anaOp.token, { ticket_id: ticket.id })).status,
    ).toBe(201);

    await admin.goto('/my/mantenedor/desbloqueo-ticket');
    const row = admin.getByRole('row').filter({ hasText: ticket.ticketCode });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Ana Operadora\d{2}-\d{2}-\d{4} \d{2}:\d{2}/);
    await screenshot(admin, 'tickets-blocking');
    await row.getByRole('button', { name: `Desbloquear ${ticket.ticketCode}` }).click();
    await admin.getByText(/Se desbloqueará el ticket .+, abierto por Ana Operadora/).waitFor();
    await admin.getByRole('button', { name: 'ACEPTAR' }).click();
    await snack(admin, 'Ticket desbloqueado exitosamente.');
    await admin.getByText('No existen tickets bloqueados').waitFor();

    const b = await signedInPage(browser, product, brunoOp.token);
    await b.page.goto(`/my/ticket?ticket=${ticket.id}`);
    const dialog = b.page.getByRole('dialog', { name: `Ticket ${ticket.ticketCode}` });
    await dialog.getByLabel('Observaciones').waitFor();
    // B starts writing: B's own lock shows on the unlock screen, and closing the dialog releases it.
    await dialog.getByLabel('Observaciones').fill('Llamar de nuevo');
    await expect
      .poll(
        async () =>
          (await call('GET', `/log-editing-tickets/ticket/${ticket.id}`, adminToken)).body
            .statusCode,
      )
      .toBe(200);
    expect(
      (await call('GET', `/log-editing-tickets/ticket/${ticket.id}`, adminToken)).body._data
        .properties.user.name,
    ).toBe('Bruno Operador');
    await dialog.getByRole('button', { name: 'Salir' }).click();
    // What B typed is not dropped without asking.
    await b.page
      .getByRole('dialog', { name: 'Cambios sin guardar' })
      .getByRole('button', { name: 'Descartar' })
      .click();
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(
        async () =>
          (await call('GET', `/log-editing-tickets/ticket/${ticket.id}`, adminToken)).body
            .statusCode,
      )
      .toBe(204);
    await b.context.close();
  });

  it('Individual: finds the student by name or RUT in any spelling, says when nobody matches, creates the ticket and its first attempt', async () => {
    await openCourse(admin);
    await admin.getByRole('button', { name: 'Individual' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Crear ticket individual' });
    const finder = dialog.getByLabel('Alumno: nombre o RUT');
    await finder.fill('11111111-1');
    await admin.getByText('Ningún alumno de un curso activo coincide.').waitFor();
    // Registered, but enrolled in no course.
    await finder.fill('Gaspar');
    await admin.getByText('Ningún alumno de un curso activo coincide.').waitFor();
    // By name without the accent ("benjamin" finds Benjamín), then by RUT without dots or dash.
    await finder.fill('benjamin');
    await admin.getByRole('option', { name: /Benjamín Prueba E2E/ }).waitFor();
    await pickStudent(admin, dialog, rutOf(0).replace(/[.-]/g, ''), /Valentina Prueba E2E/);
    await dialog.getByText('VALENTINA PRUEBA E2E').waitFor();
    // Her closed ticket from the first test is in the history.
    await dialog
      .getByRole('table', { name: 'Tickets anteriores del alumno' })
      .getByText('Cerrado')
      .waitFor();
    await dialog.getByRole('button', { name: 'Continuar' }).click();

    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await snack(admin, 'Complete los campos obligatorios.');
    await expect(dialog.getByText('Es obligatorio.').count()).resolves.toBeGreaterThanOrEqual(4);
    await fillTicket(
      dialog,
      ['Entrante', 'Correo electrónico', 'Problema', 'Baja', 'Ana Operadora'],
      ['Exitoso', 'Escribió por correo: no puede entrar a la plataforma.'],
    );
    await screenshot(admin, 'tickets-single');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await snack(admin, 'El ticket se ha creado correctamente.');
    await dialog.waitFor({ state: 'hidden' });
    const row = admin.getByRole('row').filter({ hasText: rutOf(0) });
    await row.getByLabel('1 intento de contacto').waitFor();
    const mine = await call('GET', `/tickets?search=${rutOf(0)}&page=1&perPage=5`, anaOp.token);
    expect(mine.body._data.collections.map((c: Json) => c.properties)).toMatchObject([
      {
        userAssigned: { name: 'Ana Operadora' },
        typeTicket: { key: 'email' },
        priorityTicket: { key: 'low' },
        attempts: 1,
        userCreated: { name: 'Administrador SIGAF' },
      },
    ]);
  });

  it('Individual without a first attempt: a ticket opened before the call, which can then be deleted', async () => {
    await openCourse(admin);
    await admin.getByRole('button', { name: 'Individual' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Crear ticket individual' });
    await pickStudent(admin, dialog, rutOf(5).replace(/[.-]/g, ''), /Felipe Prueba E2E/);
    await dialog.getByRole('button', { name: 'Continuar' }).click();
    for (const [label, option] of [
      ['Origen', 'Saliente'],
      ['Tipo', 'Contacto telefónico'],
      ['Motivo', 'Problema'],
      ['Prioridad', 'Baja'],
    ] as const)
      await choose(admin, dialog, label, option);
    await dialog.getByLabel('Registrar un primer intento de contacto').uncheck();
    await dialog.getByText(/El ticket se abre sin intentos de contacto/).waitFor();
    expect(await dialog.getByLabel('Observaciones').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await snack(admin, 'El ticket se ha creado correctamente.');
    await dialog.waitFor({ state: 'hidden' });
    const found = (
      await call('GET', `/tickets?search=${rutOf(5)}&page=1&perPage=5`, adminToken)
    ).body._data.collections.map((c: Json) => c.properties);
    expect(found).toMatchObject([{ attempts: 0, showDeleteButton: true }]);
    const row = admin.getByRole('row').filter({ hasText: rutOf(5) });
    await row
      .getByRole('menuitem', { name: 'Eliminar ticket' })
      .or(row.getByRole('button', { name: 'Eliminar ticket' }))
      .click();
    await admin.getByRole('button', { name: 'ACEPTAR' }).click();
    await expect
      .poll(async () => (await call('GET', `/tickets/${found[0].id}`, adminToken)).status)
      .toBe(404);
  });

  it('Masivo: tickets for five students at once, then closed in bulk', async () => {
    await openCourse(admin);
    await admin.getByRole('button', { name: 'Masivo' }).click();
    const dialog = admin.getByRole('dialog', { name: /^Ticket masivo/ });
    await dialog.getByRole('button', { name: 'Continuar' }).click();
    await dialog.getByText('Debe seleccionar al menos un alumno').waitFor();
    for (const i of [1, 2, 3, 4, 5])
      await checkRow(dialog.getByRole('row').filter({ hasText: rutOf(i) }));
    await dialog.getByText('Seleccionados: 5').waitFor();
    await screenshot(admin, 'tickets-massive-recipients');
    await dialog.getByRole('button', { name: 'Continuar' }).click();
    await dialog.getByText('Se crearán 5 tickets, uno por cada alumno seleccionado.').waitFor();
    await fillTicket(
      dialog,
      ['Saliente', 'Contacto telefónico', 'Bienvenida', 'Media', 'Bruno Operador'],
      ['Fallido', 'Llamada de bienvenida sin respuesta.'],
    );
    await dialog.getByRole('button', { name: 'Generar tickets' }).click();
    await snack(admin, 'Se crearon 5 tickets correctamente.');
    await dialog.waitFor({ state: 'hidden' });

    await admin.getByRole('button', { name: 'Más filtros' }).click();
    await choose(admin, admin, 'Operador', 'Bruno Operador');
    await admin.getByText('Tickets encontrados: 5').waitFor();
    await screenshot(admin, 'tickets-list');

    // The same filters, saved under a name, come back after clearing.
    await admin.getByRole('button', { name: 'Filtros guardados' }).click();
    await admin.getByRole('menuitem', { name: 'Guardar filtros actuales…' }).click();
    await admin
      .getByRole('dialog', { name: 'Guardar filtros' })
      .getByLabel('Nombre del filtro')
      .fill('Bruno abiertos');
    await admin
      .getByRole('dialog', { name: 'Guardar filtros' })
      .getByLabel('Nombre del filtro')
      .press('Enter');
    await snack(admin, 'Filtro guardado.');
    await admin.getByRole('button', { name: 'Limpiar filtros' }).click();
    await admin.getByText('Tickets encontrados: 7').waitFor();
    await admin.getByRole('button', { name: 'Filtros guardados' }).click();
    await admin.getByRole('menuitem', { name: 'Bruno abiertos' }).click();
    await admin.getByText('Tickets encontrados: 5').waitFor();

    // The export has the same filters.
    const download = admin.waitForEvent('download');
    await admin.getByRole('button', { name: 'Exportar a Excel (.xlsx)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^tickets-\d{2}-\d{2}-\d{4}\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await file.path())!);
    expect(book.worksheets[0]!.rowCount).toBe(2 + 5);

    await admin.getByRole('checkbox', { name: 'Seleccionar todas las filas' }).check();
    await admin.getByText('5 tickets seleccionados').waitFor();
    await admin.getByRole('button', { name: 'Cerrar tickets' }).click();
    await admin.getByText('Se cerrarán los 5 tickets seleccionados. ¿Desea continuar?').waitFor();
    await admin.getByRole('button', { name: 'ACEPTAR' }).click();
    await snack(admin, 'Se actualizaron 5 tickets.');
    await admin.getByText('Tickets encontrados: 0').waitFor();

    const closed = await call(
      'GET',
      `/tickets?status=closed&user_assigned_id=${brunoOp.id}&page=1&perPage=50`,
      adminToken,
    );
    const items = closed.body._data.collections.map((c: Json) => c.properties);
    expect(items).toHaveLength(5);
    expect(items.every((t: Json) => t.attempts === 1 && t.priorityTicket.key === 'medium')).toBe(
      true,
    );
  });

  it('at 1366 × 850 the ticket table fits the screen; the other columns are chosen from the column menu and remembered', async () => {
    await admin.setViewportSize({ width: 1366, height: 850 });
    await openCourse(admin);
    const grid = admin.getByRole('grid').first();
    await grid.getByRole('row').nth(1).waitFor();
    // The columns shown add up to the grid's width: no horizontal scroll.
    const widths = await grid
      .locator('.MuiDataGrid-columnHeader')
      .evaluateAll((els) => els.reduce((sum, e) => sum + e.getBoundingClientRect().width, 0));
    const available = await grid.evaluate((el) => el.getBoundingClientRect().width);
    expect(widths).toBeLessThanOrEqual(available);
    for (const name of ['Código', 'Estado', 'Operador'])
      await grid.getByRole('columnheader', { name }).first().waitFor();
    expect(await grid.getByRole('columnheader', { name: 'Motivo' }).count()).toBe(0);
    const stored = await admin.evaluate(() => localStorage.getItem('sigaf.columns.tickets'));
    expect(stored === null || !JSON.parse(stored).motive).toBe(true);
    await admin.setViewportSize({ width: 1280, height: 720 });
  });

  it('Administración ticket: every course, search by code, all options editable, one attempt deleted after confirmation', async () => {
    const list = await call(
      'GET',
      `/tickets?status=all&search=${encodeURIComponent(rutOf(0))}&page=1&perPage=50&sort=createdAt&order=asc`,
      adminToken,
    );
    const first = list.body._data.collections[0].properties;
    await admin.goto('/my/mantenedor/administracion-ticket');
    await admin.getByLabel('Buscar por código, RUT o nombre').fill(first.ticketCode);
    await admin.getByText('Tickets encontrados: 1').waitFor();
    await admin
      .getByRole('row')
      .filter({ hasText: first.ticketCode })
      .getByText('Matemática Inicial')
      .click();
    const dialog = admin.getByRole('dialog', { name: `Ticket ${first.ticketCode}` });
    await dialog.getByRole('combobox', { name: 'Motivo' }).waitFor();
    await screenshot(admin, 'tickets-admin-edit');
    await dialog.getByRole('button', { name: 'Eliminar intento 1' }).click();
    await admin.getByRole('button', { name: 'ACEPTAR' }).click();
    await snack(admin, 'Intento de contacto eliminado.');
    await dialog.getByText('Intentos de contacto (1)').waitFor();
    await expect(dialog.getByRole('button', { name: /^Eliminar intento/ }).count()).resolves.toBe(
      1,
    );
    // What "Quedará registrado en el historial del ticket" refers to, on the ticket itself.
    await dialog.getByRole('button', { name: 'Historial de cambios' }).click();
    await dialog
      .getByRole('list', { name: 'Historial de cambios' })
      .getByText(/Intento de contacto eliminado/)
      .waitFor();
    await choose(admin, dialog, 'Motivo', 'Problema');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await snack(admin, 'El ticket se ha editado correctamente.');
    const after = (await call('GET', `/tickets/${first.id}`, adminToken)).body._data.properties;
    expect(after).toMatchObject({ attempts: 1, motiveTicket: { key: 'problem' } });
  });

  it('Administración ticket: bulk delete removes what the rules allow and says why the rest stays', async () => {
    const fresh = await ticketFor(enrolments[2]!, brunoOp);
    await admin.goto('/my/mantenedor/administracion-ticket');
    await admin.getByLabel('Buscar por código, RUT o nombre').fill('catalina');
    await admin.getByText('Tickets encontrados: 2').waitFor();
    await admin.getByRole('checkbox', { name: 'Seleccionar todas las filas' }).check();
    await admin.getByRole('button', { name: 'Eliminar', exact: true }).click();
    await admin
      .getByText(
        'Se eliminarán 2 tickets de forma permanente. Los que tengan intentos de contacto no se eliminarán.',
      )
      .waitFor();
    await admin.getByRole('button', { name: 'ACEPTAR' }).click();
    const refused = admin.getByRole('dialog', { name: 'Tickets no procesados' });
    await refused
      .getByText('No se puede eliminar el ticket porque tiene intentos de contacto registrados.')
      .waitFor();
    await snack(admin, 'Se eliminó 1 ticket. 1 no se pudo eliminar.');
    await screenshot(admin, 'tickets-admin-refused');
    await refused.getByRole('button', { name: 'Cerrar' }).click();
    await admin.getByText('Tickets encontrados: 1').waitFor();
    expect((await call('GET', `/tickets/${fresh.id}`, adminToken)).status).toBe(404);
  });
});
