import { csvText } from '@sigaf/contract';
import ExcelJS from 'exceljs';
import { AppError } from '../http/errors.js';

export const SHEET_MSG = {
  wrongType: 'Tipo de archivo no soportado. Cargue un archivo .xlsx o .csv.',
  unreadable: 'No se pudo leer el archivo. Verifique que sea un .xlsx o .csv válido.',
  empty: 'El archivo no contiene filas de datos.',
  tooManyRows: (max: number) => `El archivo supera el máximo de ${max.toLocaleString('es-CL')} filas.`,
} as const;

export type Cell = string;

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('result' in value) return cellText((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue);
    if ('richText' in value) return (value as ExcelJS.CellRichTextValue).richText.map((r) => r.text).join('');
    if ('text' in value) return cellText((value as ExcelJS.CellHyperlinkValue).text as ExcelJS.CellValue);
    if ('error' in value) return '';
  }
  return String(value);
}

/** Minimal RFC 4180 CSV reader; detects `;` or `,` as the delimiter, strips a BOM. */
export function parseCsv(text: string): Cell[][] {
  const src = text.replace(/^\uFEFF/, '');
  const firstLine = src.slice(0, src.indexOf('\n') === -1 ? src.length : src.indexOf('\n'));
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const rows: Cell[][] = [];
  let row: Cell[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === delimiter) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function isZip(buf: Buffer) {
  return buf.length > 4 && buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04;
}

function looksLikeText(buf: Buffer) {
  const sample = buf.subarray(0, 4096);
  return !sample.includes(0);
}

/**
 * Reads the first sheet of an .xlsx or a .csv into rows of trimmed text cells. The type is told
 * by the content (and must agree with the name): anything else is refused with a clear message.
 */
export async function readSheet(buf: Buffer, filename: string, maxRows: number): Promise<Cell[][]> {
  const lower = filename.toLowerCase();
  let rows: Cell[][];
  if (lower.endsWith('.xlsx') && isZip(buf)) {
    const wb = new ExcelJS.Workbook();
    try {
      await wb.xlsx.load(buf as unknown as ArrayBuffer);
    } catch {
      throw new AppError(422, SHEET_MSG.unreadable);
    }
    const ws = wb.worksheets[0];
    if (!ws) throw new AppError(422, SHEET_MSG.empty);
    if (ws.rowCount > maxRows + 1) throw new AppError(413, SHEET_MSG.tooManyRows(maxRows));
    rows = [];
    ws.eachRow({ includeEmpty: true }, (r, n) => {
      const cells: Cell[] = [];
      for (let c = 1; c <= Math.max(r.cellCount, 15); c++) cells.push(cellText(r.getCell(c).value).trim());
      rows[n - 1] = cells;
    });
    for (let i = 0; i < rows.length; i++) rows[i] ??= [];
  } else if (lower.endsWith('.csv') && looksLikeText(buf)) {
    rows = parseCsv(buf.toString('utf8')).map((r) => r.map((c) => c.trim()));
    if (rows.length > maxRows + 1) throw new AppError(413, SHEET_MSG.tooManyRows(maxRows));
  } else {
    throw new AppError(415, SHEET_MSG.wrongType);
  }
  return rows;
}

/** Writes rows as an .xlsx workbook with a bold header row. */
export async function writeXlsx(sheetName: string, header: string[], rows: Array<Array<string | number | null>>, title?: string): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'SIGAF';
  const ws = wb.addWorksheet(sheetName.slice(0, 31));
  if (title) {
    ws.addRow([title]).font = { bold: true, size: 13 };
  }
  const h = ws.addRow(header);
  h.font = { bold: true, color: { argb: 'FFFFFFFF' } };
  h.eachCell((c) => (c.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF006C8D' } }));
  for (const r of rows) ws.addRow(r.map((v) => (v === null ? '' : v)));
  ws.columns.forEach((col, i) => (col.width = Math.min(50, Math.max(10, header[i]?.length ?? 10) + 4)));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The product's one CSV writer (formulas neutralised: `csvText` in the contract). */
export function writeCsv(header: string[], rows: Array<Array<string | number | null>>): Buffer {
  return Buffer.from(csvText(header, rows), 'utf8');
}
