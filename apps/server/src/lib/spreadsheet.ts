import { csvText, IMPORT_LIMITS, type XlsxFormat } from '@sigaf/contract';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { AppError } from '../http/errors.js';
import { reportWorkbook, type XlsxCell } from './workbook.js';

export const SHEET_MSG = {
  wrongType: 'Tipo de archivo no soportado. Cargue un archivo .xlsx o .csv.',
  unreadable: 'No se pudo leer el archivo. Verifique que sea un .xlsx o .csv válido.',
  empty: 'El archivo no contiene filas de datos.',
  tooManyRows: (max: number) =>
    `El archivo supera el máximo de ${max.toLocaleString('es-CL')} filas.`,
} as const;

export type Cell = string;

function isZip(buf: Buffer) {
  return buf.length > 4 && buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04;
}

function looksLikeText(buf: Buffer) {
  const sample = buf.subarray(0, 4096);
  return !sample.includes(0);
}

/** The columns an upload is read up to (the student file defines 15: A RUT … O school phone). */
export const SHEET_MAX_COLUMNS = 15;
/** Heap of the reading thread: a hostile file ends it, never the server. */
const WORKER_HEAP_MB = 64;
/** A file that takes longer than this to read is refused. */
const READ_TIMEOUT_MS = 60_000;
/**
 * The most any entry of an .xlsx may inflate to: twenty times the largest upload (sheet XML
 * deflates 5–15 times; a zip bomb a thousand). Past it the file is refused as unreadable before
 * more is inflated (xlsx-zip.mjs measures each entry before ExcelJS reads it).
 */
export const SHEET_MAX_ENTRY_BYTES = 20 * IMPORT_LIMITS.maxBytes;

/** How a CSV's bytes were read (null: an .xlsx, whose text is always Unicode). */
export type SheetEncoding = 'utf-8' | 'windows-1252' | null;

type WorkerAnswer =
  { rows: Cell[][]; encoding?: SheetEncoding } | { tooManyRows: true } | { unreadable: true };

/**
 * Runs the reader in a worker thread with its own memory limit; the server's event loop stays
 * free. An .xlsx reader gets a temporary folder of its own (TMPDIR), removed once it has ended,
 * however it ended (answer, crash, heap limit, timeout).
 */
async function readOffThread(
  kind: 'xlsx' | 'csv',
  buf: Buffer,
  maxRows: number,
  maxEntryBytes: number,
): Promise<WorkerAnswer> {
  const tmpDir =
    kind === 'xlsx' ? await fs.promises.mkdtemp(path.join(os.tmpdir(), 'sigaf-sheet-')) : null;
  try {
    return await runWorker(kind, buf, maxRows, maxEntryBytes, tmpDir);
  } finally {
    if (tmpDir) await fs.promises.rm(tmpDir, { recursive: true, force: true });
  }
}

/** Resolves once the worker has stopped. */
function runWorker(
  kind: 'xlsx' | 'csv',
  buf: Buffer,
  maxRows: number,
  maxEntryBytes: number,
  tmpDir: string | null,
): Promise<WorkerAnswer> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./sheet-worker.mjs', import.meta.url), {
      workerData: { kind, buffer: buf, maxRows, maxCols: SHEET_MAX_COLUMNS, maxEntryBytes },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 8 },
      ...(tmpDir ? { env: { ...process.env, TMPDIR: tmpDir, TMP: tmpDir, TEMP: tmpDir } } : {}),
    });
    let settled = false;
    const done = (answer: WorkerAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const stopped = () => resolve(answer);
      worker.terminate().then(stopped, stopped);
    };
    const timer = setTimeout(() => done({ unreadable: true }), READ_TIMEOUT_MS);
    worker.once('message', (answer: WorkerAnswer) => done(answer));
    // Out of memory or a crash inside the file's reader: the file is unreadable, the server is fine.
    worker.once('error', () => done({ unreadable: true }));
    worker.once('exit', () => done({ unreadable: true }));
  });
}

/**
 * Reads the first sheet of an .xlsx or a .csv into rows of trimmed text cells, at most
 * SHEET_MAX_COLUMNS wide, refusing more than `maxRows` data rows as soon as it meets them and an
 * .xlsx holding an entry that inflates past `maxEntryBytes`. The type is told by the content (and
 * must agree with the name): anything else is refused with a clear message. A CSV whose bytes are
 * not valid UTF-8 is read as Windows-1252 (Excel's "CSV" on a Spanish Windows), and says so. The
 * reading happens in a worker thread (see sheet-worker.mjs).
 */
export async function readSheet(
  buf: Buffer,
  filename: string,
  maxRows: number,
  maxEntryBytes = SHEET_MAX_ENTRY_BYTES,
): Promise<{ rows: Cell[][]; encoding: SheetEncoding }> {
  const lower = filename.toLowerCase();
  const kind =
    lower.endsWith('.xlsx') && isZip(buf)
      ? 'xlsx'
      : lower.endsWith('.csv') && looksLikeText(buf)
        ? 'csv'
        : null;
  if (!kind) throw new AppError(415, SHEET_MSG.wrongType);
  const answer = await readOffThread(kind, buf, maxRows, maxEntryBytes);
  if ('tooManyRows' in answer) throw new AppError(413, SHEET_MSG.tooManyRows(maxRows));
  if ('unreadable' in answer) throw new AppError(422, SHEET_MSG.unreadable);
  if (kind === 'xlsx' && !answer.rows.length) throw new AppError(422, SHEET_MSG.empty);
  return { rows: answer.rows, encoding: answer.encoding ?? null };
}

/** Writes rows as an .xlsx workbook with a bold header row (typed cells: reportWorkbook). */
export function writeXlsx(
  sheetName: string,
  header: string[],
  rows: XlsxCell[][],
  title?: string,
  formats?: ReadonlyArray<XlsxFormat | null>,
): Promise<Buffer> {
  return reportWorkbook({
    sheet: sheetName,
    header,
    rows,
    ...(title ? { title } : {}),
    ...(formats ? { formats } : {}),
    widths: header.map((h) => Math.min(50, Math.max(10, h.length) + 4)),
  });
}

/** The product's one CSV writer (formulas neutralised: `csvText` in the contract). */
export function writeCsv(header: string[], rows: Array<Array<string | number | null>>): Buffer {
  return Buffer.from(csvText(header, rows), 'utf8');
}
