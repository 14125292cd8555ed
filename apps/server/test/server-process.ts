import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * The real server as a child process, started as `npm start` starts it: for the end-to-end,
 * fault, scale-out and load tests and for the benchmarks.
 */
export const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * A TCP port free on the loopback interface now, below the system's range for outgoing connections (32768 and up on Linux): a
 * port the system handed out (listen on 0) can be taken as the source port of some client's
 * connection before the server that was meant to have it binds it.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown hook runs. */
  kill9(): Promise<void>;
  /** SIGTERM: the graceful shutdown. */
  stop(): Promise<void>;
}

/**
 * Starts `apps/server/src/main.ts` on a free port with `env` over this process's environment,
 * and waits until `/health` answers. `removeDataDir`: a folder removed once the server stops.
 */
export async function spawnServer(
  env: Record<string, string>,
  opts: { nodeArgs?: string[]; removeDataDir?: string; name?: string } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const name = opts.name ? `server ${opts.name}` : 'server';
  let out = '';
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', ...(opts.nodeArgs ?? []), 'apps/server/src/main.ts'],
    {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited early:\n${out}`);
    if (Date.now() > deadline) throw new Error(`${name} did not start:\n${out}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(sig);
      await exited;
    }
    if (opts.removeDataDir) fs.rmSync(opts.removeDataDir, { recursive: true, force: true });
  };
  return {
    url,
    child,
    output: () => out,
    kill9: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
  };
}

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** Calls the API as a client does; the body is parsed JSON, or the text when it is not JSON. */
export async function callApi<T = any>(
  base: string,
  method: string,
  url: string,
  token?: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer<T>> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: kept as text */
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** Takes the bootstrap administrator past the first login through the API; returns a token. */
export async function firstAdminSession(
  base: string,
  admin: { email: string; password: string },
  password = 'Admin-Clave-9',
): Promise<string> {
  const login = await callApi(base, 'POST', '/api/auth/login', undefined, admin);
  const me = await callApi(base, 'GET', '/api/auth/user', login.body.access_token);
  await callApi(
    base,
    'PUT',
    `/api/v2/users/${me.body.user.properties.id}`,
    login.body.access_token,
    { password, isFirstLogin: 1 },
  );
  return (
    await callApi(base, 'POST', '/api/auth/login', undefined, { email: admin.email, password })
  ).body.access_token;
}
