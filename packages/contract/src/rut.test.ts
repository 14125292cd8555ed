import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeDv, formatRut, isValidRut, normalizeRut, parseRut } from './rut.js';

const body = fc.integer({ min: 1, max: 99_999_999 });

describe('RUT', () => {
  it('knows real check digits', () => {
    expect(computeDv(12_345_678)).toBe('5');
    expect(computeDv(11_111_111)).toBe('1');
    expect(computeDv(10_000_013)).toBe('K');
    expect(isValidRut('12.345.678-5')).toBe(true);
    expect(isValidRut('12.345.678-9')).toBe(false);
  });

  it('parses every common spelling of the same RUT to one formatted value', () => {
    fc.assert(
      fc.property(body, fc.boolean(), (n, lower) => {
        const dv = computeDv(n);
        const d = lower ? dv.toLowerCase() : dv;
        const formatted = formatRut({ body: n, dv });
        for (const spelling of [
          `${n}-${d}`,
          `${n}${d}`,
          formatted,
          ` ${formatted.replace(/-/, ' - ').replace(/ /g, '')} `,
          formatted.toLowerCase(),
        ]) {
          expect(normalizeRut(spelling)).toBe(formatted);
        }
      }),
    );
  });

  it('format then parse is the identity', () => {
    fc.assert(
      fc.property(body, (n) => {
        const r = { body: n, dv: computeDv(n) };
        expect(parseRut(formatRut(r))).toEqual(r);
        expect(formatRut(r)).toMatch(/^\d{1,3}(\.\d{3})*-[\dK]$/);
      }),
    );
  });

  it('rejects every wrong check digit and garbage', () => {
    fc.assert(
      fc.property(body, fc.constantFrom(...'0123456789K'.split('')), (n, dv) => {
        fc.pre(dv !== computeDv(n));
        expect(normalizeRut(`${n}-${dv}`)).toBeNull();
      }),
    );
    for (const bad of ['', 'abc', '12.345.678', '0-0', '12.345.678-55', null, undefined])
      expect(normalizeRut(bad as string)).toBeNull();
  });
});
