import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/database.js';
import { buildApp } from '../apps/server/src/app.js';
const url = 'postgres://postgres@127.0.0.1:26432/sigaf_bench';
const handle = await openDatabase({ url, dataDir: '' });
const config = loadConfig({}, { LOG_LEVEL: 'silent', SERVE_WEB: false, APP_SECRET: 'test-secret-test-secret-test-secret', DATABASE_URL: url });
const app = await buildApp(config, handle.db);
await app.ready();
const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'bench-admin@sigaf.cl', password: 'Bench-Password-1' } });
const token = login.json().access_token;
if (!token) { console.log(login.body); process.exit(1); }
const acts = (await handle.db.selectFrom('activities').select('id').where('course_id','=',22).execute()).map(a=>a.id).slice(0,3);
for (const u of [`/api/v2/activities/${JSON.stringify(acts)}/course-registered-users/22`, '/api/v2/course-registered-user/22/users/all']) {
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const r = await app.inject({ method: 'GET', url: u, headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' } });
    console.log(u, r.statusCode, (r.rawPayload.length / 1e6).toFixed(1), 'MB', (performance.now() - t).toFixed(0), 'ms', JSON.stringify(app.services.answers.counts));
  }
}
const a = app.services.answers;
for (let i = 0; i < 3; i++) { const t = performance.now(); for (let j = 0; j < 20; j++) await a.get('x', 22, async () => ({ value: { a: 1 } }), true); console.log('get x20', (performance.now() - t).toFixed(1)); }
const u2 = `/api/v2/activities/${JSON.stringify(acts)}/course-registered-users/22`;
for (let i = 0; i < 3; i++) { const t = performance.now(); for (let j = 0; j < 20; j++) await app.inject({ method: 'GET', url: u2, headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' } }); console.log('inject x20', (performance.now() - t).toFixed(1)); }
for (let i = 0; i < 3; i++) { const t = performance.now(); for (let j = 0; j < 20; j++) await app.inject({ method: 'GET', url: '/api/v2/courses/22', headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' } }); console.log('course x20', (performance.now() - t).toFixed(1)); }
await app.close(); await handle.close();
