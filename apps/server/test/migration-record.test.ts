import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  freshTriggerDefinitions,
  LOCK_FILE,
  migrationHashes,
  MIGRATIONS_DIR,
  readLock,
  TRIGGERS_FILE,
} from '../src/db/migration-record.js';
import { ROOT } from './server-process.js';

/*
 * Shipped migrations are never edited (every database already ran them; a change is a new
 * migration), and triggers.sql is the current definition of every trigger and function, as a
 * database migrated from scratch has them (apps/server/src/db/migration-record.ts).
 */
const rel = (f: string) => path.relative(ROOT, f).split(path.sep).join('/');

describe('migrations', () => {
  const lock = readLock();
  const now = migrationHashes();

  it('a shipped migration is never edited or removed', () => {
    const problems = Object.entries(lock).flatMap(([name, hash]) =>
      now[name] === undefined
        ? [`${name} was removed`]
        : now[name] !== hash
          ? [`${name} changed`]
          : [],
    );
    expect(
      problems,
      `A shipped migration is never edited: databases have already run it. Restore ${rel(MIGRATIONS_DIR)}/<file> ` +
        '(git checkout -- <file>) and put the change in a new migration.',
    ).toEqual([]);
  });

  it('every migration is in the lock', () => {
    const missing = Object.keys(now).filter((name) => lock[name] === undefined);
    expect(
      missing,
      `New migrations go in ${rel(LOCK_FILE)} when they are committed: run \`npm run db:lock\`, or add these lines:\n` +
        missing.map((name) => `  "${name}": "${now[name]}",`).join('\n'),
    ).toEqual([]);
  });
});

describe('triggers.sql', () => {
  it('is what a database migrated from scratch defines', async () => {
    const fresh = await freshTriggerDefinitions();
    const kept = fs.existsSync(TRIGGERS_FILE)
      ? fs.readFileSync(TRIGGERS_FILE, 'utf8').replace(/\r\n/g, '\n')
      : '';
    expect(
      kept === fresh,
      `${rel(TRIGGERS_FILE)} is not what the migrations define: run \`npm run db:triggers\` and commit it.`,
    ).toBe(true);
  });
});
