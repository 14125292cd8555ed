import { startMoodleSim, type SimServer } from '../../../../tools/moodle-sim/src/server.js';
import {
  DEMO_PASSWORD,
  DEMO_STAFF,
  demoSite,
  seedDemo,
  type DemoSummary,
} from '../../src/demo/seed.js';
import type { JobWorker } from '../../src/jobs/worker.js';
import { createTestContext, type TestContext } from '../helpers.js';
import { testWorker, waitFor } from '../mail-data.js';
import { sql } from 'kysely';
import type { z } from 'zod';

/**
 * The original SIGAF 1.8.6 web client, as it talks to a server (docs/development/original-api.md#general-rules): every
 * request carries `Content-Type: application/json; charset=UTF-8`, `Accept: application/json` and
 * `X-Requested-With: XMLHttpRequest`; GETs have no body, DELETEs the literal body `true`; after a
 * sign-out the header is the literal `Authorization: null`; paths are joined to the backend root
 * whether or not they start with `/`, and absolute URLs (from `links.href`) are called as given.
 */
export interface OriginalClient {
  /** The bearer token in use, or null (then `Authorization: null` is sent, as axios does). */
  token: string | null;
  call(method: string, url: string, body?: unknown): Promise<ClientAnswer>;
  /** Calls a followed `links.href` as the client would: absolute as given, relative to the backend root. */
  follow(href: string): Promise<ClientAnswer>;
  signIn(email: string, password: string): Promise<ClientAnswer>;
}

export interface ClientAnswer {
  status: number;
  headers: Record<string, unknown>;
  /** Parsed JSON, or the raw text when the answer is not JSON. */
  body: any;
  raw: Buffer;
}

/** The backend root the client was built with (`VUE_APP_BACKEND_URL`), as seen by the server. */
export const BACKEND = 'http://sigaf.test';

export function originalClient(ctx: TestContext): OriginalClient {
  const client: OriginalClient = {
    token: null,
    async call(method, url, body) {
      const m = method.toUpperCase();
      let path = url;
      if (/^([a-z][a-z\d+\-.]*:)?\/\//i.test(url)) {
        const parsed = new URL(url, BACKEND);
        path = `${parsed.pathname}${parsed.search}`;
      } else path = `/${url.replace(/^\/+/, '')}`;
      const headers: Record<string, string> = {
        'content-type': 'application/json; charset=UTF-8',
        accept: 'application/json',
        'x-requested-with': 'XMLHttpRequest',
        host: new URL(BACKEND).host,
        authorization: client.token ? `Bearer ${client.token}` : 'null',
      };
      let payload: string | undefined;
      if (m === 'DELETE') payload = 'true';
      else if (m !== 'GET' && body !== undefined) payload = JSON.stringify(body);
      const res = await ctx.app.inject({ method: m as 'GET', url: path, headers, payload });
      let parsed: unknown = res.body;
      try {
        parsed = res.body ? JSON.parse(res.body) : null;
      } catch {
        /* not JSON */
      }
      return { status: res.statusCode, headers: res.headers, body: parsed, raw: res.rawPayload };
    },
    follow(href) {
      return client.call('GET', href);
    },
    async signIn(email, password) {
      const answer = await client.call('POST', '/api/auth/login', {
        email,
        password,
        remember_me: false,
      });
      if (answer.status === 200) client.token = answer.body.access_token;
      return answer;
    },
  };
  return client;
}

/** A server with the demo data (categories, courses synchronised with the simulator, students, staff, tickets). */
export interface DemoWorld {
  ctx: TestContext;
  sim: SimServer;
  worker: JobWorker;
  summary: DemoSummary;
  /** Demo staff: administrator, operators and tutor, all past their first sign-in. */
  staff: typeof DEMO_STAFF;
  password: string;
  close(): Promise<void>;
}

export async function demoWorld(): Promise<DemoWorld> {
  const ctx = await createTestContext();
  const generated = demoSite();
  const sim = await startMoodleSim({ site: generated.site });
  const worker = testWorker(ctx);
  const summary = await seedDemo(ctx.db, ctx.config, ctx.app.services, generated, sim.url);
  return {
    ctx,
    sim,
    worker,
    summary,
    staff: DEMO_STAFF,
    password: DEMO_PASSWORD,
    async close() {
      await worker.stop({ graceMs: 2000 });
      await sim.close();
      await ctx.close();
    },
  };
}

/** Parses an answer with a contract schema; on failure the message names the endpoint and the paths that differ. */
export function expectShape<T extends z.ZodTypeAny>(
  schema: T,
  answer: ClientAnswer,
  what: string,
): z.infer<T> {
  const result = schema.safeParse(answer.body);
  if (!result.success) {
    const issues = result.error.issues
      .slice(0, 8)
      .map((i) => `${i.path.join('.')}: ${i.message}`)
      .join('; ');
    throw new Error(
      `${what} (HTTP ${answer.status}) does not match the original client's reads: ${issues}\n${JSON.stringify(answer.body).slice(0, 600)}`,
    );
  }
  return result.data;
}

/** Starts the world's job worker and waits until the demo's first course has been synchronised (every job ended, one done). */
export async function firstSyncDone(world: DemoWorld): Promise<void> {
  world.worker.start();
  await waitFor(
    async () => {
      const { rows } = await sql<{
        active: number;
        done: number;
      }>`select count(*) filter (where status in ('queued', 'running'))::int as active, count(*) filter (where status = 'done')::int as done from jobs`.execute(
        world.ctx.db,
      );
      return rows[0]!.active === 0 && rows[0]!.done > 0;
    },
    90_000,
    'the first course synchronised',
  );
}
