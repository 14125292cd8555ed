import { startMoodleSim, type SimServer } from '../../../../tools/moodle-sim/src/server.js';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Services } from '../services.js';
import { DEMO_PASSWORD, DEMO_STAFF, demoSite, seedDemo, type DemoSummary } from './seed.js';

/** `npm run demo` / `npm start -- --demo` / DEMO=true: asked for on the command line or in the environment. */
export function demoRequested(config: Config, argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env): boolean {
  return config.DEMO || argv.includes('--demo') || env.npm_config_demo === 'true';
}

/** Starts the Moodle simulator in this process with the demo site, and loads the matching demo data. */
export async function startDemo(config: Config, db: Database, services: Services): Promise<{ sim: SimServer; summary: DemoSummary }> {
  const generated = demoSite();
  const sim = await startMoodleSim({ site: generated.site, port: config.DEMO_MOODLE_PORT, host: '127.0.0.1', latencyMs: [20, 80] });
  try {
    const summary = await seedDemo(db, config, services, generated, sim.url);
    return { sim, summary };
  } catch (e) {
    await sim.close();
    throw e;
  }
}

export function demoBanner(sim: SimServer, s: DemoSummary): string {
  return [
    '',
    '==================== SIGAF demo ====================',
    `  Moodle simulator: ${sim.url} (in this process; platform "Moodle" points at it)`,
    s.created
      ? `  Loaded: ${s.courses} courses, ${s.students} students, ${s.enrolments} enrolments, ${s.tickets} tickets with ${s.attempts} contact attempts.`
      : '  Demo data already loaded (nothing added).',
    `  Staff (password ${DEMO_PASSWORD}):`,
    ...DEMO_STAFF.map((u) => `    ${u.email.padEnd(22)} ${u.role}`),
    '  Open Configuración > Actividades, pick a course and click "Sincronizar".',
    '=====================================================',
    '',
  ].join('\n');
}
