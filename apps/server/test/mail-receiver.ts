import { SMTPServer } from 'smtp-server';
import { freePort } from './server-process.js';

/** A real SMTP server on 127.0.0.1 for the mail tests: it keeps every message it accepts, raw. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  auth: { user: string; pass: string } | null;
}

export interface Receiver {
  port: number;
  url: string;
  messages: ReceivedMail[];
  /** Starts accepting connections (again) on the same port. */
  start(): Promise<void>;
  /** Stops accepting: clients then get "connection refused". */
  stop(): Promise<void>;
  /** Delay before answering each DATA (to keep messages in flight). */
  delayMs: number;
}

export async function createReceiver(opts: { startNow?: boolean } = {}): Promise<Receiver> {
  const port = await freePort();
  let server: SMTPServer | null = null;
  const receiver: Receiver = {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages: [],
    delayMs: 0,
    async start() {
      if (server) return;
      const s = new SMTPServer({
        logger: false,
        secure: false,
        disabledCommands: ['STARTTLS'],
        authOptional: true,
        allowInsecureAuth: true,
        size: 100 * 1024 * 1024,
        maxClients: 100,
        // stop() closes open (pooled) client connections after this, instead of waiting 30 s.
        closeTimeout: 100,
        // Addresses starting with "rechazo" do not exist: a permanent 550.
        onRcptTo(address, _session, callback) {
          if (address.address.startsWith('rechazo'))
            return callback(
              Object.assign(new Error('5.1.1 El buzón no existe'), { responseCode: 550 }),
            );
          callback();
        },
        onAuth(auth, _session, callback) {
          callback(null, { user: { user: auth.username ?? '', pass: auth.password ?? '' } });
        },
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            const user = (session.user as { user: string; pass: string } | undefined) ?? null;
            const done = () => {
              receiver.messages.push({
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
                raw: Buffer.concat(chunks).toString('utf8'),
                auth: user,
              });
              callback();
            };
            if (receiver.delayMs) setTimeout(done, receiver.delayMs);
            else done();
          });
        },
      });
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => resolve());
      });
      server = s;
    },
    async stop() {
      const s = server;
      server = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
  if (opts.startNow !== false) await receiver.start();
  return receiver;
}

// -------------------------------------------------------------------------------------------
// A small MIME reader (mailparser is not installed): headers, encoded words, parts, bodies.

export interface MimePart {
  headers: Map<string, string>;
  body: Buffer;
  parts: MimePart[];
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?B?...?=`, `=?UTF-8?Q?...?=`). */
export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g,
      (_, charset: string, enc: string, text: string) => {
        const buf =
          enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : qp(text.replace(/_/g, ' '));
        return new TextDecoder(charset.toLowerCase()).decode(buf);
      },
    );
}

function qp(text: string): Buffer {
  const bytes: number[] = [];
  const s = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(s[i]!, 'utf8'));
  }
  return Buffer.from(bytes);
}

export function parseMime(raw: string): MimePart {
  const text = raw.replace(/\r\n/g, '\n');
  const split = text.indexOf('\n\n');
  const head = split === -1 ? text : text.slice(0, split);
  const rest = split === -1 ? '' : text.slice(split + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const sections = rest.split(`--${boundary}`).slice(1);
    const parts = sections
      .filter((s) => !s.startsWith('--'))
      .map((s) => parseMime(s.replace(/^\n/, '')));
    return { headers, body: Buffer.alloc(0), parts };
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '').toLowerCase();
  const body =
    encoding === 'base64'
      ? Buffer.from(rest.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? qp(rest)
        : Buffer.from(rest, 'utf8');
  return { headers, body, parts: [] };
}

/** Every leaf part, depth first. */
export function leaves(part: MimePart): MimePart[] {
  return part.parts.length ? part.parts.flatMap(leaves) : [part];
}

export function header(part: MimePart, name: string): string {
  return decodeWords(part.headers.get(name.toLowerCase()) ?? '');
}

/** A header parameter, also RFC 2231 encoded and continued (`filename*0*=utf-8''...; filename*1*=...`). */
export function headerParam(part: MimePart, name: string, param: string): string | null {
  const value = part.headers.get(name.toLowerCase()) ?? '';
  const plain = new RegExp(`(?:^|;)\\s*${param}="?([^";]*)"?`, 'i').exec(value);
  if (plain) return decodeWords(plain[1]!);
  const pieces = [
    ...value.matchAll(new RegExp(`${param}\\*(\\d+)?(\\*)?="?([^";]*)"?`, 'gi')),
  ].sort((a, b) => Number(a[1] ?? 0) - Number(b[1] ?? 0));
  if (!pieces.length) return null;
  const encoded = pieces[0]![2] === '*';
  const joined = pieces.map((p) => p[3]!).join('');
  if (!encoded) return joined;
  const [, , data = ''] = joined.split("'");
  return decodeURIComponent(data);
}
