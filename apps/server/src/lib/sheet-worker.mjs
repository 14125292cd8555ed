// Reads an uploaded spreadsheet off the server's main thread (spreadsheet.ts starts it with a
// memory limit and a temporary folder of its own, removed when it ends): row by row, at most
// `maxCols` columns, stopping past `maxRows` data rows; no zip entry is inflated past `maxEntryBytes`.
// Plain JavaScript so that it runs as a worker both under the server and under the tests.
import { parse } from 'csv-parse/sync';
import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { zipForExcelJs } from './xlsx-zip.mjs';

const { kind, buffer, maxRows, maxCols, maxEntryBytes } = workerData;

function cellText(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('result' in value) return cellText(value.result);
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('text' in value) return cellText(value.text);
    if ('error' in value) return '';
  }
  return String(value);
}

/**
 * The first sheet of a workbook, streamed by ExcelJS: a row holding one cell in column XFD costs
 * one cell, not 16,384. ExcelJS reads a zip rebuilt of the entries it needs (xlsx-zip.mjs), each
 * measured first: a zip bomb is read by no one.
 */
async function readXlsx() {
  const bytes = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  let zip;
  try {
    // Only what ExcelJS reads, measured first and ordered so that it writes no temporary file.
    zip = await zipForExcelJs(bytes, maxEntryBytes);
  } catch {
    return { unreadable: true };
  }
  const { default: ExcelJS } = await import('exceljs');
  const rows = [];
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([zip]), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  for await (const sheet of reader) {
    for await (const row of sheet) {
      if (row.number > maxRows + 1) return { tooManyRows: true };
      const cells = [];
      for (let c = 1; c <= maxCols; c++) cells.push(cellText(row.getCell(c).value).trim());
      rows[row.number - 1] = cells;
    }
    // Only the first sheet counts.
    break;
  }
  for (let i = 0; i < rows.length; i++) rows[i] ??= [];
  return { rows };
}

/**
 * The text of a CSV: UTF-8 when its bytes are valid UTF-8, else Windows-1252 (what Excel saves as
 * "CSV" on a Spanish Windows: "Iñaki" is 49 F1 61 6B 69, not valid UTF-8).
 */
function csvSource() {
  const bytes = Buffer.from(buffer);
  try {
    return {
      src: new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, ''),
      encoding: 'utf-8',
    };
  } catch {
    return { src: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}

/**
 * RFC 4180 with `;` or `,` (whichever the first line has more of), a BOM stripped, each field
 * trimmed, each row cut at `maxCols`; `to` stops it past the row limit (records, not lines: a
 * quoted field may hold line breaks). An unclosed quote or text after a closing one is unreadable;
 * a row too wide for the worker's heap ends the worker, which the caller reads as unreadable.
 */
function readCsv() {
  const { src, encoding } = csvSource();
  const firstEnd = src.indexOf('\n');
  const firstLine = firstEnd === -1 ? src : src.slice(0, firstEnd);
  const count = (ch) => firstLine.split(ch).length - 1;
  const rows = parse(src, {
    delimiter: count(';') > count(',') ? ';' : ',',
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_quotes: true,
    relax_column_count: true,
    trim: true,
    to: maxRows + 2,
    on_record: (record) => record.slice(0, maxCols).map((field) => field.trim()),
  });
  return rows.length > maxRows + 1 ? { tooManyRows: true } : { rows, encoding };
}

try {
  parentPort.postMessage(kind === 'xlsx' ? await readXlsx() : readCsv());
} catch {
  parentPort.postMessage({ unreadable: true });
}
