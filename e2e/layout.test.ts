import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_ADMIN, pickDemoCourse, settled } from './demo.js';
import {
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
 * The screens a person works in all day fit a 1366×768 laptop with the side menu open (no
 * sideways scroll of the page, nor of their tables: the less important columns give way and stay
 * one click away in the column menu), and a phone (390×844: the page title on two lines at most,
 * the header's controls stacked), on the demo data as its administrator.
 */
describeE2E('layout at 1366×768 and on a phone', () => {
  let product: Product;
  let browser: Browser;
  let token: string;
  /** The operator whose agenda has students at risk (the administrator's own has none). */
  let operator: { name: string; atRisk: number };

  beforeAll(async () => {
    // The workload table is read below until the demo's first synchronisation has judged its students: counted at every read.
    product = await startProduct({ DEMO: 'true', WORKLOAD_AT_RISK_SECONDS: '0' });
    browser = await launchBrowser();
    token = (await api<Json>(product.url, 'POST', '/api/auth/login', undefined, DEMO_ADMIN)).body
      .access_token;
    expect(token).toBeTruthy();
    // The demo's first course is synchronised by a job after the start: its students are judged at risk once it ends.
    const mostAtRisk = async () => {
      const workload = (
        await api<Json>(product.url, 'GET', '/api/v2/agenda/workload', token)
      ).body._data.collections.map((c: Json) => c.properties);
      return workload.sort((a: Json, b: Json) => b.atRisk - a.atRisk)[0];
    };
    for (
      const deadline = Date.now() + 90_000;
      (operator = await mostAtRisk()).atRisk === 0 && Date.now() < deadline;
    )
      await new Promise((r) => setTimeout(r, 1000));
    expect(operator.atRisk).toBeGreaterThan(0);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  async function at(width: number, height: number) {
    const opened = await signedInPage(browser, product, token);
    opened.page.setDefaultTimeout(30_000);
    await opened.page.setViewportSize({ width, height });
    return opened;
  }

  /** How far the page scrolls sideways, and each grid's own horizontal overflow (0 when it fits). */
  async function overflow(page: Page) {
    return page.evaluate(() => ({
      page: document.documentElement.scrollWidth - window.innerWidth,
      grids: [...document.querySelectorAll('.MuiDataGrid-virtualScroller')].map((g) => ({
        grid: g.closest('[aria-label]')?.getAttribute('aria-label') ?? '',
        extra: g.scrollWidth - g.clientWidth,
      })),
    }));
  }

  async function expectFits(page: Page, screen: string, grids: number) {
    await settled(page);
    const o = await overflow(page);
    expect(o.page, `${screen}: the page scrolls sideways`).toBeLessThanOrEqual(0);
    expect(o.grids.length, `${screen}: grids shown`).toBeGreaterThanOrEqual(grids);
    for (const g of o.grids)
      expect(g.extra, `${screen}: grid "${g.grid}" scrolls sideways`).toBeLessThanOrEqual(1);
  }

  /** Lines the page title takes: its height over its line height. */
  async function titleLines(page: Page) {
    return page
      .locator('main h1')
      .first()
      .evaluate(
        (h) => h.getBoundingClientRect().height / parseFloat(getComputedStyle(h).lineHeight),
      );
  }

  const inside = async (inner: Locator, outer: Locator) => {
    const [a, b] = [(await inner.boundingBox())!, (await outer.boundingBox())!];
    return a.x >= b.x - 0.5 && a.x + a.width <= b.x + b.width + 0.5;
  };

  async function openFollowUp(page: Page) {
    await page.goto('/my/seguimiento-alumnos');
    await pickDemoCourse(page);
    await page.getByRole('grid', { name: 'Estudiantes' }).getByRole('row').nth(1).waitFor();
  }

  async function openAgendaOf(page: Page) {
    await page.goto('/my/agenda');
    await page.getByRole('combobox', { name: 'Operador' }).click();
    await page.getByRole('option', { name: operator.name }).click();
    const section = page.getByRole('region', { name: 'Estudiantes en riesgo sin contacto' });
    await section.getByRole('grid').getByRole('row').nth(1).waitFor();
    return section;
  }

  async function openTickets(page: Page) {
    await page.goto('/my/ticket');
    await pickDemoCourse(page);
    await page.getByText(/^Tickets encontrados: \d+$/).waitFor();
    await page.getByRole('grid').first().getByRole('row').nth(1).waitFor();
  }

  it('1366×768, menu open: Seguimiento, Mi agenda and Ticket fit without sideways scroll; hidden columns are in the column menu; sorting still works', async () => {
    const { page, context } = await at(1366, 768);

    await openFollowUp(page);
    // The side menu is open beside the page.
    expect(
      (await page.getByRole('navigation', { name: 'SIGAF' }).boundingBox())!.width,
    ).toBeGreaterThan(200);
    await expectFits(page, 'Seguimiento', 1);
    const pickers = page.getByTestId('follow-up-pickers');
    for (const label of ['Categorías', 'Cursos', 'Aula'])
      expect(await inside(pickers.getByRole('combobox', { name: label }), pickers), label).toBe(
        true,
      );
    const grid = page.getByRole('grid', { name: 'Estudiantes' });
    // The e-mail gave way; the column menu brings it back.
    expect(await grid.getByRole('columnheader', { name: 'Correo electrónico' }).count()).toBe(0);
    await grid.getByRole('columnheader', { name: 'Nombre' }).hover();
    await grid
      .getByRole('columnheader', { name: 'Nombre' })
      .getByRole('button', { name: /menú/i })
      .click();
    await page.getByRole('menuitem', { name: 'Administrar columnas' }).click();
    await page.getByRole('checkbox', { name: 'Correo electrónico' }).check();
    await page.keyboard.press('Escape');
    await grid.getByRole('columnheader', { name: 'Correo electrónico' }).waitFor();
    await page.reload();
    await pickDemoCourse(page);
    await grid.getByRole('columnheader', { name: 'Correo electrónico' }).waitFor();
    // Sorting by a column, from the keyboard.
    await grid.getByRole('columnheader', { name: 'Nombre' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => grid.getByRole('columnheader', { name: 'Nombre' }).getAttribute('aria-sort'))
      .toBe('ascending');
    await screenshot(page, 'layout-follow-up-1366');

    const section = await openAgendaOf(page);
    await expectFits(page, 'Mi agenda', 2);
    expect(await section.getByRole('grid').count()).toBe(1);
    expect((await page.getByTestId('agenda-intro').boundingBox())!.width).toBeGreaterThan(200);
    await screenshot(page, 'layout-agenda-1366');

    await openTickets(page);
    await expectFits(page, 'Ticket', 1);
    await screenshot(page, 'layout-tickets-1366');
    // A ticket's dialog: nothing in it scrolls sideways (the student's other tickets among it).
    await page
      .getByRole('grid')
      .first()
      .getByRole('button', { name: /^(Ver ticket|Agregar contacto)$/ })
      .first()
      .click();
    const ticket = page.getByRole('dialog').first();
    await ticket.getByText('Tickets anteriores del alumno').waitFor();
    await settled(page);
    expect(
      await ticket.evaluate((d) =>
        [...d.querySelectorAll<HTMLElement>('*')]
          .filter((e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
          .map((e) => e.scrollWidth - e.clientWidth)
          .filter((extra) => extra > 1),
      ),
    ).toEqual([]);
    await screenshot(page, 'layout-ticket-dialog-1366');
    await page.keyboard.press('Escape');
    await context.close();
  }, 120_000);

  it('390×844: the page title keeps to two lines and neither the page nor its tables scroll sideways', async () => {
    const { page, context } = await at(390, 844);
    for (const [screen, open] of [
      ['Seguimiento', openFollowUp],
      ['Mi agenda', openAgendaOf],
      ['Ticket', openTickets],
    ] as const) {
      await open(page);
      await expectFits(page, screen, 1);
      // What the left-out columns hold is under the name.
      if (screen !== 'Mi agenda')
        expect(await page.getByTestId('fitted-under').first().innerText(), screen).toMatch(
          screen === 'Ticket' ? /^Código: \S+ · Estado: (Abierto|Cerrado) · / : /^\S.*: /,
        );
      expect(await titleLines(page), screen).toBeLessThanOrEqual(2.05);
      expect(
        (await page.getByTestId('app-title').boundingBox())!.height,
        screen,
      ).toBeLessThanOrEqual(40);
    }
    // Mi agenda's students at risk: the course and the reason gave way, so they are under the name.
    const atRisk = await openAgendaOf(page);
    for (const column of ['Curso', 'Motivo'])
      expect(await atRisk.getByRole('columnheader', { name: column }).count(), column).toBe(0);
    const nameCell = atRisk.locator('[role="row"][data-id] [data-field="name"]').first();
    expect(await nameCell.innerText()).toMatch(
      /\n.+ · (Renuncia en curso|Sin acceso: \d+ días|Avance \d+ %|Nunca ha ingresado)/,
    );
    await screenshot(page, 'layout-tickets-390');
    // Usuarios keeps each person's name, not the RUT staff accounts often lack.
    await page.goto('/my/mantenedor/Usuario');
    const users = page.getByRole('grid').first();
    await users.getByRole('row').nth(1).waitFor();
    await expectFits(page, 'Usuarios', 1);
    await users.getByRole('columnheader', { name: 'Nombre' }).waitFor();
    expect(await users.getByRole('columnheader', { name: 'RUT' }).count()).toBe(0);
    await context.close();
  }, 120_000);
});
