import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isNotModified, negotiateEncoding, type ContentCoding, type Revalidation } from './http-caching';

/**
 * A JSON answer made once and sent to many (a game's scoreboard, its players' notices): the text,
 * its bytes and their ETag, with each content coding made once per answer by the first request that
 * asks for it (`cachedJsonBody`).
 */
export interface CachedJson {
  json: string;
  /** What is hashed, stored, compressed and sent: encoded once (see `cachedJsonOf`). */
  bytes: Buffer;
  /** Strong, quoted; sent weak, since the same text goes out in three codings. */
  etag: string;
}

/**
 * The bytes are made once, here: `Buffer.from` encodes a string of half a megabyte in well under a
 * millisecond, while hashing the string itself, or writing it to Redis or to a socket as a string,
 * encodes it again each time at a few to tens of milliseconds on the event loop (on a 546 KB board
 * of 1,000 teams, hashing the string took 10–33 ms here, the bytes under 1 ms).
 */
export function cachedJsonOf(json: string): CachedJson {
  const bytes = Buffer.from(json, 'utf8');
  return { json, bytes, etag: `"${createHash('sha1').update(bytes).digest('base64url')}"` };
}

const CODINGS: readonly ContentCoding[] = ['br', 'gzip'];
const compressors: Record<ContentCoding, (bytes: Buffer) => Promise<Buffer>> = {
  // Quality 5: on a 1,000-team board 7 % smaller than quality 4 and 4 % larger than quality 8,
  // which takes longer.
  br: (bytes) =>
    promisify(zlib.brotliCompress)(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  gzip: (bytes) => promisify(zlib.gzip)(bytes, { level: 6 }),
};
/**
 * Each answer's encodings, made once per answer (a new board or list is a new answer) by the first
 * request that asks for that coding, and shared by every request after it: a board of thousands of
 * teams is hundreds of KB, too much to compress per request. Made off the event loop (zlib's threads).
 */
const encodings = new WeakMap<CachedJson, Partial<Record<ContentCoding, Promise<Buffer>>>>();

function encoded(answer: CachedJson, coding: ContentCoding): Promise<Buffer> {
  let codings = encodings.get(answer);
  if (!codings) encodings.set(answer, (codings = {}));
  let bytes = codings[coding];
  if (!bytes) {
    bytes = codings[coding] = compressors[coding](answer.bytes);
    // A failure is not kept: the next request tries again.
    bytes.catch(() => delete codings[coding]);
  }
  return bytes;
}

/**
 * A cached answer's body for `reply`: none (undefined) with a 304 when If-None-Match names it, else
 * the JSON text in the coding the client prefers, compressed once per answer. The type, coding and
 * caching headers are set on `reply`; the handler returns the bytes and Fastify sends them. A
 * handler returning undefined has Fastify send no body, and so no Content-Type or Content-Length:
 * the empty Buffer a 304 had returned before went out as `application/octet-stream` of length 0, and
 * a 304 must not carry a length other than the 200's (RFC 9110 §8.6), which a cache could store.
 */
export async function cachedJsonBody(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CachedJson,
  revalidation: Revalidation,
): Promise<Buffer | undefined> {
  if (isNotModified(request, reply, `W/${answer.etag}`, revalidation)) return undefined;
  reply.type('application/json; charset=utf-8');
  const coding = negotiateEncoding(request.headers['accept-encoding'], CODINGS);
  if (coding === 'identity') return answer.bytes;
  reply.header('content-encoding', coding);
  return encoded(answer, coding);
}
