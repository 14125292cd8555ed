import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import en from './moodle.en.json';
import es from './moodle.es.json';

/** Every key path of a nested translation object. */
function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

const featureDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../features/moodle');

describe('Moodle translations', () => {
  it('has the same keys in Spanish and English, and owns only the moodle area', () => {
    expect(keys(en).sort()).toEqual(keys(es).sort());
    expect(Object.keys(es)).toEqual(['moodle']);
  });

  it('has no empty text', () => {
    const leaves = (o: unknown): unknown[] =>
      typeof o === 'object' && o !== null ? Object.values(o).flatMap(leaves) : [o];
    expect(
      [...leaves(es), ...leaves(en)].every((v) => typeof v === 'string' && v.trim() !== ''),
    ).toBe(true);
  });

  it('has every literal moodle.* key the screen uses', () => {
    const flat = new Set(keys(es));
    const used = fs
      .readdirSync(featureDir)
      .filter((f) => f.endsWith('.tsx'))
      .flatMap((f) =>
        [
          ...fs.readFileSync(path.join(featureDir, f), 'utf8').matchAll(/t\('(moodle\.[\w.]+)'/g),
        ].map((m) => m[1]!),
      );
    expect(used.length).toBeGreaterThan(40);
    expect(used.filter((k) => !flat.has(k))).toEqual([]);
  });
});
