/**
 * First render of the dashboard (Estadística) in Chromium against the server holding the large
 * data set: from navigation until every chart of the largest course has drawn (none loading).
 * Each run is a fresh browser context (nothing cached), signed in through localStorage.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { chromium } from 'playwright-core';
import type { Database } from '../apps/server/src/db/database.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The dashboard's charts: eight of tickets, four of students. */
const CHARTS = 12;

export async function dashboardRender(
  base: string,
  token: string,
  db: Database,
  courseId: number,
  runs = 3,
): Promise<Record<string, number>> {
  if (!fs.existsSync(CHROMIUM)) {
    console.log(
      `render: SKIPPED, no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`,
    );
    return {};
  }
  if (!fs.existsSync(path.join(ROOT, 'apps/web/dist/index.html')))
    execFileSync('npm', ['run', 'build', '-w', '@sigaf/web'], { cwd: ROOT, stdio: 'inherit' });
  const { rows } = await sql<{
    id: number;
    description: string;
    idCourseMoodle: number | null;
    lastSyncAt: string | null;
    category: unknown;
  }>`
    select c.id, c.description, c.id_course_moodle as "idCourseMoodle", c.last_sync_at as "lastSyncAt",
      json_build_object('id', cat.id, 'description', cat.description, 'categoryCode', cat.category_code) as category
    from courses c join categories cat on cat.id = c.category_id where c.id = ${courseId}`.execute(
    db,
  );
  const course = JSON.stringify(rows[0]);
  const browser = await chromium.launch({
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
  const times: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({
        baseURL: base,
        locale: 'es-CL',
        viewport: { width: 1366, height: 850 },
      });
      await context.addInitScript(
        ([t, c]) => {
          localStorage.setItem('access_token', t!);
          localStorage.setItem('sigaf.dashboard.course', c!);
        },
        [token, course],
      );
      const page = await context.newPage();
      const started = performance.now();
      await page.goto('/my/estadistica');
      await page.waitForFunction(
        (n) =>
          document.querySelectorAll('[data-state]').length >= n &&
          document.querySelectorAll('[data-state="loading"]').length === 0,
        CHARTS,
        { timeout: 60_000, polling: 10 },
      );
      times.push(performance.now() - started);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(
    `render: dashboard of course ${courseId} drawn in ${times.map((t) => t.toFixed(0)).join(', ')} ms (median ${median.toFixed(0)} ms)`,
  );
  return { 'render.dashboard.first.ms': times[0]!, 'render.dashboard.ms': median };
}
