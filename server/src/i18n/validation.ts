import type { FastifySchemaValidationError } from 'fastify/types/schema';
import type { TFunction } from 'i18next';

/**
 * Ajv speaks English only; GZCTF answers a failed model validation with its first error, localised.
 * We do the same by mapping the Ajv keyword to one of our own translated sentences.
 */
const KEYWORD_KEYS: Record<string, string> = {
  required: 'validation.required',
  type: 'validation.type',
  minLength: 'validation.minLength',
  maxLength: 'validation.maxLength',
  minimum: 'validation.minimum',
  maximum: 'validation.maximum',
  exclusiveMinimum: 'validation.minimum',
  exclusiveMaximum: 'validation.maximum',
  format: 'validation.format',
  pattern: 'validation.pattern',
  enum: 'validation.enum',
  minItems: 'validation.minItems',
  maxItems: 'validation.maxItems',
};

function fieldName(error: FastifySchemaValidationError, context: string | undefined): string {
  const params = error.params as Record<string, unknown>;
  const pathParts = error.instancePath.split('/').filter(Boolean);
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    pathParts.push(params.missingProperty);
  }
  if (pathParts.length > 0) return pathParts.join('.');
  return context === 'body' ? 'body' : (context ?? 'request');
}

export function describeValidationError(
  t: TFunction,
  errors: FastifySchemaValidationError[],
  context: string | undefined,
): string {
  const first = errors[0];
  if (!first) return t('validation.invalid', { field: context ?? 'request' });
  const params = first.params as Record<string, unknown>;
  const key = KEYWORD_KEYS[first.keyword] ?? 'validation.invalid';
  const allowed = Array.isArray(params.allowedValues) ? params.allowedValues.join(', ') : undefined;
  return t(key, {
    field: fieldName(first, context),
    limit: params.limit,
    type: params.type,
    format: params.format,
    allowed,
  });
}
