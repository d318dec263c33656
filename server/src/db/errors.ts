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

export function isCheckViolation(error: unknown, constraint?: string): boolean {
  return pgErrorCode(error) === '23514' && (constraint === undefined || pgConstraint(error) === constraint);
}
