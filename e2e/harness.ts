import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { describe } from 'vitest';

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

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface Product {
  url: string;
  admin: { email: string; password: string };
  output: () => string;
  stop(): Promise<void>;
}

/** Starts the real product (server + built web app) on a fresh embedded database, as `npm start` does. */
export async function startProduct(env: Record<string, string> = {}): Promise<Product> {
  if (!fs.existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) {
    throw new Error('The web app is not built: run `npm run build -w @sigaf/web` (npm run test:e2e does it).');
  }
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-e2e-'));
  const admin = { email: 'admin@sigaf.cl', password: 'Clave-Inicial-1' };
  let out = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (Date.now() >= deadline) throw new Error(`server did not start:\n${out}`);
  return {
    url,
    admin,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
  });
}

export async function newPage(browser: Browser, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, locale: 'es-CL', viewport: { width: 1366, height: 850 } });
  const page = await context.newPage();
  return { context, page };
}

/** Calls the API as a client would (for arranging data a test needs). */
export async function api<T = any>(base: string, method: string, url: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

export const SCREENSHOTS = path.join(ROOT, 'test-results');
export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Takes the bootstrap administrator past the first login through the API; returns a token. */
export async function adminSession(product: Product, password = 'Admin-Clave-9'): Promise<string> {
  const login = await api(product.url, 'POST', '/api/auth/login', undefined, product.admin);
  const me = await api(product.url, 'GET', '/api/auth/user', login.body.access_token);
  await api(product.url, 'PUT', `/api/v2/users/${me.body.user.properties.id}`, login.body.access_token, { password, isFirstLogin: 1 });
  return (await api(product.url, 'POST', '/api/auth/login', undefined, { email: product.admin.email, password })).body.access_token;
}

/** A page already signed in with the given token (10 s default timeout). */
export async function signedInPage(browser: Browser, product: Product, token: string) {
  const { page, context } = await newPage(browser, product.url);
  page.setDefaultTimeout(10_000);
  await page.goto('/');
  await page.evaluate((t) => localStorage.setItem('access_token', t), token);
  return { page, context };
}
