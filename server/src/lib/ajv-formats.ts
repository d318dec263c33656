import type { Plugin } from 'ajv';

const INT32 = 2 ** 31;

/**
 * OpenAPI's numeric and binary formats are not JSON-Schema formats; Ajv must know them or it rejects
 * the contract. Integers are range-checked; `binary` only appears on multipart fields, never validated.
 */
export const ajvFormats: Plugin<unknown> = (ajv) => {
  ajv.addFormat('int32', {
    type: 'number',
    validate: (value: number) => Number.isInteger(value) && value >= -INT32 && value < INT32,
  });
  ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isSafeInteger(value) });
  ajv.addFormat('uint64', { type: 'number', validate: (value: number) => Number.isSafeInteger(value) && value >= 0 });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  ajv.addFormat('binary', true);
  return ajv;
};
