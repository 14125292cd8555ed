import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';

/** Spreadsheets as careless users (and attackers) make them: for the upload tests and the upload benchmark. */

async function streamedWorkbook(fill: (ws: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  fill(wb.addWorksheet('Hoja1'));
  await wb.commit();
  return Buffer.concat(chunks);
}

/** `rows` rows each holding one cell in the last column (XFD): what a whole row formatted in Excel looks like. */
export function lastColumnWorkbook(rows = 2000): Promise<Buffer> {
  return streamedWorkbook((ws) => {
    for (let r = 1; r <= rows; r++) {
      const row = ws.getRow(r);
      row.getCell(16_384).value = 'x';
      row.commit();
    }
  });
}

/** A header and `rows` data rows of one short cell. */
export function tallWorkbook(rows: number): Promise<Buffer> {
  return streamedWorkbook((ws) => {
    ws.addRow(['RUT']).commit();
    for (let r = 0; r < rows; r++) ws.addRow([r]).commit();
  });
}

/** A .csv of `bytes` bytes of `a\n` lines. */
export function lineCsv(bytes: number): Buffer {
  return Buffer.from('a\n'.repeat(Math.floor(bytes / 2)));
}
