import net from 'node:net';
import { MSG } from '@sigaf/contract';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { BENCH_ADMIN, seedLarge } from '../../../../scripts/seed-large.js';
import { call, freePort, startServer, testDatabase, type Answer } from './process.js';

/**
 * The database goes away while staff work, and comes back: the real server process answers 503
 * in the envelope meanwhile (never 500, never exits), recovers by itself, and no write is left
 * half done. PostgreSQL only (under `npm run test:pg`): the embedded database lives inside the
 * server process and cannot restart on its own.
 *
 * The restart is what the server sees of one: every backend of its database is terminated
 * (`pg_terminate_backend`, SQLSTATE 57P01 as in a shutdown) and, for the outage, connections are
 * refused (the server reaches PostgreSQL through a TCP relay in this test that stops listening).
 * The shared PostgreSQL of the test run is not restarted itself, since other test files use it
 * at the same time.
 */
const HAS_PG = Boolean(process.env.DATABASE_URL);
if (!HAS_PG)
  console.warn(
    '\n  faults/database-restart: SKIPPED (PostgreSQL only; runs under `npm run test:pg` with DATABASE_URL)\n',
  );

/** A TCP relay to PostgreSQL that can refuse connections and cut the open ones. */
class Relay {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  up(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    const server = this.server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
  }

  /** Stops listening (new connections refused) and cuts every open one. */
  down(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

describe.skipIf(!HAS_PG)('faults: the database restarts under load', () => {
  it('answers 503 in Spanish meanwhile, recovers without a process restart, and leaves no half-done write', async () => {
    const database = await testDatabase('faults_dbrestart');
    cleanups.push(() => database.dispose());
    const name = new URL(database.url).pathname.slice(1);
    // A small realistic data set (operators, courses, students, tickets with attempts).
    const seeding = await openDatabase({ url: database.url, dataDir: '' });
    await seedLarge(seeding.db, {
      tickets: 600,
      students: 200,
      courses: 2,
      seed: 3,
      now: new Date().toISOString().slice(0, 10),
      quiet: true,
    });
    await seeding.close();

    const direct = new pg.Client({
      connectionString: database.url,
      application_name: 'sigaf-faults-check',
    });
    await direct.connect();
    cleanups.push(() => direct.end());
    const one = async <T = Record<string, number>>(text: string, params: unknown[] = []) =>
      (await direct.query(text, params)).rows[0] as T;
    const course = await one<{ id: number }>(
      `select course_id as id from course_registered_users group by 1 order by count(*) desc, 1 limit 1`,
    );
    const enrolments = (
      await direct.query(
        `select e.id from course_registered_users e join profiles p on p.id = e.profile_id and p.key = 'student' where e.course_id = $1 order by e.id`,
        [course.id],
      )
    ).rows.map((r) => r.id as number);
    const key = async (table: string, k: string) =>
      (await one<{ id: number }>(`select id from ${table} where key = $1`, [k])).id;
    const ids = {
      open: await key('status_tickets', 'open'),
      medium: await key('priority_tickets', 'medium'),
      phone: await key('type_tickets', 'phone'),
      incoming: await key('source_tickets', 'incoming'),
      problem: await key('motive_tickets', 'problem'),
      success: await key('status_detail_tickets', 'success'),
    };
    const lastTicketBefore = (await one(`select coalesce(max(id), 0)::int as n from tickets`)).n!;

    const target = new URL(process.env.DATABASE_URL!);
    const relay = new Relay(await freePort(), {
      host: target.hostname,
      port: Number(target.port || 5432),
    });
    await relay.up();
    cleanups.push(() => relay.down());
    const viaRelay = new URL(database.url);
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String(relay.port);
    const server = await startServer({
      DATA_DIR: database.dataDir,
      DATABASE_URL: viaRelay.toString(),
    });
    cleanups.push(() => server.kill9());
    const pid = server.child.pid;
    const login = await call(server.url, 'POST', '/api/auth/login', undefined, {
      email: BENCH_ADMIN.email,
      password: BENCH_ADMIN.password,
    });
    expect(login.status).toBe(200);
    const token: string = login.body.access_token;

    // Staff at work: list, dashboard, create tickets three at a time with their first attempt.
    let running = true;
    const statuses = new Map<number, number>();
    const unavailable: Answer[] = [];
    const others: Array<{ what: string; answer: Answer }> = [];
    let networkErrors = 0;
    const createdOk: number[] = [];
    let createRefused = 0;
    let creates = 0;
    // Tickets created and given their first attempt, of creations asked for after the database came back.
    let restored = false;
    let createdAfterRestore = 0;
    const note = (what: string, a: Answer) => {
      statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      if (a.status === 503) unavailable.push(a);
      else if (a.status >= 300) others.push({ what, answer: a });
      return a;
    };
    const request = async (what: string, method: string, url: string, body?: unknown) => {
      try {
        return note(what, await call(server.url, method, url, token, body));
      } catch {
        // The server did not answer at all (it would have crashed): counted, and the client stops.
        networkErrors++;
        running = false;
        return { status: 0, body: null };
      }
    };
    let next = 0;
    const client = async () => {
      while (running) {
        await request(
          'list',
          'GET',
          `/api/v2/tickets?course_id=${course.id}&page=1&perPage=10&status=all`,
        );
        await request('dashboard', 'GET', `/api/v2/tickets/${course.id}/open/count`);
        const batch = [0, 1, 2].map(() => enrolments[next++ % enrolments.length]!);
        creates++;
        const afterRestore = restored;
        const made = await request('create', 'POST', '/api/v2/tickets/multiple', {
          course_registered_user_id: batch,
          type_ticket_id: ids.phone,
          status_ticket_id: ids.open,
          priority_ticket_id: ids.medium,
          source_ticket_id: ids.incoming,
          motive_ticket_id: ids.problem,
        });
        if (made.status === 0) break;
        if (made.status !== 201 && made.status !== 200) {
          createRefused++;
          continue;
        }
        const ticketIds = (made.body._data as Array<{ properties: { id: number } }>).map(
          (t) => t.properties.id,
        );
        // The first attempt, retried (as the client would) until the database is back.
        for (;;) {
          const a = await request('attempt', 'POST', '/api/v2/ticket-details/multiple', {
            ticket_id: ticketIds,
            status_detail_ticket_id: ids.success,
            comment: 'Primer intento de contacto.',
          });
          if (a.status < 300 || a.status === 0) break;
          if (!running && a.status !== 503) break;
          await new Promise((r) => setTimeout(r, 200));
        }
        createdOk.push(...ticketIds);
        if (afterRestore) createdAfterRestore += ticketIds.length;
      }
    };
    const clients = Array.from({ length: 8 }, () => client());

    // Waits on what the staff see, not on time: the conditions below, checked every 50 ms.
    const answers = () => [...statuses.values()].reduce((a, b) => a + b, 0);
    const until = async (
      what: string,
      done: () => boolean | Promise<boolean>,
      timeoutMs = 60_000,
    ) => {
      for (
        const deadline = Date.now() + timeoutMs;
        !(await done());
        await new Promise((r) => setTimeout(r, 50))
      ) {
        if (Date.now() > deadline || !running)
          throw new Error(
            `faults/database-restart: ${what} did not happen (answers ${JSON.stringify(Object.fromEntries(statuses))}, ${networkErrors} network errors)\n${server.output()}`,
          );
      }
    };
    // Work under way before the restart: tickets created with their first attempt, lists and counts read.
    await until('work before the restart', () => createdOk.length >= 12 && answers() >= 60);
    const beforeOutage = statuses.get(503) ?? 0;
    // The restart: every backend of the database terminated, connections refused until the staff
    // have been answered 503 a number of times (and /health has said so).
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const terminated = (
      await admin.query(
        `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and application_name <> 'sigaf-faults-check'`,
        [name],
      )
    ).rows[0].n;
    await relay.down();
    let health: Answer | undefined;
    await until('/health answering 503 during the outage', async () => {
      health = await call(server.url, 'GET', '/health').catch((err) => {
        throw new Error(`/health during the outage: ${String(err)}\n${server.output()}`);
      });
      return health.status === 503;
    });
    await until('answers 503 to the staff during the outage', () => unavailable.length >= 16);
    await relay.up();
    restored = true;
    await admin.end();
    // Staff keep working after the restart: tickets asked for since then created with their first attempt.
    await until('work after the restart', () => createdAfterRestore >= 12);
    running = false;
    await Promise.all(clients);

    expect(server.child.exitCode, server.output()).toBeNull();
    const healthAfter = await call(server.url, 'GET', '/health');
    const finalList = await call(
      server.url,
      'GET',
      `/api/v2/tickets?course_id=${course.id}&page=1&perPage=10&status=all`,
      token,
    );
    console.log(
      `faults/database-restart: ${terminated} backends terminated; answers ${JSON.stringify(Object.fromEntries(statuses))}; ${creates} creations (${createRefused} refused), ${createdOk.length} tickets created`,
    );

    // The fault happened: the server's connections were cut.
    expect(terminated).toBeGreaterThan(0);
    // The process never went down, and is healthy again.
    expect(server.child.exitCode, server.output()).toBeNull();
    expect(server.child.pid).toBe(pid);
    expect(healthAfter.status).toBe(200);
    expect(healthAfter.body).toMatchObject({ status: 'ok', database: 'ok' });
    expect(finalList.status).toBe(200);
    // Meanwhile: 503 in the envelope with the Spanish message; /health says the database is unreachable.
    expect(health!.status).toBe(503);
    expect(health!.body).toMatchObject({ database: 'unreachable' });
    expect(beforeOutage).toBe(0);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const a of unavailable)
      expect(a.body).toMatchObject({
        success: false,
        error: MSG.unavailable,
        statusCode: 503,
        message: MSG.unavailable,
      });
    expect(others, JSON.stringify(others.slice(0, 3))).toEqual([]);
    expect(networkErrors).toBe(0);
    expect(server.output()).not.toMatch(/unhandled error/);

    // No half-done write: every ticket has its creation in the history, every attempt its entry,
    // creations of three came in threes, codes have no gaps, the kept counts match the rows.
    const q = async (text: string) => (await one(text)).n!;
    const newTickets = await q(
      `select count(*)::int as n from tickets where id > ${lastTicketBefore}`,
    );
    expect(
      await q(
        `select count(*)::int as n from tickets t where t.id > ${lastTicketBefore} and not exists (select 1 from ticket_history h where h.ticket_id = t.id and h.action = 'create')`,
      ),
    ).toBe(0);
    expect(newTickets % 3).toBe(0);
    expect(newTickets).toBeGreaterThanOrEqual(createdOk.length);
    expect(newTickets).toBeLessThanOrEqual(createdOk.length + 3 * createRefused);
    expect(
      await q(
        `select count(*)::int as n from ticket_details d where d.ticket_id > ${lastTicketBefore}`,
      ),
    ).toBe(
      await q(
        `select count(*)::int as n from ticket_history h where h.ticket_id > ${lastTicketBefore} and h.action = 'add_attempt'`,
      ),
    );
    const withoutAttempt = (
      await direct.query(
        `select t.id from tickets t where t.id = any($1::int[]) and not exists (select 1 from ticket_details d where d.ticket_id = t.id)`,
        [createdOk],
      )
    ).rows;
    expect(withoutAttempt).toEqual([]);
    const codes = await one<{ n: number; top: number; distinct_codes: number }>(
      `select count(*)::int as n, max(substring(ticket_code from '-(\\d+)$')::int) as top, count(distinct ticket_code)::int as distinct_codes from tickets where course_id = $1`,
      [course.id],
    );
    expect(codes.distinct_codes).toBe(codes.n);
    expect(codes.top).toBe(codes.n);
    expect(
      await q(
        `select count(*)::int as n from (select course_id, count(*) as c from tickets group by 1) t full join (select course_id, sum(n) as c from ticket_counts where dim = (select min(dim) from ticket_counts) group by 1) k using (course_id) where coalesce(t.c, 0) <> coalesce(k.c, 0)`,
      ),
    ).toBe(0);
  }, 240_000);
});
