import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './server-process.js';

/**
 * House rules no standard tool checks: the server reaches the Moodle simulator only through the
 * demo, and no citation of a document that is not in the repository (see `citations` at the end).
 * Import circles, file length and style: `npm run lint`.
 */
const PACKAGES = fs
  .readdirSync(path.join(ROOT, 'packages'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => `packages/${e.name}/src`);
const TREES = [
  'apps/server/src',
  'apps/web/src',
  ...PACKAGES,
  'tools/moodle-sim/src',
  'scripts',
  'bench',
  'e2e',
];

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

describe('house rules', () => {
  const files = sources();

  it('finds the source tree', () => {
    expect(files.length).toBeGreaterThan(200);
  });

  it('the server reaches the Moodle simulator only through the demo, loaded on demand', () => {
    const server = files.filter((f) => rel(f).startsWith('apps/server/src/'));
    const simUsers = server
      .filter((f) => /from\s+'[^']*moodle-sim[^']*'/.test(fs.readFileSync(f, 'utf8')))
      .map(rel);
    expect(simUsers.every((f) => f.startsWith('apps/server/src/demo/'))).toBe(true);
    // Nothing outside the demo imports it statically (main.ts loads it with a dynamic import behind the flag).
    const demoImporters = server
      .filter(
        (f) =>
          !rel(f).startsWith('apps/server/src/demo/') &&
          /(import|export)\s[^;]*from\s+'[^']*\/demo\//.test(fs.readFileSync(f, 'utf8')),
      )
      .map(rel);
    expect(demoImporters).toEqual([]);
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'apps/server/package.json'), 'utf8'));
    expect(pkg.optionalDependencies?.['@sigaf/moodle-sim']).toBeDefined();
    expect(pkg.dependencies?.['@sigaf/moodle-sim']).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------
// Citations: every document a source or a page cites is in the repository.

/** Folders never read for citations (installed, built or generated). */
const NOT_CITING = new Set([
  'node_modules',
  'dist',
  'data',
  'test-results',
  'coverage',
  '.git',
  '.tmp',
]);
const CODE = /\.(ts|tsx|mjs|cjs|js)$/;
/** A markdown link or image: `[text](target)`. */
const LINK = /!?\[((?:[^\]\\]|\\.)*)\]\(([^)\s]+)\)/g;

/** Every page and source file of the repository. */
function citingFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (NOT_CITING.has(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (
        /\.(md|sql)$/.test(entry.name) ||
        (CODE.test(entry.name) && !/\.d\.ts$/.test(entry.name))
      )
        out.push(full);
    }
  };
  walk(ROOT);
  return out;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .replace(/<[^>]*>/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');

/** A page's anchors (heading slugs, numbered the way GitHub numbers repeats, and `<a id>`) and its numbered sections. */
const pages = new Map<string, { anchors: Set<string>; sections: Set<string> }>();
function page(file: string) {
  let found = pages.get(file);
  if (found) return found;
  found = { anchors: new Set(), sections: new Set() };
  const seen = new Map<string, number>();
  let fence = false;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.anchors.add(m[1]!);
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const s = slug(heading);
    const n = seen.get(s) ?? 0;
    found.anchors.add(n ? `${s}-${n}` : s);
    seen.set(s, n + 1);
    const number = /^(?:<a[^>]*><\/a>\s*)?(\d+(?:\.\d+)*)\.?\s/.exec(heading)?.[1];
    if (number) found.sections.add(number);
  }
  pages.set(file, found);
  return found;
}

const inRepo = (p: string) => p === ROOT || p.startsWith(ROOT + path.sep);

/** The nearest folder holding a package.json: a package's own paths are written from there. */
function packageRoot(dir: string): string {
  for (let d = dir; inRepo(d) && d !== ROOT; d = path.dirname(d))
    if (fs.existsSync(path.join(d, 'package.json'))) return d;
  return ROOT;
}

/** The spans of a source file where citations are written: its comments (line and block comments, SQL's `--`). */
function commentSpans(file: string, text: string): Array<[number, number]> {
  if (file.endsWith('.md')) return [[0, text.length]];
  const re = file.endsWith('.sql') ? /--[^\n]*/g : /\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g;
  return [...text.matchAll(re)].map((m) => [m.index, m.index + m[0].length]);
}

interface Citation {
  at: number;
  text: string;
  /** The file cited, when it exists in the repository. */
  target?: string;
  problem?: string;
}

/** Where a path written in `file` points: beside the file for links, else beside it, its package or the repository root. */
function resolveCitation(file: string, written: string, link: boolean): string | undefined {
  const [pathPart = '', anchor] = written.split('#');
  const dir = path.dirname(file);
  const bases = link ? [dir] : [dir, packageRoot(dir), ROOT];
  const target =
    pathPart === ''
      ? file
      : bases
          .map((b) => path.resolve(b, decodeURIComponent(pathPart)))
          .find((c) => inRepo(c) && fs.existsSync(c));
  if (!target) return undefined;
  if (anchor && target.endsWith('.md') && !page(target).anchors.has(decodeURIComponent(anchor)))
    throw new Error(`no anchor #${anchor} in ${rel(target)}`);
  return target;
}

/** The documents a file cites: markdown links (pages) and `*.md` paths (pages and comments). */
function citationsOf(file: string, text: string): Citation[] {
  const out: Citation[] = [];
  const spans = commentSpans(file, text);
  const links: Array<[number, number]> = [];
  const cite = (at: number, written: string, link: boolean) => {
    try {
      const target = resolveCitation(file, written, link);
      out.push({
        at,
        text: written,
        target,
        problem: target ? undefined : 'no such file in the repository',
      });
    } catch (e) {
      out.push({ at, text: written, problem: (e as Error).message });
    }
  };
  if (file.endsWith('.md')) {
    for (const m of text.matchAll(LINK)) {
      links.push([m.index, m.index + m[0].length]);
      if (!/^[a-z][a-z0-9+.-]*:/i.test(m[2]!)) cite(m.index, m[2]!, true);
    }
  }
  const inLink = (at: number) => links.some(([a, b]) => at >= a && at < b);
  for (const [from, to] of spans) {
    for (const m of text
      .slice(from, to)
      .matchAll(/(?<![\w./@-])((?:\.{1,2}\/)*[\w-][\w./-]*\.md)(?![\w-])(#[\p{L}\p{N}_-]+)?/gu)) {
      if (!inLink(from + m.index)) cite(from + m.index, m[0], false);
    }
  }
  return out.sort((a, b) => a.at - b.at);
}

/** `§N.N` citations: each must name a numbered section of the document cited just before it (or of the link it is written in). */
function sectionProblems(
  file: string,
  text: string,
  citations: Citation[],
): Array<{ at: number; text: string; problem: string }> {
  const out: Array<{ at: number; text: string; problem: string }> = [];
  const links = file.endsWith('.md') ? [...text.matchAll(LINK)] : [];
  for (const m of text.matchAll(/§\s?(\d+(?:\.\d+)*)/g)) {
    const link = links.find((l) => m.index > l.index && m.index <= l.index + l[1]!.length + 1);
    const source = link
      ? citations.find((c) => c.at === link.index)
      : [...citations].reverse().find((c) => c.at < m.index);
    if (!source)
      out.push({
        at: m.index,
        text: m[0],
        problem: 'a section of no document: name the page it is in',
      });
    else if (
      source.target &&
      !(source.target.endsWith('.md') && page(source.target).sections.has(m[1]!))
    ) {
      out.push({ at: m.index, text: m[0], problem: `no section ${m[1]} in ${rel(source.target)}` });
    }
  }
  return out;
}

describe('citations', () => {
  const citing = citingFiles();
  const lineOf = (text: string, at: number) => text.slice(0, at).split('\n').length;

  it('reads the pages and the sources', () => {
    const names = new Set(citing.map(rel));
    for (const f of [
      'README.md',
      'docs/README.md',
      'docs/development/original-api.md',
      'apps/server/src/app.ts',
      'apps/web/src/app/router.tsx',
    ])
      expect(names).toContain(f);
  });

  it('every document a source or a page cites (a *.md path, a § section, a relative link) is in the repository', () => {
    const dangling: string[] = [];
    for (const file of citing) {
      const text = fs.readFileSync(file, 'utf8');
      const citations = citationsOf(file, text);
      for (const c of [
        ...citations.filter((x) => x.problem),
        ...sectionProblems(file, text, citations),
      ]) {
        dangling.push(`${rel(file)}:${lineOf(text, c.at)}: ${c.text} (${c.problem})`);
      }
    }
    expect(dangling).toEqual([]);
  });
});
