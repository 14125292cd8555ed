import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { Database } from '../src/db/database.js';
import { JobWorker } from '../src/jobs/worker.js';
import type { TestContext } from './helpers.js';
import { seedChain } from './data.js';

let seq = 0;

/**
 * A course with `n` e-mail tickets, one per student (bulk inserts, so 500 take a moment).
 * Student i is "Nombre{i} Apellido{i}" <alumno{i}.{tag}@correo.test> unless `noEmail` has i.
 */
export async function seedMailTickets(
  db: Database,
  creatorId: number,
  n: number,
  opts: { noEmail?: number[]; courseEmail?: string | null; coursePassword?: string | null } = {},
) {
  // Short: RUTs are at most 12 characters (`{tag}{i}-K`).
  const tag = `${++seq % 10}${1000 + Math.floor(Math.random() * 9000)}`;
  const chain = await seedChain(db, creatorId, tag);
  await db
    .updateTable('courses')
    .set({
      email: opts.courseEmail === undefined ? 'curso@sigaf.test' : opts.courseEmail,
      password_encrypted: opts.coursePassword ?? null,
    })
    .where('id', '=', chain.course)
    .execute();
  const ref = await db
    .selectFrom('tickets')
    .selectAll()
    .where('id', '=', chain.ticket)
    .executeTakeFirstOrThrow();
  const email = (
    await db
      .selectFrom('type_tickets')
      .select('id')
      .where('key', '=', 'email')
      .executeTakeFirstOrThrow()
  ).id;
  const profile = (
    await db
      .selectFrom('course_registered_users')
      .select('profile_id')
      .where('id', '=', chain.enrolment)
      .executeTakeFirstOrThrow()
  ).profile_id;
  const students = await db
    .insertInto('registered_users')
    .values(
      Array.from({ length: n }, (_, i) => ({
        rut: `${tag}${i}-K`,
        name: `Nombre${i}`,
        last_name: `Apellido${i}`,
        email: opts.noEmail?.includes(i) ? null : `alumno${i}.${tag}@correo.test`,
      })),
    )
    .returning('id')
    .execute();
  const enrolments = await db
    .insertInto('course_registered_users')
    .values(
      students.map((s) => ({
        course_id: chain.course,
        registered_user_id: s.id,
        profile_id: profile,
        classroom_id: chain.classroom,
      })),
    )
    .returning('id')
    .execute();
  const tickets = await db
    .insertInto('tickets')
    .values(
      enrolments.map((e, i) => ({
        course_registered_user_id: e.id,
        course_id: chain.course,
        ticket_code: `MAIL-${tag}-${i}`,
        type_ticket_id: email,
        status_ticket_id: ref.status_ticket_id,
        priority_ticket_id: ref.priority_ticket_id,
        source_ticket_id: ref.source_ticket_id,
        motive_ticket_id: ref.motive_ticket_id,
        user_create_id: creatorId,
        user_assigned_id: creatorId,
      })),
    )
    .returning('id')
    .execute();
  return {
    ...chain,
    tag,
    tickets: tickets.map((t) => t.id),
    address: (i: number) => `alumno${i}.${tag}@correo.test`,
  };
}

export function tempDir(prefix = 'sigaf-mail-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A worker over the app's queue and handlers, fast enough for tests. */
export function testWorker(
  ctx: TestContext,
  opts: { concurrency?: number; retryBaseMs?: number; staleMs?: number; id?: string } = {},
) {
  const { queue, handlers } = ctx.app.services.jobs;
  return new JobWorker(queue, handlers, {
    concurrency: opts.concurrency ?? 4,
    pollMs: 25,
    retryBaseMs: opts.retryBaseMs ?? 100,
    retryMaxMs: 2000,
    staleMs: opts.staleMs ?? 60_000,
    id: opts.id,
  });
}

export async function waitFor<T>(
  check: () => Promise<T | false | null | undefined>,
  timeoutMs = 30_000,
  what = 'condition',
): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Counts of the outbox by status. */
export async function outboxCounts(db: Database) {
  const rows = await db
    .selectFrom('mail_messages')
    .select(['status', sql<number>`count(*)`.as('n')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) as Partial<
    Record<'queued' | 'sending' | 'sent' | 'failed', number>
  >;
}

/** A multipart/form-data body for app.inject. */
export function multipart(
  fields: Record<string, string>,
  files: Array<{ field?: string; name: string; content: Buffer; type?: string }> = [],
) {
  const boundary = `----sigaf${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    );
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'file'}"; filename="${f.name}"\r\nContent-Type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
    );
    parts.push(f.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A minimal valid PDF. */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
/** A 1x1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

type Call = (method: 'GET' | 'POST', url: string) => Promise<{ status: number; body: any }>;

/** Queues a full Moodle sync of the course through the API, waits for its job to end, and returns the status answer. */
export async function syncCourseAndWait(ctx: TestContext, call: Call, courseId: number) {
  const queued = await call('POST', `/api/v2/sync/courses/${courseId}`);
  if (queued.status !== 202)
    throw new Error(`sync not queued: ${queued.status} ${JSON.stringify(queued.body)}`);
  const jobId = queued.body._data.jobId as number;
  await waitFor(
    async () => {
      const job = await ctx.app.services.jobs.queue.get(jobId);
      return job && ['done', 'failed'].includes(job.status);
    },
    30_000,
    'the sync job',
  );
  return (await call('GET', `/api/v2/sync/courses/${courseId}/status`)).body._data;
}

/** Runs a worker until no message is waiting or being sent. */
export async function deliverAll(ctx: TestContext) {
  const worker = testWorker(ctx);
  worker.start();
  try {
    await waitFor(
      async () => {
        const c = await outboxCounts(ctx.db);
        return !c.queued && !c.sending;
      },
      20_000,
      'outbox drained',
    );
  } finally {
    await worker.stop();
  }
}
