import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { fileContext } from './helpers.js';

/*
 * The exact total of a search across every student is kept under the students' version
 * (modules/answers/totals.ts, migration 0025): after each kind of change, written directly as
 * another process would, the total the API gives equals a count of the rows themselves, and a
 * second page gives the same total as the first.
 */
const file = fileContext();

const SEARCH = 'quispe';

async function apiTotal(page = 1): Promise<number> {
  const res = await file.ctx.request({ method: 'GET', url: `/api/v2/registered-users?search=${SEARCH}&page=${page}&perPage=2`, token: file.admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()._data.meta.total;
}

const liveTotal = async () =>
  (await sql<{ n: number }>`select count(*)::int as n from registered_users where search_name like ${`%${SEARCH}%`} or email ilike ${`%${SEARCH}%`}`.execute(file.ctx.db)).rows[0]!.n;

describe('kept totals of the student search', () => {
  it('follow every change that adds, removes or re-matches a student, and no other', async () => {
    let rut = 30_000_000;
    const add = async (name: string, email: string | null = null) =>
      (await file.ctx.db.insertInto('registered_users').values({ rut: String(rut++), name, last_name: 'Prueba', email }).returning('id').executeTakeFirstOrThrow()).id;
    const a = await add('Ana Quispe');
    const b = await add('Berta', 'berta.quispe@correo.cl');
    await add('Carla');
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['a student added', () => add('Daniela Quispe')],
      ['a name changed to match', () => file.ctx.db.updateTable('registered_users').set({ last_name: 'Quispé' }).where('name', '=', 'Carla').execute()],
      ['a name changed to no longer match', () => file.ctx.db.updateTable('registered_users').set({ name: 'Ana' }).where('id', '=', a).execute()],
      ['an e-mail changed', () => file.ctx.db.updateTable('registered_users').set({ email: 'berta@correo.cl' }).where('id', '=', b).execute()],
      ['a student removed', () => file.ctx.db.deleteFrom('registered_users').where('name', '=', 'Daniela Quispe').execute()],
      ['many added in one statement', () => file.ctx.db.insertInto('registered_users').values([1, 2, 3].map((i) => ({ rut: String(rut++), name: `Quispe ${i}`, last_name: 'Lote' }))).execute()],
      ['a restore or bulk load (sigaf_rebuild_stats)', () => sql`select sigaf_rebuild_stats()`.execute(file.ctx.db)],
    ];
    expect(await apiTotal()).toBe(await liveTotal());
    for (const [what, change] of steps) {
      expect(await apiTotal(), `before: ${what}`).toBe(await liveTotal());
      await change();
      expect(await apiTotal(), what).toBe(await liveTotal());
      expect(await apiTotal(2), `${what}, page 2`).toBe(await liveTotal());
    }
  });

  it('a change to what a search does not match keeps the kept total, and the students\' version', async () => {
    const version = async () => (await file.ctx.db.selectFrom('answer_versions').select('version').where('scope', '=', -1).executeTakeFirstOrThrow()).version;
    const before = await version();
    await file.ctx.db.updateTable('registered_users').set({ phone: '+56 2 2222 2222', city: 'Arica' }).where('name', 'like', 'Quispe%').execute();
    expect(await version()).toBe(before);
    await file.ctx.db.updateTable('registered_users').set({ mother_last_name: 'Mamani' }).where('name', 'like', 'Quispe%').execute();
    expect(await version()).not.toBe(before);
    expect(await apiTotal()).toBe(await liveTotal());
  });
});
