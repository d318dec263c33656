import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { listOperations, loadContract } from '../../../server/src/contract/contract';
import { ajvFormats } from '../../../server/src/lib/ajv-formats';

/**
 * Checks a response body against the contract's schema for that operation and status, so every
 * integration test also proves the server speaks the contract (architecture §3).
 */
const document = loadContract();
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajvFormats(ajv);
ajv.addSchema({ $id: 'contract', components: document.components ?? {} });

const validators = new Map<string, ValidateFunction>();
const operations = new Map(listOperations(document).map((operation) => [operation.operationId, operation]));

function rewriteRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rewriteRefs);
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(
      Object.entries(schema).map(([key, value]) => [
        key,
        key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `contract${value}` : rewriteRefs(value),
      ]),
    );
  }
  return schema;
}

export function responseValidator(operationId: string, status = 200): ValidateFunction {
  const key = `${operationId}:${status}`;
  const existing = validators.get(key);
  if (existing) return existing;
  const operation = operations.get(operationId);
  if (!operation) throw new Error(`No operation ${operationId} in the contract`);
  const responses = (document.paths[operation.path]?.[operation.method] as { responses?: Record<string, unknown> })
    .responses;
  const response = responses?.[String(status)] as { content?: Record<string, { schema?: unknown }> } | undefined;
  const schema = response?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${operationId} declares no JSON body for ${status}`);
  const validate = ajv.compile(rewriteRefs(schema) as object);
  validators.set(key, validate);
  return validate;
}

/** Throws with Ajv's explanation when `body` does not match the contract. */
export function assertMatchesContract(operationId: string, body: unknown, status = 200): void {
  const validate = responseValidator(operationId, status);
  if (!validate(body)) {
    throw new Error(`${operationId} ${status} response breaks the contract: ${ajv.errorsText(validate.errors)}`);
  }
}
