import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { csvBlob, xlsx } from './export';

describe('web .csv exports', () => {
  it('a staff member named =HYPERLINK(…) stays text in the administrator’s export', async () => {
    const text = await csvBlob(
      ['Nombre', 'Correo', 'Tickets'],
      [['=HYPERLINK("http://malo.example","Ver")', '@tutor', 3]],
    ).text();
    const [, row] = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(row).toBe('"\'=HYPERLINK(""http://malo.example"",""Ver"")";\'@tutor;3');
  });
});

describe('web .xlsx exports', () => {
  it('dates the screen shows are date cells (sortable), numbers are numbers, formulas stay text', async () => {
    const blob = await xlsx(
      'Usuarios',
      ['Nombre', 'Sincronizado', 'Día', 'Tickets'],
      [['=1+1', '07-09-2026 14:05', '07-09-2026', 3]],
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await blob.arrayBuffer());
    const row = wb.worksheets[0]!.getRow(2);
    expect([row.getCell(1).type, row.getCell(1).value]).toEqual([ExcelJS.ValueType.String, '=1+1']);
    expect([
      row.getCell(2).type,
      row.getCell(2).numFmt,
      (row.getCell(2).value as Date).toISOString(),
    ]).toEqual([ExcelJS.ValueType.Date, 'dd-mm-yyyy hh:mm', '2026-09-07T14:05:00.000Z']);
    expect([row.getCell(3).type, row.getCell(3).numFmt]).toEqual([
      ExcelJS.ValueType.Date,
      'dd-mm-yyyy',
    ]);
    expect([row.getCell(4).type, row.getCell(4).value]).toEqual([ExcelJS.ValueType.Number, 3]);
  });
});
