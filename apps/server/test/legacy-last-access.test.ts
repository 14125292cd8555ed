import { describe, expect, it } from 'vitest';
import {
  lastAccessFromRelative,
  relativeSeconds,
} from '../src/modules/legacy-import/last-access.js';

describe("SIGAF 1.x's relative last access", () => {
  it('reads the Spanish forms Moodle printed, and nothing else', () => {
    expect(relativeSeconds('3 días 4 horas')).toBe(3 * 86_400 + 4 * 3_600);
    expect(relativeSeconds('1 día')).toBe(86_400);
    expect(relativeSeconds('1 dia 1 hora')).toBe(90_000);
    expect(relativeSeconds('5 horas 10 minutos')).toBe(5 * 3_600 + 600);
    expect(relativeSeconds('12 mins 3 segs')).toBe(723);
    expect(relativeSeconds('2 años 40 días')).toBe(2 * 365 * 86_400 + 40 * 86_400);
    expect(relativeSeconds('1 año')).toBe(365 * 86_400);
    expect(relativeSeconds('20 segundos')).toBe(20);
    expect(relativeSeconds('ahora')).toBe(0);
    for (const t of ['Nunca', '', 'días', '3', 'tres días', '3 lunas', '2024-06-01'])
      expect(relativeSeconds(t), t).toBeNull();
  });

  it('counts back from the reference wall-clock time', () => {
    expect(lastAccessFromRelative('3 días 4 horas', '2024-06-10 12:00:00')).toBe(
      '2024-06-07 08:00:00',
    );
    expect(lastAccessFromRelative('1 día', '2024-03-01 00:30')).toBe('2024-02-29 00:30:00');
    expect(lastAccessFromRelative('Nunca', '2024-03-01 00:30:00')).toBeNull();
  });
});
