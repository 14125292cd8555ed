import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_MSG } from '@sigaf/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireAuth } from '../../http/auth.js';
import { invalid } from '../../http/errors.js';
import type { IdempotencyService } from './service.js';

/** The request's Idempotency-Key, or null without one; a malformed key is a 422. */
export function idempotencyKey(request: FastifyRequest): string | null {
  const raw = request.headers[IDEMPOTENCY_HEADER.toLowerCase()];
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(raw))
    throw invalid(
      { [IDEMPOTENCY_HEADER]: [IDEMPOTENCY_MSG.invalidKey] },
      IDEMPOTENCY_MSG.invalidKey,
    );
  return raw;
}

/**
 * A send made once (IdempotencyService): runs `send` (its answer has `status`), or answers a
 * repeat with the first answer and the header Idempotent-Replayed: true. `content` is what makes
 * two sends the same (recipients, subject, text, files...).
 */
export async function sendOnce(
  sends: IdempotencyService,
  request: FastifyRequest,
  reply: FastifyReply,
  content: unknown,
  status: number,
  send: () => Promise<unknown>,
) {
  const actor = requireAuth(request);
  const answer = await sends.once(
    actor.id,
    idempotencyKey(request),
    request.routeOptions.url ?? request.url,
    content,
    async () => ({ status, body: await send() }),
  );
  reply.status(answer.status);
  if (answer.replayed) reply.header('Idempotent-Replayed', 'true');
  return answer.body;
}
