import zlib from 'node:zlib';
import { openDatabase } from '../apps/server/src/db/database.js';
import { loadConfig } from '../apps/server/src/config.js';
import { buildApp } from '../apps/server/src/app.js';
const url = 'postgres://postgres@127.0.0.1:26432/sigaf_bench';
const handle = await openDatabase({ url, dataDir: '' });
const app = await buildApp(loadConfig({}, { LOG_LEVEL: 'silent', SERVE_WEB: false, APP_SECRET: 'test-secret-test-secret-test-secret', DATABASE_URL: url }), handle.db);
await app.ready();
const token = (await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'bench-admin@sigaf.cl', password: 'Bench-Password-1' } })).json().access_token;
const b = (await app.inject({ method: 'GET', url: '/api/v2/tickets/course-registered-users/course/22', headers: { authorization: `Bearer ${token}` } })).rawPayload;
console.log('raw', b.length);
for (const l of [1, 6]) { const t = Date.now(); const o = zlib.gzipSync(b, { level: l }); console.log('gzip', l, o.length, Date.now() - t, 'ms'); }
for (const q of [4, 5, 7, 9]) { const t = Date.now(); const o = zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: q, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length } }); console.log('br', q, o.length, Date.now() - t, 'ms'); }
await app.close(); await handle.close();
