import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The content codings the server produces, in its order of preference when a client likes both. */
export type ContentCoding = 'br' | 'gzip';
export type Negotiated = ContentCoding | 'identity';

/** A weak ETag of a body: weak because the same body goes out in several content codings. */
export function weakEtag(body: string | Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** RFC 9110 weak comparison of `If-None-Match` (a list, or `*`) against the answer's ETag. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const wanted = opaque(etag);
  return header.split(',').some((tag) => {
    const value = opaque(tag);
    return value === '*' || value === wanted;
  });
}

/**
 * `public`: the same answer for everyone (any cache may keep it); `private`: it depends on who asks
 * (the session cookie), so only the browser keeps it. Either way it is revalidated before each use.
 */
export type Revalidation = 'public' | 'private';

/** Answers smaller than this (bytes) go out as they are: compressing them saves too little to pay. */
export const COMPRESSION_THRESHOLD = 1024;

/** The caching headers of a revalidated answer, on its 200 and on its 304 alike. */
export function setRevalidationHeaders(reply: FastifyReply, revalidation: Revalidation): void {
  // An answer that (re)sends the session cookie is this browser's alone, however public the page (the
  // auth plugin says why; route hooks such as this one run after its own).
  const kept = reply.hasHeader('set-cookie') ? 'private' : revalidation;
  reply.header('cache-control', kept === 'private' ? 'private, no-cache' : 'public, no-cache');
  addVary(reply, ...(kept === 'private' ? ['Accept-Encoding', 'Cookie'] : ['Accept-Encoding']));
}

/**
 * Gives an answer made by its handler (not serialised by the route) its caching headers and ETag,
 * and sets 304 when the request's If-None-Match names it: true when it did, and the answer is then
 * to go out without a body.
 */
export function isNotModified(
  request: FastifyRequest,
  reply: FastifyReply,
  etag: string,
  revalidation: Revalidation,
): boolean {
  setRevalidationHeaders(reply, revalidation);
  reply.header('etag', etag);
  if (!etagMatches(request.headers['if-none-match'], etag)) return false;
  reply.code(304);
  return true;
}

/** Adds header fields to `Vary` once each, keeping what other code put there (on every answer: kept cheap). */
export function addVary(reply: FastifyReply, ...fields: string[]): void {
  const current = reply.getHeader('vary');
  if (current === undefined) {
    reply.header('vary', fields.join(', '));
    return;
  }
  let value = Array.isArray(current) ? current.join(', ') : String(current);
  const listed = value
    .toLowerCase()
    .split(',')
    .map((field) => field.trim());
  if (listed.includes('*')) return;
  for (const field of fields) {
    if (!listed.includes(field.toLowerCase())) value += `, ${field}`;
  }
  reply.header('vary', value);
}

/**
 * Picks the coding for an `Accept-Encoding` header: the offered coding with the highest q-value
 * (`*` stands for any coding not named, `x-gzip` for gzip), ties going to the order of `offered`;
 * identity when none is acceptable or the header is missing (RFC 9110 §12.5.3).
 */
export function negotiateEncoding(header: string | undefined, offered: readonly ContentCoding[]): Negotiated {
  if (!header) return 'identity';
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    if (!name) continue;
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(weight) ? weight : 0);
  }
  let best: Negotiated = 'identity';
  let bestWeight = 0;
  for (const coding of offered) {
    const weight = weights.get(coding) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}
