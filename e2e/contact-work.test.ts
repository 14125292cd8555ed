import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, describeE2E, screenshot, signedInPage, type Product } from './harness.js';
import { createOperator, startSyncedCourse, type SyncedCourse } from './synced-course.js';

/**
 * A working day on a course synchronised from the Moodle simulator (weights all 0, students who
 * never accessed): the progress charts say why they are empty and the proposals weight the graded
 * activities; Mi agenda lists at-risk students most urgent first with their RUT and their card; a
 * mail from the agenda names its recipient and takes the student off the list; the card's mobile
 * opens WhatsApp and, on return, offers to log the contact: on the student's open ticket (asking which
 * when there are several) as an outgoing WhatsApp attempt, else a new ticket with source WhatsApp; reassigning an
 * operator's work asks first and can be undone; Mi agenda fits 1366×768 without sideways scroll.
 */

type Json = Record<string, any>;

describeE2E('a working day: weights, Mi agenda, mail as contact, WhatsApp, reassignment', () => {
  let product: Product;
  let browser: Browser;
  let page: Page;
  let token: string;
  let courseId: number;
  let operator: { id: number; name: string };
  let call: SyncedCourse['call'];
  let stop: SyncedCourse['stop'];
  let me: number;
  let key: (p: string, k: string) => Promise<number>;

  /** Picks the first outcome, writes the comment and sends: the attempt as posted to `path`. */
  async function sendAttempt(
    dialog: Locator,
    [outcome, commentLabel, comment]: [string, string, string],
    button: string,
    path: string,
  ): Promise<Json> {
    await dialog.getByRole('combobox', { name: outcome }).click();
    await page.getByRole('option').first().click();
    await dialog.getByLabel(commentLabel).fill(comment);
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(path));
    await dialog.getByRole('button', { name: button }).click();
    return (await sent).postDataJSON();
  }

  async function choose(label: string, option: string) {
    await page.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  /** The course of the day, unless the page already opened on it (the remembered current course). */
  async function openCourse() {
    const courses = page.getByRole('combobox', { name: 'Cursos' });
    await courses.waitFor();
    // The remembered current course comes from the server after the page opens: its answer is in once the network is idle.
    await page.waitForLoadState('networkidle');
    if ((await courses.textContent())?.includes('Curso de la jornada')) return;
    if (
      !(await page.getByRole('combobox', { name: 'Categorías' }).textContent())?.includes('Jornada')
    )
      await choose('Categorías', 'Jornada');
    await choose('Cursos', 'Curso de la jornada');
  }

  beforeAll(async () => {
    ({ product, browser, token, courseId, call, stop } = await startSyncedCourse({
      category: 'Jornada',
      code: 'JOR',
      course: 'Curso de la jornada',
    }));
    // An operator, and one ticket of the administrator's in the course (the agenda's course).
    operator = {
      id: await createOperator(call, 'Olga Operadora', 'olga@sigaf.cl', 'Olga-Clave-1'),
      name: 'Olga Operadora',
    };
    me = (await api<Json>(product.url, 'GET', '/api/auth/user', token)).body.user.properties.id;
    key = async (p: string, k: string) =>
      (await call('GET', `/${p}`)).body._data.collections.find((c: Json) => c.properties.key === k)
        .properties.id;
    const enrolments = (
      await call('GET', `/follow-up/courses/${courseId}/students?perPage=50`)
    ).body._data.collections.map((c: Json) => c.properties) as Json[];
    const ticket = await call('POST', '/tickets', {
      course_registered_user_id: enrolments[0]!.id,
      type_ticket_id: await key('type-tickets', 'phone'),
      status_ticket_id: await key('status-tickets', 'open'),
      priority_ticket_id: await key('priority-tickets', 'high'),
      source_ticket_id: await key('source-tickets', 'outgoing'),
      motive_ticket_id: await key('motive-tickets', 'welcome'),
      user_assigned_id: me,
    });
    expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);
    ({ page } = await signedInPage(browser, product, token));
    await page.setViewportSize({ width: 1366, height: 768 });
  }, 180_000);

  afterAll(async () => {
    await stop?.();
  });

  it('Estadística explains an empty progress chart and links to the weights; the proposals weight the graded activities and progress appears', async () => {
    await page.goto('/my/estadistica');
    await openCourse();
    const chart = page.getByRole('figure', {
      name: 'Progreso de actividades calificadas según unidad (%)',
    });
    await chart.getByTestId('progress-empty').waitFor({ timeout: 30_000 });
    await chart
      .getByText(/el avance cuenta solo las actividades con ponderación mayor que 0/)
      .waitFor();
    await chart.getByRole('link', { name: /Asignar ponderaciones en Actividades/ }).click();
    await page.waitForURL(/configuracion\/actividad/);
    await openCourse();
    // Units of five activities: Actividad 1.5 (assign) in Unidad 1, Actividad 2.4 (assign) and 2.5 (quiz) in Unidad 2.
    const weights = page.getByTestId('weight-proposals');
    await weights.waitFor();
    for (const [name, weight] of [
      ['Actividad 1.5 (assign)', '50'],
      ['Actividad 2.4 (assign)', '25'],
      ['Actividad 2.5 (quiz)', '25'],
    ]) {
      await weights
        .getByRole('row')
        .filter({ hasText: name })
        .getByRole('cell', { name: weight, exact: true })
        .waitFor();
    }
    await screenshot(page, 'weight-proposals');
    await page
      .getByTestId('section-proposals')
      .getByRole('button', { name: 'Aplicar propuestas' })
      .click();
    await page
      .getByText(/Se ponderaron? \d+ actividad(es)? calificadas?/)
      .first()
      .waitFor();
    const total = (
      await call('GET', `/activities?course_id=${courseId}&perPage=100`)
    ).body._data.collections.reduce((s: number, c: Json) => s + Number(c.properties.weighing), 0);
    expect(Math.round(total * 100) / 100).toBe(100);
    await page.goto('/my/estadistica');
    await openCourse();
    await page
      .getByRole('figure', { name: 'Progreso de actividades calificadas según unidad (%)' })
      .locator('[data-state="ready"]')
      .waitFor({ timeout: 30_000 });
  }, 120_000);

  it('Mi agenda: most urgent first with the RUT, a card, and a mail that names its recipient and counts as a contact; no sideways scroll at 1366×768', async () => {
    await page.goto('/my/agenda');
    const section = page.getByRole('region', { name: 'Estudiantes en riesgo sin contacto' });
    const answer = (await call('GET', '/agenda/students?perPage=50')).body;
    expect(answer._data.collections.length, JSON.stringify(answer).slice(0, 600)).toBeGreaterThan(
      1,
    );
    await section.getByRole('columnheader', { name: 'RUT' }).waitFor({ timeout: 30_000 });
    const before = (await call('GET', '/agenda/students?perPage=50')).body._data.collections.map(
      (c: Json) => c.properties,
    ) as Json[];
    expect(before.length).toBeGreaterThan(1);
    // Never accessed come first; each row shows its RUT.
    expect(before[0]!.lastAccess).toBeNull();
    const first = before[0]!;
    await section.getByRole('gridcell', { name: first.rut }).waitFor();
    // Its reason is drawn as the dashboard draws a student who never signed in: grey, with a glyph.
    const never = section
      .getByRole('row')
      .filter({ has: page.getByRole('gridcell', { name: first.rut }) })
      .locator('[data-state="never"]');
    await expect.poll(() => never.textContent()).toContain('Nunca ha ingresado');
    expect(await never.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe(
      'rgb(158, 158, 158)',
    );
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    // The administrator's header keeps its text readable beside the operator picker and buttons.
    expect((await page.getByTestId('agenda-intro').boundingBox())!.width).toBeGreaterThanOrEqual(
      320,
    );
    await screenshot(page, 'agenda-at-risk');

    // Ver ficha: the student's card, with the mobile as a tel: link and a WhatsApp button.
    await section.getByRole('button', { name: `Ver ficha de ${first.name}` }).click();
    const card = page.getByRole('dialog', { name: new RegExp(first.name.split(' ')[0]) });
    const call_ = card.getByRole('link', { name: new RegExp(`^Llamar a `) });
    await call_.waitFor();
    expect(await call_.getAttribute('href')).toMatch(/^tel:\+569\d{8}$/);
    // WhatsApp: the message from the template, then back on the tab SIGAF offers to log it.
    await page.evaluate(() => {
      (window as unknown as { opened: string[] }).opened = [];
      window.open = ((url: string) => {
        (window as unknown as { opened: string[] }).opened.push(url);
        return null;
      }) as typeof window.open;
    });
    await card.getByRole('button', { name: /^WhatsApp a / }).click();
    const wa = page.getByRole('dialog', { name: /^WhatsApp a / });
    await wa
      .getByTestId('whatsapp-preview')
      .getByText(
        new RegExp(`Hola ${first.name.split(' ')[0]}, le escribimos del curso Curso de la jornada`),
      )
      .waitFor();
    await wa.getByRole('button', { name: 'Abrir WhatsApp' }).click();
    const opened = await page.evaluate(() => (window as unknown as { opened: string[] }).opened);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatch(/^https:\/\/wa\.me\/569\d{8}\?text=Hola%20/);
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    const ask = page.getByRole('dialog', { name: '¿Registrar el contacto?' });
    await ask.getByText(/Volvió de WhatsApp con/).waitFor();
    await ask.getByRole('button', { name: 'Registrar' }).click();
    // The student has one open ticket (the administrator's): the attempt goes there, as outgoing WhatsApp.
    const history = (
      await call('GET', `/course-registered-user/${first.enrolmentId}/tickets?page=1&compact=true`)
    ).body._data.collections.map((c: Json) => c.properties) as Json[];
    expect(history.map((k) => k.close)).toEqual([false]);
    const logAttempt = page.getByRole('dialog', {
      name: new RegExp(`Registrar intento de contacto: .*\\(${history[0]!.ticketCode}\\)`),
    });
    await logAttempt.getByText('Medio: WhatsApp, saliente').waitFor({ timeout: 15_000 });
    await screenshot(page, 'whatsapp-log-contact');

    // A mail from the agenda: the dialog names the recipient; once queued the student leaves the list.
    const target = before.find((s) => s.email && s.enrolmentId !== first.enrolmentId)!;
    await page.goto('/my/agenda');
    await section.getByRole('gridcell', { name: target.rut }).waitFor({ timeout: 30_000 });
    const row = section
      .getByRole('row')
      .filter({ has: page.getByRole('gridcell', { name: target.rut }) });
    await row.getByRole('button', { name: 'más' }).click();
    await page.getByRole('menuitem', { name: `Enviar correo a ${target.name}` }).click();
    const dialog = page.getByRole('dialog', { name: /Enviar correo a 1 estudiante/ });
    await dialog
      .getByTestId('follow-up-mail-recipient')
      .getByText(`Para: ${target.name} <${target.email}>`)
      .waitFor();
    await dialog.getByLabel('Asunto').fill('Hola {nombre}');
    await dialog.getByRole('textbox', { name: 'Mensaje' }).click();
    await page.keyboard.type('¿Podemos ayudarle con el curso?');
    await dialog.getByRole('button', { name: 'Vista previa' }).click();
    await dialog.getByRole('button', { name: 'Enviar 1 correo' }).click();
    await dialog.getByTestId('follow-up-mail-result').waitFor();
    await dialog.getByText(target.name).first().waitFor();
    await dialog.getByRole('button', { name: 'Cerrar' }).click();
    await expect
      .poll(async () =>
        (await call('GET', '/agenda/students?perPage=50')).body._data.collections.some(
          (c: Json) => c.properties.enrolmentId === target.enrolmentId,
        ),
      )
      .toBe(false);
    await section.getByRole('gridcell', { name: target.rut }).waitFor({ state: 'detached' });
  }, 120_000);

  it('a WhatsApp message to a student with two open tickets: SIGAF asks which, and logs the attempt there as outgoing WhatsApp', async () => {
    const atRisk = (await call('GET', '/agenda/students?perPage=50')).body._data.collections.map(
      (c: Json) => c.properties,
    ) as Json[];
    const tickets = (
      await call('GET', '/tickets?perPage=100&status=all')
    ).body._data.collections.map((c: Json) => c.properties.courseRegisteredUser.id) as number[];
    const student = atRisk.find((s) => !tickets.includes(s.enrolmentId))!;
    expect(student).toBeDefined();
    const open = async (motive: string) => {
      const res = await call('POST', '/tickets', {
        course_registered_user_id: student.enrolmentId,
        type_ticket_id: await key('type-tickets', 'phone'),
        status_ticket_id: await key('status-tickets', 'open'),
        priority_ticket_id: await key('priority-tickets', 'high'),
        source_ticket_id: await key('source-tickets', 'outgoing'),
        motive_ticket_id: await key('motive-tickets', motive),
        user_assigned_id: me,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body._data.properties as Json;
    };
    // No ticket yet: a new ticket (Origen "Saliente"), whose first attempt says it was a WhatsApp.
    const whatsApp = async () => {
      await page.goto('/my/agenda');
      const section = page.getByRole('region', { name: 'Estudiantes en riesgo sin contacto' });
      await section
        .getByRole('button', { name: `Ver ficha de ${student.name}` })
        .click({ timeout: 30_000 });
      const card = page.getByRole('dialog', { name: new RegExp(student.name.split(' ')[0]) });
      await page.evaluate(() => {
        window.open = (() => null) as typeof window.open;
      });
      await card.getByRole('button', { name: /^WhatsApp a / }).click();
      await page
        .getByRole('dialog', { name: /^WhatsApp a / })
        .getByRole('button', { name: 'Abrir WhatsApp' })
        .click();
      await page.evaluate(() => window.dispatchEvent(new Event('focus')));
      await page
        .getByRole('dialog', { name: '¿Registrar el contacto?' })
        .getByRole('button', { name: 'Registrar' })
        .click();
    };
    await whatsApp();
    const create = page.getByRole('dialog', { name: /Nuevo ticket · Curso de la jornada/ });
    await expect
      .poll(async () => create.getByRole('combobox', { name: 'Origen' }).textContent(), {
        timeout: 15_000,
      })
      .toContain('Saliente');
    for (const [label, option] of [
      ['Motivo', 'Bienvenida'],
      ['Prioridad', 'Alta'],
    ] as const) {
      await create.getByRole('combobox', { name: label }).click();
      await page.getByRole('option', { name: option, exact: true }).click();
    }
    expect(
      await sendAttempt(
        create,
        ['Intento de contacto', 'Observaciones', 'Escribió por WhatsApp'],
        'Crear ticket',
        '/api/v2/ticket-details/multiple',
      ),
    ).toMatchObject({ medium: 'whatsapp', direction: 'outgoing' });
    await create.waitFor({ state: 'detached' });
    // Removed with its attempt: the student is at risk without contact again, and the open
    // tickets below are the only ones.
    const mine = (
      await call(
        'GET',
        `/course-registered-user/${student.enrolmentId}/tickets?page=1&compact=true`,
      )
    ).body._data.collections.map((c: Json) => c.properties.id as number);
    expect(mine).toHaveLength(1);
    for (const d of (await call('GET', `/tickets/${mine[0]}/ticket-details`)).body._data
      .collections)
      expect((await call('DELETE', `/ticket-details/${d.properties.id}`)).status).toBe(200);
    expect((await call('DELETE', `/tickets/${mine[0]}`)).status).toBe(200);

    const older = await open('welcome');
    const newer = await open('welcome');

    await whatsApp();
    // Two open tickets: each with its code, type and opening date; the newest first.
    const choose = page.getByRole('dialog', { name: '¿En qué ticket se registra?' });
    const items = choose.getByRole('button');
    await choose.getByText(/tiene 2 tickets abiertos/).waitFor();
    expect(await items.filter({ hasText: /Abierto el \d{2}-\d{2}-\d{4}/ }).count()).toBe(2);
    expect(await items.first().textContent()).toContain(newer.ticketCode);
    await items.filter({ hasText: older.ticketCode }).click();
    const attempt = page.getByRole('dialog', {
      name: new RegExp(`Registrar intento de contacto: .*\\(${older.ticketCode}\\)`),
    });
    await attempt.getByTestId('attempt-medium').getByText('Medio: WhatsApp, saliente').waitFor();
    expect(
      await sendAttempt(
        attempt,
        ['Resultado', 'Comentario', 'Respondió por WhatsApp'],
        'Registrar',
        '/api/v2/ticket-details',
      ),
    ).toMatchObject({
      ticket_id: older.id,
      medium: 'whatsapp',
      direction: 'outgoing',
    });
    await attempt.waitFor({ state: 'detached' });
    await screenshot(page, 'whatsapp-log-on-open-ticket');
    const attempts = async (id: number) =>
      (await call('GET', `/tickets/${id}/ticket-details`)).body._data.collections.length;
    expect(await attempts(older.id)).toBe(1);
    expect(await attempts(newer.id)).toBe(0);
    // Closed again: the next test counts the administrator's open tickets.
    expect(
      (await call('POST', '/tickets/bulk', { ids: [older.id, newer.id], action: 'close' })).status,
    ).toBe(200);
  }, 120_000);

  it('at 1366×768 the follow-up and ticket screens do not scroll sideways', async () => {
    for (const path of ['/my/seguimiento-alumnos', '/my/ticket']) {
      await page.goto(path);
      await openCourse();
      await page.getByRole('grid').first().waitFor({ timeout: 30_000 });
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        path,
      ).toBeLessThanOrEqual(0);
    }
    // Seguimiento's pickers stay inside their card, also on a smaller laptop with the menu open.
    for (const width of [1366, 1024]) {
      await page.setViewportSize({ width, height: 768 });
      await page.goto('/my/seguimiento-alumnos');
      const pickers = page.getByTestId('follow-up-pickers');
      await pickers.getByRole('combobox').last().waitFor();
      const card = (await pickers.boundingBox())!;
      const room = (await pickers.getByRole('combobox').last().boundingBox())!;
      expect(room.x + room.width, `${width} px`).toBeLessThanOrEqual(card.x + card.width);
    }
    // On a phone the app bar's title is the short name, on one line.
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto('/my/agenda');
      const title = page.getByTestId('app-title');
      await title.getByText('SIGAF', { exact: true }).waitFor();
      expect((await title.boundingBox())!.height).toBeLessThan(32);
    } finally {
      await page.setViewportSize({ width: 1366, height: 768 });
    }
  }, 90_000);

  it('reassigning an operator’s work asks first in a dialog, names what moved, and can be undone after a reload', async () => {
    await page.goto('/my/agenda');
    const workload = page.getByRole('region', { name: 'Carga por operador' });
    await workload
      .getByRole('gridcell', { name: operator.name, exact: true })
      .waitFor({ timeout: 30_000 });
    // The at-risk column says when it was counted.
    await workload
      .getByTestId('workload-counted-at')
      .getByText(/^Estudiantes en riesgo contados a las \d\d:\d\d\./)
      .waitFor();
    const me = (await api<Json>(product.url, 'GET', '/api/auth/user', token)).body.user.properties;
    const mine = async () =>
      (await call('GET', `/tickets/operator/${me.id}?status=open&compact=true`)).body._data
        .collections.length as number;
    expect(await mine()).toBe(1);
    await workload.getByRole('button', { name: `Reasignar el trabajo de ${me.name}` }).click();
    // A dialog, inside the window, with real buttons.
    const dialog = page.getByRole('dialog', { name: `Reasignar el trabajo de ${me.name}` });
    await dialog.waitFor();
    const box = (await dialog.boundingBox())!;
    const view = page.viewportSize()!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(view.height);
    await dialog.getByRole('button', { name: 'CANCELAR' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Reasignar', exact: true }).isDisabled()).toBe(
      true,
    );
    await dialog.getByRole('combobox', { name: 'Reasignar a' }).click();
    await page.getByRole('option', { name: operator.name }).click();
    await dialog
      .getByText(
        `¿Reasignar 1 ticket abierto de ${me.name} (con sus recordatorios pendientes) a ${operator.name}?`,
      )
      .waitFor();
    // Nothing moved before confirming.
    expect(await mine()).toBe(1);
    await dialog.getByRole('button', { name: 'Reasignar', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByText(
        new RegExp(`^1 ticket reasignado a ${operator.name}(, con \\d+ recordatorios?)?\\.$`),
      )
      .waitFor();
    const done = page.getByTestId('reassign-done');
    await done.getByText(`Se reasignó 1 ticket de ${me.name} a ${operator.name}.`).waitFor();
    expect(await mine()).toBe(0);
    // The server remembers it: the undo is still there after a reload.
    await page.reload();
    await done.getByText(`Se reasignó 1 ticket de ${me.name} a ${operator.name}.`).waitFor();
    await done.getByRole('button', { name: 'Deshacer' }).click();
    await done.waitFor({ state: 'detached' });
    await page.getByText(new RegExp(`^1 ticket reasignado a ${me.name}`)).waitFor();
    await expect.poll(mine).toBe(1);
    await page.reload();
    await workload.getByRole('gridcell', { name: operator.name, exact: true }).waitFor();
    expect(await done.count()).toBe(0);
  }, 90_000);
});
