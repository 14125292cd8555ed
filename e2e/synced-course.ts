import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import { generateSite, type GeneratedSite } from '../tools/moodle-sim/src/generator.js';
import { startMoodleSim, type SimServer } from '../tools/moodle-sim/src/server.js';
import { adminSession, api, launchBrowser, startProduct, type Product } from './harness.js';

type Json = Record<string, any>;

export interface SyncedCourse {
  product: Product;
  browser: Browser;
  sim: SimServer;
  generated: GeneratedSite;
  /** The administrator's token. */
  token: string;
  courseId: number;
  /** A call to /api/v2 as the administrator, or as `as`. */
  call: (
    method: string,
    url: string,
    body?: unknown,
    as?: string,
  ) => Promise<{ status: number; body: Json }>;
  stop: () => Promise<void>;
}

/**
 * A course synchronised from the Moodle simulator (weights all 0, half the students never
 * accessed), every student with a Chilean mobile, plus `extra` students Moodle does not have.
 */
export async function startSyncedCourse(names: {
  category: string;
  code: string;
  course: string;
  extra?: Array<{ rut: string; firstname: string; lastname: string; email: string }>;
}): Promise<SyncedCourse> {
  const generated = generateSite({
    seed: 31,
    courses: 1,
    studentsPerCourse: 8,
    units: 2,
    activitiesPerUnit: 5,
    invalidRutRate: 0,
    neverAccessedRate: 0.5,
    withdrawnRate: 0,
    completion: { complete: 0.4, inProgress: 0.2 },
  });
  const sim = await startMoodleSim({ site: generated.site });
  const product = await startProduct({ SYNC_SCHEDULE: 'off' });
  const browser = await launchBrowser();
  const token = await adminSession(product);
  const call = (method: string, url: string, body?: unknown, as = token) =>
    api<Json>(product.url, method, `/api/v2${url}`, as, body);

  const platform = (await call('GET', '/platforms')).body._data.collections[0].properties.id;
  const moodle = await call('PUT', `/platforms/${platform}/moodle`, {
    url: sim.url,
    token: generated.tokens.admin,
  });
  expect(moodle.status).toBe(200);
  const cat = await call('POST', '/categories', {
    description: names.category,
    category_code: names.code,
    platform_id: platform,
  });
  const courseId = (
    await call('POST', '/courses', {
      description: names.course,
      category_id: cat.body._data.properties.id,
      id_course_moodle: generated.courseIds[0],
    })
  ).body._data.properties.id as number;
  const people = [...generated.people.filter((x) => x.rut), ...(names.extra ?? [])];
  for (const [i, p] of people.entries()) {
    // Mobiles typed as staff type them.
    const s = await call('POST', '/registered-users/view-store', {
      rut: p.rut,
      name: p.firstname,
      last_name: p.lastname,
      email: p.email,
      mobile: `+56 9 ${1000 + i} ${5000 + i}`,
    });
    const e = await call('POST', '/course-registered-users/view-store', {
      course_id: courseId,
      registered_user_id: s.body._data.properties.id,
    });
    expect(e.status, JSON.stringify(e.body)).toBe(201);
  }
  expect((await call('POST', `/sync/courses/${courseId}`, {})).status).toBe(202);
  const state = async () =>
    (await call('GET', `/sync/courses/${courseId}/status`)).body._data.state;
  for (let i = 0; i < 120 && (await state()) !== 'done'; i++)
    await new Promise((r) => setTimeout(r, 500));
  expect(await state()).toBe('done');

  const stop = async () => {
    await browser.close();
    await product.stop();
    await sim.close();
  };
  return { product, browser, sim, generated, token, courseId, call, stop };
}

/** Creates an operator account; returns its id. */
export async function createOperator(
  call: SyncedCourse['call'],
  name: string,
  email: string,
  password: string,
): Promise<number> {
  const role = (await call('GET', '/roles')).body._data.collections.find(
    (c: Json) => c.properties.key === 'operator',
  ).properties.id;
  const created = await call('POST', '/users/signup', { name, email, role_id: role, password });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body._data.properties.id;
}
