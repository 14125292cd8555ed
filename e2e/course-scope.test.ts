import { computeDv, formatRut } from '@sigaf/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  adminSession,
  api,
  describeE2E,
  launchBrowser,
  pickStudent,
  screenshot,
  signedInPage,
  startProduct,
  type Product,
} from './harness.js';

/**
 * The first steps of an empty installation on the home page, and a day of an operator on an
 * installation with one category: she is told that Estadística counts every ticket of the course
 * while her list holds only hers; she finds a student by name (no accents) in any of her courses
 * to open a ticket; one current course follows her from page to page and to another browser, and
 * the ticket list's filters live in the address (Back returns to them).
 */

type Json = Record<string, any>;
const rutOf = (n: number) => formatRut({ body: 18_000_000 + n, dv: computeDv(18_000_000 + n) });
const CATEGORY = 'Formación Continua';
const WAIT = { timeout: 10_000 };

describeE2E(
  'the empty installation: first steps on the home page, never-synchronised courses said so',
  () => {
    let product: Product;
    let browser: Browser;

    beforeAll(async () => {
      product = await startProduct();
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await product?.stop();
    });

    it('the home page says what to do first and shows the progress; Mantenedor › Curso says a course was never synchronised', async () => {
      const token = await adminSession(product);
      const { page } = await signedInPage(browser, product, token);
      await page.goto('/my');
      const steps = page.getByTestId('setup-steps');
      await steps.getByRole('heading', { name: 'Primeros pasos' }).waitFor();
      await steps.getByText('0 de 4 pasos hechos').waitFor();
      for (const title of [
        '1. Conectar Moodle',
        '2. Crear los cursos',
        '3. Cargar los estudiantes',
        '4. Crear el equipo',
      ])
        await steps.getByText(title).waitFor();
      expect(await steps.getByTestId('setup-moodle').getAttribute('data-done')).toBe('false');
      await screenshot(page, 'course-scope-first-steps');
      // A course made by hand: step 2 is done, and its students are still to come.
      const call = (method: string, url: string, body?: unknown) =>
        api<Json>(product.url, method, `/api/v2${url}`, token, body);
      const platform = (await call('GET', '/platforms')).body._data.collections[0].properties.id;
      const category = await call('POST', '/categories', {
        description: 'Primera categoría',
        category_code: 'PC',
        platform_id: platform,
      });
      await call('POST', '/courses', {
        description: 'Primer curso',
        category_id: category.body._data.properties.id,
        id_course_moodle: 77,
      });
      await page.reload();
      await steps.getByText('1 de 4 pasos hechos').waitFor();
      expect(await steps.getByTestId('setup-courses').getAttribute('data-done')).toBe('true');
      await steps.getByText(/Cursos sincronizados: 0 de 1\./).waitFor();
      await steps.getByRole('link', { name: 'Mantenedor › Curso' }).click();
      const row = page.getByRole('row').filter({ hasText: 'Primer curso' });
      await row.getByText('Activo · sin sincronizar').waitFor();
      await row.getByText('Nunca').waitFor();
      await page.context().close();
    });
  },
);

describeE2E('a working day: operator scope, finding a student, the current course', () => {
  let product: Product;
  let browser: Browser;
  let adminToken: string;
  let operator: { id: number; token: string };
  const courses: Record<'alfa' | 'beta', number> = { alfa: 0, beta: 0 };
  const keys: Record<string, Record<string, number>> = {};

  const call = (method: string, url: string, token: string, body?: unknown) =>
    api<Json>(product.url, method, `/api/v2${url}`, token, body);

  async function enrol(course: number, n: number, name: string, lastName: string, mother: string) {
    const s = await call('POST', '/registered-users/view-store', adminToken, {
      rut: rutOf(n),
      name,
      last_name: lastName,
      mother_last_name: mother,
      email: `alumno${n}@correo.cl`,
    });
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    const e = await call('POST', '/course-registered-users/view-store', adminToken, {
      course_id: course,
      registered_user_id: s.body._data.properties.id,
    });
    expect(e.status, JSON.stringify(e.body)).toBe(201);
    return e.body._data.properties.id as number;
  }

  async function ticket(enrolment: number, assigned: number) {
    const res = await call('POST', '/tickets', adminToken, {
      course_registered_user_id: enrolment,
      type_ticket_id: keys.type!.phone,
      status_ticket_id: keys.status!.open,
      priority_ticket_id: keys.priority!.high,
      source_ticket_id: keys.source!.outgoing,
      motive_ticket_id: keys.motive!.welcome,
      user_assigned_id: assigned,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }

  async function operatorPage(): Promise<Page> {
    const { page } = await signedInPage(browser, product, operator.token);
    return page;
  }

  const countOf = async (page: Page, label: string) =>
    Number(
      await page
        .getByRole('group', { name: label, exact: true })
        .getByTestId('count-value')
        .textContent(),
    );
  const shown = (page: Page, label: string) =>
    page.getByRole('combobox', { name: label }).first().textContent();

  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
    adminToken = await adminSession(product);
    const platform = (await call('GET', '/platforms', adminToken)).body._data.collections[0]
      .properties.id;
    const category = await call('POST', '/categories', adminToken, {
      description: CATEGORY,
      category_code: 'FC',
      platform_id: platform,
    });
    for (const [key, description] of [
      ['alfa', 'Curso Alfa'],
      ['beta', 'Curso Beta'],
    ] as const) {
      courses[key] = (
        await call('POST', '/courses', adminToken, {
          description,
          category_id: category.body._data.properties.id,
        })
      ).body._data.properties.id;
    }
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
    const roles = (await call('GET', '/roles', adminToken)).body._data.collections as Json[];
    const roleId = roles.find((r) => r.properties.key === 'operator')!.properties.id;
    const created = await call('POST', '/users/signup', adminToken, {
      name: 'Olga Operadora',
      email: 'olga@sigaf.cl',
      role_id: roleId,
      password: 'Primera-Clave-1',
    });
    const first = await api<Json>(product.url, 'POST', '/api/auth/login', undefined, {
      email: 'olga@sigaf.cl',
      password: 'Primera-Clave-1',
    });
    await call('PUT', `/users/${created.body._data.properties.id}`, first.body.access_token, {
      password: 'Segunda-Clave-2',
      isFirstLogin: 1,
    });
    operator = {
      id: created.body._data.properties.id,
      token: (
        await api<Json>(product.url, 'POST', '/api/auth/login', undefined, {
          email: 'olga@sigaf.cl',
          password: 'Segunda-Clave-2',
        })
      ).body.access_token,
    };
    const admin = (await api<Json>(product.url, 'GET', '/api/auth/user', adminToken)).body.user
      .properties.id as number;
    const alfa = [
      await enrol(courses.alfa, 1, 'Valentina', 'Rojas', 'Soto'),
      await enrol(courses.alfa, 2, 'Tomás', 'Pérez', 'Lagos'),
      await enrol(courses.alfa, 3, 'Josefa', 'Díaz', 'Mena'),
    ];
    await enrol(courses.beta, 4, 'Iñaki', 'Muñoz', 'Cáceres');
    // Three open tickets in Curso Alfa: one is hers, two the administrator's.
    await ticket(alfa[0]!, operator.id);
    await ticket(alfa[1]!, admin);
    await ticket(alfa[2]!, admin);
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('Estadística tells an operator it counts the whole course; the list it opens says it holds only hers', async () => {
    const page = await operatorPage();
    await page.goto('/my/estadistica');
    // One category: it is chosen already.
    await expect.poll(() => shown(page, 'Categorías'), WAIT).toContain(CATEGORY);
    // The course's figures come in one answer, not one call per chart.
    const figures: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url()).pathname;
      if (/^\/api\/v2\/(tickets\/\d+\/|course-registered-users\/\d+\/|dashboard\/)/.test(url))
        figures.push(url);
    });
    await page.getByRole('combobox', { name: 'Cursos' }).click();
    await page.getByRole('option', { name: 'Curso Alfa' }).click();
    await page
      .getByTestId('operator-scope')
      .getByText(/cuentan todos los tickets del curso/)
      .waitFor();
    await expect.poll(() => countOf(page, 'Tickets abiertos'), WAIT).toBe(3);
    await page.getByRole('figure').first().waitFor();
    expect(figures).toEqual([`/api/v2/dashboard/courses/${courses.alfa}`]);
    await page.getByRole('group', { name: 'Tickets abiertos' }).getByRole('button').click();
    await page.getByText('Tickets encontrados: 1').waitFor();
    await page
      .getByTestId('own-tickets-only')
      .getByText(/Usted ve solo sus tickets/)
      .waitFor();
    await screenshot(page, 'course-scope-operator-list');
    // Figures that agree: the enrolment counts the three students not yet synchronised, and says so.
    await page.goBack();
    await expect.poll(() => countOf(page, 'Matrícula inicial'), WAIT).toBe(3);
    await page
      .getByTestId('unsynced-note')
      .getByText(/De la matrícula, 3 estudiantes aún no se han sincronizado/)
      .waitFor();
    await expect.poll(() => countOf(page, 'Han ingresado'), WAIT).toBe(0);
    await expect.poll(() => countOf(page, 'Nunca han ingresado'), WAIT).toBe(0);
    await page.context().close();
  });

  it('an operator finds a student by name without accents, in her other course, and opens a ticket there', async () => {
    const page = await operatorPage();
    await page.goto('/my/ticket');
    await page.getByText(/^Tickets encontrados: \d+$/).waitFor();
    await page.getByRole('button', { name: 'Individual' }).click();
    const dialog = page.getByRole('dialog', { name: /^(Crear ticket individual|Nuevo ticket)/ });
    await dialog.getByLabel('Alumno: nombre o RUT').fill('nu');
    await page.getByText('Escriba al menos 3 letras del nombre o dígitos del RUT.').waitFor();
    await dialog.getByLabel('Alumno: nombre o RUT').fill('munoz');
    const option = page.getByRole('option', { name: /Iñaki Muñoz Cáceres/ });
    await option.getByText(`${CATEGORY} › Curso Beta`).waitFor();
    await pickStudent(page, dialog, 'munoz', /Iñaki Muñoz Cáceres/);
    await dialog.getByText('Iñaki Muñoz Cáceres').waitFor();
    await dialog.getByRole('button', { name: 'Continuar' }).click();
    await dialog.getByText(/Iñaki Muñoz Cáceres · .* · Curso Beta/).waitFor();
    for (const [label, choice] of [
      ['Origen', 'Saliente'],
      ['Tipo', 'Contacto telefónico'],
      ['Motivo', 'Bienvenida'],
      ['Prioridad', 'Media'],
    ] as const) {
      await dialog.getByRole('combobox', { name: label }).click();
      await page.getByRole('option', { name: choice, exact: true }).click();
    }
    await dialog.getByLabel('Registrar un primer intento de contacto').uncheck();
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const beta = await call(
      'GET',
      `/tickets?course_id=${courses.beta}&status=all&page=1&perPage=5`,
      operator.token,
    );
    expect(
      beta.body._data.collections.map(
        (c: Json) => c.properties.courseRegisteredUser.registeredUser.rut,
      ),
    ).toEqual([rutOf(4)]);
    await page.context().close();
  });

  it('one current course follows the operator from page to page and to another browser; the ticket filters survive Back', async () => {
    const page = await operatorPage();
    await page.goto('/my/estadistica');
    await page.getByRole('combobox', { name: 'Cursos' }).click();
    await page.getByRole('option', { name: 'Curso Beta' }).click();
    await page.getByTestId('operator-scope').waitFor();
    // Ticket opens on the same course, with no choice to make.
    await page.goto('/my/ticket');
    await expect.poll(() => shown(page, 'Cursos'), WAIT).toContain('Curso Beta');
    await page.getByText(/^Tickets encontrados: \d+$/).waitFor();
    // Filters go to the address.
    await page.getByRole('combobox', { name: 'Estado' }).click();
    await page.getByRole('option', { name: 'Todos', exact: true }).click();
    await page.getByLabel('Buscar por código, RUT o nombre').fill('munoz');
    await page.getByLabel('Buscar por código, RUT o nombre').press('Enter');
    await page.waitForURL(
      (url) =>
        url.searchParams.get('search') === 'munoz' &&
        url.searchParams.get('status') === 'all' &&
        url.searchParams.get('course') === String(courses.beta),
    );
    await page.getByText('Tickets encontrados: 1').waitFor();
    await page.goto('/my/seguimiento-alumnos');
    await expect.poll(() => shown(page, 'Cursos'), WAIT).toContain('Curso Beta');
    await page.goBack();
    await page.getByText('Tickets encontrados: 1').waitFor();
    await expect
      .poll(() => page.getByLabel('Buscar por código, RUT o nombre').inputValue(), WAIT)
      .toBe('munoz');
    await page.context().close();
    // Another browser (nothing in its storage): the server remembers the course.
    const other = await operatorPage();
    await other.goto('/my/estadistica');
    await expect.poll(() => shown(other, 'Cursos'), WAIT).toContain('Curso Beta');
    await other.getByTestId('operator-scope').waitFor();
    await other.context().close();
    const current = await call('GET', '/me/current-course', operator.token);
    expect(current.body._data.properties).toMatchObject({
      id: courses.beta,
      description: 'Curso Beta',
    });
  });

  it("an administrator's report opens on the only category and on his current course", async () => {
    await call('PUT', '/me/current-course', adminToken, { course_id: courses.alfa });
    const room = await call('POST', '/classrooms', adminToken, { description: 'Aula Alfa' });
    const enrolments = (
      (await call('GET', `/course-registered-users?course_id=${courses.alfa}`, adminToken)).body
        ._data.collections as Json[]
    ).map((e) => e.properties.id);
    const put = await call(
      'PUT',
      `/course-registered-user/classroom/${room.body._data.properties.id}/users`,
      adminToken,
      { courseRegisteredUsers: enrolments },
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const { page } = await signedInPage(browser, product, adminToken);
    await page.goto('/my/reportes/reporte-ticket');
    await expect.poll(() => shown(page, 'Categorías'), WAIT).toContain(CATEGORY);
    await expect.poll(() => shown(page, 'Cursos'), WAIT).toContain('Curso Alfa');
    // The follow-up report counts the students Moodle has not confirmed and says so, as its PDF does.
    await page.goto('/my/reportes/reporte-seguimiento-alumnos');
    await page
      .getByRole('listbox', { name: 'Seleccione un aula:' })
      .getByRole('option')
      .first()
      .click();
    await page
      .getByTestId('unsynced-note')
      .getByText(/^De la matrícula, 3 estudiantes aún no se han sincronizado/)
      .waitFor();
    await page.context().close();
  });
});
