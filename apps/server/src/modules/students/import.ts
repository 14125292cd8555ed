import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  IMPORT_LIMITS,
  normalizeRegion,
  normalizeRut,
  STUDENT_MSG,
  type ImportRowResult,
  type ImportSummary,
} from '@sigaf/contract';
import { z } from 'zod';
import type { Database } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { readSheet, SHEET_MSG } from '../../lib/spreadsheet.js';
import {
  STUDENT_COLUMNS,
  type EnrolmentRepository,
  type StudentRepository,
  type StudentValues,
} from './repository.js';

export const IMPORT_MSG = {
  badRut: 'RUT no válido',
  missingName: 'Falta el nombre',
  missingLastName: 'Falta el apellido paterno',
  badEmail: 'Correo electrónico no válido',
  garbled:
    'Tiene caracteres ilegibles (�): guarde el archivo como «CSV UTF-8» o .xlsx y vuelva a cargarlo',
  duplicate: (row: number) => `RUT repetido en el archivo (fila ${row})`,
  tooLong: (field: string) => `El campo ${field} es demasiado largo`,
  regionUnknown: (text: string) =>
    `Región no reconocida: "${text.slice(0, 60)}" (se guarda tal cual)`,
} as const;

/** Column order of the file (docs/development/domain.md#student-import): A RUT digits, B check digit, C name, ... */
const FILE_FIELDS: Array<[StudentColumn | 'rut_body' | 'rut_dv', number]> = [
  ['rut_body', 20],
  ['rut_dv', 2],
  ['name', 100],
  ['last_name', 100],
  ['mother_last_name', 100],
  ['email', 255],
  ['address', 255],
  ['region', 100],
  ['phone', 20],
  ['mobile', 20],
  ['rbd_school', 20],
  ['name_school', 255],
  ['region_school', 100],
  ['city_school', 100],
  ['phone_school', 20],
];
type StudentColumn = (typeof STUDENT_COLUMNS)[number];

const LABELS: Partial<Record<StudentColumn, string>> = {
  mother_last_name: 'apellido materno',
  address: 'dirección',
  phone: 'teléfono',
  mobile: 'celular',
  region: 'región',
  rbd_school: 'RBD',
  name_school: 'nombre colegio',
  region_school: 'región colegio',
  city_school: 'ciudad colegio',
  phone_school: 'teléfono colegio',
};

const email = z.string().email();

interface ParsedRow {
  result: ImportRowResult;
  values: StudentValues & { rut: string };
}

/** Rows checked between two turns of the event loop: a 50,000-row file never holds the server for long. */
const ROWS_PER_TURN = 500;

/**
 * Turns the sheet into per-row results; nothing is written here. Other requests are answered
 * between slices of rows (10,000 rows take 60–100 ms).
 */
export async function analyseRows(rows: string[][]): Promise<ParsedRow[]> {
  const body = rows.slice(1);
  const seen = new Map<string, number>();
  // A file names few regions many times: each spelling is recognised once.
  const regions = new Map<string, string | null>();
  const region = (text: string) => {
    let found = regions.get(text);
    if (found === undefined) regions.set(text, (found = normalizeRegion(text)));
    return found;
  };
  const out: ParsedRow[] = [];
  for (const [i, cells] of body.entries()) {
    if (i % ROWS_PER_TURN === ROWS_PER_TURN - 1) await nextTurn();
    const rowNumber = i + 2;
    if (!cells.some((c) => c && c.trim() !== '')) continue; // empty rows are skipped
    const get = (idx: number) => (cells[idx] ?? '').replace(/\s+/g, ' ').trim();
    const reasons: string[] = [];
    const notes: string[] = [];
    // U+FFFD stands for bytes a reader could not decode: such a row is never taken as valid.
    if (cells.some((c) => c.includes('\uFFFD'))) reasons.push(IMPORT_MSG.garbled);
    const bodyText = get(0);
    const dv = get(1);
    const rut = normalizeRut(dv ? `${bodyText.replace(/-.*$/, '')}-${dv}` : bodyText);
    if (!rut) reasons.push(IMPORT_MSG.badRut);
    const values: StudentValues = {};
    FILE_FIELDS.forEach(([field, max], idx) => {
      if (field === 'rut_body' || field === 'rut_dv') return;
      const v = get(idx);
      if (v.length > max) reasons.push(IMPORT_MSG.tooLong(LABELS[field] ?? field));
      if (v !== '' && (field === 'region' || field === 'region_school')) {
        // One of the 16 regions whatever the spelling; a text that is none is kept and reported.
        const known = region(v);
        if (!known) notes.push(IMPORT_MSG.regionUnknown(v));
        values[field] = known ?? v;
        return;
      }
      values[field] = v === '' ? null : v;
    });
    if (values.email) values.email = values.email.toLowerCase();
    if (!values.name) reasons.push(IMPORT_MSG.missingName);
    if (!values.last_name) reasons.push(IMPORT_MSG.missingLastName);
    if (values.email && !email.safeParse(values.email).success) reasons.push(IMPORT_MSG.badEmail);
    if (rut) {
      const first = seen.get(rut);
      if (first) reasons.push(IMPORT_MSG.duplicate(first));
      else seen.set(rut, rowNumber);
    }
    const name = [values.name, values.last_name, values.mother_last_name].filter(Boolean).join(' ');
    out.push({
      result: {
        row: rowNumber,
        rut,
        rutInFile: [bodyText, dv].filter(Boolean).join('-').slice(0, 40),
        name,
        student: null,
        enrolment: null,
        rejected: reasons.length > 0,
        reasons,
        notes,
      },
      values: { ...values, rut: rut ?? '' },
    });
  }
  return out;
}

function changedFields(existing: Record<string, unknown>, incoming: StudentValues) {
  const changes: StudentValues = {};
  for (const k of STUDENT_COLUMNS) {
    if (k === 'rut') continue;
    const v = incoming[k];
    if (v !== null && v !== undefined && v !== existing[k]) changes[k] = v;
  }
  return changes;
}

/**
 * Student import: a preview computes every row's outcome; applying does it in ONE transaction,
 * so a failure anywhere leaves the database as it was. Rejected rows are reported, never written.
 */
export class StudentImporter {
  constructor(
    private readonly db: Database,
    private readonly students: StudentRepository,
    private readonly enrolments: EnrolmentRepository,
  ) {}

  async run(
    file: { buffer: Buffer; filename: string },
    courseId: number,
    apply: boolean,
  ): Promise<{ summary: ImportSummary; rows: ImportRowResult[] }> {
    const { rows: sheet, encoding } = await readSheet(
      file.buffer,
      file.filename,
      IMPORT_LIMITS.maxRows,
    );
    const parsed = await analyseRows(sheet);
    if (!parsed.length) throw new AppError(422, SHEET_MSG.empty);
    if (!(await this.enrolments.lookupId('courses', courseId)))
      throw new AppError(422, 'El curso no existe.');
    const studentProfile = await this.enrolments.profileIdByKey('student');

    const work = async (db: Database) => {
      const valid = parsed.filter((p) => !p.result.rejected);
      const existing = new Map(
        (
          await this.students.findManyByRut(
            valid.map((p) => p.values.rut),
            db,
          )
        ).map((s) => [s.rut as string, s]),
      );
      const enrolled = await this.enrolments.enrolledStudentIds(
        courseId,
        [...existing.values()].map((s) => s.id),
        db,
      );
      const toInsert: StudentValues[] = [];
      const toUpdate: Array<{ id: number; changes: StudentValues }> = [];
      for (const p of valid) {
        const found = existing.get(p.values.rut);
        if (!found) {
          p.result.student = 'new';
          p.result.enrolment = 'enrolled';
          toInsert.push(p.values);
          continue;
        }
        const changes = changedFields(found, p.values);
        p.result.student = Object.keys(changes).length ? 'updated' : 'unchanged';
        if (p.result.student === 'updated') toUpdate.push({ id: found.id, changes });
        p.result.enrolment = enrolled.has(found.id) ? 'already_enrolled' : 'enrolled';
      }
      if (!apply) return;
      const inserted = await this.students.insertMany(toInsert, db);
      await this.students.updateMany(toUpdate, db);
      const ids = [
        ...inserted.map((r) => r.id),
        ...valid
          .map((p) => existing.get(p.values.rut)?.id)
          .filter((x): x is number => x !== undefined),
      ];
      await this.enrolments.enrolMany(courseId, ids, studentProfile, db);
    };
    if (apply) await this.db.transaction().execute((trx) => work(trx));
    else await work(this.db);

    const rows = parsed.map((p) => p.result);
    const summary: ImportSummary = {
      total: rows.length,
      created: rows.filter((r) => r.student === 'new').length,
      updated: rows.filter((r) => r.student === 'updated').length,
      unchanged: rows.filter((r) => r.student === 'unchanged').length,
      enrolled: rows.filter((r) => r.enrolment === 'enrolled').length,
      alreadyEnrolled: rows.filter((r) => r.enrolment === 'already_enrolled').length,
      rejected: rows.filter((r) => r.rejected).length,
      applied: apply,
      encoding,
    };
    return { summary, rows };
  }
}

export { STUDENT_MSG };
