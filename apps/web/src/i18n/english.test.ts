import { describe, expect, it } from 'vitest';
import { en } from './resources';

/** Every string of a nested translation object. */
function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(texts);
}

describe('the English texts', () => {
  it('name the screens by their English menu names, never the Spanish ones', () => {
    const spanish = /Configuración|Mantenedor|Actividades|Reportes|Seguimiento alumnos/;
    expect(texts(en).filter((t) => spanish.test(t))).toEqual([]);
  });
});
