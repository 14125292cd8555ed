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
