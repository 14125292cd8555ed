import { describe, expect, it } from 'vitest';
import { CHILE_REGIONS, normalizeRegion } from './regions.js';

describe('free-text regions to the 16 regions', () => {
  it('maps the spellings people use', () => {
    const cases: Array<[string, string]> = [
      ['Región Metropolitana de Santiago', 'Metropolitana de Santiago'],
      ['Metropolitana', 'Metropolitana de Santiago'],
      ['RM', 'Metropolitana de Santiago'],
      ['XIII', 'Metropolitana de Santiago'],
      ['XIV', 'Los Ríos'],
      ['Región de Los Ríos', 'Los Ríos'],
      ['region de nuble', 'Ñuble'],
      ['Biobio', 'Biobío'],
      ['Región del Bío Bío', 'Biobío'],
      ["O'Higgins", "Libertador General Bernardo O'Higgins"],
      ['VI Región', "Libertador General Bernardo O'Higgins"],
      ['Aisén', 'Aysén del General Carlos Ibáñez del Campo'],
      ['V', 'Valparaíso'],
      ['Araucanía', 'La Araucanía'],
      ['magallanes', 'Magallanes y de la Antártica Chilena'],
    ];
    for (const [text, region] of cases) expect(normalizeRegion(text), text).toBe(region);
    for (const r of CHILE_REGIONS) expect(normalizeRegion(r)).toBe(r);
  });

  it('says null for what is no region', () => {
    for (const text of ['', '  ', 'Buenos Aires', 'Otra', 'zz'])
      expect(normalizeRegion(text), text).toBeNull();
  });
});
