import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './server-process.js';

/**
 * House rules of the source tree: no import circle between modules, and no source file over
 * 400 lines unless it is listed below with the reason it stays whole.
 */
const PACKAGES = fs.readdirSync(path.join(ROOT, 'packages'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `packages/${e.name}/src`);
const TREES = ['apps/server/src', 'apps/web/src', ...PACKAGES, 'tools/moodle-sim/src', 'scripts', 'bench', 'e2e'];
const MAX_LINES = 400;
/** Files allowed to be longer, and why. */
const LONG_FILES: Record<string, string> = {
  'apps/server/src/db/schema.ts': 'the one declaration of every table\'s columns for Kysely; splitting it would scatter the schema',
  'scripts/seed-large.ts': 'one generator whose steps share the random stream and the id plan of the large data set',
};

function sources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|tsx)$/.test(entry.name) && !/\.d\.ts$/.test(entry.name)) out.push(full);
    }
  };
  for (const t of TREES) if (fs.existsSync(path.join(ROOT, t))) walk(path.join(ROOT, t));
  return out;
}

const rel = (f: string) => path.relative(ROOT, f).split(path.sep).join('/');

/**
 * Relative imports of a file (static, type-only, re-exports and dynamic `import('./x')`), resolved
 * to files. A dynamic import counts: a lazily loaded module that imports its loader back is a
 * circle all the same.
 */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:import|export)\s[^'";]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) {
    const spec = (m[1] ?? m[2] ?? m[3])!;
    const base = path.resolve(path.dirname(file), spec.replace(/\.js$/, ''));
    const candidates = [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
    const hit = candidates.find((c) => fs.existsSync(c));
    if (hit) found.push(hit);
  }
  return found;
}

describe('house rules', () => {
  const files = sources();

  it('finds the source tree', () => {
    expect(files.length).toBeGreaterThan(200);
  });

  it('no import circle between modules', () => {
    const graph = new Map(files.map((f) => [f, importsOf(f)]));
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, stack: string[]) => {
      state.set(f, 'open');
      for (const next of graph.get(f) ?? []) {
        if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].map(rel).join(' -> '));
        else if (!state.has(next)) visit(next, [...stack, next]);
      }
      state.set(f, 'done');
    };
    for (const f of files) if (!state.has(f)) visit(f, [f]);
    expect(cycles).toEqual([]);
  });

  it('the circle check reads the web client and every package, dynamic imports included', () => {
    const trees = new Set(files.map((f) => rel(f).split('/').slice(0, 3).join('/')));
    expect(trees).toContain('apps/web/src');
    for (const p of PACKAGES) expect(trees).toContain(p);
    const edges = (from: string) => importsOf(path.join(ROOT, from)).map(rel);
    expect(edges('apps/web/src/app/lazy.tsx')).toContain('apps/web/src/app/shell.tsx');
    expect(edges('apps/web/src/components/Snackbar.tsx')).toContain('apps/web/src/components/SnackToast.tsx');
  });

  it('the server reaches the Moodle simulator only through the demo, loaded on demand', () => {
    const server = files.filter((f) => rel(f).startsWith('apps/server/src/'));
    const simUsers = server.filter((f) => /from\s+'[^']*moodle-sim[^']*'/.test(fs.readFileSync(f, 'utf8'))).map(rel);
    expect(simUsers.every((f) => f.startsWith('apps/server/src/demo/'))).toBe(true);
    // Nothing outside the demo imports it statically (main.ts loads it with a dynamic import behind the flag).
    const demoImporters = server.filter((f) => !rel(f).startsWith('apps/server/src/demo/') && /(import|export)\s[^;]*from\s+'[^']*\/demo\//.test(fs.readFileSync(f, 'utf8'))).map(rel);
    expect(demoImporters).toEqual([]);
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'apps/server/package.json'), 'utf8'));
    expect(pkg.optionalDependencies?.['@sigaf/moodle-sim']).toBeDefined();
    expect(pkg.dependencies?.['@sigaf/moodle-sim']).toBeUndefined();
  });

  it(`no source file over ${MAX_LINES} lines without a stated reason`, () => {
    const long = files
      .filter((f) => !/\.test\.tsx?$/.test(f) && !rel(f).includes('/test/'))
      .map((f) => ({ file: rel(f), lines: fs.readFileSync(f, 'utf8').split('\n').length }))
      .filter((f) => f.lines > MAX_LINES && !LONG_FILES[f.file]);
    expect(long).toEqual([]);
  });
});
