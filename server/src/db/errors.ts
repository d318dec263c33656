// Uniqueness rules are database constraints, not pre-checks (architecture §6.4), so services learn
// about a duplicate from the error. Drizzle wraps driver errors (DrizzleQueryError), and both pg and
// PGlite report the SQLSTATE as `code` and the constraint as `constraint`; these helpers look through
// the wrapping.

interface PgErrorFields {
  code?: unknown;
  constraint?: unknown;
}

function findPgError(error: unknown): PgErrorFields | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const fields = current as PgErrorFields & { cause?: unknown };
    if (typeof fields.code === 'string' && /^[0-9A-Z]{5}$/.test(fields.code)) return fields;
    current = fields.cause;
  }
  return undefined;
}

/** The SQLSTATE of a database error (e.g. '23505'), or undefined for anything else. */
export function pgErrorCode(error: unknown): string | undefined {
  return findPgError(error)?.code as string | undefined;
}

/** The name of the violated constraint or unique index, when the database reports one. */
export function pgConstraint(error: unknown): string | undefined {
  const constraint = findPgError(error)?.constraint;
  return typeof constraint === 'string' ? constraint : undefined;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return pgErrorCode(error) === '23505' && (constraint === undefined || pgConstraint(error) === constraint);
}

/** A missing referenced row (23503), or a delete refused by ON DELETE RESTRICT (23001). */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  const code = pgErrorCode(error);
  return (code === '23503' || code === '23001') && (constraint === undefined || pgConstraint(error) === constraint);
}

/**
 * SQLSTATEs of a database that is not there right now: class 08 (connection exception), the server
 * shutting down or starting (57P01-57P03), too many connections (53300).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[1-3]|53300)$/;
/** What node-postgres and the socket report for a connection that failed or ended without an SQLSTATE. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
];

/**
 * The database could not be reached or went away mid-request (a restart, a network drop): the
 * request may succeed if retried, so it is answered 503, not 500. Looks through drizzle's wrapping.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const fields = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    const code = typeof fields.code === 'string' ? fields.code : '';
    if (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_SOCKET_CODES.has(code)) return true;
    const message = typeof fields.message === 'string' ? fields.message : '';
    if (UNAVAILABLE_MESSAGES.some((text) => message.includes(text))) return true;
    // A connection attempt to a host with several addresses fails with an AggregateError of each.
    if (Array.isArray(fields.errors) && fields.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = fields.cause;
  }
  return false;
}
