import type { FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from './http-error';

/**
 * Paged, filtered lists: the shared reading of `count`, `skip` and a search text,
 * and the `X-Total-Count` header that carries the filtered total next to one page of items.
 *
 * Usage in a handler (contract or not):
 *
 *   const page = readPage(request);                   // undefined when neither count nor skip is sent
 *   const search = readSearch(request);               // `search`, trimmed; undefined when empty
 *   const { items, total } = await service.list(db, id, { page, search });
 *   return sendPage(reply, items, total);             // sets X-Total-Count, returns the items
 *
 * A list that GZCTF answers unpaged keeps that answer when `readPage` gives undefined (its own client
 * sends no paging parameters); `sendPage` may still be used then (total = items.length).
 *
 * The values are read from the raw query string, not from Ajv's coerced copy: Ajv turns ' 5', '1e2'
 * or '0x10' into numbers, while here anything but plain decimal digits is a 400 that names the field.
 * Declare the parameters in the contract too (integer, minimum 0) so the API description is honest.
 */

export interface PageRequest {
  count: number;
  skip: number;
}

export interface PageOptions {
  /** Page size when only `skip` is sent. */
  defaultCount?: number;
  /** The largest page a client may ask for; `count=0` ("all", as GZCTF's lists read it) is refused. */
  maxCount?: number;
}

export const DEFAULT_PAGE_COUNT = 50;
export const MAX_PAGE_COUNT = 500;
/** Skips beyond this are no real page of any list we hold, and would make PostgreSQL scan for nothing. */
const MAX_SKIP = 10_000_000;
export const MAX_SEARCH_LENGTH = 64;
export const TOTAL_COUNT_HEADER = 'X-Total-Count';

const DIGITS = /^(0|[1-9][0-9]{0,8})$/;

function rawQuery(request: FastifyRequest): URLSearchParams {
  const url = request.raw.url ?? request.url;
  const at = url.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : url.slice(at + 1));
}

/** One value of a query parameter; sending it twice is refused rather than guessed at. */
export function readRawParam(request: FastifyRequest, name: string): string | undefined {
  const values = rawQuery(request).getAll(name);
  if (values.length > 1) throw badRequest('validation.invalid', { field: name });
  return values[0];
}

function readInteger(request: FastifyRequest, name: string, min: number, max: number): number | undefined {
  const text = readRawParam(request, name);
  if (text === undefined) return undefined;
  if (!DIGITS.test(text)) throw badRequest('validation.type', { field: name, type: 'integer' });
  const value = Number(text);
  if (value < min) throw badRequest('validation.minimum', { field: name, limit: min });
  if (value > max) throw badRequest('validation.maximum', { field: name, limit: max });
  return value;
}

/** `count` and `skip` from the query, or undefined when the client sent neither (an unpaged list). */
export function readPage(request: FastifyRequest, options: PageOptions = {}): PageRequest | undefined {
  const maxCount = options.maxCount ?? MAX_PAGE_COUNT;
  const count = readInteger(request, 'count', 1, maxCount);
  const skip = readInteger(request, 'skip', 0, MAX_SKIP);
  if (count === undefined && skip === undefined) return undefined;
  return { count: count ?? Math.min(options.defaultCount ?? DEFAULT_PAGE_COUNT, maxCount), skip: skip ?? 0 };
}

/**
 * A search text: trimmed, undefined when absent or blank. NUL (which PostgreSQL cannot store or
 * compare) and texts longer than `maxLength` are refused.
 */
export function readSearch(
  request: FastifyRequest,
  name = 'search',
  maxLength = MAX_SEARCH_LENGTH,
): string | undefined {
  const text = readRawParam(request, name);
  if (text === undefined) return undefined;
  if (text.includes('\0')) throw badRequest('validation.invalid', { field: name });
  const trimmed = text.trim();
  if (trimmed.length > maxLength) throw badRequest('validation.maxLength', { field: name, limit: maxLength });
  return trimmed === '' ? undefined : trimmed;
}

/** One of a fixed set of values (a status filter), or undefined when absent or empty. */
export function readChoice<T extends string>(
  request: FastifyRequest,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const text = readRawParam(request, name);
  if (text === undefined || text === '') return undefined;
  if (!(allowed as readonly string[]).includes(text)) {
    throw badRequest('validation.enum', { field: name, allowed: allowed.join(', ') });
  }
  return text as T;
}

/** Escapes a search text for `ILIKE '%…%'` (backslash is PostgreSQL's default LIKE escape). */
export const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** `likePattern` of a search text, or undefined when it is absent or blank (no filtering). */
export function searchPattern(search: string | undefined): string | undefined {
  const text = search?.trim();
  return text ? likePattern(text) : undefined;
}

/** Sets the filtered total (all pages) on the reply and hands back the page's items to return. */
export function sendPage<T>(reply: FastifyReply, items: T[], total: number): T[] {
  reply.header(TOTAL_COUNT_HEADER, String(total));
  return items;
}
