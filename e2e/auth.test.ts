import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeE2E,
  launchBrowser,
  newPage,
  screenshot,
  startProduct,
  type Product,
} from './harness.js';

describeE2E('sign-in and the application shell', () => {
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

  it('a protected URL without a token goes back to the login screen', async () => {
    const { page, context } = await newPage(browser, product.url);
    await page.goto('/my/mantenedor/aula');
    await page.waitForURL((u) => u.pathname === '/');
    await expect(page.getByText('Iniciar sesión').first().isVisible()).resolves.toBe(true);
    await context.close();
  });

  it('validates the form in Spanish and shows the snackbar for a wrong password', async () => {
    const { page, context } = await newPage(browser, product.url);
    await page.goto('/');
    await page.getByLabel('E-mail').fill('no-es-correo');
    await page.getByLabel('Contraseña').focus();
    await expect(page.getByText('Ingrese un E-mail válido.').isVisible()).resolves.toBe(true);
    await page.getByLabel('E-mail').fill(product.admin.email);
    await page.getByLabel('Contraseña').fill('clave-equivocada');
    await page.getByLabel('Contraseña').press('Enter');
    await page.getByText('Usuario/contraseña inválidos').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    await context.close();
  });

  it('the bootstrap administrator signs in, must change the password, lands on /my, walks the menu and logs out', async () => {
    const { page, context } = await newPage(browser, product.url);
    await page.goto('/');
    await expect(
      page
        .getByText(/SISTEMA DE INFORMACIÓN PARA LA GESTIÓN DE ACCIONES FORMATIVAS/)
        .first()
        .isVisible(),
    ).resolves.toBe(true);
    await expect(page.getByText(`© ${new Date().getFullYear()}`).first().isVisible()).resolves.toBe(
      true,
    );
    await page.getByLabel('E-mail').fill(` ${product.admin.email} `);
    await page.getByLabel('Contraseña').fill(product.admin.password);
    await page.getByRole('button', { name: 'Entrar' }).click();

    const dialog = page.getByRole('dialog', { name: 'Modificar contraseña' });
    await dialog.waitFor();
    await screenshot(page, 'first-login-dialog');
    await dialog.getByLabel('Nueva contraseña').fill('123');
    await dialog.getByLabel('Confirmar contraseña').fill('1234');
    await dialog.getByLabel('Confirmar contraseña').blur();
    await expect(
      dialog.getByText('Debe contener al menos 8 caracteres.').isVisible(),
    ).resolves.toBe(true);
    await dialog.getByLabel('Nueva contraseña').fill('Nueva-Clave-2026');
    await dialog.getByLabel('Confirmar contraseña').fill('Nueva-Clave-2026');
    await dialog.getByLabel('Confirmar contraseña').press('Enter');

    await page.waitForURL((u) => u.pathname.startsWith('/my'));
    await expect(page.getByText('Administrador').first().isVisible()).resolves.toBe(true);
    await expect(page.getByText('v1.8.6', { exact: false }).first().isVisible()).resolves.toBe(
      true,
    );
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeTruthy();
    await screenshot(page, 'my-home');

    // A new instance: the course selectors say what to do next, and link there.
    await page.goto('/my/ticket');
    const empty = page.getByTestId('no-categories');
    await empty.getByText('Aún no hay categorías ni cursos.').waitFor();
    await empty.getByRole('link', { name: /Crear una categoría/ }).click();
    await page.waitForURL('**/my/mantenedor/categoria');

    // The menu of an administrator reaches every group; a screen not built yet says so honestly.
    // The group of the screen shown opens by itself once the screen is drawn (a click on its title
    // then would close it).
    await page.getByRole('main').getByText('Categoría de curso').first().waitFor();
    expect(
      await page.getByRole('button', { name: 'Mantenedor' }).getAttribute('aria-expanded'),
    ).toBe('true');
    await page.getByRole('navigation').getByRole('link', { name: 'Aula', exact: true }).click();
    await page.waitForURL('**/my/mantenedor/aula');
    await screenshot(page, 'menu-aula');

    // The new password works and the old one does not.
    const res = await fetch(`${product.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: product.admin.email, password: product.admin.password }),
    });
    expect(res.status).toBe(401);

    await page.getByText('Cerrar sesión').first().click();
    await page.getByRole('button', { name: 'ACEPTAR' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    await page.goto('/my');
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });
});
