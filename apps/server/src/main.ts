import path from 'node:path';
import { demoRequested, loadConfig, resolveSecret } from './config.js';
import { buildApp } from './app.js';
import { migrate, openDatabase } from './db/database.js';
import { seed } from './db/seed.js';
import { JobWorker, workerOptions } from './jobs/worker.js';
import { MoodleScheduler, nightlySchedule } from './modules/moodle-sync/schedule.js';
import { firstAdminBanner, printAfterLog } from './banner.js';
import { writeFirstAccessFile } from './first-access.js';
import { keepDataDirPrivate } from './data-dir.js';
import { HELP_OPTION, readCommandLine } from './lib/command-line.js';
import { AgendaDigest } from './modules/agenda/digest.js';
import { OutcomeKeeper } from './kept/outcomes-keeper.js';

const USAGE = `Uso: npm start  |  npm run demo  |  npm start -w @sigaf/server -- [--demo]
Inicia SIGAF (por omisión en http://localhost:3000). La configuración se lee de las variables de entorno:
vea docs/operations/configuration.md.
  --demo       con un Moodle simulado y datos de demostración (también DEMO=true o npm run demo)
  -h, --help   esta ayuda`;

async function main() {
  readCommandLine(USAGE, { options: { ...HELP_OPTION, demo: { type: 'boolean' } } });
  const config = loadConfig();
  // Before anything is written: DATA_DIR and what goes in it are the server's user's only.
  keepDataDirPrivate(config.DATA_DIR);
  config.APP_SECRET = resolveSecret(config);
  const handle = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  await migrate(handle.db);
  const seeded = await seed(handle.db, {
    adminEmail: config.ADMIN_EMAIL,
    adminPassword: config.ADMIN_PASSWORD,
    adminName: config.ADMIN_NAME,
    // The demo signs in as demo.admin: no second administrator with a one-time password beside it.
    withAdmin: !demoRequested(config),
  });
  // A generated one-time password is also kept in a file only this user reads, until it is changed
  // (a DATA_DIR that cannot be written leaves the console banner only).
  let firstAccessFile: string | undefined;
  if (seeded.admin?.generated) {
    try {
      firstAccessFile = writeFirstAccessFile(config.DATA_DIR, seeded.admin);
    } catch (err) {
      console.error(
        `Could not keep the first administrator's password in ${config.DATA_DIR}: ${(err as Error).message}`,
      );
    }
  }
  const app = await buildApp(config, handle.db);
  const worker = new JobWorker(app.services.jobs.queue, app.services.jobs.handlers, {
    ...workerOptions(config, app.log),
    afterJob: () => app.services.figuresKeeper.poke(),
  });
  // The demo (and the Moodle simulator it runs) is loaded only when asked for: a production start never imports it.
  const demoModule = demoRequested(config) ? await loadDemo() : null;
  const demo = demoModule ? await demoModule.startDemo(config, handle.db, app.services) : null;
  const scheduler = new MoodleScheduler(
    handle.db,
    app.services.jobs.queue,
    app.services.moodleSync,
    nightlySchedule(config, new Date(), demoRequested(config)),
    app.log,
  );
  const digest = new AgendaDigest(handle.db, app.services.jobs.queue, config, app.log);
  const keeper = new OutcomeKeeper(handle.db, app.log);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    await scheduler.stop();
    await digest.stop();
    await keeper.stop();
    await worker.stop({ graceMs: 8_000 });
    await app.close();
    await demo?.sim.close();
    await handle.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  // The thread that builds whole-course answers starts now, not on a user's first request.
  app.services.answers.builder?.warm();
  // So does the workload table's count of at-risk students (kept/at-risk-tally.ts).
  app.services.agenda.warmWorkload();
  worker.start();
  scheduler.start();
  digest.start();
  keeper.start();
  const where =
    handle.kind === 'pglite'
      ? `embedded database in ${path.join(config.DATA_DIR, 'pgdata')}`
      : 'PostgreSQL';
  const admin = seeded.admin
    ? {
        email: seeded.admin.email,
        password: seeded.admin.generated ? seeded.admin.password : null,
        file: firstAccessFile,
      }
    : null;
  // The last thing printed at startup, after the log's "Server listening" line.
  const banner =
    demoModule && demo
      ? demoModule.demoBanner(demo.sim, demo.summary, admin)
      : firstAdminBanner(admin);
  printAfterLog(
    app.log,
    `\nSIGAF listening on http://localhost:${config.PORT} (${where})\n${banner}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

/** The demo and the Moodle simulator it runs (@sigaf/moodle-sim, an optional dependency a production install may leave out). */
async function loadDemo() {
  try {
    return await import('./demo/start.js');
  } catch (err) {
    if (
      (err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' &&
      String(err).includes('@sigaf/moodle-sim')
    ) {
      throw new Error(
        'Demo mode needs the Moodle simulator (@sigaf/moodle-sim), which this installation left out: install without --omit=optional.',
      );
    }
    throw err;
  }
}
