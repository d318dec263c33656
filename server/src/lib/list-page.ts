import type { FastifyReply } from 'fastify';

/**
 * Big lists (issue 15): GZCTF's list answers are bare arrays, so the number of all matching rows
 * travels in this header instead of the body; GZCTF's own client ignores it and keeps working.
 */
export const TOTAL_HEADER = 'x-total-count';

export function setTotal(reply: FastifyReply, total: number): void {
  reply.header(TOTAL_HEADER, String(total));
}

/** A page as the repositories take it: `count` 0 means every row from `skip` on (GZCTF's convention). */
export interface ListPage {
  count: number;
  skip: number;
}

/**
 * The search text of a list, trimmed; blank means "no search". An ILIKE pattern for "contains"
 * (`%`, `_` and `\` match themselves), or undefined when there is nothing to search for.
 */
export function containsPattern(search: string | undefined): string | undefined {
  const text = search?.trim();
  if (!text) return undefined;
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
