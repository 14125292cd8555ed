/**
 * `npm run db:lock`: adds the migrations not yet in apps/server/src/db/migrations.lock.json; refuses
 * when a listed one changed (a shipped migration is never edited: add a new one).
 * `npm run db:triggers`: writes apps/server/src/db/triggers.sql from a database migrated from scratch.
 */
import fs from 'node:fs';
import {
  freshTriggerDefinitions,
  LOCK_FILE,
  lockText,
  migrationHashes,
  readLock,
  TRIGGERS_FILE,
} from '../apps/server/src/db/migration-record.js';
import { HELP_OPTION, readCommandLine, usageError } from '../apps/server/src/lib/command-line.js';

const USAGE = `Uso: npm run db:lock  |  npm run db:triggers
  npm run db:lock      añade a apps/server/src/db/migrations.lock.json las migraciones nuevas;
                       se niega si una migración ya publicada cambió (agregue una nueva)
  npm run db:triggers  escribe apps/server/src/db/triggers.sql desde una base migrada de cero
  -h, --help           esta ayuda`;

const { positionals } = readCommandLine(USAGE, { options: HELP_OPTION, allowPositionals: true });
const [command, extra] = positionals;
if (extra !== undefined) usageError(USAGE, `Argumento inesperado: ${extra}`);
if (command === 'lock') {
  const lock = readLock();
  const now = migrationHashes();
  const changed = Object.keys(lock).filter((n) => now[n] !== undefined && now[n] !== lock[n]);
  const gone = Object.keys(lock).filter((n) => now[n] === undefined);
  if (changed.length || gone.length) {
    console.error(`Shipped migrations changed or removed: ${[...changed, ...gone].join(', ')}.`);
    console.error(
      'A shipped migration is never edited: restore it (git checkout -- <file>) and put the change in a new migration.',
    );
    process.exit(1);
  }
  const added = Object.keys(now).filter((n) => lock[n] === undefined);
  fs.writeFileSync(LOCK_FILE, lockText({ ...lock, ...now }));
  console.log(
    added.length
      ? `Added to the lock: ${added.join(', ')}`
      : 'The lock already lists every migration.',
  );
} else if (command === 'triggers') {
  fs.writeFileSync(TRIGGERS_FILE, await freshTriggerDefinitions());
  console.log(`Wrote ${TRIGGERS_FILE}`);
} else {
  usageError(USAGE, 'Indique lock o triggers: npm run db:lock, npm run db:triggers.');
}
