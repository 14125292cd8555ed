import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_CATEGORY, DEMO_COURSE } from './demo.js';
import { describeE2E, launchBrowser, newPage, startProduct, type Product } from './harness.js';

interface Focused {
  tag: string;
  role: string | null;
  name: string;
  /** DataGrid cell: its column and row. */
  field: string | null;
  rowId: string | null;
}

/** What has the focus: its tag, role, accessible-ish name and, in a grid, its cell. */
async function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body)
      return { tag: 'body', role: null, name: '', field: null, rowId: null };
    const labelled = el.getAttribute('aria-labelledby');
    const name =
      el.getAttribute('aria-label') ||
      (labelled
        ? labelled
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join(' ')
        : '') ||
      ((el as HTMLInputElement).labels?.[0]?.textContent ?? '') ||
      el.textContent ||
      '';
    const cell = el.closest('[data-field]');
    return {
      tag: el.tagName.toLowerCase(),
      role: el.getAttribute('role'),
      name: name
        .replace(/\s+/g, ' ')
        .replace(/\s*\*$/, '')
        .trim(),
      field: cell?.getAttribute('data-field') ?? null,
      rowId: el.closest('[data-id]')?.getAttribute('data-id') ?? null,
    };
  });
}

/**
 * The focused element is on screen and shows that it has the focus: `:focus-visible` matches and
 * its look (outline, shadow, border or background of it or of its field's frame) differs from the
 * same element without the focus.
 */
async function expectVisibleFocus(page: Page, what: string) {
  // Asked again until it holds or 5 s pass: a dialog still fading in is not yet visible.
  const deadline = Date.now() + 5_000;
  let result = await focusLook(page);
  while (!result.ok && Date.now() < deadline) {
    await page.waitForTimeout(250);
    result = await focusLook(page);
  }
  expect(result.ok, `${what}: ${result.why}`).toBe(true);
}

/** Whether the focused element is on screen, matches :focus-visible and looks different from the same element without the focus. */
function focusLook(page: Page) {
  return page.evaluate(async () => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { ok: false, why: 'nothing has the focus' };
    // A checkbox's native input is transparent: what shows is the box drawn around it.
    const shown = (
      el.matches('input[type="checkbox"], input[type="radio"]')
        ? el.closest('.MuiButtonBase-root')
        : el
    ) as HTMLElement;
    const r = shown.getBoundingClientRect();
    const onScreen =
      r.width > 0 &&
      r.height > 0 &&
      r.bottom > 0 &&
      r.right > 0 &&
      r.top < innerHeight &&
      r.left < innerWidth &&
      shown.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    if (!onScreen) return { ok: false, why: `not visible: ${el.outerHTML.slice(0, 200)}` };
    const focusVisible = el.matches(':focus-visible');
    // The element and what draws its frame: MUI inputs draw the focus on the outlined fieldset.
    const parts = () => {
      const root = el.closest(
        '.MuiInputBase-root, .MuiButtonBase-root, .MuiDataGrid-cell, .MuiDataGrid-columnHeader',
      ) as HTMLElement | null;
      return [el, el.parentElement, shown, root, root?.querySelector('fieldset') ?? null].filter(
        (x): x is HTMLElement => Boolean(x),
      );
    };
    const look = () =>
      parts()
        .map((p) => {
          const s = getComputedStyle(p);
          return [
            s.outlineStyle,
            s.outlineWidth,
            s.outlineColor,
            s.boxShadow,
            s.borderTopColor,
            s.borderTopWidth,
            s.backgroundColor,
          ].join(',');
        })
        .join('|');
    // Until the focus styles have settled: a frame for the change to start its transitions, then
    // the end of every running CSS transition (an animation that loops is not waited for).
    const wait = async () => {
      await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
      await Promise.all(
        document
          .getAnimations()
          .filter((a) => a instanceof CSSTransition)
          .map((a) => a.finished.catch(() => undefined)),
      );
    };
    await wait();
    const withFocus = look();
    el.blur();
    await wait();
    const without = look();
    el.focus();
    await wait();
    return {
      ok: focusVisible && withFocus !== without && document.activeElement === el,
      why: `focus-visible ${focusVisible}, look changes ${withFocus !== without}: ${el.outerHTML.slice(0, 160)}`,
    };
  });
}

/** Presses Tab (or Shift+Tab) until the focused element satisfies `wanted`; fails after `max` presses. */
async function tabTo(
  page: Page,
  wanted: (f: Focused) => boolean,
  what: string,
  { back = false, max = 60 } = {},
) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const f = await focused(page);
    if (wanted(f)) return f;
  }
  throw new Error(`Tab never reached ${what} (now on ${JSON.stringify(await focused(page))})`);
}

/** Opens the focused select with the keyboard and picks `option` with the arrows and Enter. */
async function chooseWithArrows(page: Page, option: string) {
  await page.keyboard.press('ArrowDown');
  const listbox = page.getByRole('listbox');
  await listbox.waitFor();
  for (let i = 0; i < 30; i++) {
    const active = await page.evaluate(() =>
      document.activeElement?.getAttribute('role') === 'option'
        ? document.activeElement.textContent
        : null,
    );
    if (active === option) break;
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
  await listbox.waitFor({ state: 'detached' });
}

describeE2E('the ticket work with the keyboard alone', () => {
  let product: Product;
  let browser: Browser;

  beforeAll(async () => {
    product = await startProduct({ DEMO: 'true' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('signs in, picks a course, opens a ticket, adds a contact attempt, saves; the focus is visible throughout and comes back', async () => {
    const { page, context } = await newPage(browser, product.url);
    page.setDefaultTimeout(15_000);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Entrar' }).waitFor();

    // Sign in.
    await tabTo(page, (f) => f.name === 'E-mail', 'the e-mail field');
    await expectVisibleFocus(page, 'e-mail field');
    await page.keyboard.type(DEMO_ADMIN.email);
    await tabTo(page, (f) => f.tag === 'input' && f.name === 'Contraseña', 'the password field');
    await expectVisibleFocus(page, 'password field');
    await page.keyboard.type(DEMO_ADMIN.password);
    await tabTo(page, (f) => f.name === 'Entrar', 'the sign-in button');
    await expectVisibleFocus(page, 'sign-in button');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/my/);
    // Keys go to the page once it has drawn (screens load on demand).
    await page.getByRole('link', { name: 'Tickets', exact: true }).first().waitFor();

    // The ticket screen, from the menu.
    await tabTo(page, (f) => f.tag === 'a' && f.name === 'Tickets', 'the Tickets menu entry');
    await expectVisibleFocus(page, 'Ticket menu entry');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/my\/ticket/);
    await page.getByRole('combobox', { name: 'Categorías' }).first().waitFor();

    // Category and course.
    await tabTo(
      page,
      (f) => f.role === 'combobox' && f.name.startsWith('Categorías'),
      'the category selector',
    );
    await expectVisibleFocus(page, 'category selector');
    await chooseWithArrows(page, DEMO_CATEGORY);
    // The course selector opens once the category's courses have arrived.
    await page
      .getByRole('combobox', { name: 'Cursos' })
      .and(page.locator(':not([aria-disabled="true"])'))
      .waitFor();
    await tabTo(
      page,
      (f) => f.role === 'combobox' && f.name.startsWith('Cursos'),
      'the course selector',
    );
    await expectVisibleFocus(page, 'course selector');
    await chooseWithArrows(page, DEMO_COURSE);
    await page.getByText(/^Tickets encontrados: \d+$/).waitFor();

    // Into the grid: Tab reaches it, the arrows move to the first row's open action.
    // The grid is one tab stop (its header); the arrows move within it.
    await tabTo(page, (f) => f.field !== null, 'the ticket grid', { max: 80 });
    await expectVisibleFocus(page, 'ticket grid header');
    for (let i = 0; i < 3 && (await focused(page)).rowId === null; i++)
      await page.keyboard.press('ArrowDown');
    expect((await focused(page)).rowId).not.toBeNull();
    const arrow = async (key: string) => {
      await page.keyboard.press(key);
      await page.waitForTimeout(100);
    };
    for (let i = 0; i < 10 && (await focused(page)).field !== 'actions'; i++)
      await arrow('ArrowRight');
    for (let i = 0; i < 10 && (await focused(page)).field !== 'actions'; i++)
      await arrow('ArrowLeft');
    // The actions cell hands the focus to its first button, the ticket's open action.
    await page.waitForFunction(() => document.activeElement?.tagName === 'BUTTON');
    const opener = await focused(page);
    expect(opener.field).toBe('actions');
    expect(opener.name).toBe('Agregar contacto');
    await expectVisibleFocus(page, 'open action of the first ticket');

    // Open, close with Escape: the focus is back on the action that opened it.
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /^Ticket / });
    await dialog.waitFor();
    await page.waitForFunction(() => document.activeElement?.closest('[role="dialog"]') !== null);
    // The dialog itself takes the focus (announced by its name); the next Tab is on one of its controls.
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null),
    ).toBe(true);
    await expectVisibleFocus(page, 'first control of the ticket dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page), { timeout: 10_000 }).toEqual(opener);
    await expectVisibleFocus(page, 'open action after Escape');

    // Open again, write the contact attempt, save.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await dialog.getByLabel('Observaciones').waitFor();
    await tabTo(
      page,
      (f) => f.role === 'combobox' && f.name.startsWith('Intento de contacto'),
      'the contact attempt outcome',
      { max: 80 },
    );
    await expectVisibleFocus(page, 'contact attempt outcome');
    await chooseWithArrows(page, 'Fallido');
    await tabTo(page, (f) => f.name === 'Observaciones', 'the observation field', { max: 80 });
    await expectVisibleFocus(page, 'observation field');
    await page.keyboard.type('Llamada sin respuesta; se vuelve a llamar mañana.');
    await tabTo(page, (f) => f.name === 'Guardar', 'the save button');
    await expectVisibleFocus(page, 'save button');
    await page.keyboard.press('Enter');
    await page.getByText('El ticket se ha editado correctamente.').first().waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(
        async () => {
          const back = await focused(page);
          return { field: back.field, rowId: back.rowId };
        },
        { timeout: 10_000 },
      )
      .toEqual({ field: opener.field, rowId: opener.rowId });
    await expectVisibleFocus(page, 'open action after saving');
    await context.close();
  });
});
