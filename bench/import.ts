import ExcelJS from 'exceljs';
import { PGlite } from '@electric-sql/pglite';
import { computeDv } from '@sigaf/contract';
import { migrate, openDatabase, PGLITE_PARSERS } from '../apps/server/src/db/database.js';
import { seed } from '../apps/server/src/db/seed.js';
import { StudentImporter } from '../apps/server/src/modules/students/import.js';
import {
  EnrolmentRepository,
  StudentRepository,
} from '../apps/server/src/modules/students/repository.js';

/**
 * Student import of a 10,000-row .xlsx: preview, then apply, on the embedded database (or
 * DATABASE_URL: give it an empty database, or the students are found from the last run).
 */
export async function importBench(): Promise<Record<string, number>> {
  const rows = 10_000;
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Alumnos');
  ws.addRow([
    'RUT',
    'DV',
    'Nombre',
    'Paterno',
    'Materno',
    'Email',
    'Dirección',
    'Región',
    'Teléfono',
    'Celular',
    'RBD',
    'Colegio',
    'Región colegio',
    'Ciudad colegio',
    'Fono colegio',
  ]);
  for (let i = 0; i < rows; i++) {
    const body = 10_000_000 + i * 7;
    ws.addRow([
      body,
      computeDv(body),
      `Nombre${i}`,
      `Paterno${i}`,
      `Materno${i}`,
      `alumno${i}@correo.cl`,
      `Calle ${i}`,
      'Maule',
      '',
      `+5691${String(i).padStart(7, '0')}`,
      '1234',
      'Liceo',
      'Maule',
      'Talca',
      '',
    ]);
  }
  const buffer = Buffer.from(await wb.xlsx.writeBuffer());

  const handle = process.env.DATABASE_URL
    ? await openDatabase({ url: process.env.DATABASE_URL, dataDir: '' })
    : await openDatabase({ dataDir: '', pglite: await PGlite.create({ parsers: PGLITE_PARSERS }) });
  await migrate(handle.db);
  await seed(handle.db, {
    adminEmail: 'bench@sigaf.cl',
    adminPassword: 'bench-password',
    adminName: 'Bench',
  });
  const platform = await handle.db.selectFrom('platforms').select('id').executeTakeFirstOrThrow();
  const cat = await handle.db
    .insertInto('categories')
    .values({ description: 'Bench', category_code: 'BNCH', platform_id: platform.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const course = await handle.db
    .insertInto('courses')
    .values({ description: `Bench ${Date.now()}`, category_id: cat.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const importer = new StudentImporter(
    handle.db,
    new StudentRepository(handle.db),
    new EnrolmentRepository(handle.db),
  );

  // Wall time (the budgets) and the CPU time of the process, reading thread included: on a shared
  // machine the second tells what the import costs when the first is stretched by other work.
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  let t = performance.now();
  let cpu = process.cpuUsage();
  const preview = await importer.run({ buffer, filename: 'alumnos.xlsx' }, course.id, false);
  const previewMs = performance.now() - t;
  const previewCpuMs = cpuMs(cpu);
  t = performance.now();
  cpu = process.cpuUsage();
  const applied = await importer.run({ buffer, filename: 'alumnos.xlsx' }, course.id, true);
  const applyMs = performance.now() - t;
  const applyCpuMs = cpuMs(cpu);
  await handle.close();
  console.log(
    `import: preview ${preview.summary.total} rows, applied ${applied.summary.enrolled} enrolments (${handle.kind})`,
  );
  return {
    'import.preview.10000.ms': previewMs,
    'import.apply.10000.ms': applyMs,
    'import.preview.10000.cpu.ms': previewCpuMs,
    'import.apply.10000.cpu.ms': applyCpuMs,
  };
}
