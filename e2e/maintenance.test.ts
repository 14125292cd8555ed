import {
  computeDv,
  formatRut,
  RESOURCES,
  SCREEN_ROUTES,
  type FieldDecl,
  type ResourceDecl,
} from '@sigaf/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import es from '../apps/web/src/i18n/es.json';
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

const screens = SCREEN_ROUTES.filter(
  (s) => s.group === 'mantenedor' && RESOURCES.some((r) => r.key === s.key && !r.listOnly),
);
const res = es.resources as Record<string, { title: string; create: string; edit: string }>;
const fields = es.fields as Record<string, string>;

function valueFor(decl: ResourceDecl, f: FieldDecl, n: number, suffix: string): string {
  if (f.kind === 'email') return `e2e.${decl.key.toLowerCase()}${suffix}@sigaf.cl`;
  if (f.kind === 'rut') return formatRut({ body: 20_000_000 + n, dv: computeDv(20_000_000 + n) });
  if (f.kind === 'number') return String(100 + n);
  if (f.kind === 'password') return 'clave-correo-1';
  if (f.name === 'category_code') return `Z${suffix}${n}`.slice(0, 4);
  const text = `Prueba ${decl.key} ${suffix}`;
  return text.slice(0, f.max ?? 25);
}

const labelled = (label: string) =>
  new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s*\\*)?$`);

async function fillForm(page: Page, decl: ResourceDecl, n: number, suffix: string) {
  const dialog = page.getByRole('dialog');
  for (const f of decl.fields.filter((x) => x.form !== false && x.kind !== 'status')) {
    const label = fields[f.label]!;
    if (f.kind === 'select') {
      await dialog.getByRole('combobox', { name: label }).click();
      await page.getByRole('option').filter({ hasNotText: '—' }).first().click();
      continue;
    }
    await dialog.getByLabel(labelled(label)).fill(valueFor(decl, f, n, suffix));
  }
}

describeE2E('maintenance area', () => {
  let product: Product;
  let browser: Browser;
  let adminToken: string;
  let page: Page;
  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
    adminToken = await adminSession(product);
    // The course form needs a category to choose (the category test deletes its own).
    const platform = (await api(product.url, 'GET', '/api/v2/platforms', adminToken)).body._data
      .collections[0].properties.id;
    await api(product.url, 'POST', '/api/v2/categories', adminToken, {
      description: 'Categoría base',
      category_code: 'BASE',
      platform_id: platform,
    });
    ({ page } = await signedInPage(browser, product, adminToken));
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it.each(screens.map((s, i) => [s.key, s, i] as const))(
    '%s: an administrator creates, edits and deletes a row',
    async (key, screen, i) => {
      const decl = RESOURCES.find((r) => r.key === key)!;
      const t = res[key]!;
      await page.goto(`/my/${screen.path}`);
      await page.getByRole('heading', { name: t.title }).waitFor();
      await page.getByRole('button', { name: t.create }).click();
      await page.getByRole('dialog', { name: t.create }).waitFor();
      await fillForm(page, decl, i, 'A');
      await page.getByRole('dialog').getByRole('button', { name: 'ACEPTAR' }).click();
      if (key === 'user') {
        // A new user gets a temporary password, shown once to the administrator.
        const secret = page.getByRole('dialog', { name: 'Contraseña temporal' });
        await secret.waitFor();
        expect(await secret.textContent()).toMatch(/Contraseña temporal de .+: \S{12}\./);
        await secret.getByRole('button', { name: 'Cerrar' }).click();
      } else {
        const toast = page.getByRole('alert').filter({ hasText: 'Registro creado exitosamente.' });
        await toast.waitFor();
        // The toast sits under the app bar, never over its buttons.
        if (i === 0) {
          const bar = (await page.locator('header').first().boundingBox())!;
          expect((await toast.boundingBox())!.y).toBeGreaterThanOrEqual(bar.y + bar.height);
        }
      }
      const nameField = decl.fields.find((f) => f.prop === 'description' || f.prop === 'name')!;
      const created = valueFor(decl, nameField, i, 'A');
      await page.getByLabel('Buscar').fill(created);
      const row = page.getByRole('row').filter({ hasText: created });
      await row.waitFor();
      if (i === 0) await screenshot(page, `maintenance-${key}`);

      await row.getByRole('button', { name: 'Editar' }).click();
      const edit = page.getByRole('dialog', { name: t.edit });
      await edit.waitFor();
      const edited = valueFor(decl, nameField, i, 'B');
      await edit.getByLabel(labelled(fields[nameField.label]!)).fill(edited);
      await edit.getByRole('button', { name: 'ACEPTAR' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'Registro modificado exitosamente.' })
        .waitFor();
      await page.getByLabel('Buscar').fill(edited);
      const editedRow = page.getByRole('row').filter({ hasText: edited });
      await editedRow.waitFor();

      await editedRow.getByRole('button', { name: 'Eliminar' }).click();
      await page.getByText('Eliminará un registro de forma permanente').waitFor();
      await page.getByRole('button', { name: 'ACEPTAR' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'Registro eliminado exitosamente.' })
        .waitFor();
      // The row goes first (a failure here says the list was not read again), then the empty table's text.
      await expect
        .poll(() => page.getByRole('row').filter({ hasText: edited }).count(), { timeout: 15_000 })
        .toBe(0);
      await page.getByText('No hay registros para mostrar').waitFor();
    },
  );

  it('a value in use cannot be deleted and the reason is shown', async () => {
    await page.goto('/my/mantenedor/estado-ticket');
    const row = page.getByRole('row').filter({ hasText: 'Abierto' });
    await row.waitFor();
    const del = row.getByRole('button', { name: 'Eliminar' });
    expect(await del.isDisabled()).toBe(true);
  });

  it('an operator does not see the maintenance menu, cannot open it by URL, and the API answers 403', async () => {
    const role = (
      await api(product.url, 'GET', '/api/v2/roles', adminToken)
    ).body._data.collections.find(
      (c: { properties: { key: string } }) => c.properties.key === 'operator',
    );
    const created = await api(product.url, 'POST', '/api/v2/users/signup', adminToken, {
      name: 'Olga Operadora',
      email: 'olga@sigaf.cl',
      role_id: role.properties.id,
      password: 'Olga-Clave-1',
    });
    const login = await api(product.url, 'POST', '/api/auth/login', undefined, {
      email: 'olga@sigaf.cl',
      password: 'Olga-Clave-1',
    });
    await api(
      product.url,
      'PUT',
      `/api/v2/users/${created.body._data.properties.id}`,
      login.body.access_token,
      { password: 'Olga-Clave-2', isFirstLogin: 1 },
    );
    const token = (
      await api(product.url, 'POST', '/api/auth/login', undefined, {
        email: 'olga@sigaf.cl',
        password: 'Olga-Clave-2',
      })
    ).body.access_token;
    const { page: op, context } = await signedInPage(browser, product, token);
    await op.goto('/my');
    await op.getByRole('navigation').getByRole('link', { name: 'Tickets', exact: true }).waitFor();
    expect(await op.getByRole('navigation').getByText('Mantenedor').count()).toBe(0);
    await op.goto('/my/mantenedor/aula');
    await op.getByText('No tiene permisos para ver esta página.').waitFor();
    const forced = await api(product.url, 'POST', '/api/v2/classrooms', token, {
      description: 'Aula forzada',
    });
    expect(forced.status).toBe(403);
    expect(forced.body.message).toBe('No tiene permisos para realizar esta operación.');
    await context.close();
  });
});
