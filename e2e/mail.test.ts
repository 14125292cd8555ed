import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { computeDv, formatRut } from '@sigaf/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminSession, api, describeE2E, launchBrowser, screenshot, signedInPage, startProduct, type Product } from './harness.js';

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
      (await api(product.url, 'GET', `/api/v2/${path}`, token)).body._data.collections.find((c: { properties: { key: string } }) => c.properties.key === k).properties.id;
    const platform = (await api(product.url, 'GET', '/api/v2/platforms', token)).body._data.collections[0].properties.id;
    const cat = await api(product.url, 'POST', '/api/v2/categories', token, { description: 'Seguridad', category_code: 'SEGU', platform_id: platform });
    const course = await api(product.url, 'POST', '/api/v2/courses', token, { description: 'Curso de correo', category_id: cat.body._data.properties.id, email: 'curso@sigaf.cl' });
    const student = await api(product.url, 'POST', '/api/v2/registered-users/view-store', token, {
      rut: formatRut({ body: 17_000_000, dv: computeDv(17_000_000) }),
      name: 'Íñigo',
      last_name: 'Muñoz',
      email: 'inigo@correo.cl',
    });
    const enrolment = await api(product.url, 'POST', '/api/v2/course-registered-users/view-store', token, { course_id: course.body._data.properties.id, registered_user_id: student.body._data.properties.id });
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
    await dialog.getByRole('textbox', { name: 'Mensaje' }).fill('Hola {nombre}, te damos la bienvenida.');
    await dialog.getByTestId('mail-file-input').setInputFiles({ name: 'programa.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n') });
    await dialog.getByText('programa.pdf', { exact: false }).first().waitFor();
    await dialog.getByRole('button', { name: 'Enviar', exact: true }).click();
    await page.getByRole('alert').first().waitFor();
    // The worker delivers it: the outbox row turns "Enviado".
    await dialog.getByText('Enviado', { exact: true }).first().waitFor({ timeout: 30_000 }).catch(async () => {
      await dialog.getByRole('button', { name: 'Actualizar' }).click();
      await dialog.getByText('Enviado', { exact: true }).first().waitFor({ timeout: 20_000 });
    });
    await screenshot(page, 'mail-sent');
    const files = fs.readdirSync(outboxDir).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(outboxDir, files[0]!), 'utf8');
    expect(eml).toContain('inigo@correo.cl');
    expect(eml).toContain('programa.pdf');
    await dialog.getByRole('button', { name: 'Cerrar' }).click();
    // The delivery is a contact attempt on the ticket.
    await page.getByText('Correo enviado: Bienvenida al curso').first().waitFor({ timeout: 20_000 });
  });
});
