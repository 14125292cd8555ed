import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_SECONDS, IDEMPOTENCY_MSG, SAME_SEND_SECONDS } from '@sigaf/contract';
import { AppError, conflict } from '../../http/errors.js';
import type { IdempotencyRepository } from './repository.js';

/** An answer to give: the first one's status and body, and whether this is a repeat. */
export interface SendAnswer {
  status: number;
  body: unknown;
  replayed: boolean;
}

/** How long a send being made holds its key at least (a crashed process's key frees itself then). */
const IN_PROGRESS_SECONDS = 120;

/** JSON with object keys sorted: the same content gives the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends made once (docs/development/api.md#idempotency), on any number of server processes: a
 * user's send under the client's key is made once and a repeat within IDEMPOTENCY_KEY_SECONDS
 * gets the first answer (the same key with other content: a 422); without a key, the same content
 * from the same user within SAME_SEND_SECONDS is one send. A repeat while the first is being made
 * waits for it a moment, then is a 409.
 */
export class IdempotencyService {
  constructor(
    private readonly repo: IdempotencyRepository,
    private readonly waitMs = 5000,
  ) {}

  async once(userId: number, clientKey: string | null, scope: string, content: unknown, run: () => Promise<{ status: number; body: unknown }>): Promise<SendAnswer> {
    const fingerprint = createHash('sha256').update(canonical([scope, content])).digest('hex');
    const key = clientKey === null ? `same:${fingerprint}` : `key:${clientKey}`;
    const keep = clientKey === null ? SAME_SEND_SECONDS : IDEMPOTENCY_KEY_SECONDS;
    const until = Date.now() + this.waitMs;
    for (;;) {
      if (await this.repo.claim(userId, key, fingerprint, Math.max(keep, IN_PROGRESS_SECONDS))) {
        let answer: { status: number; body: unknown };
        try {
          answer = await run();
        } catch (err) {
          await this.repo.release(userId, key);
          throw err;
        }
        await this.repo.finish(userId, key, answer.status, JSON.stringify(answer.body), keep);
        return { ...answer, replayed: false };
      }
      const row = await this.repo.find(userId, key);
      if (row && row.fingerprint !== fingerprint) throw new AppError(422, IDEMPOTENCY_MSG.keyReused);
      if (row?.status_code != null && row.response !== null) return { status: row.status_code, body: JSON.parse(row.response) as unknown, replayed: true };
      if (Date.now() >= until) throw conflict(IDEMPOTENCY_MSG.inProgress);
      // Being made by another request (or just let go): look again shortly.
      if (row) await sleep(100);
    }
  }
}
