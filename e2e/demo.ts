import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../apps/server/src/demo/seed.js';

/** The demo's administrator and the course it arrives with synchronised (`npm run demo`). */
export const DEMO_ADMIN = { email: 'demo.admin@sigaf.cl', password: DEMO_PASSWORD };
export const DEMO_CATEGORY = 'Capacitación laboral';
export const DEMO_COURSE = 'Operación segura de grúa horquilla';

/** Waits until nothing visible is loading (no skeleton, no progress indicator), then lets transitions end. */
export async function settled(page: Page, pauseMs = 400) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForFunction(
    () =>
      ![...document.querySelectorAll('.MuiSkeleton-root, [role="progressbar"]')].some((e) =>
        e.checkVisibility({ visibilityProperty: true }),
      ),
    undefined,
    { timeout: 30_000 },
  );
  await page.waitForTimeout(pauseMs);
}

/** Picks the demo's synchronised course in the screen's category and course selectors, when the screen has them. */
export async function pickDemoCourse(page: Page, scope: Page | Locator = page) {
  const category = scope.getByRole('combobox', { name: 'Categorías' }).first();
  if (
    !(await category.waitFor({ timeout: 10_000 }).then(
      () => true,
      () => false,
    ))
  )
    return;
  if (
    !(await category.inputValue().catch(() => '')) &&
    !(await category.textContent())?.includes(DEMO_CATEGORY)
  ) {
    await category.click();
    await page.getByRole('option', { name: DEMO_CATEGORY }).click();
  }
  const course = scope.getByRole('combobox', { name: 'Cursos' }).first();
  if (
    !(await course.textContent())?.includes(DEMO_COURSE) &&
    !(await course.inputValue().catch(() => '')).includes(DEMO_COURSE)
  ) {
    await course.click();
    await page.getByRole('option', { name: DEMO_COURSE }).click();
  }
}
