import { chileParts, computeDv, formatRut, REMINDER_POLL_MS } from '@sigaf/contract';
import type { Browser } from 'playwright-core';
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

type Json = any;

/**
 * Reminders and Mi agenda in Chromium: a reminder set from the ticket dialog (already due: this
 * minute), the app bar's badge updated by its poll (the browser's clock is advanced, no reload),
 * the attempt logged from the agenda, and the reminder done.
 */
describeE2E('reminders and Mi agenda', () => {
  let product: Product;
  let browser: Browser;
  let token: string;
  let ticketId: number;
  let ticketCode: string;
  let courseId: number;
  const call = (method: string, url: string, body?: unknown) =>
    api<Json>(product.url, method, `/api/v2${url}`, token, body);

  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
    token = await adminSession(product);
    const key = async (p: string, k: string) =>
      (await call('GET', `/${p}`)).body._data.collections.find((c: Json) => c.properties.key === k)
        .properties.id;
    const platform = (await call('GET', '/platforms')).body._data.collections[0].properties.id;
    const cat = await call('POST', '/categories', {
      description: 'Agenda e2e',
      category_code: 'AGEE',
      platform_id: platform,
    });
    const course: number = (
      await call('POST', '/courses', {
        description: 'Curso de agenda',
        category_id: cat.body._data.properties.id,
        email: 'curso@sigaf.cl',
      })
    ).body._data.properties.id;
    courseId = course;
    const body = 19_000_001;
    const s = await call('POST', '/registered-users/view-store', {
      rut: formatRut({ body, dv: computeDv(body) }),
      name: 'Rosa',
      last_name: 'Recordar',
      email: 'rosa@correo.cl',
    });
    const e = await call('POST', '/course-registered-users/view-store', {
      course_id: course,
      registered_user_id: s.body._data.properties.id,
    });
    expect(e.status, JSON.stringify(e.body)).toBe(201);
    const me = (await api<Json>(product.url, 'GET', '/api/auth/user', token)).body.user.properties
      .id;
    const ticket = await call('POST', '/tickets', {
      course_registered_user_id: e.body._data.properties.id,
      type_ticket_id: await key('type-tickets', 'phone'),
      status_ticket_id: await key('status-tickets', 'open'),
      priority_ticket_id: await key('priority-tickets', 'high'),
      source_ticket_id: await key('source-tickets', 'outgoing'),
      motive_ticket_id: await key('motive-tickets', 'welcome'),
      user_assigned_id: me,
    });
    expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);
    ticketId = ticket.body._data.properties.id;
    ticketCode = ticket.body._data.properties.ticketCode;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('sets a reminder on the ticket, sees the badge when it is due, logs the attempt from the agenda and the reminder is done', async () => {
    const { page, context } = await signedInPage(browser, product, token);
    // The browser's clock is the test's: the badge's poll runs when the test advances it.
    await page.clock.install();
    await page.goto(`/my/agenda?ticket=${ticketId}`);
    const dialog = page.getByRole('dialog');
    const reminders = dialog.getByRole('region', { name: 'Recordatorios' });
    await reminders.getByText('Este ticket no tiene recordatorios.').waitFor({ timeout: 30_000 });
    const badge = page.getByTestId('reminder-badge');
    await expect(badge.getAttribute('aria-label')).resolves.toBe('0 recordatorios vencidos');

    // A reminder for this very minute (Chilean time): due at once.
    await reminders.getByRole('button', { name: 'Agregar recordatorio' }).click();
    const form = page.getByRole('dialog', { name: 'Nuevo recordatorio' });
    const now = chileParts(new Date());
    await form.getByLabel('Fecha').fill(now.day);
    await form.getByLabel('Hora').fill(now.time);
    await form.getByLabel('Comentario').fill('Llamar a Rosa');
    await form.getByRole('button', { name: 'Guardar' }).click();
    await reminders.getByText('Llamar a Rosa').waitFor();
    await reminders.locator('[data-reminder-state="overdue"]').waitFor();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="reminder-badge"]')?.getAttribute('aria-label') ===
        '1 recordatorio vencido',
    );

    // Another one falls due elsewhere (set through the API): the poll brings it, no reload.
    const other = await call('POST', '/reminders', {
      ticket_id: ticketId,
      due_at: new Date(Date.now() - 60_000).toISOString(),
      comment: 'Segundo aviso',
    });
    expect(other.status).toBe(201);
    await page.clock.fastForward(REMINDER_POLL_MS + 1000);
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="reminder-badge"]')?.getAttribute('aria-label') ===
        '2 recordatorios vencidos',
      undefined,
      { timeout: 15_000 },
    );

    // The badge's menu lists them; the agenda shows them highlighted.
    await dialog.getByRole('button', { name: 'Cerrar' }).last().click();
    await dialog.waitFor({ state: 'detached' });
    await badge.click();
    await page
      .getByRole('menuitem', { name: new RegExp(`${ticketCode}.*Llamar a Rosa`) })
      .waitFor();
    await page.keyboard.press('Escape');
    const section = page.getByRole('region', { name: 'Recordatorios de hoy y vencidos' });
    await section.getByRole('gridcell', { name: 'Llamar a Rosa' }).waitFor();
    await section.getByRole('gridcell', { name: 'Segundo aviso' }).waitFor();
    expect(await section.locator('.agenda-overdue').count()).toBe(2);
    await screenshot(page, 'agenda');

    // Log the attempt in place: both reminders were due, so both are done.
    await section
      .getByRole('button', { name: `Registrar intento en ${ticketCode}` })
      .first()
      .click();
    const attempt = page.getByRole('dialog', {
      name: new RegExp(`^Registrar intento de contacto: .*\\(${ticketCode}\\)$`),
    });
    await attempt.getByRole('combobox', { name: 'Resultado' }).click();
    await page.getByRole('option').first().click();
    await attempt.getByLabel('Comentario').fill('Contestó, seguirá el curso');
    await attempt.getByRole('button', { name: 'Registrar' }).click();
    await section.getByText('No tiene recordatorios para hoy ni vencidos.').waitFor();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="reminder-badge"]')?.getAttribute('aria-label') ===
        '0 recordatorios vencidos',
    );
    const list = await call('GET', `/reminders?ticket_id=${ticketId}`);
    expect(list.body._data.collections.map((c: Json) => c.properties.state)).toEqual([
      'done',
      'done',
    ]);

    // An administrator sets the course's thresholds.
    await page.getByRole('button', { name: 'Umbrales por curso' }).click();
    const settings = page.getByRole('dialog', { name: 'Umbrales de la agenda por curso' });
    await settings.getByRole('combobox', { name: 'Categorías' }).click();
    await page.getByRole('option', { name: 'Agenda e2e' }).click();
    await settings.getByRole('combobox', { name: 'Cursos' }).click();
    await page.getByRole('option', { name: 'Curso de agenda' }).click();
    const contact = settings.getByLabel('N: días sin contacto');
    await page.waitForFunction(
      () =>
        (document.querySelector('input[type="number"]') as HTMLInputElement | null)?.value === '7',
    );
    await contact.fill('10');
    await settings.getByRole('button', { name: 'Guardar' }).click();
    await settings.waitFor({ state: 'detached' });
    const saved = await call('GET', `/agenda/courses/${courseId}/settings`);
    expect(saved.body._data).toMatchObject({
      contactDays: 10,
      inactiveDays: 7,
      progressPercent: 50,
    });
    await context.close();
  }, 120_000);
});
