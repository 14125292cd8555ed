import { startServer, api } from './load.js';
import { BENCH_ADMIN } from '../scripts/seed-large.js';
const app = await startServer('postgres://postgres@127.0.0.1:26432/sigaf_bench');
const token = (await api(app.url, 'POST', '/api/auth/login', undefined, { email: BENCH_ADMIN.email, password: BENCH_ADMIN.password })).access_token;
console.log(app.url, token);
await new Promise((r) => setTimeout(r, 600_000));
