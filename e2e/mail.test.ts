import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { computeDv, formatRut } from '@sigaf/contract';
import type { Browser } from 'playwright-core';
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

describeE2E('e-mail from a ticket', () => {
  let product: Product;
  let browser: Browser;
  let token: string;
  let ticketId: number;
  let outboxDir: string;
  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-mail-e2e-'));
    outboxDir = path.join(dataDir, 'outbox');
    product = await startProduct({ DATA_DIR: dataDir, JOBS_POLL_MS: '200' });
    browser = await launchBrowser();
    token = await adminSession(product);
    const key = async (path: string, k: string) =>
      (await api(product.url, 'GET', `/api/v2/${path}`, token)).body._data.collections.find(
        (c: { properties: { key: string } }) => c.properties.key === k,
      ).properties.id;
    const platform = (await api(product.url, 'GET', '/api/v2/platforms', token)).body._data
      .collections[0].properties.id;
    const cat = await api(product.url, 'POST', '/api/v2/categories', token, {
      description: 'Seguridad',
      category_code: 'SEGU',
      platform_id: platform,
    });
    const course = await api(product.url, 'POST', '/api/v2/courses', token, {
      description: 'Curso de correo',
      category_id: cat.body._data.properties.id,
      email: 'curso@sigaf.cl',
    });
    const student = await api(product.url, 'POST', '/api/v2/registered-users/view-store', token, {
      rut: formatRut({ body: 17_000_000, dv: computeDv(17_000_000) }),
      name: 'Íñigo',
      last_name: 'Muñoz',
      email: 'inigo@correo.cl',
    });
    const enrolment = await api(
      product.url,
      'POST',
      '/api/v2/course-registered-users/view-store',
      token,
      {
        course_id: course.body._data.properties.id,
        registered_user_id: student.body._data.properties.id,
      },
    );
    const ticket = await api(product.url, 'POST', '/api/v2/tickets', token, {
      course_registered_user_id: enrolment.body._data.properties.id,
      type_ticket_id: await key('type-tickets', 'email'),
      status_ticket_id: await key('status-tickets', 'open'),
      priority_ticket_id: await key('priority-tickets', 'high'),
      source_ticket_id: await key('source-tickets', 'outgoing'),
      motive_ticket_id: await key('motive-tickets', 'welcome'),
    });
    expect(ticket.status).toBe(201);
    ticketId = ticket.body._data.properties.id;
    // Two more students with tickets, for the massive mail.
    for (const [n, name] of [
      [17_000_001, 'Zoe'],
      [17_000_002, 'Zacarías'],
    ] as const) {
      const s = await api(product.url, 'POST', '/api/v2/registered-users/view-store', token, {
        rut: formatRut({ body: n, dv: computeDv(n) }),
        name,
        last_name: 'Masivo',
        email: `${n}@correo.cl`,
      });
      const e = await api(
        product.url,
        'POST',
        '/api/v2/course-registered-users/view-store',
        token,
        {
          course_id: course.body._data.properties.id,
          registered_user_id: s.body._data.properties.id,
        },
      );
      await api(product.url, 'POST', '/api/v2/tickets', token, {
        course_registered_user_id: e.body._data.properties.id,
        type_ticket_id: await key('type-tickets', 'email'),
        status_ticket_id: await key('status-tickets', 'open'),
        priority_ticket_id: await key('priority-tickets', 'low'),
        source_ticket_id: await key('source-tickets', 'outgoing'),
        motive_ticket_id: await key('motive-tickets', 'welcome'),
      });
    }
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('sends a mail with an attachment; it shows in the outbox as sent and on the ticket as a contact attempt', async () => {
    const { page } = await signedInPage(browser, product, token);
    await page.goto(`/my/ticket?ticket=${ticketId}`);
    await page.getByRole('button', { name: 'Enviar correo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar correo' });
    await dialog.waitFor();
    await dialog.getByText('Para: Íñigo Muñoz <inigo@correo.cl>').waitFor();
    await dialog.getByLabel('Asunto').fill('Bienvenida al curso');
    await dialog
      .getByRole('textbox', { name: 'Mensaje' })
      .fill('Hola {nombre}, te damos la bienvenida.');
    await dialog.getByTestId('mail-file-input').setInputFiles({
      name: 'programa.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n'),
    });
    await dialog.getByText('programa.pdf', { exact: false }).first().waitFor();
    await dialog.getByRole('button', { name: 'Enviar', exact: true }).click();
    await page.getByRole('alert').first().waitFor();
    // The worker delivers it: the outbox row turns "Enviado".
    await dialog
      .getByText('Enviado', { exact: true })
      .first()
      .waitFor({ timeout: 30_000 })
      .catch(async () => {
        await dialog.getByRole('button', { name: 'Actualizar' }).click();
        await dialog.getByText('Enviado', { exact: true }).first().waitFor({ timeout: 20_000 });
      });
    await screenshot(page, 'mail-sent');
    // At 1366 px the outbox fits its dialog: no column cut, the rows per page with their number.
    const outbox = dialog.getByRole('table', { name: 'Bandeja de salida' });
    expect(
      await outbox.evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth),
    ).toBeLessThanOrEqual(0);
    await dialog
      .getByText(/^\d+ intentos? de envío$/)
      .first()
      .waitFor();
    const perPage = dialog.getByRole('combobox', { name: /Filas por página/ });
    expect(await perPage.textContent()).toMatch(/\d+/);
    expect(await perPage.evaluate((e) => e.checkVisibility())).toBe(true);
    const files = fs.readdirSync(outboxDir).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(outboxDir, files[0]!), 'utf8');
    expect(eml).toContain('inigo@correo.cl');
    expect(eml).toContain('programa.pdf');
    await dialog.getByRole('button', { name: 'Cerrar' }).click();
    // The delivery is a contact attempt on the ticket.
    await page
      .getByText('Correo enviado: Bienvenida al curso')
      .first()
      .waitFor({ timeout: 20_000 });
  });

  it('sends a massive mail to the students of the selected tickets, one message each', async () => {
    const { page } = await signedInPage(browser, product, token);
    await page.goto('/my/ticket');
    for (const [label, option] of [
      ['Categorías', 'Seguridad'],
      ['Cursos', 'Curso de correo'],
    ]) {
      await page.getByRole('combobox', { name: label }).click();
      await page.getByRole('option', { name: option, exact: true }).click();
    }
    await page.getByText(/^Tickets encontrados: \d+$/).waitFor();
    for (const name of ['ZOE', 'ZACARÍAS'])
      await checkRow(page.getByRole('row').filter({ hasText: name }));
    await page.getByRole('button', { name: 'Correo masivo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar correo' });
    await dialog.getByText('2 alumnos de los tickets seleccionados', { exact: false }).waitFor();
    await dialog.getByLabel('Asunto').fill('Recordatorio');
    await dialog
      .getByRole('textbox', { name: 'Mensaje' })
      .fill('Hola {nombre}, recuerda completar la actividad.');
    await dialog.getByRole('button', { name: 'Enviar', exact: true }).click();
    await page
      .getByText('Enviado', { exact: true })
      .nth(1)
      .waitFor({ timeout: 30_000 })
      .catch(async () => {
        await dialog.getByRole('button', { name: 'Actualizar' }).click();
        await dialog.getByText('Enviado', { exact: true }).nth(1).waitFor({ timeout: 20_000 });
      });
    const emls = fs
      .readdirSync(outboxDir)
      .filter((f) => f.endsWith('.eml'))
      .map((f) => fs.readFileSync(path.join(outboxDir, f), 'utf8'));
    const reminders = emls.filter((e) => e.includes('Recordatorio'));
    expect(reminders).toHaveLength(2);
    expect(reminders.some((e) => e.includes('17000001@correo.cl'))).toBe(true);
    expect(reminders.some((e) => e.includes('17000002@correo.cl'))).toBe(true);
  });
  it('manages the course templates from the composer: create, edit, pick, delete after confirmation', async () => {
    const { page } = await signedInPage(browser, product, token);
    await page.goto(`/my/ticket?ticket=${ticketId}`);
    await page.getByRole('button', { name: 'Enviar correo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar correo' });
    await dialog.getByRole('button', { name: 'Gestionar plantillas' }).click();
    const manager = page.getByRole('dialog', { name: 'Plantillas de correo del curso' });
    await manager.getByText('El curso no tiene plantillas.').waitFor();
    await manager.getByRole('button', { name: 'Nueva plantilla' }).click();
    const form = page.getByRole('dialog', { name: 'Nueva plantilla' });
    // Required fields are checked before anything is sent.
    await form.getByRole('button', { name: 'Guardar' }).click();
    await form.getByText('Ingrese un nombre para la plantilla.').waitFor();
    await form.getByLabel('Nombre de la plantilla').fill('Recordatorio semanal');
    await form.getByLabel('Asunto').fill('Semana de {nombre}');
    await form.getByRole('textbox', { name: 'Mensaje' }).fill('Hola ');
    await form.getByRole('button', { name: 'Aula del alumno' }).click();
    await form.getByRole('button', { name: 'Guardar' }).click();
    await manager.getByText('Recordatorio semanal').waitFor();
    await manager.getByText('Semana de {nombre}').waitFor();

    await manager.getByRole('button', { name: 'Editar Recordatorio semanal' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar plantilla' });
    await edit.getByLabel('Asunto').fill('Tu semana, {nombre}');
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await manager.getByText('Tu semana, {nombre}').waitFor();
    const stored = await api(product.url, 'GET', '/api/v2/mail/templates', token);
    const saved = stored.body._data.collections.map(
      (c: { properties: Record<string, unknown> }) => c.properties,
    );
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({
      name: 'Recordatorio semanal',
      subject: 'Tu semana, {nombre}',
    });
    expect(saved[0].html).toContain('{aula}');
    await screenshot(page, 'mail-templates');
    await manager.getByRole('button', { name: 'Cerrar' }).click();

    // Picked in the composer, it fills subject and body.
    await dialog.getByRole('combobox', { name: 'Plantilla' }).click();
    await page.getByRole('option', { name: 'Recordatorio semanal' }).click();
    expect(await dialog.getByLabel('Asunto').inputValue()).toBe('Tu semana, {nombre}');
    await dialog
      .getByRole('textbox', { name: 'Mensaje' })
      .getByText('{aula}', { exact: false })
      .waitFor();

    // Deleted only after confirming.
    await dialog.getByRole('button', { name: 'Gestionar plantillas' }).click();
    await manager.getByRole('button', { name: 'Eliminar Recordatorio semanal' }).click();
    const confirm = page.getByRole('dialog', { name: 'SIGAF' });
    await confirm.getByText('¿Eliminar la plantilla «Recordatorio semanal»?').waitFor();
    await confirm.getByRole('button', { name: 'CANCELAR' }).click();
    await manager.getByText('Recordatorio semanal').waitFor();
    await manager.getByRole('button', { name: 'Eliminar Recordatorio semanal' }).click();
    await confirm.getByRole('button', { name: 'ACEPTAR' }).click();
    await manager.getByText('El curso no tiene plantillas.').waitFor();
    expect(
      (await api(product.url, 'GET', '/api/v2/mail/templates', token)).body._data.collections,
    ).toHaveLength(0);
  });

  it('previews the massive mail: the recipient count and one student’s message as it will be sent, inert', async () => {
    const { page } = await signedInPage(browser, product, token);
    await page.goto('/my/ticket');
    for (const [label, option] of [
      ['Categorías', 'Seguridad'],
      ['Cursos', 'Curso de correo'],
    ]) {
      await page.getByRole('combobox', { name: label }).click();
      await page.getByRole('option', { name: option, exact: true }).click();
    }
    await page.getByText(/^Tickets encontrados: \d+$/).waitFor();
    for (const name of ['ZOE', 'ZACARÍAS'])
      await checkRow(page.getByRole('row').filter({ hasText: name }));
    await page.getByRole('button', { name: 'Correo masivo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar correo' });
    await dialog.getByLabel('Asunto').fill('Aviso para {nombre}');
    await dialog
      .getByRole('textbox', { name: 'Mensaje' })
      .fill('Hola {nombre} <img src=x onerror="window.__pwned=1">');
    const before = fs.readdirSync(outboxDir).length;
    await dialog.getByRole('button', { name: 'Vista previa' }).click();
    const preview = page.getByRole('dialog', { name: 'Vista previa del correo' });
    await preview.getByText('Se enviarán 2 correos.').waitFor();
    const subject = await preview.getByTestId('mail-preview-subject').textContent();
    expect(subject).toMatch(/^Aviso para (Zoe|Zacarías)$/);
    const name = subject!.replace('Aviso para ', '');
    expect(await preview.getByTestId('mail-preview-to').textContent()).toMatch(
      /^1700000[12]@correo\.cl$/,
    );
    const frame = page.frameLocator('[data-testid="mail-preview-frame"]');
    await frame.getByText(`Hola ${name}`, { exact: false }).waitFor();
    await frame.getByText('Curso de correo').waitFor();
    await screenshot(page, 'mail-preview');
    expect(
      await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
    ).toBeUndefined();
    await preview.getByRole('button', { name: 'Cerrar' }).click();
    // A preview queues nothing.
    expect(fs.readdirSync(outboxDir).length).toBe(before);
    expect(
      (await api(product.url, 'GET', '/api/v2/mail/outbox?search=Aviso', token)).body._data
        .collections,
    ).toHaveLength(0);
  });
});
