import { sql } from 'kysely';
import { openDatabase } from '../apps/server/src/db/database.js';
import { BENCH_ADMIN } from '../scripts/seed-large.js';
import { api, context, drain, endpoints, load, startServer } from './load.js';
import { dashboardRender } from './render.js';
const dbUrl = 'postgres://postgres@127.0.0.1:26432/sigaf_bench';
const h = await openDatabase({ url: dbUrl, dataDir: '' });
const app = await startServer(dbUrl);
const { rows: [before] } = await sql<{ id: number }>`select coalesce(max(id), 0)::int as id from tickets`.execute(h.db);
try {
  const c = await context(h.db);
  const token = (await api(app.url, 'POST', '/api/auth/login', undefined, { email: BENCH_ADMIN.email, password: BENCH_ADMIN.password })).access_token as string;
  const only = (process.env.ONLY ?? 'tickets.create').split(',');
  for (const ep of endpoints(c, h.db).filter((e) => only.includes(e.name))) {
    for (const n of [10, 50]) { const r = await load(app.url, token, ep, n, 5); await drain(app.url); console.log(ep.name, n, r.p95, r.errors); }
  }
  console.log(await dashboardRender(app.url, token, h.db, c.courseId, 1));
} finally {
  await app.stop();
  await sql`delete from tickets where id > ${before!.id}`.execute(h.db);
  await h.close();
}
