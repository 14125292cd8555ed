import type http from 'node:http';
import zlib from 'node:zlib';

/** Answers a broken or compromised Moodle could send, for the client's limits to be tried against. */

const MB = 1024 * 1024;

/**
 * Hostile answers, as a broken or compromised site could send: a prefix, one unit repeated to
 * the size asked for, a suffix; gzipped (a gzip stream may be many members, so a megabyte of
 * units is compressed once and sent again and again) or plain.
 */
const HOSTILE = {
  /** `[1,1,1,…]`: 292 MB, 146 million elements, in about 300 KB. */
  gzipbomb: { prefix: '[', unit: '1,', suffix: '1]', gzip: true, bytes: 292 * MB },
  /** A site whose name is 100 MB long, in about 100 KB. */
  hugename: {
    prefix: '{"sitename":"',
    unit: 'x',
    suffix: '","functions":[]}',
    gzip: true,
    bytes: 100 * MB,
  },
  /** A list of 1,000-character strings, 100 MB uncompressed. */
  hugejson: {
    prefix: '[',
    unit: `"${'x'.repeat(998)}",`,
    suffix: '""]',
    gzip: false,
    bytes: 100 * MB,
  },
  /** Small objects of no function's shape: 6.6 million in 240 MB, about 730 KB gzipped. */
  dense: {
    prefix: '[',
    unit: '{"id":1,"n":"aaaaaaaaaaaaaaaaaaaaaa"},',
    suffix: '{"id":1,"n":""}]',
    gzip: true,
    bytes: 240 * MB,
  },
  /** Enrolled users as small as the reader's density check admits: 7.6 million in 240 MB. */
  denseusers: {
    prefix: '[',
    unit: '{"id":1,"fullname":"abcdefghij"},',
    suffix: '{"id":2,"fullname":"b"}]',
    gzip: true,
    bytes: 240 * MB,
  },
} as const;
export type HostileKind = keyof typeof HOSTILE;
const hostileBlocks = new Map<HostileKind, Buffer>();

/** Writes a hostile answer as fast as the client reads it (it may close the connection meanwhile). */
export async function sendHostile(
  res: http.ServerResponse,
  headers: http.OutgoingHttpHeaders,
  kind: HostileKind,
  bytes = HOSTILE[kind].bytes,
) {
  const h = HOSTILE[kind];
  const text = h.unit.repeat(Math.ceil(MB / h.unit.length));
  let block = hostileBlocks.get(kind);
  if (!block) hostileBlocks.set(kind, (block = h.gzip ? zlib.gzipSync(text) : Buffer.from(text)));
  const piece = (t: string) => (h.gzip ? zlib.gzipSync(t) : t);
  res.writeHead(200, { ...headers, ...(h.gzip ? { 'Content-Encoding': 'gzip' } : {}) });
  res.write(piece(h.prefix));
  for (let sent = 0; sent + text.length < bytes && !res.destroyed; sent += text.length) {
    if (!res.write(block)) {
      await new Promise<void>((resolve) => {
        const go = () => {
          res.off('drain', go).off('close', go);
          resolve();
        };
        res.on('drain', go).on('close', go);
      });
    }
  }
  if (!res.destroyed) res.end(piece(h.suffix));
}
