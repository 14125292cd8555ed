import { describe, expect, it } from 'vitest';
import { csvCell, csvText } from './csv.js';

describe('CSV written by the product (web exports and server downloads)', () => {
  it('neutralises every text a spreadsheet would run as a formula', () => {
    for (const hostile of [
      '=HYPERLINK("http://x","clic")',
      '+1+1',
      '-2+3',
      '@SUM(A1)',
      '\t=1',
      '\r=1',
      "=cmd|' /C calc'!A0",
    ]) {
      expect(csvCell(hostile).replace(/^"/, '').startsWith("'")).toBe(true);
    }
    expect(csvCell('=1+1')).toBe("'=1+1");
  });

  it('leaves ordinary text and typed numbers alone, negative ones included', () => {
    expect(csvCell('María José')).toBe('María José');
    expect(csvCell('12.345.678-5')).toBe('12.345.678-5');
    // Phones (the users' and students' exports): no apostrophe for Excel to show.
    expect(csvCell('+56912345678')).toBe('+56912345678');
    expect(csvCell('+56 9 1234 5678')).toBe('+56 9 1234 5678');
    expect(csvCell('+56 9 1234+1')).toBe("'+56 9 1234+1");
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(3.5)).toBe('3.5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes separators, quotes and line breaks; BOM, CRLF and ; between cells', () => {
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('di "hola"')).toBe('"di ""hola"""');
    expect(
      csvText(
        ['Nombre', 'Nota'],
        [
          ['=HYPERLINK("x")', 7],
          ['Ana', null],
        ],
      ),
    ).toBe('\uFEFFNombre;Nota\r\n"\'=HYPERLINK(""x"")";7\r\nAna;\r\n');
  });
});
