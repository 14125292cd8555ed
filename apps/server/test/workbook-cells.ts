import { expect } from 'vitest';
import type ExcelJS from 'exceljs';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A cell as the sheet shows it: a date cell by its number format (the wall-clock time it holds),
 * anything else as its text.
 */
export function shownCell(cell: ExcelJS.Cell): string {
  const v = cell.value;
  if (!(v instanceof Date)) return cell.text;
  const day = `${pad(v.getUTCDate())}-${pad(v.getUTCMonth() + 1)}-${v.getUTCFullYear()}`;
  if (cell.numFmt === 'dd-mm-yyyy') return day;
  expect(cell.numFmt).toBe('dd-mm-yyyy hh:mm');
  return `${day} ${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}`;
}
