import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from 'playwright-core';
import { describe } from 'vitest';
import { callApi, firstAdminSession, spawnServer } from '../apps/server/test/server-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAS_BROWSER = fs.existsSync(CHROMIUM);

if (!HAS_BROWSER) {
  const msg = `\n${'!'.repeat(78)}\n  END-TO-END TESTS SKIPPED: no Chromium at ${CHROMIUM}.\n  Install it with:  apt-get update && apt-get install -y chromium\n  (or set CHROMIUM_PATH). CI sets REQUIRE_E2E=1, where this is a failure.\n${'!'.repeat(78)}\n`;
  if (process.env.REQUIRE_E2E === '1') throw new Error(msg);
  console.warn(msg);
}

/** `describe` that runs only where a browser exists (and fails loudly in CI when it does not). */
export const describeE2E = HAS_BROWSER ? describe : describe.skip;

export interface Product {
  url: string;
  admin: { email: string; password: string };
  output: () => string;
  stop(): Promise<void>;
}

/** Starts the real product (server + built web app) on a fresh embedded database, as `npm start` does. */
export async function startProduct(env: Record<string, string> = {}): Promise<Product> {
  if (!fs.existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) {
    throw new Error(
      'The web app is not built: run `npm run build -w @sigaf/web` (npm run test:e2e does it).',
    );
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-e2e-'));
  const admin = { email: 'admin@sigaf.cl', password: 'Clave-Inicial-1' };
  const server = await spawnServer(
    {
      DATA_DIR: dataDir,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...env,
    },
    { removeDataDir: dataDir },
  );
  return { url: server.url, admin, output: server.output, stop: server.stop };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
}

export async function newPage(
  browser: Browser,
  baseURL: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    locale: 'es-CL',
    viewport: { width: 1366, height: 850 },
  });
  const page = await context.newPage();
  return { context, page };
}

/** Calls the API as a client would (for arranging data a test needs). */
export const api = callApi;

export const SCREENSHOTS = path.join(ROOT, 'test-results');
export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Takes the bootstrap administrator past the first login through the API; returns a token. */
export const adminSession = (product: Product, password?: string) =>
  firstAdminSession(product.url, product.admin, password);

/** A page already signed in with the given token (10 s default timeout). */
export async function signedInPage(browser: Browser, product: Product, token: string) {
  const { page, context } = await newPage(browser, product.url);
  page.setDefaultTimeout(10_000);
  await page.goto('/');
  await page.evaluate((t) => localStorage.setItem('access_token', t), token);
  return { page, context };
}

/** Crear ticket individual: types a name or RUT in the student finder and picks the option that names `option`. */
export async function pickStudent(
  page: Page,
  dialog: Locator,
  text: string,
  option: string | RegExp,
) {
  await dialog.getByLabel('Alumno: nombre o RUT').fill(text);
  await page.getByRole('option', { name: option }).first().click();
}

/** Ticks a row's checkbox in a data grid; a click lost while the rows re-render is made once more. */
export async function checkRow(row: Locator) {
  const box = row.getByRole('checkbox');
  await box.check().catch(async () => {
    await row.page().waitForTimeout(500);
    await box.check();
  });
}

/** Picks an option; a menu still open after the click (the click landed while it opened) is closed and the pick made again. */
export async function choose(page: Page, scope: Locator | Page, label: string, option: string) {
  for (let attempt = 1; ; attempt++) {
    await scope.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
    try {
      await page.getByRole('listbox').waitFor({ state: 'hidden', timeout: 3000 });
      return;
    } catch (e) {
      if (attempt === 2) throw e;
      await page.keyboard.press('Escape');
    }
  }
}
