import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { computeDv, formatRut } from '@sigaf/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/**
 * XSS probes: texts stored through the API (catalogue descriptions, course and category names,
 * student names, ticket observations, mail template names and subjects, outbox subjects) carry
 * HTML that would run script if it were injected as markup. Every screen that shows them is
 * opened in Chromium; the payloads must appear as text and never run: each one sets a window
 * flag or opens a dialog if it executes.
 */
const IMG = '<img src=x onerror="window.__xss=1;alert(1)">';
const SCRIPT = '<script>window.__xss=2</script>';
const SVG = '"><svg onload="window.__xss=3">';
/** For the 25-character catalogue descriptions. */
const SHORT_SVG = '<svg onload=__xss=4>';
const SHORT_SCRIPT = '<script>__xss=5</script>';

describeE2E('stored texts shown in the UI never run as script', () => {
  let product: Product;
  let browser: Browser;
  let token: string;
  let ticketId: number;
  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-xss-e2e-'));
    product = await startProduct({ DATA_DIR: dataDir, JOBS_POLL_MS: '200' });
    browser = await launchBrowser();
    token = await adminSession(product);
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await api(product.url, method, url, token, body);
      expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      return res.body._data;
    };
    const key = async (p: string, k: string) =>
      (await call('GET', `/api/v2/${p}`)).collections.find(
        (c: { properties: { key: string } }) => c.properties.key === k,
      ).properties.id;
    const platform = (await call('GET', '/api/v2/platforms')).collections[0].properties.id;
    await call('POST', '/api/v2/classrooms', { description: `A${SHORT_SVG}` });
    await call('POST', '/api/v2/status-tickets', { description: SHORT_SCRIPT });
    const cat = await call('POST', '/api/v2/categories', {
      description: `Categoría ${SVG}`,
      category_code: 'XSSC',
      platform_id: platform,
    });
    const course = await call('POST', '/api/v2/courses', {
      description: `Curso ${IMG}`,
      category_id: cat.properties.id,
      email: 'curso@sigaf.cl',
    });
    const student = await call('POST', '/api/v2/registered-users/view-store', {
      rut: formatRut({ body: 18_000_000, dv: computeDv(18_000_000) }),
      name: `Ana ${IMG}`,
      last_name: `Soto ${SCRIPT}`,
      email: 'ana@correo.cl',
    });
    const enrolment = await call('POST', '/api/v2/course-registered-users/view-store', {
      course_id: course.properties.id,
      registered_user_id: student.properties.id,
    });
    const ticket = await call('POST', '/api/v2/tickets', {
      course_registered_user_id: enrolment.properties.id,
      type_ticket_id: await key('type-tickets', 'email'),
      status_ticket_id: await key('status-tickets', 'open'),
      priority_ticket_id: await key('priority-tickets', 'high'),
      source_ticket_id: await key('source-tickets', 'outgoing'),
      motive_ticket_id: await key('motive-tickets', 'welcome'),
    });
    ticketId = ticket.properties.id;
    await call('POST', '/api/v2/ticket-details', {
      ticket_id: ticketId,
      status_detail_ticket_id: await key('status-detail-tickets', 'success'),
      comment: `Llamada ${IMG} ${SCRIPT}`,
    });
    await call('POST', '/api/v2/mail/templates', {
      course_id: course.properties.id,
      name: `Plantilla ${SVG}`,
      subject: `Asunto ${IMG}`,
      html: `<p>Hola ${IMG}${SCRIPT}</p>`,
    });
    await call('POST', '/api/v2/mail/single', {
      ticketId,
      subject: `Correo ${IMG}`,
      text: `<p>Texto</p>${SCRIPT}`,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  /** A signed-in page that records any script a payload would run. */
  async function watchedPage() {
    const { page } = await signedInPage(browser, product, token);
    const ran: string[] = [];
    page.on('dialog', (d) => {
      ran.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    return { page, ran };
  }

  async function assertInert(page: Page, ran: string[], where: string) {
    // A payload runs on insertion (svg onload) or when its image fails (img onerror): every image
    // of the page and of its frames that may run scripts loaded or failed (the event is fired in
    // the same task), then a frame and a task more. A frame sandboxed without scripts runs none.
    for (const frame of page.frames()) {
      const sandbox =
        frame === page.mainFrame()
          ? null
          : await (await frame.frameElement()).getAttribute('sandbox');
      if (sandbox !== null && !sandbox.split(/\s+/).includes('allow-scripts')) continue;
      await frame.waitForFunction(() => [...document.images].every((img) => img.complete));
      await frame.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0))),
      );
    }
    const flag = await page.evaluate(() => (window as unknown as { __xss?: number }).__xss);
    expect(flag, `${where}: a payload ran`).toBeUndefined();
    expect(ran, where).toEqual([]);
  }

  it('maintenance lists show catalogue, category and course texts as text', async () => {
    const { page, ran } = await watchedPage();
    for (const [screen, text] of [
      ['mantenedor/aula', `A${SHORT_SVG}`],
      ['mantenedor/estado-ticket', SHORT_SCRIPT],
      ['mantenedor/categoria', `Categoría ${SVG}`],
      ['mantenedor/Curso', `Curso ${IMG}`],
    ] as const) {
      await page.goto(`/my/${screen}`);
      await page.getByText(text, { exact: true }).first().waitFor();
      await assertInert(page, ran, screen);
    }
    await screenshot(page, 'xss-maintenance');
  });

  it('students, the ticket with its observations, templates, preview and outbox show the texts as text', async () => {
    const { page, ran } = await watchedPage();
    await page.goto('/my/configuracion/gestion-estudiantes');
    await page.getByLabel('Buscar').fill('ana@correo');
    await page.getByRole('row').filter({ hasText: 'ana@correo.cl' }).waitFor();
    await page.getByText(`Ana ${IMG}`, { exact: false }).first().waitFor();
    await assertInert(page, ran, 'gestion-estudiantes');

    await page.goto(`/my/ticket?ticket=${ticketId}`);
    await page.getByText(`Llamada ${IMG} ${SCRIPT}`, { exact: false }).first().waitFor();
    await assertInert(page, ran, 'ticket dialog');
    await screenshot(page, 'xss-ticket');

    await page.getByRole('button', { name: 'Enviar correo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar correo' });
    await dialog.getByText(`Correo ${IMG}`, { exact: false }).first().waitFor({ timeout: 20_000 });
    await dialog.getByRole('combobox', { name: 'Plantilla' }).click();
    await page.getByRole('option', { name: `Plantilla ${SVG}` }).click();
    expect(await dialog.getByLabel('Asunto').inputValue()).toBe(`Asunto ${IMG}`);
    await assertInert(page, ran, 'composer with template');
    await dialog.getByRole('button', { name: 'Gestionar plantillas' }).click();
    const manager = page.getByRole('dialog', { name: 'Plantillas de correo del curso' });
    await manager.getByText(`Plantilla ${SVG}`, { exact: true }).waitFor();
    await assertInert(page, ran, 'template manager');
    await manager.getByRole('button', { name: 'Cerrar' }).click();
    await dialog.getByRole('button', { name: 'Vista previa' }).click();
    const preview = page.getByRole('dialog', { name: 'Vista previa del correo' });
    await preview
      .getByTestId('mail-preview-subject')
      .getByText(`Asunto ${IMG}`, { exact: true })
      .waitFor();
    await page
      .frameLocator('[data-testid="mail-preview-frame"]')
      .getByText('Hola', { exact: false })
      .waitFor();
    await assertInert(page, ran, 'mail preview');
    await screenshot(page, 'xss-mail');
  });
});

/**
 * Secrets never leave the server: the real server at LOG_LEVEL=trace is given a course mailbox
 * password, a Moodle token, sign-ins (one with a wrong password) and a password change; then no
 * API answer (every GET of the OpenAPI document) and no log line holds any of them, a password
 * hash, APP_SECRET or a bearer token.
 */
describe('secrets are absent from API answers and logs', () => {
  let product: Product;
  const APP_SECRET = 'clave-maestra-de-prueba-0123456789abcdef';
  const MAILBOX = 'Buzón-Secreto-7781';
  const MOODLE_TOKEN = 'f00dfeed1234567890abcdef12345678';
  const WRONG = 'Contraseña-Errónea-5521';
  const NEW_PASSWORD = 'Nueva-Clave-Segura-8';
  beforeAll(async () => {
    product = await startProduct({ LOG_LEVEL: 'trace', APP_SECRET });
  });
  afterAll(async () => product?.stop());

  it('keeps passwords, tokens and APP_SECRET out of every answer and every log line', async () => {
    const token = await adminSession(product);
    const tokens = [token];
    const call = async (method: string, url: string, body?: unknown, as = token) => {
      const res = await api(product.url, method, url, as, body);
      return res;
    };
    const platform = (await call('GET', '/api/v2/platforms')).body._data.collections[0].properties
      .id;
    const cat = await call('POST', '/api/v2/categories', {
      description: 'Secretos',
      category_code: 'SECR',
      platform_id: platform,
    });
    const course = await call('POST', '/api/v2/courses/post', {
      description: 'Curso secreto',
      email: 'curso@sigaf.cl',
      password: MAILBOX,
      category_id: cat.body._data.properties.id,
    });
    expect(course.status).toBe(201);
    const moodle = await call('PUT', `/api/v2/platforms/${platform}/moodle`, {
      url: 'http://127.0.0.1:9/',
      token: MOODLE_TOKEN,
    });
    expect(moodle.status, JSON.stringify(moodle.body)).toBe(200);
    expect(
      (
        await api(product.url, 'POST', '/api/auth/login', undefined, {
          email: product.admin.email,
          password: WRONG,
        })
      ).status,
    ).toBe(401);
    // A user changes their password; both passwords go through the API.
    const roles = (await call('GET', '/api/v2/roles')).body._data.collections.map(
      (c: { properties: { id: number; key: string } }) => c.properties,
    );
    const signup = await call('POST', '/api/v2/users/signup', {
      name: 'Operadora Secreta',
      email: 'secreta@sigaf.cl',
      role_id: roles.find((r: { key: string }) => r.key === 'operator').id,
      mobile: '+56911111111',
    });
    expect(signup.status, JSON.stringify(signup.body)).toBe(201);
    const temporary: string = signup.body._data.temporaryPassword;
    const op = await api(product.url, 'POST', '/api/auth/login', undefined, {
      email: 'secreta@sigaf.cl',
      password: temporary,
    });
    expect(op.status).toBe(200);
    tokens.push(op.body.access_token);
    const me = await call('GET', '/api/auth/user', undefined, op.body.access_token);
    const changed = await call(
      'PUT',
      `/api/v2/users/${me.body.user.properties.id}`,
      { password: NEW_PASSWORD, isFirstLogin: 1 },
      op.body.access_token,
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);

    // Every GET of the API, as the administrator.
    const doc = (await call('GET', '/api/docs/json')).body;
    const answers: string[] = [];
    for (const [p, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
      if (!item.get || p.endsWith('/logout')) continue; // signing out would end the session used here
      const url = p.replace(/\{[^}]+\}/g, '1');
      const res = await fetch(`${product.url}${url}`, {
        headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' },
      });
      answers.push(`${url} ${await res.text()}`);
    }
    answers.push(JSON.stringify((await call('GET', `/api/v2/platforms/${platform}/moodle`)).body));
    const all = answers.join('\n');
    const courses = answers.find((a) => a.startsWith('/api/v2/courses ')) ?? '';
    expect(courses.slice(0, 400), courses.slice(0, 400)).toContain('"hasPassword":true');
    const secrets = [
      MAILBOX,
      MOODLE_TOKEN,
      APP_SECRET,
      WRONG,
      NEW_PASSWORD,
      'Admin-Clave-9',
      product.admin.password,
      '$argon2',
    ];
    for (const secret of secrets)
      expect(all.includes(secret), `an answer holds ${secret}`).toBe(false);

    // The trace log: requests are logged, secrets are not.
    const log = product.output();
    expect(log).toContain('incoming request');
    for (const secret of [...secrets, ...tokens, temporary])
      expect(log.includes(secret), `the log holds ${secret}`).toBe(false);
  });
});
