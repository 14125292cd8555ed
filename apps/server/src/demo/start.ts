import { ROLE_DESCRIPTIONS } from '@sigaf/contract';
import { startMoodleSim, type SimServer } from '@sigaf/moodle-sim/server';
import { firstAdminLines, type FirstAdmin } from '../banner.js';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Services } from '../services.js';
import { DEMO_PASSWORD, DEMO_STAFF, demoSite, seedDemo, type DemoSummary } from './seed.js';

/** Starts the Moodle simulator in this process with the demo site, and loads the matching demo data. */
export async function startDemo(
  config: Config,
  db: Database,
  services: Services,
): Promise<{ sim: SimServer; summary: DemoSummary }> {
  const generated = demoSite();
  const sim = await startMoodleSim({
    site: generated.site,
    port: config.DEMO_MOODLE_PORT,
    host: '127.0.0.1',
    latencyMs: [20, 80],
  });
  try {
    const summary = await seedDemo(db, config, services, generated, sim.url);
    return { sim, summary };
  } catch (e) {
    await sim.close();
    throw e;
  }
}

/** One console block for a demo start: the simulator, the data, who signs in (demo staff and, on a new database, the first administrator). */
export function demoBanner(sim: SimServer, s: DemoSummary, admin: FirstAdmin | null): string {
  return [
    '',
    '==================== SIGAF demo ====================',
    `  Moodle simulator: ${sim.url} (in this process; platform "Moodle" points at it)`,
    s.created
      ? `  Loaded: ${s.courses} courses, ${s.students} students, ${s.enrolments} enrolments, ${s.tickets} tickets with ${s.attempts} contact attempts.`
      : '  Demo data already loaded (nothing added).',
    `  Staff (password ${DEMO_PASSWORD}):`,
    ...DEMO_STAFF.map((u) => `    ${u.email.padEnd(22)} ${ROLE_DESCRIPTIONS[u.role]}`),
    ...(admin ? firstAdminLines(admin) : []),
    '  Open Configuración > Actividades, pick a course and click "Sincronizar".',
    '=====================================================',
    '',
  ].join('\n');
}
