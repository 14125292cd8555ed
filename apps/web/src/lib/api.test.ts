import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '@sigaf/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, newIdempotencyKey, sendOnce } from './api';

/** What reached the network: each call's Idempotency-Key. */
function network(answers: Array<Response | Error>) {
  const keys: Array<string | null> = [];
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    keys.push(new Headers(init.headers).get(IDEMPOTENCY_HEADER));
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return next;
  });
  return keys;
}

const created = () =>
  new Response(
    JSON.stringify({
      success: true,
      statusCode: 201,
      message: 'Correo en cola.',
      _data: { queued: 1 },
    }),
    { status: 201 },
  );

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a send made once', () => {
  it('a key is random and of the form the server accepts', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(IDEMPOTENCY_KEY_PATTERN);
    expect(newIdempotencyKey()).not.toBe(a);
  });

  it('each send (each click of Enviar) goes with a fresh key', async () => {
    const keys = network([created(), created()]);
    await sendOnce('/api/v2/mail/single', { body: { ticketId: 1 } });
    await sendOnce('/api/v2/mail/single', { body: { ticketId: 1 } });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(IDEMPOTENCY_KEY_PATTERN);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it('a lost answer (network failure, 502-504) is retried once with the same key', async () => {
    const keys = network([new TypeError('Failed to fetch'), created()]);
    const res = await sendOnce<{ message: string }>('/api/v2/follow-up/mail', {
      body: { enrolmentIds: [1] },
    });
    expect(res.message).toBe('Correo en cola.');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const again = network([new Response('Bad Gateway', { status: 502 }), created()]);
    await sendOnce('/api/v2/mail/massive', { body: {} });
    expect(again[1]).toBe(again[0]);
  });

  it('a refusal from the server is not retried', async () => {
    const keys = network([
      new Response(
        JSON.stringify({
          success: false,
          statusCode: 422,
          message: 'Ingrese un asunto.',
          _data: null,
        }),
        { status: 422 },
      ),
    ]);
    await expect(sendOnce('/api/v2/mail/single', { body: {} })).rejects.toBeInstanceOf(ApiError);
    expect(keys).toHaveLength(1);
  });
});
