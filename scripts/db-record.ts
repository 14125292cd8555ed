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

const command = process.argv[2];
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
  console.error('usage: tsx scripts/db-record.ts lock | triggers');
  process.exit(2);
}
