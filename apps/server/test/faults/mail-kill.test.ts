import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { BENCH_ADMIN, seedLarge } from '../../../../scripts/seed-large.js';
import { call, freePort, startServer, testDatabase, type ServerProcess } from './process.js';

/**
 * A massive mail through the real server process and a real SMTP server: the SMTP server is
 * down when the mail is queued (every message fails its first attempt and waits for the next),
 * comes up (delivery resumes), and the server is killed with SIGKILL in the middle of the
 * delivery. After a restart on the same database every message has arrived exactly once: none
 * lost, none twice. On the embedded database (DATA_DIR survives the kill) or on PostgreSQL.
 *
 * The SMTP server here can hold its answer to DATA: the kill lands while messages are being
 * transferred (accepted by nobody yet: a message whose 250 never reached the sender is not
 * delivered, as RFC 5321 has it), and no acknowledgement is on its way at that instant.
 */
const MESSAGES = 100;
const CONCURRENCY = 4;

interface Received {
  messageId: string;
  to: string[];
}

/** A real SMTP server with a gate: closed, it holds every DATA answer until opened. */
class GatedSmtp {
  readonly received: Received[] = [];
  holding = 0;
  lastAnswer = 0;
  private open = true;
  private readonly waiting: Array<{ session: string; go: () => void }> = [];
  private readonly gone = new Set<string>();
  private server: SMTPServer | null = null;
  constructor(readonly port: number) {}

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const s = new SMTPServer({
      logger: false,
      secure: false,
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      allowInsecureAuth: true,
      closeTimeout: 100,
      onClose: (session) => this.gone.add(session.id),
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const answer = () => {
            // The sender is gone: it never gets the 250, so the message is not taken.
            if (this.gone.has(session.id)) return callback(new Error('connection closed'));
            const raw = Buffer.concat(chunks).toString('utf8');
            const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
            this.received.push({
              messageId: /^message-id:\s*(.+)$/im.exec(head)?.[1]?.trim() ?? '',
              to: session.envelope.rcptTo.map((r) => r.address),
            });
            this.lastAnswer = Date.now();
            callback();
          };
          if (this.open) return answer();
          this.holding++;
          this.waiting.push({
            session: session.id,
            go: () => {
              this.holding--;
              answer();
            },
          });
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = s;
  }

  async stop(): Promise<void> {
    this.release();
    const s = this.server;
    this.server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  hold() {
    this.open = false;
  }

  release() {
    this.open = true;
    for (const w of this.waiting.splice(0)) w.go();
  }

  /** Every connection with a held transfer has closed. */
  heldClosed(): boolean {
    return this.waiting.every((w) => this.gone.has(w.session));
  }
}

async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  server?: ServerProcess,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${server ? `\n${server.output()}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

describe('faults: massive mail', () => {
  it('SMTP down then up, and kill -9 mid-delivery: after restart every message arrived exactly once', async () => {
    const database = await testDatabase('faults_mail');
    cleanups.push(() => database.dispose());
    const seeding = await openDatabase({
      url: database.url || undefined,
      dataDir: database.dataDir,
    });
    await seedLarge(seeding.db, {
      tickets: 400,
      students: 300,
      courses: 1,
      seed: 5,
      now: new Date().toISOString().slice(0, 10),
      quiet: true,
    });
    // One ticket per student, each student with an e-mail address.
    const tickets = (
      await sql<{
        id: number;
      }>`select min(t.id)::int as id from tickets t join course_registered_users e on e.id = t.course_registered_user_id
        join registered_users u on u.id = e.registered_user_id where u.email is not null group by e.id order by 1 limit ${MESSAGES}`.execute(
        seeding.db,
      )
    ).rows.map((r) => r.id);
    await seeding.close();
    expect(tickets).toHaveLength(MESSAGES);

    const smtp = new GatedSmtp(await freePort());
    cleanups.push(() => smtp.stop());
    const env = {
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.url,
      SMTP_URL: smtp.url,
      JOBS_CONCURRENCY: String(CONCURRENCY),
      JOBS_RETRY_BASE_MS: '1000',
      JOBS_STALE_MS: '3000',
      JOBS_POLL_MS: '250',
    };
    let server = await startServer(env);
    cleanups.push(() => server.kill9());
    const signIn = async () =>
      (
        await call(server.url, 'POST', '/api/auth/login', undefined, {
          email: BENCH_ADMIN.email,
          password: BENCH_ADMIN.password,
        })
      ).body.access_token as string;
    let token = await signIn();
    const outbox = async (status: string) =>
      (
        await call(
          server.url,
          'GET',
          `/api/v2/mail/outbox?page=1&perPage=100${status ? `&status=${status}` : ''}`,
          token,
        )
      ).body._data;

    // SMTP down: the mail is queued; every message fails its first attempt and waits, error kept.
    const res = await call(server.url, 'POST', '/api/v2/mail/massive', token, {
      ticketsId: tickets,
      subject: 'Aviso para {nombre}',
      text: '<p>Hola {nombre}, tu código es {codigo_ticket}.</p>',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body._data.messages).toHaveLength(MESSAGES);
    await waitFor(
      'first attempts to fail',
      async () => {
        const rows = (await outbox('')).collections as Array<{
          properties: { status: string; attempts: number; lastError: string | null };
        }>;
        return (
          rows.length === MESSAGES &&
          rows.every(
            (r) =>
              r.properties.attempts >= 1 &&
              r.properties.status === 'queued' &&
              r.properties.lastError,
          )
        );
      },
      30_000,
      server,
    );
    expect(smtp.received).toHaveLength(0);

    // SMTP up: delivery resumes. Part way, the SMTP server holds its answers, and the server is killed.
    await smtp.start();
    await waitFor(
      'a third of the messages',
      () => smtp.received.length >= MESSAGES / 3,
      60_000,
      server,
    );
    smtp.hold();
    await waitFor(
      'transfers in flight and no acknowledgement on its way',
      () => smtp.holding >= 1 && Date.now() - smtp.lastAnswer > 500,
      30_000,
      server,
    );
    const before = smtp.received.length;
    const inFlight = smtp.holding;
    await server.kill9();
    await waitFor("the killed server's connections to close", () => smtp.heldClosed(), 10_000);
    smtp.release();
    console.log(
      `faults/mail-kill: killed with ${before} of ${MESSAGES} delivered and ${inFlight} in transfer (${database.url ? 'PostgreSQL' : 'embedded database'})`,
    );
    expect(before).toBeLessThan(MESSAGES);

    // Restart on the same database: the interrupted jobs are recovered and everything arrives.
    server = await startServer(env);
    token = await signIn();
    await waitFor(
      'every message sent',
      async () => (await outbox('sent')).meta.total === MESSAGES,
      90_000,
      server,
    );
    await new Promise((r) => setTimeout(r, 1000));

    const ids = smtp.received.map((m) => m.messageId);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(MESSAGES);
    expect(smtp.received).toHaveLength(MESSAGES);
    expect(new Set(smtp.received.map((m) => m.to[0])).size).toBe(MESSAGES);
    expect((await outbox('failed')).meta.total).toBe(0);
    expect(smtp.received.length - before).toBeGreaterThanOrEqual(inFlight);
    await server.stop();
  }, 300_000);
});
