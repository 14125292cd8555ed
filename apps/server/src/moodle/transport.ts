import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * One form POST to Moodle over node:http(s) on kept-alive connections (a sync makes thousands
 * of calls: this costs a fraction of the CPU of fetch per call). Redirects are answers, never
 * followed; gzip, deflate and br answers are decoded; the body is read as UTF-8 (a BOM dropped).
 */

export interface HttpAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** Thrown for a 3xx answer (its body is discarded). */
export class RedirectAnswer extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

export class MoodleTransport {
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;

  constructor(endpoint: string) {
    const secure = new URL(endpoint).protocol === 'https:';
    this.agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    this.request = secure ? https.request : http.request;
  }

  post(endpoint: string, body: string, signal: AbortSignal): Promise<HttpAnswer> {
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
        const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
        const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : null;
        const stream: Readable = decoder ? res.pipe(decoder) : res;
        const chunks: Buffer[] = [];
        res.on('error', reject);
        res.on('close', () => {
          if (!res.complete) reject(new Error('connection closed before the whole answer arrived'));
        });
        decoder?.on('error', reject);
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          try {
            resolve({ status, contentType: String(res.headers['content-type'] ?? ''), body: new TextDecoder().decode(Buffer.concat(chunks)) });
          } catch (e) {
            reject(e);
          }
        });
      });
      req.end(payload);
    });
  }
}
