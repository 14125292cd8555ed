import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, checkRow, choose, describeE2E, signedInPage, type Product } from './harness.js';
import { createOperator, startSyncedCourse, type SyncedCourse } from './synced-course.js';

/**
 * What made staff stop on a course synchronised from the Moodle simulator (weights all 0, one
 * student not in Moodle): Seguimiento keeps its filters in the address across Back and Forward;
 * a course without weights says why it has no progress, in the chart and in the ficha, and the
 * not-synchronised note speaks to whoever reads it.
 */

type Json = Record<string, any>;

describeE2E('a staff day: Seguimiento filters, progress without weights', () => {
  let product: Product;
  let browser: Browser;
  let token: string;
  let courseId: number;
  let call: SyncedCourse['call'];
  let stop: SyncedCourse['stop'];
  let operatorToken: string;

  async function session(as: string) {
    const { page } = await signedInPage(browser, product, as);
    page.setDefaultTimeout(30_000);
    await page.setViewportSize({ width: 1366, height: 768 });
    return page;
  }

  /** Seguimiento on the day's course (unless it opened on it: the remembered current course). */
  async function openFollowUp(page: Page) {
    await page.goto('/my/seguimiento-alumnos');
    const courses = page.getByRole('combobox', { name: 'Cursos' });
    await courses.waitFor();
    await page.waitForLoadState('networkidle');
    if ((await courses.textContent())?.includes('Curso del día')) return;
    await choose(page, page, 'Categorías', 'Día');
    await choose(page, page, 'Cursos', 'Curso del día');
  }

  /** Opens the first student's ficha. */
  const ficha = (page: Page) =>
    page
      .getByRole('menuitem', { name: /^Ver ficha de / })
      .or(page.getByRole('button', { name: /^Ver ficha de / }))
      .first()
      .click();

  beforeAll(async () => {
    ({ product, browser, token, courseId, call, stop } = await startSyncedCourse({
      category: 'Día',
      code: 'DIA',
      course: 'Curso del día',
      // One student enrolled here who is not in Moodle.
      extra: [
        { rut: '11.111.111-1', firstname: 'Nadia', lastname: 'Fuera', email: 'nadia@correo.cl' },
      ],
    }));
    // An operator past the first login.
    const operatorId = await createOperator(
      call,
      'Olga Operadora',
      'olga@sigaf.cl',
      'Primera-Clave-1',
    );
    const login = (password: string) =>
      api<Json>(product.url, 'POST', '/api/auth/login', undefined, {
        email: 'olga@sigaf.cl',
        password,
      });
    const first = (await login('Primera-Clave-1')).body.access_token;
    await call(
      'PUT',
      `/users/${operatorId}`,
      { password: 'Segunda-Clave-2', isFirstLogin: 1 },
      first,
    );
    operatorToken = (await login('Segunda-Clave-2')).body.access_token;
  }, 180_000);

  afterAll(async () => {
    await stop?.();
  });

  it('Seguimiento keeps its filters in the address: a ficha, Back and Forward find the same list', async () => {
    const page = await session(token);
    await page.goto('/my/agenda');
    await page.waitForLoadState('networkidle');
    await openFollowUp(page);
    const total = page.getByTestId('follow-up-total');
    await total.getByText(/^9 estudiantes$/).waitFor();
    await page.getByRole('textbox', { name: 'Sin acceso hace más de' }).fill('0');
    await page.getByRole('button', { name: 'Sin acceso hace más de 0 días' }).waitFor();
    await page.waitForURL(/inactive_days=0/);
    await choose(page, page, 'Estado', 'Activo');
    await page.waitForURL(/status=active/);
    await page.waitForLoadState('networkidle');
    const filtered = (await total.textContent())!;
    expect(filtered).not.toBe('9 estudiantes');
    // Each row's state is the one the filter and the chart count: one who never signed in is active.
    const never = page
      .getByRole('row')
      .filter({ hasText: /\d\.\d{3}-[\dK]/ })
      .filter({ hasText: 'Nunca' })
      .first();
    await never.getByText('Activo', { exact: true }).waitFor();
    expect(await page.getByRole('grid').getByText('Inactivo', { exact: true }).count()).toBe(0);
    // A ficha, then Back (to Mi agenda) and Forward.
    await ficha(page);
    await page.getByRole('dialog').getByRole('button', { name: 'Cerrar' }).click();
    // Back and Forward move within the app (no page load): the address is read, not awaited as a load.
    await page.goBack();
    await expect.poll(() => page.url()).toMatch(/\/my\/agenda$/);
    await page.goForward();
    await expect
      .poll(() => page.url())
      .toMatch(/inactive_days=0.*status=active|status=active.*inactive_days=0/);
    await page.getByRole('button', { name: 'Sin acceso hace más de 0 días' }).waitFor();
    await page.getByRole('button', { name: 'Activo', exact: true }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Sin acceso hace más de' }).inputValue()).toBe(
      '0',
    );
    await total.getByText(filtered, { exact: true }).waitFor();
    await page.close();
  });

  it('a course without weights says why it has no progress (chart and ficha); the note speaks to an operator', async () => {
    const page = await session(operatorToken);
    await openFollowUp(page);
    const chart = page.getByRole('figure', {
      name: 'Progreso de actividades calificadas según unidad (%)',
    });
    await chart
      .getByTestId('progress-empty')
      .getByText(/el avance cuenta solo las actividades con ponderación mayor que 0/)
      .waitFor();
    await chart.getByText(/Pida a un administrador que asigne las ponderaciones/).waitFor();
    const note = page.getByTestId('unsynced-note');
    await note.getByText(/^De la matrícula, 1 estudiante aún no se ha sincronizado/).waitFor();
    await note.getByText(/Un administrador puede sincronizarlo/).waitFor();
    expect(await note.textContent()).not.toMatch(/Sincronice|Sincronizar el curso/);
    await ficha(page);
    await page.getByText('Progreso: sin actividades que medir').waitFor();
    expect(await page.getByText(/\(0 de 0\)/).count()).toBe(0);
    await page.close();
  });

  it('a mail from Seguimiento says it counts as a contact and shows in the ficha', async () => {
    const page = await session(token);
    await openFollowUp(page);
    await page
      .getByTestId('follow-up-total')
      .getByText(/^9 estudiantes$/)
      .waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Nadia Fuera' });
    await checkRow(row);
    await page.getByRole('button', { name: 'Enviar correo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar correo a 1 estudiante' });
    await dialog.getByLabel('Asunto').fill('Le esperamos, {nombre}');
    await dialog.getByRole('textbox', { name: 'Mensaje' }).fill('Hola {nombre}.');
    await dialog.getByRole('button', { name: 'Vista previa' }).click();
    await dialog
      .getByTestId('follow-up-mail-count')
      .getByText(/^Se enviará 1 correo\. El correo cuenta como contacto con el estudiante/)
      .waitFor();
    await dialog.getByRole('button', { name: 'Enviar 1 correo' }).click();
    await dialog.getByTestId('follow-up-mail-result').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await row
      .getByRole('menuitem', { name: /^Ver ficha de / })
      .or(row.getByRole('button', { name: /^Ver ficha de / }))
      .click();
    const mails = page.getByRole('table', { name: 'Correos enviados' });
    await mails.getByRole('cell', { name: 'Le esperamos, Nadia' }).waitFor();
    await page.getByText(/^Cada correo cuenta como contacto/).waitFor();
    await page.close();
  });

  it('quick actions name who to call: Registrar intento, Crear ticket, and WhatsApp in the ticket dialog, whose attempt says so', async () => {
    const key = async (p: string, k: string) =>
      (await call('GET', `/${p}`)).body._data.collections.find((c: Json) => c.properties.key === k)
        .properties.id;
    const me = (await api<Json>(product.url, 'GET', '/api/auth/user', token)).body.user.properties
      .id;
    const enrolled = (
      await call('GET', `/follow-up/courses/${courseId}/students?perPage=50`)
    ).body._data.collections.map((c: Json) => c.properties) as Json[];
    const called = enrolled.find((e) => e.synced && e.phone)!;
    // The operator's agenda covers the courses of their tickets.
    const ticket = (
      await call('POST', '/tickets', {
        course_registered_user_id: called.id,
        type_ticket_id: await key('type-tickets', 'phone'),
        status_ticket_id: await key('status-tickets', 'open'),
        priority_ticket_id: await key('priority-tickets', 'high'),
        source_ticket_id: await key('source-tickets', 'outgoing'),
        motive_ticket_id: await key('motive-tickets', 'welcome'),
        user_assigned_id: me,
      })
    ).body._data.properties as Json;
    let atRisk: Json[] = [];
    for (let i = 0; i < 60 && !atRisk.length; i++) {
      if (i) await new Promise((r) => setTimeout(r, 1000));
      atRisk = (await call('GET', '/agenda/students?perPage=50')).body._data.collections
        .map((c: Json) => c.properties)
        .filter((r: Json) => r.enrolmentId !== called.id);
    }
    const toCreate = atRisk[0]!;
    expect(toCreate).toBeTruthy();
    const reminder = await call('POST', '/reminders', {
      ticket_id: ticket.id,
      due_at: new Date(Date.now() - 60_000).toISOString(),
      comment: 'Llamar',
    });
    expect(reminder.status, JSON.stringify(reminder.body)).toBe(201);
    const page = await session(token);
    await page.goto('/my/agenda');
    const reminders = page.getByRole('region', { name: 'Recordatorios de hoy y vencidos' });
    await reminders
      .getByRole('menuitem', { name: `Registrar intento en ${ticket.ticketCode}` })
      .or(reminders.getByRole('button', { name: `Registrar intento en ${ticket.ticketCode}` }))
      .click();
    const dialog = page.getByRole('dialog', {
      name: new RegExp(
        `^Registrar intento de contacto: ${called.name}.* \\(${ticket.ticketCode}\\)$`,
      ),
    });
    const tel = dialog.getByRole('link', { name: /^Llamar a / });
    await tel.waitFor();
    expect(await tel.getAttribute('href')).toMatch(/^tel:\+569\d{8}$/);
    await dialog.getByRole('button', { name: /^WhatsApp a / }).waitFor();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();

    const students = page.getByRole('region', { name: 'Estudiantes en riesgo sin contacto' });
    await students
      .getByRole('menuitem', { name: `Crear ticket para ${toCreate.name}` })
      .or(students.getByRole('button', { name: `Crear ticket para ${toCreate.name}` }))
      .click();
    await page.getByText(`Se creará 1 ticket, para ${toCreate.name}.`).waitFor();
    await page.keyboard.press('Escape');

    await page.goto(`/my/ticket?course=${courseId}&ticket=${ticket.id}`);
    const ticketDialog = page.getByRole('dialog').filter({ hasText: ticket.ticketCode });
    await ticketDialog
      .getByRole('link', { name: /^Llamar a / })
      .first()
      .waitFor();
    await ticketDialog
      .getByRole('button', { name: /^WhatsApp a / })
      .first()
      .waitFor();
    // A WhatsApp message from the ticket dialog: the attempt saved there is an outgoing WhatsApp.
    await page.evaluate(() => {
      window.open = (() => null) as typeof window.open;
    });
    await ticketDialog
      .getByRole('button', { name: /^WhatsApp a / })
      .first()
      .click();
    await page
      .getByRole('dialog', { name: /^WhatsApp a / })
      .getByRole('button', { name: 'Abrir WhatsApp' })
      .click();
    await ticketDialog
      .getByTestId('attempt-medium')
      .getByText('Medio: WhatsApp, saliente')
      .waitFor();
    await ticketDialog.getByRole('combobox', { name: 'Intento de contacto' }).click();
    await page.getByRole('option', { name: 'Fallido', exact: true }).click();
    await ticketDialog.getByLabel('Observaciones').fill('No respondió el WhatsApp');
    const sent = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url().endsWith('/api/v2/ticket-details'),
    );
    await ticketDialog.getByRole('button', { name: 'Guardar' }).click();
    expect((await sent).postDataJSON()).toMatchObject({
      ticket_id: ticket.id,
      medium: 'whatsapp',
      direction: 'outgoing',
    });
    await page.close();
  });
});
