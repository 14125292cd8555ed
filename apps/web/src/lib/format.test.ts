import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One formatter per kind of value (lib/format.ts, the contract's format.ts): no screen writes a
 * number or a date its own way, which is how "41.7 %" came to stand beside "41,7 %".
 */
const SRC = path.resolve(import.meta.dirname, '..');
const sources = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });

const RULES: Array<[rule: string, pattern: RegExp, only?: RegExp]> = [
  ['a decimal with toFixed (a point in Spanish)', /\.toFixed\(/],
  [
    'a locale formatter of its own (useFormat)',
    /\.toLocale(Date|Time)?String\(|new Intl\.(NumberFormat|DateTimeFormat)\b/,
  ],
  [
    'an ISO day shown on screen (formatDate)',
    /toISOString\(\)\.(slice|substring)\(0, 10\)/,
    /\.tsx$/,
  ],
  // A CSS length or offset (width: `${n}%`) is no figure.
  ['a percentage written by hand (formatPercent)', /^(?!.*\b(width|height|left)\b).*\}\s?%`/m],
  ['a native date input, in the browser’s order (DayField)', /type="date"/, /\.tsx$/],
];
const ALLOWED = new Set(['lib/format.ts', 'components/DayField.tsx']);

describe('values are written by the formatters only', () => {
  const files = sources(SRC).map(
    (f) => [path.relative(SRC, f).split(path.sep).join('/'), fs.readFileSync(f, 'utf8')] as const,
  );
  it('finds the sources', () => expect(files.length).toBeGreaterThan(50));
  it.each(RULES)('no %s', (_rule, pattern, only) => {
    const offenders = files
      .filter(
        ([name, text]) => !ALLOWED.has(name) && (!only || only.test(name)) && pattern.test(text),
      )
      .map(([name]) => name);
    expect(offenders).toEqual([]);
  });
});

describe('the rows a page shows', () => {
  it('"1–10 de 1.234", and nothing under an empty list', async () => {
    const { default: i18next } = await import('i18next');
    const { default: es } = await import('../i18n/es.json');
    const { displayedRows } = await import('./format');
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'es', resources: { es: { translation: es } } });
    expect(displayedRows(i18n.t, 'es', { from: 1, to: 10, count: 12345 })).toBe('1–10 de 12.345');
    expect(displayedRows(i18n.t, 'es', { from: 0, to: 0, count: 0 })).toBe('');
  });
});
