import {
  CATALOGUE_SEED as SEEDED,
  CHILE_REGIONS,
  FIRST_LOGIN_PENDING,
  RESERVED_USER,
  type SeededValue,
} from '@sigaf/contract';
import { sql } from 'kysely';
import type { Database } from './database.js';
import type { CatalogueTableName } from './schema.js';
import { generatePassword, hashPassword } from '../lib/passwords.js';

/** The catalogues' initial values (the contract's, named by the screens in their language). */
export const CATALOGUE_SEED: Record<CatalogueTableName, readonly SeededValue[]> = SEEDED;

export interface SeedResult {
  admin?: { email: string; password: string; generated: boolean };
}

/** Idempotent: inserts what is missing, never overwrites what staff changed. */
export async function seed(
  db: Database,
  opts: { adminEmail: string; adminPassword?: string; adminName: string; withAdmin?: boolean },
): Promise<SeedResult> {
  return db.transaction().execute((trx) => seedWithin(trx, opts));
}

/** The seed inside the caller's transaction (the legacy import prepares its target in its own). */
export async function seedWithin(
  trx: Database,
  opts: { adminEmail: string; adminPassword?: string; adminName: string; withAdmin?: boolean },
): Promise<SeedResult> {
  for (const [table, rows] of Object.entries(CATALOGUE_SEED) as [
    CatalogueTableName,
    readonly SeededValue[],
  ][]) {
    const existing = await trx.selectFrom(table).select(['key', 'description']).execute();
    const keys = new Set(existing.map((r) => r.key).filter(Boolean));
    const descriptions = new Set(existing.map((r) => r.description.toLowerCase()));
    const missing = rows.filter(
      (r) => (r.key ? !keys.has(r.key) : true) && !descriptions.has(r.description.toLowerCase()),
    );
    // Plain catalogue values are only seeded into an empty table.
    const toInsert = existing.length === 0 ? missing : missing.filter((r) => r.key);
    if (toInsert.length) await trx.insertInto(table).values(toInsert).execute();
  }
  const regions = await trx.selectFrom('regions').select('id').limit(1).execute();
  if (regions.length === 0) {
    await trx
      .insertInto('regions')
      .values(CHILE_REGIONS.map((name, i) => ({ ordinal: i + 1, name })))
      .execute();
  }
  const platforms = await trx.selectFrom('platforms').select('id').limit(1).execute();
  if (platforms.length === 0) {
    await trx
      .insertInto('platforms')
      .values({ key: 'moodle', description: 'Moodle', status: 1 })
      .execute();
  }

  const anyUser = await trx
    .selectFrom('users')
    .select('id')
    .where('deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  // `withAdmin: false`: the caller brings its own administrator (the demo's demo.admin).
  if (anyUser || opts.withAdmin === false) {
    await reserveUserId(trx);
    return {};
  }
  const role = await trx
    .selectFrom('roles')
    .select('id')
    .where('key', '=', 'admin')
    .executeTakeFirstOrThrow();
  const generated = !opts.adminPassword;
  const password = opts.adminPassword ?? generatePassword();
  await trx
    .insertInto('users')
    .values({
      name: opts.adminName,
      email: opts.adminEmail.toLowerCase(),
      password: await hashPassword(password),
      is_first_login: FIRST_LOGIN_PENDING,
      role_id: role.id,
      mobile: null,
      phone: null,
      rut: null,
    })
    .execute();
  await reserveUserId(trx);
  return { admin: { email: opts.adminEmail.toLowerCase(), password, generated } };
}

/**
 * Gives id 2 to RESERVED_USER while no account was ever given it (a new installation, before or
 * just after its first administrator), so that no staff member gets the id the original client
 * hides. An installation whose id 2 was already handed out keeps it as it is.
 */
async function reserveUserId(trx: Database) {
  const { id } = RESERVED_USER;
  const seq = await sql<{
    next: number;
  }>`select case when is_called then last_value + 1 else last_value end as next from users_id_seq`.execute(
    trx,
  );
  if (Number(seq.rows[0]!.next) > id) return;
  const role = await trx
    .selectFrom('roles')
    .select('id')
    .where('key', '=', 'developer')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('users')
    // No password hash can match '!': it signs nobody in; deleted: no list, picker or count shows it.
    .values({
      id,
      name: RESERVED_USER.name,
      email: RESERVED_USER.email,
      password: '!',
      is_first_login: 0,
      role_id: role.id,
      rut: null,
      phone: null,
      mobile: null,
      deleted_at: sql`now()`,
    })
    .execute();
  await sql`select setval('users_id_seq', greatest(${id}, (select max(id) from users)))`.execute(
    trx,
  );
}
