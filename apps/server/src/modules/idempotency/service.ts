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
 * gets the first answer (the same key with other content: a 422); with or without a key, the same
 * content from the same user within SAME_SEND_SECONDS is one send (two clicks, two keys). A repeat
 * while the first is being made waits for it a moment, then is a 409.
 */
export class IdempotencyService {
  constructor(
    private readonly repo: IdempotencyRepository,
    private readonly waitMs = 5000,
  ) {}

  async once(
    userId: number,
    clientKey: string | null,
    scope: string,
    content: unknown,
    run: () => Promise<{ status: number; body: unknown }>,
  ): Promise<SendAnswer> {
    const fingerprint = createHash('sha256')
      .update(canonical([scope, content]))
      .digest('hex');
    const same = `same:${fingerprint}`;
    const key = clientKey === null ? null : `key:${clientKey}`;
    const until = Date.now() + this.waitMs;
    for (;;) {
      if (key !== null && !(await this.repo.claim(userId, key, fingerprint, IN_PROGRESS_SECONDS))) {
        const first = await this.answerOf(userId, key, fingerprint);
        if (first) return first;
      } else if (await this.repo.claim(userId, same, fingerprint, IN_PROGRESS_SECONDS)) {
        return this.make(userId, key, same, run);
      } else {
        // The same content just sent under another key (or none): its answer, kept under this key too.
        const first = await this.answerOf(userId, same, fingerprint);
        if (key !== null)
          await (first
            ? this.repo.finish(
                userId,
                key,
                first.status,
                JSON.stringify(first.body),
                IDEMPOTENCY_KEY_SECONDS,
              )
            : this.repo.release(userId, key));
        if (first) return first;
      }
      if (Date.now() >= until) throw conflict(IDEMPOTENCY_MSG.inProgress);
      await sleep(100);
    }
  }

  /** Makes the send whose keys this request holds; a failed one lets them go (nothing was sent). */
  private async make(
    userId: number,
    key: string | null,
    same: string,
    run: () => Promise<{ status: number; body: unknown }>,
  ): Promise<SendAnswer> {
    let answer: { status: number; body: unknown };
    try {
      answer = await run();
    } catch (err) {
      await this.repo.release(userId, same);
      if (key !== null) await this.repo.release(userId, key);
      throw err;
    }
    const json = JSON.stringify(answer.body);
    await this.repo.finish(userId, same, answer.status, json, SAME_SEND_SECONDS);
    if (key !== null)
      await this.repo.finish(userId, key, answer.status, json, IDEMPOTENCY_KEY_SECONDS);
    return { ...answer, replayed: false };
  }

  /** The first answer under a key, or null while it is being made (or was let go); other content under it is a 422. */
  private async answerOf(
    userId: number,
    key: string,
    fingerprint: string,
  ): Promise<SendAnswer | null> {
    const row = await this.repo.find(userId, key);
    if (row && row.fingerprint !== fingerprint) throw new AppError(422, IDEMPOTENCY_MSG.keyReused);
    return row?.status_code != null && row.response !== null
      ? { status: row.status_code, body: JSON.parse(row.response) as unknown, replayed: true }
      : null;
  }
}
