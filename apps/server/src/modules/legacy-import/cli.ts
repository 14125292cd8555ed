import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, resolveSecret } from '../../config.js';
import { keepDataDirPrivate } from '../../data-dir.js';
import { HELP_OPTION, readCommandLine, usageError } from '../../lib/command-line.js';
import { migrate, openDatabase } from '../../db/database.js';
import { seedWithin, type SeedResult } from '../../db/seed.js';
import { firstAccessBefore, settleFirstAccess, type FirstAccessBefore } from './first-admin.js';
import { ANOMALY_KINDS, importLegacy, LegacyImportRefused, type ImportReport } from './service.js';
import { LegacySource } from './source.js';
import { reportMarkdown } from './report.js';

/**
 * npm run import:legacy -- --from mysql://user:pass@host:3306/sigaf [--dry-run] [--report file]
 *
 * Imports a SIGAF 1.x database into this system's (DATABASE_URL, or the embedded one in DATA_DIR;
 * stop the server first when embedded). Writes the report as <file>.json and <file>.md.
 */
const USAGE = `Uso: npm run import:legacy -- --from mysql://usuario:clave@servidor:3306/sigaf [--dry-run] [--report archivo]
  --from <url>        la base de datos de SIGAF 1.x (MySQL o MariaDB; basta permiso SELECT)
  --dry-run           lee y revisa todo sin escribir nada en el destino
  --report <archivo>  escribe el informe en <archivo>.md y <archivo>.json
                      (por omisión DATA_DIR/import/legacy-import-<fecha>)
  -h, --help          esta ayuda
El destino es DATABASE_URL, o la base embebida en DATA_DIR (detenga antes el servidor), y debe
estar vacía. Guía: docs/operations/migration-from-sigaf-1.md`;

async function main() {
  const { values } = readCommandLine(USAGE, {
    options: {
      ...HELP_OPTION,
      from: { type: 'string' },
      'dry-run': { type: 'boolean' },
      report: { type: 'string' },
      merge: { type: 'boolean' },
    },
  });
  const args = { ...values, dryRun: !!values['dry-run'] };
  if (!args.from) usageError(USAGE, 'Falta --from: la base de datos de SIGAF 1.x.');
  if (!/^mysql:\/\//.test(args.from))
    usageError(USAGE, '--from debe ser una dirección mysql://usuario:clave@servidor:puerto/base.');
  if (args.merge) {
    console.error(
      '--merge no está disponible: importe en una base de datos nueva (vea docs/operations/migration-from-sigaf-1.md).',
    );
    process.exit(2);
  }
  const config = loadConfig();
  // A refused import leaves no DATA_DIR behind: the database creates it (0700, by the umask) when it opens.
  keepDataDirPrivate(config.DATA_DIR, { create: false });
  // The source first (it answers, the credentials work, the tables SIGAF 1.x always had are
  // there): a failure there leaves the target untouched.
  const source = await LegacySource.openChecked(args.from);
  let report: ImportReport;
  let seeded: SeedResult = {};
  let before: FirstAccessBefore | null = null;
  let handle: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    const secret = resolveSecret(config);
    handle = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
    await migrate(handle.db);
    before = await firstAccessBefore(handle.db, config.DATA_DIR);
    let lastLine = 0;
    report = await importLegacy(handle.db, {
      from: args.from,
      source,
      dryRun: args.dryRun,
      appSecret: secret,
      // The same catalogues and first administrator as the server's first start (the catalogues'
      // keys matter), in the import's transaction: a failed run or a dry run leaves none of it.
      prepare: async (trx) => {
        seeded = await seedWithin(trx, {
          adminEmail: config.ADMIN_EMAIL,
          adminPassword: config.ADMIN_PASSWORD,
          adminName: config.ADMIN_NAME,
        });
      },
      onProgress: (p) => {
        const now = Date.now();
        if (p.done < p.total && now - lastLine < 2000) return;
        lastLine = now;
        console.log(`  ${p.table}: ${p.done}/${p.total} filas (${p.rowsPerSecond} filas/s)`);
      },
    });
  } finally {
    await source.close().catch(() => undefined);
    await handle?.close();
  }
  const firstAccessFile = await settleFirstAccess(config.DATA_DIR, seeded, report, before);
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\..*$/, '')
    .replace('T', '-');
  const base = path
    .resolve(args.report ?? path.join(config.DATA_DIR, 'import', `legacy-import-${stamp}`))
    .replace(/\.(json|md)$/, '');
  fs.mkdirSync(path.dirname(base), { recursive: true });
  fs.writeFileSync(`${base}.json`, JSON.stringify(report, null, 2));
  fs.writeFileSync(`${base}.md`, reportMarkdown(report));
  console.log('');
  console.log(
    report.dryRun ? 'Simulación terminada: no se escribió nada.' : 'Importación terminada.',
  );
  for (const email of report.legacyPasswordKept) {
    console.log(
      report.dryRun
        ? `La cuenta ${email} ya existe aquí y también en SIGAF 1.x: al importar conservará su contraseña de SIGAF 1.x (no la inicial).`
        : `La cuenta ${email} ya existía aquí: conserva su contraseña de SIGAF 1.x (la contraseña inicial deja de valer).`,
    );
  }
  if (report.firstAdmin && seeded.admin?.generated) {
    console.log(`Administrador inicial: ${seeded.admin.email} / ${seeded.admin.password}`);
    if (firstAccessFile)
      console.log(
        `  También en ${firstAccessFile} (solo este usuario puede leerlo), hasta que elija una nueva contraseña.`,
      );
  }
  for (const [table, n] of Object.entries(report.tables))
    console.log(
      `  ${table.padEnd(24)} leídas ${String(n.read).padStart(8)}  importadas ${String(n.imported).padStart(8)}`,
    );
  console.log('Catálogos (descripción → id; * = valor nuevo):');
  for (const [table, rows] of Object.entries(report.catalogues)) {
    console.log(
      `  ${table}: ${rows.map((r) => `${r.description} → ${r.targetId}${r.created ? '*' : ''}`).join(', ')}`,
    );
  }
  console.log(`Observaciones: ${report.anomalies.length}`);
  for (const [kind, n] of Object.entries(report.anomalyCounts))
    console.log(`  ${ANOMALY_KINDS[kind as keyof typeof ANOMALY_KINDS]}: ${n}`);
  console.log(`Informe: ${base}.md y ${base}.json`);
}

main().catch((err: unknown) => {
  // One line, no stack trace: what failed is said in Spanish, anything unforeseen by its message,
  // then that the target was left as it was.
  const why =
    err instanceof LegacyImportRefused
      ? err.message
      : `La importación falló: ${String(err instanceof Error ? err.message : err).split('\n')[0]}`;
  const sentence = why.trim().replace(/([^.?!])$/, '$1.');
  console.error(`${sentence} No se modificó la base de datos de destino.`);
  process.exit(1);
});
