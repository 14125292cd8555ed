import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import {
  JsonAnswerReader,
  type AnswerHooks,
  type AnswerLimits,
  type ReadAnswer,
} from './answer-reader.js';

/**
 * One form POST to Moodle over node:http(s) on kept-alive connections (a sync makes thousands
 * of calls: this costs a fraction of the CPU of fetch per call). Redirects are answers, never
 * followed; gzip, deflate and br answers are decoded; the body is read as it streams in, within
 * limits, by JsonAnswerReader (a BOM dropped), with the caller's hooks (the elements of an error
 * status's answer are not checked). Past a limit, or when a hook refuses, the connection is
 * closed at once.
 */

export type HttpAnswer = { status: number; contentType: string } & ReadAnswer;

/** Thrown for a 3xx answer (its body is discarded). */
export class RedirectAnswer extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

export class MoodleTransport {
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;

  constructor(
    endpoint: string,
    private readonly limits: AnswerLimits,
  ) {
    const secure = new URL(endpoint).protocol === 'https:';
    this.agent = secure
      ? new https.Agent({ keepAlive: true })
      : new http.Agent({ keepAlive: true });
    this.request = secure ? https.request : http.request;
  }

  post(
    endpoint: string,
    body: string,
    signal: AbortSignal,
    hooks: AnswerHooks = {},
  ): Promise<HttpAnswer> {
    return new Promise<HttpAnswer>((resolve, reject) => {
      const payload = Buffer.from(body, 'utf8');
      const req = this.request(endpoint, {
        method: 'POST',
        agent: this.agent,
        signal,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': payload.length,
          accept: 'application/json',
          'accept-encoding': 'gzip, deflate, br',
        },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          reject(new RedirectAnswer(status));
          return;
        }
        const encoding = String(res.headers['content-encoding'] ?? '')
          .trim()
          .toLowerCase();
        const decoder =
          encoding === 'gzip' || encoding === 'x-gzip'
            ? zlib.createGunzip()
            : encoding === 'deflate'
              ? zlib.createInflate()
              : encoding === 'br'
                ? zlib.createBrotliDecompress()
                : null;
        const stream: Readable = decoder ? res.pipe(decoder) : res;
        const reader = new JsonAnswerReader(
          this.limits,
          status === 200 ? hooks : { hold: hooks.hold },
        );
        const fail = (e: unknown) => {
          req.destroy();
          decoder?.destroy();
          reject(e);
        };
        res.on('error', fail);
        res.on('close', () => {
          if (!res.complete) fail(new Error('connection closed before the whole answer arrived'));
        });
        decoder?.on('error', fail);
        if (decoder) res.on('data', (c: Buffer) => guard(() => reader.received(c.length), fail));
        stream.on('data', (c: Buffer) => guard(() => reader.write(c), fail));
        stream.on('end', () =>
          guard(
            () =>
              resolve({
                status,
                contentType: String(res.headers['content-type'] ?? ''),
                ...reader.end(),
              }),
            fail,
          ),
        );
      });
      req.end(payload);
    });
  }
}

/** Runs a step of reading; its error ends the answer. */
function guard(step: () => void, fail: (e: unknown) => void) {
  try {
    step();
  } catch (e) {
    fail(e);
  }
}
