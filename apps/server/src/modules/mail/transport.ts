import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';

/**
 * Where messages go: an SMTP server (SMTP_URL, through nodemailer's connection pool) or, when
 * SMTP_URL is unset, one .eml file per message in DATA_DIR/outbox (named after its Message-ID,
 * so sending the same message again rewrites the same file).
 */
export interface OutgoingMail {
  from: string;
  to: string;
  cc: string[];
  replyTo: string | null;
  subject: string;
  html: string;
  text: string;
  /** Our own `<...@domain>`: the same on every attempt. */
  messageId: string;
  date: Date;
  attachments: Array<{ filename: string; path: string; contentType: string }>;
}

/** The credentials of a course's own mailbox, when it sends as itself. */
export interface MailboxAuth {
  user: string;
  pass: string;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'file';
  send(mail: OutgoingMail, auth?: MailboxAuth): Promise<{ response: string }>;
  close(): void;
}

/** An SMTP answer that a retry cannot change (5xx: unknown mailbox, refused sender, bad credentials). */
export function isPermanentSmtpError(err: unknown): boolean {
  const code = (err as { responseCode?: unknown })?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

const TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

function message(mail: OutgoingMail) {
  return {
    from: mail.from,
    to: mail.to,
    cc: mail.cc.length ? mail.cc : undefined,
    replyTo: mail.replyTo ?? undefined,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    messageId: mail.messageId,
    date: mail.date,
    attachments: mail.attachments,
    disableUrlAccess: true,
  };
}

/** Options of the SMTP_URL (smtp:// or smtps://, user and password, query flags such as requireTLS=true). */
export function smtpOptions(url: string, rejectUnauthorized: boolean) {
  const u = new URL(url);
  const secure = u.protocol === 'smtps:';
  const extra: Record<string, string | number | boolean> = {};
  for (const [k, v] of u.searchParams)
    extra[k] = v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v;
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    auth: u.username
      ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) }
      : undefined,
    tls: { rejectUnauthorized },
    ...TIMEOUTS,
    ...extra,
  };
}

class SmtpTransport implements MailTransport {
  readonly kind = 'smtp' as const;
  private readonly pools = new Map<string, ReturnType<typeof nodemailer.createTransport>>();

  constructor(
    private readonly url: string,
    private readonly rejectUnauthorized: boolean,
    private readonly maxConnections: number,
  ) {}

  /** One pool for the configured account and one per course mailbox. */
  private pool(auth?: MailboxAuth) {
    const key = auth ? `${auth.user}\u0000${auth.pass}` : '';
    let pool = this.pools.get(key);
    if (!pool) {
      const base = smtpOptions(this.url, this.rejectUnauthorized);
      pool = nodemailer.createTransport({
        ...base,
        ...(auth ? { auth } : {}),
        pool: true,
        maxConnections: this.maxConnections,
        maxMessages: 100,
      });
      this.pools.set(key, pool);
    }
    return pool;
  }

  async send(mail: OutgoingMail, auth?: MailboxAuth) {
    const info = await this.pool(auth).sendMail(message(mail));
    return { response: String(info.response ?? '') };
  }

  close() {
    for (const pool of this.pools.values()) pool.close();
    this.pools.clear();
  }
}

class FileTransport implements MailTransport {
  readonly kind = 'file' as const;
  private readonly composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });

  constructor(readonly dir: string) {}

  async send(mail: OutgoingMail) {
    const info = await this.composer.sendMail(message(mail));
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = path.join(this.dir, emlFileName(mail.messageId));
    const tmp = `${file}.${process.pid}.tmp`;
    // Students' mail: the server's user's only (DATA_DIR is 0700 as well).
    await fs.promises.writeFile(tmp, info.message as Buffer, { mode: 0o600 });
    await fs.promises.rename(tmp, file);
    return { response: `saved ${path.basename(file)}` };
  }

  close() {
    this.composer.close();
  }
}

/** `<uuid@domain>` -> `uuid@domain.eml`. */
export function emlFileName(messageId: string): string {
  return `${messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9@._-]/g, '_')}.eml`;
}

export function createTransport(opts: {
  smtpUrl?: string;
  rejectUnauthorized: boolean;
  outboxDir: string;
  maxConnections: number;
}): MailTransport {
  return opts.smtpUrl
    ? new SmtpTransport(opts.smtpUrl, opts.rejectUnauthorized, opts.maxConnections)
    : new FileTransport(opts.outboxDir);
}
