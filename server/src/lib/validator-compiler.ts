import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { ajvFormats } from './ajv-formats';

/**
 * How request parts are validated. JSON bodies arrive typed, so they are validated as
 * they are: a number where the contract says string is a 400 naming the field, never silently turned
 * into "12345". Path, query and header values are strings on the wire and must be converted, but only
 * from plain decimal text: Ajv alone would read `0x10` as 16, `1e3` as 1000 and ` 16` as 16.
 *
 * Unknown body fields are dropped where a schema closes its properties, and ignored elsewhere, as
 * GZCTF ignores them; defaults fill what was left out.
 */

type Schema = Record<string, unknown> & { $id?: string; properties?: Record<string, Record<string, unknown>> };

// No sign: every number the contract takes on the wire (ids, counts, offsets) is non-negative.
const INTEGER = /^[0-9]+$/;
const NUMBER = /^[0-9]+(\.[0-9]+)?$/;

function newAjv(coerceTypes: false | 'array'): Ajv {
  // addUsedSchema off, as in Fastify's default: the glue gives every recursive schema the same $id,
  // which must not be registered (and collide) on compiling. strictNumbers on by itself, since
  // `strict: false` turns it off too: JSON like 1e400 parses to Infinity, which would be stored and
  // served back as null (JSON has no Infinity).
  const ajv = new Ajv({
    strict: false,
    strictNumbers: true,
    removeAdditional: true,
    useDefaults: true,
    addUsedSchema: false,
    coerceTypes,
  });
  addFormats(ajv);
  // After ajv-formats, so the contract's own reading of int32/int64 is the one in force.
  ajvFormats(ajv);
  return ajv;
}

function compile(ajv: Ajv, schema: Schema): ValidateFunction {
  // Ajv refuses a second schema with an $id it holds; the same $id means the same schema here.
  if (schema.$id) {
    const stored = ajv.getSchema(schema.$id);
    if (stored) return stored;
  }
  return ajv.compile(schema);
}

const typesOf = (property: Record<string, unknown>): unknown[] => [property.type].flat();

function typeError(name: string, type: string): ErrorObject {
  return {
    keyword: 'type',
    instancePath: `/${name}`,
    schemaPath: `#/properties/${name}/type`,
    params: { type },
    message: `must be ${type}`,
  };
}

function formatError(name: string, format: string): ErrorObject {
  return {
    keyword: 'format',
    instancePath: `/${name}`,
    schemaPath: `#/properties/${name}/format`,
    params: { format },
    message: `must match format "${format}"`,
  };
}

/** The first numeric property whose wire text is not plain decimal (or is beyond a safe integer). */
function badNumber(checks: [string, 'integer' | 'number'][], data: unknown): ErrorObject | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  for (const [name, type] of checks) {
    const value = (data as Record<string, unknown>)[name];
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (typeof item !== 'string') continue;
      if (!(type === 'integer' ? INTEGER : NUMBER).test(item)) return typeError(name, type);
      if (type === 'integer' && !Number.isSafeInteger(Number(item))) return formatError(name, 'int64');
    }
  }
  return undefined;
}

/** Validates path, query or header values, converting strings only when they are decimal text. */
function wireValidator(schema: Schema, validate: ValidateFunction): ValidateFunction {
  const checks = Object.entries(schema.properties ?? {}).flatMap(
    ([name, property]): [string, 'integer' | 'number'][] => {
      const types = typesOf(property);
      if (types.includes('integer')) return [[name, 'integer']];
      if (types.includes('number')) return [[name, 'number']];
      return [];
    },
  );
  if (checks.length === 0) return validate;
  const strict = ((data: unknown) => {
    const error = badNumber(checks, data);
    if (error) {
      strict.errors = [error];
      return false;
    }
    const valid = validate(data);
    strict.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return strict;
}

/**
 * The app's validator compiler: one Ajv without coercion for bodies, one converting wire strings for
 * the rest, both with the contract's formats. (No shared schemas are added with `addSchema`; the
 * contract's are inlined by the glue.)
 */
export function validatorCompiler(): FastifySchemaCompiler<Schema> {
  const bodies = newAjv(false);
  const wire = newAjv('array');
  return ({ schema, httpPart }) =>
    httpPart === 'body' ? compile(bodies, schema) : wireValidator(schema, compile(wire, schema));
}
