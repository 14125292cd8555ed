import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/** The repository root, where package.json and package-lock.json live. */
const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

describe('installation: `npm install` on a supported Node prints no engine or install-script warnings', () => {
  const pkg = read('package.json') as { engines: { node: string }; allowScripts?: Record<string, boolean> };
  const lock = read('package-lock.json') as { packages: Record<string, { engines?: unknown; hasInstallScript?: boolean; optional?: boolean }> };
  const installed = Object.entries(lock.packages).filter(([key]) => key.includes('node_modules/'));
  const nameOf = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);

  it('the declared engine is a valid range that includes the current LTS and this machine’s Node', () => {
    expect(semver.validRange(pkg.engines.node)).not.toBeNull();
    expect(semver.satisfies('24.0.0', pkg.engines.node)).toBe(true);
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  });

  it('every installed dependency supports every Node the project declares (no EBADENGINE)', () => {
    const checked = installed.filter(([, p]) => typeof (p.engines as { node?: unknown } | undefined)?.node === 'string');
    expect(checked.length).toBeGreaterThan(10);
    const unsupported = checked
      .filter(([, p]) => !semver.subset(pkg.engines.node, (p.engines as { node: string }).node))
      .map(([key, p]) => `${nameOf(key)} requires ${(p.engines as { node: string }).node}`);
    expect(unsupported).toEqual([]);
  });

  it('every dependency with an install script is decided in allowScripts (no install-scripts notice)', () => {
    const withScripts = installed.filter(([, p]) => p.hasInstallScript).map(([key]) => nameOf(key));
    const undecided = withScripts.filter((name) => !(name in (pkg.allowScripts ?? {})));
    expect(undecided).toEqual([]);
  });
});
