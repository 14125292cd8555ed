/**
 * Web app weight: gzip size of the JavaScript the login page loads (the entry script and the
 * modules index.html preloads) and of the largest chunk loaded later (a route), from the vite
 * build in apps/web/dist (built first when missing).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'apps/web/dist');

const gzip = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

export async function webBench(): Promise<Record<string, number>> {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) {
    console.log('web: building the web app');
    execFileSync('npm', ['run', 'build', '-w', '@sigaf/web'], { cwd: ROOT, stdio: 'inherit' });
  }
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const initial = new Set(
    [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!),
  );
  const all = fs
    .readdirSync(path.join(DIST, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `assets/${f}`);
  const loginKb = [...initial].reduce((sum, f) => sum + gzip(path.join(DIST, f)), 0) / 1024;
  const later = all
    .filter((f) => !initial.has(f))
    .map((f) => ({ f, size: gzip(path.join(DIST, f)) }))
    .sort((a, b) => b.size - a.size);
  const largest = later[0];
  console.log(
    `web: login page loads ${initial.size} scripts, ${loginKb.toFixed(1)} KiB gzip; largest later chunk ${largest?.f ?? '-'} ${((largest?.size ?? 0) / 1024).toFixed(1)} KiB gzip`,
  );
  return {
    'web.login.js.gzip.kb': loginKb,
    'web.largest-chunk.js.gzip.kb': (largest?.size ?? 0) / 1024,
  };
}
