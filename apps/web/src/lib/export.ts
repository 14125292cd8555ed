import { csvText, fileDay, XLSX_FORMATS, type CsvCell } from '@sigaf/contract';
import { saveBlob } from './api';

export type ExportCell = CsvCell;

/** The product's one CSV writer (formulas neutralised), as a download. */
export function csvBlob(header: string[], rows: ExportCell[][]): Blob {
  return new Blob([csvText(header, rows)], { type: 'text/csv;charset=utf-8' });
}

/**
 * A date the screens wrote (dd-mm-yyyy, optionally HH:mm) as a workbook date holding that wall
 * clock, so that the column sorts and filters as dates; null for anything else (kept as it is).
 */
export function shownDate(v: ExportCell): Date | null {
  const m = typeof v === 'string' ? /^(\d{2})-(\d{2})-(\d{4})(?: (\d{2}):(\d{2}))?$/.exec(v) : null;
  return m
    ? new Date(
        Date.UTC(
          Number(m[3]),
          Number(m[2]) - 1,
          Number(m[1]),
          Number(m[4] ?? 0),
          Number(m[5] ?? 0),
        ),
      )
    : null;
}

export async function xlsx(sheet: string, header: string[], rows: ExportCell[][]): Promise<Blob> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheet.slice(0, 31));
  const h = ws.addRow(header);
  h.font = { bold: true, color: { argb: 'FFFFFFFF' } };
  h.eachCell(
    (c) => (c.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF006C8D' } }),
  );
  for (const r of rows) {
    const row = ws.addRow(r.map((v) => shownDate(v) ?? v ?? ''));
    r.forEach((v, i) => {
      if (shownDate(v))
        row.getCell(i + 1).numFmt =
          String(v).length > 10 ? XLSX_FORMATS.dateTime : XLSX_FORMATS.date;
    });
  }
  ws.columns.forEach(
    (col, i) => (col.width = Math.min(50, Math.max(12, (header[i]?.length ?? 10) + 4))),
  );
  const buf = await wb.xlsx.writeBuffer();
  return new Blob([buf], {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });
}

/** Saves a table as .xlsx or .csv, named after the table and the day in Chile (never `file.xlsx`). */
export async function exportTable(
  format: 'xlsx' | 'csv',
  name: string,
  header: string[],
  rows: ExportCell[][],
) {
  const slug = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
  const file = `${slug}-${fileDay()}.${format}`;
  saveBlob(format === 'csv' ? csvBlob(header, rows) : await xlsx(name, header, rows), file);
}
