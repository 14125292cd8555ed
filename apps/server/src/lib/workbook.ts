import { workbookDate, XLSX_FORMATS, type XlsxFormat } from '@sigaf/contract';
import ExcelJS from 'exceljs';

/**
 * A workbook cell: text (always a text cell, never a formula, whatever it starts with), a number,
 * or a moment (a date cell in the organisation's time, see workbookDate).
 */
export type XlsxCell = string | number | Date | null;

const HEADER_FILL = 'FF006C8D';
const GROUP_FILL = 'FFAC1315';

/**
 * One sheet: an optional title row, optional group row (labels spanning several columns,
 * merged), the header row (white on blue), then the rows. Long texts wrap. `formats` gives a
 * column's number format (XLSX_FORMATS); a date without one is shown with its time.
 */
export async function reportWorkbook(opts: {
  sheet: string;
  title?: string;
  groups?: ReadonlyArray<readonly [string, number]>;
  header: readonly string[];
  rows: XlsxCell[][];
  widths?: number[];
  formats?: ReadonlyArray<XlsxFormat | null | undefined>;
}): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'SIGAF';
  wb.created = new Date();
  const ws = wb.addWorksheet(opts.sheet.slice(0, 31));
  const n = opts.header.length;
  if (opts.title) {
    const row = ws.addRow([opts.title]);
    row.font = { bold: true, size: 13 };
    ws.mergeCells(row.number, 1, row.number, n);
  }
  if (opts.groups) {
    const cells: string[] = [];
    for (const [label, span] of opts.groups)
      cells.push(label, ...Array.from({ length: span - 1 }, () => ''));
    const row = ws.addRow(cells);
    row.font = { bold: true, color: { argb: 'FFFFFFFF' } };
    let col = 1;
    for (const [, span] of opts.groups) {
      if (span > 1) ws.mergeCells(row.number, col, row.number, col + span - 1);
      const cell = row.getCell(col);
      cell.alignment = { horizontal: 'center' };
      cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: GROUP_FILL } };
      col += span;
    }
  }
  const header = ws.addRow([...opts.header]);
  header.font = { bold: true, color: { argb: 'FFFFFFFF' } };
  header.eachCell(
    (c) => (c.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: HEADER_FILL } }),
  );
  ws.views = [{ state: 'frozen', ySplit: header.number }];
  for (const r of opts.rows) {
    const row = ws.addRow(
      r.map((v) => (v === null ? '' : v instanceof Date ? workbookDate(v) : v)),
    );
    row.alignment = { vertical: 'top', wrapText: true };
    r.forEach((v, i) => {
      const format = opts.formats?.[i] ?? (v instanceof Date ? 'dateTime' : null);
      if (format && (typeof v === 'number' || v instanceof Date))
        row.getCell(i + 1).numFmt = XLSX_FORMATS[format];
    });
  }
  ws.columns.forEach((col, i) => {
    col.width = opts.widths?.[i] ?? Math.min(40, Math.max(10, (opts.header[i]?.length ?? 10) + 4));
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}
