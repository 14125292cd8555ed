import type { GridColDef } from '@mui/x-data-grid';
import { describe, expect, it } from 'vitest';
import { choicesOf, columnNeed, fitColumns } from './fitColumns';

const columns: GridColDef[] = [
  { field: 'name', flex: 1, minWidth: 200 },
  { field: 'rut', width: 100 },
  { field: 'email', flex: 1, minWidth: 200 },
  { field: 'phone', width: 120 },
  { field: 'motive', width: 130 },
  { field: 'actions', width: 80 },
];

describe("fitting a grid's columns to its width", () => {
  it("a column needs its minWidth when it stretches, its width otherwise (the grid's defaults when unset)", () => {
    expect(columnNeed({ flex: 1, minWidth: 150 })).toBe(150);
    expect(columnNeed({ flex: 1 })).toBe(50);
    expect(columnNeed({ width: 90 })).toBe(90);
    expect(columnNeed({})).toBe(100);
  });

  it('shows every column that is not hidden until chosen, when they fit', () => {
    expect(
      fitColumns(columns, 2000, { hidden: ['motive'], hideFirst: ['phone', 'email'] }),
    ).toEqual({ motive: false });
  });

  it('leaves out the less important columns, in order, until the rest fit (the checkbox counts)', () => {
    // 200 + 100 + 200 + 120 + 80 = 700 without the motive; 50 more for the checkbox.
    expect(
      fitColumns(columns, 700, { hidden: ['motive'], hideFirst: ['phone', 'email', 'rut'] }),
    ).toEqual({ motive: false });
    expect(
      fitColumns(
        columns,
        700,
        { hidden: ['motive'], hideFirst: ['phone', 'email', 'rut'] },
        {},
        50,
      ),
    ).toEqual({ motive: false, phone: false });
    expect(
      fitColumns(columns, 400, { hidden: ['motive'], hideFirst: ['phone', 'email', 'rut'] }),
    ).toEqual({ motive: false, phone: false, email: false });
    // Narrower than the columns that always stay: all the others go, and the grid scrolls.
    expect(
      fitColumns(columns, 100, { hidden: ['motive'], hideFirst: ['phone', 'email', 'rut'] }),
    ).toEqual({ motive: false, phone: false, email: false, rut: false });
  });

  it('keeps what the user chose from the column menu, and makes room for it with the others', () => {
    const rules = { hidden: ['motive'], hideFirst: ['phone', 'email', 'rut'] };
    expect(fitColumns(columns, 700, rules, { motive: true })).toEqual({
      motive: true,
      phone: false,
      email: false,
    });
    expect(fitColumns(columns, 400, rules, { email: true })).toEqual({
      motive: false,
      email: true,
      phone: false,
      rut: false,
    });
    expect(fitColumns(columns, 2000, rules, { name: false })).toEqual({
      motive: false,
      name: false,
    });
  });

  it('reads a choice from the model the column menu returns', () => {
    const shown = { motive: false, phone: false };
    const fields = columns.map((c) => c.field);
    expect(choicesOf({ motive: false, phone: true }, shown, fields)).toEqual({ phone: true });
    expect(
      choicesOf({ motive: false, phone: false, rut: false }, shown, fields, { phone: true }),
    ).toEqual({ phone: true, rut: false });
    expect(choicesOf(shown, shown, fields, { email: true })).toEqual({ email: true });
  });
});
