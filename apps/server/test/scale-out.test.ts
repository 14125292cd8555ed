import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { TEST_ADMIN } from './fixtures.js';
import { withDatabase } from './global-setup.js';
import { seedMailTickets, waitFor } from './mail-data.js';
import { callApi, spawnServer } from './server-process.js';

/**
 * Two server processes on one PostgreSQL database, a mixed workload through both: sign-ins and
 * tokens, the login failure limit, concurrent ticket creation, mail jobs claimed by both workers,
 * and the ticket counts the dashboards read. Only with DATABASE_URL (`npm run test:pg`): PGlite
 * is one process's embedded database.
 */
const URL_ = process.env.DATABASE_URL;
if (!URL_)
  console.warn(
    '\n  scale-out.test.ts SKIPPED: it needs a PostgreSQL server (DATABASE_URL, as in `npm run test:pg`).\n',
  );
const describePg = URL_ ? describe : describe.skip;

interface Server {
  url: string;
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

async function startServer(databaseUrl: string, name: string): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sigaf-scale-${name}-`));
  const server = await spawnServer(
    {
      SMTP_URL: '',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      APP_SECRET: 'scale-out-secret-scale-out-secret-0123',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      SERVE_WEB: 'false',
      SYNC_SCHEDULE: 'off',
      JOBS_POLL_MS: '50',
    },
    { name, removeDataDir: dataDir },
  );
  return { url: server.url, dataDir, output: server.output, stop: server.stop };
}

const call = (server: Server, method: string, url: string, token?: string, body?: unknown) =>
  callApi(server.url, method, url, token, body);

describePg('two server processes on one PostgreSQL', () => {
  let handle: DatabaseHandle;
  let a: Server;
  let b: Server;
  let dbName = '';
  let course: Awaited<ReturnType<typeof seedMailTickets>>;
  let adminId = 0;

  beforeAll(async () => {
    dbName = `sigaf_test_scale_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: URL_ });
    await admin.connect();
    await admin.query(`create database ${dbName} template ${inject('pgTemplate')}`);
    await admin.end();
    const dbUrl = withDatabase(URL_!, dbName);
    handle = await openDatabase({ url: dbUrl, dataDir: '' });
    const row = await handle.db
      .updateTable('users')
      .set({ is_first_login: 1 })
      .where('email', '=', TEST_ADMIN.email)
      .returning('id')
      .executeTakeFirstOrThrow();
    adminId = row.id;
    course = await seedMailTickets(handle.db, adminId, 24);
    [a, b] = await Promise.all([startServer(dbUrl, 'a'), startServer(dbUrl, 'b')]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await handle?.close();
    const admin = new pg.Client({ connectionString: URL_ });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }, 60_000);

  const login = (server: Server) =>
    call(server, 'POST', '/api/auth/login', undefined, {
      email: TEST_ADMIN.email,
      password: TEST_ADMIN.password,
    });

  it('a token from one process works on the other, and a logout on one revokes it on both', async () => {
    // One sign-in first: from then on this address is a known one for the account, held by the
    // larger allowance of a known address, in which checks in flight count (security.test.ts
    // tests the limits); then seven at once on both.
    const first = await login(a);
    const logins = [
      first,
      ...(await Promise.all(Array.from({ length: 7 }, (_, i) => login(i % 2 ? a : b)))),
    ];
    for (const l of logins) expect(l.status).toBe(200);
    const tokens = logins.map((l) => l.body.access_token as string);
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const [i, token] of tokens.entries())
      expect((await call(i % 2 ? a : b, 'GET', '/api/auth/user', token)).status).toBe(200);
    expect((await call(a, 'GET', '/api/auth/logout', tokens[0])).status).toBe(200);
    expect((await call(b, 'GET', '/api/auth/user', tokens[0])).status).toBe(401);
    expect((await call(b, 'GET', '/api/auth/user', tokens[1])).status).toBe(200);
  });

  it('the login failure limit is shared: failures on both processes add up', async () => {
    const email = `nadie.${Date.now()}@sigaf.test`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (
          await call(i % 2 ? b : a, 'POST', '/api/auth/login', undefined, {
            email,
            password: 'mala-clave-1',
          })
        ).status,
      );
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
    expect(
      (await call(a, 'POST', '/api/auth/login', undefined, { email, password: 'mala-clave-1' }))
        .status,
    ).toBe(429);
  });

  it('concurrent ticket creation through both gives unique, gap-free codes and exact dashboard counts', async () => {
    const token = (await login(a)).body.access_token as string;
    const ref = await handle.db
      .selectFrom('tickets')
      .selectAll()
      .where('id', '=', course.tickets[0]!)
      .executeTakeFirstOrThrow();
    const enrolments = (
      await handle.db
        .selectFrom('course_registered_users')
        .select('id')
        .where('course_id', '=', course.course)
        .execute()
    ).map((e) => e.id);
    const before = await handle.db
      .selectFrom('tickets')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('course_id', '=', course.course)
      .executeTakeFirstOrThrow();
    const outcome = (
      await handle.db
        .selectFrom('status_detail_tickets')
        .select('id')
        .where('key', '=', 'success')
        .executeTakeFirstOrThrow()
    ).id;
    const created = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const server = i % 2 ? b : a;
        const t = await call(server, 'POST', '/api/v2/tickets', token, {
          course_registered_user_id: enrolments[i % enrolments.length],
          type_ticket_id: ref.type_ticket_id,
          status_ticket_id: ref.status_ticket_id,
          priority_ticket_id: ref.priority_ticket_id,
          source_ticket_id: ref.source_ticket_id,
          motive_ticket_id: ref.motive_ticket_id,
        });
        expect(t.status, JSON.stringify(t.body)).toBe(201);
        const d = await call(i % 2 ? a : b, 'POST', '/api/v2/ticket-details', token, {
          ticket_id: t.body._data.properties.id,
          status_detail_ticket_id: outcome,
          comment: `Intento ${i}`,
        });
        expect(d.status, JSON.stringify(d.body)).toBe(201);
        return t.body._data.properties.ticketCode as string;
      }),
    );
    expect(new Set(created).size).toBe(40);
    const numbers = created.map((c) => Number(c.split('-').pop())).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 40 }, (_, i) => numbers[0]! + i));

    // What the dashboards read (counts kept by triggers) is what the tickets say, on both processes.
    const total = before.n + 40;
    for (const server of [a, b])
      expect(
        (await call(server, 'GET', `/api/v2/tickets/${course.course}/total/count`, token)).body,
      ).toBe(total);
    const drift = await sql<{ n: number }>`
      select count(*)::int as n from (
        select course_id, status_ticket_id, type_ticket_id, count(*)::int as n from tickets group by 1, 2, 3
      ) t full join (
        select course_id, status_ticket_id, value as type_ticket_id, n from ticket_counts where dim = 1 and n <> 0
      ) k using (course_id, status_ticket_id, type_ticket_id)
      where t.n is distinct from k.n`.execute(handle.db);
    expect(drift.rows[0]!.n).toBe(0);
  });

  it('a write the database undoes in a deadlock answers 503 in Spanish, leaves nothing of itself, and succeeds when sent again', async () => {
    const token = (await login(a)).body.access_token as string;
    const ticketId = course.tickets[0]!;
    const outcome = (
      await handle.db
        .selectFrom('status_detail_tickets')
        .select('id')
        .where('key', '=', 'success')
        .executeTakeFirstOrThrow()
    ).id;
    const attempts = async () =>
      (
        await handle.db
          .selectFrom('ticket_details')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('ticket_id', '=', ticketId)
          .executeTakeFirstOrThrow()
      ).n;
    const before = await attempts();
    // A colleague's transaction holds the course's version row, the attempt's statement waits for
    // it while holding its ticket's row, and the colleague then asks for that row: a cycle the
    // database breaks by undoing the attempt (it checks first: its deadlock_timeout is the shorter).
    const other = new pg.Client({ connectionString: withDatabase(URL_!, dbName) });
    await other.connect();
    try {
      await other.query(`set deadlock_timeout = '30s'`);
      await other.query('begin');
      await other.query(
        'insert into answer_versions (scope, version) values ($1, 1) on conflict do nothing',
        [course.course],
      );
      await other.query('select version from answer_versions where scope = $1 for update', [
        course.course,
      ]);
      const sent = call(a, 'POST', '/api/v2/ticket-details', token, {
        ticket_id: ticketId,
        status_detail_ticket_id: outcome,
        comment: 'Bloqueado',
      });
      await waitFor(
        async () =>
          (
            await sql<{
              n: number;
            }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(
              handle.db,
            )
          ).rows[0]!.n > 0,
        10_000,
        'the attempt waiting for the version row',
      );
      await other.query('update tickets set updated_at = now() where id = $1', [ticketId]);
      const res = await sent;
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.body.message).toBe(
        'El servicio no está disponible en este momento. Intente nuevamente.',
      );
    } finally {
      await other.query('rollback');
      await other.end();
    }
    expect(await attempts()).toBe(before);
    const again = await call(a, 'POST', '/api/v2/ticket-details', token, {
      ticket_id: ticketId,
      status_detail_ticket_id: outcome,
      comment: 'Bloqueado',
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(await attempts()).toBe(before + 1);
  }, 60_000);

  it('mail jobs queued through both are each delivered once by one of the two workers', async () => {
    const token = (await login(b)).body.access_token as string;
    const queued = await Promise.all(
      course.tickets.map(async (ticketId, i) => {
        const res = await call(i % 2 ? b : a, 'POST', '/api/v2/mail/single', token, {
          ticketId,
          subject: `Aviso ${i}`,
          text: `<p>Hola {nombre}, mensaje ${i}</p>`,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body._data.messages[0] as number;
      }),
    );
    await waitFor(
      async () => {
        const rows = await handle.db
          .selectFrom('mail_messages')
          .select(['status'])
          .where('id', 'in', queued)
          .execute();
        return rows.every((r) => r.status === 'sent');
      },
      60_000,
      'every message sent',
    );
    const messages = await handle.db
      .selectFrom('mail_messages')
      .select(['id', 'message_id', 'attempts'])
      .where('id', 'in', queued)
      .execute();
    const files = [a, b].flatMap((s) => {
      const dir = path.join(s.dataDir, 'outbox');
      return fs.existsSync(dir)
        ? fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
        : [];
    });
    expect(files).toHaveLength(queued.length);
    for (const m of messages) {
      expect(m.attempts).toBe(1);
      expect(files.filter((f) => f.includes(m.message_id.replace(/^<|>$/g, '')))).toHaveLength(1);
    }
    const jobs = await handle.db
      .selectFrom('jobs')
      .select(['status', 'attempts'])
      .where('type', '=', 'mail.send')
      .execute();
    expect(jobs.length).toBeGreaterThanOrEqual(queued.length);
    for (const j of jobs) expect(j).toMatchObject({ status: 'done', attempts: 1 });
  }, 90_000);
});
