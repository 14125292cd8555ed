import type { GridColDef, GridRenderCellParams } from '@mui/x-data-grid';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { withFittedUnder } from './FittedUnder';

type Row = { id: number; name: string; status: string; course: string | null; n: number };
const row: Row = { id: 1, name: 'Ana Soto', status: 'open', course: null, n: 1234 };
const name: GridColDef<Row> = { field: 'name', headerName: 'Nombre' };
const status: GridColDef<Row> = {
  field: 'status',
  headerName: 'Estado',
  valueGetter: (_v, r) => (r.status === 'open' ? 'Abierto' : 'Cerrado'),
};
const course: GridColDef<Row> = { field: 'course', headerName: 'Curso' };
const n: GridColDef<Row> = {
  field: 'n',
  headerName: 'Abiertos',
  valueFormatter: (v: number) => `#${v}`,
};

const cell = (col: GridColDef<Row>) =>
  renderToStaticMarkup(
    <>
      {col.renderCell!({
        row,
        value: row.name,
        formattedValue: row.name,
      } as GridRenderCellParams<Row>)}
    </>,
  );

describe('the columns left out to fit, under the kept one', () => {
  it('says what each hidden column holds, by its header, as the column would show it', () => {
    const html = cell(withFittedUnder(name, [status, course, n]));
    expect(html).toContain('Ana Soto');
    // An empty value is left out rather than written as "Curso: ".
    expect(html).toContain('Estado: Abierto · Abiertos: #1234');
    expect(html).not.toContain('Curso');
  });

  it('leaves the column as it is when nothing was left out', () => {
    expect(withFittedUnder(name, [])).toBe(name);
  });
});
