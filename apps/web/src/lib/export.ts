import { chileParts, csvText, type CsvCell } from '@sigaf/contract';
import { saveBlob } from './api';

export type ExportCell = CsvCell;

/** The product's one CSV writer (formulas neutralised), as a download. */
export function csvBlob(header: string[], rows: ExportCell[][]): Blob {
  return new Blob([csvText(header, rows)], { type: 'text/csv;charset=utf-8' });
}

async function xlsx(sheet: string, header: string[], rows: ExportCell[][]): Promise<Blob> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheet.slice(0, 31));
  const h = ws.addRow(header);
  h.font = { bold: true, color: { argb: 'FFFFFFFF' } };
  h.eachCell((c) => (c.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF006C8D' } }));
  for (const r of rows) ws.addRow(r.map((v) => v ?? ''));
  ws.columns.forEach((col, i) => (col.width = Math.min(50, Math.max(12, (header[i]?.length ?? 10) + 4))));
  const buf = await wb.xlsx.writeBuffer();
  return new Blob([buf], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}

/** Saves a table as .xlsx or .csv, named after the table and the day in Chile (never `file.xlsx`). */
export async function exportTable(format: 'xlsx' | 'csv', name: string, header: string[], rows: ExportCell[][]) {
  const slug = name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase();
  const file = `${slug}-${chileParts(new Date()).day}.${format}`;
  saveBlob(format === 'csv' ? csvBlob(header, rows) : await xlsx(name, header, rows), file);
}
