import fc from 'fast-check';
import type { ContractOperation, OpenApiDocument } from '../../../server/src/contract/contract';
import { multipart } from '../helpers/multipart';
import { exemplar } from './exemplars';
import { hostileId, hostileValue, oddString } from './hostile-values';

/**
 * fast-check arbitraries built from the OpenAPI contract: for one operation, requests that a hostile
 * player would send — schema-shaped bodies with one part broken, wrong types, missing and extra
 * fields, huge and deeply nested values, odd Unicode, hostile ids and the wrong media type.
 */

export type Caller = 'anon' | 'player' | 'admin';

export interface FuzzRequest {
  caller: Caller;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** What was sent, short enough to print when the property fails. */
  note: string;
  /** A body the route must not act on (wrong media type, bad UTF-8, too big): the answer must be >= 400. */
  refuse: boolean;
}

/** Real ids of the seeded world, so some requests reach the handlers past their 404s. */
export interface SeedIds {
  game: number;
  challenge: number;
  notice: number;
  flag: number;
  submission: number;
  team: number;
  participation: number;
  post: string;
  hash: string;
  filename: string;
  users: string[];
}

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

interface OperationObject {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

// ---------- values shaped by the contract ----------

export class SchemaArbitraries {
  private readonly cache = new Map<Schema, fc.Arbitrary<unknown>>();

  constructor(private readonly document: OpenApiDocument) {}

  resolve(schema: Schema | undefined): Schema {
    let current = schema ?? {};
    while (typeof current.$ref === 'string') {
      const name = current.$ref.replace('#/components/schemas/', '');
      current = (this.document.components?.schemas?.[name] ?? {}) as Schema;
    }
    return current;
  }

  /** Values that mostly satisfy the schema (what a client would send), to be broken elsewhere. */
  valid(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
    const resolved = this.resolve(schema);
    const cached = this.cache.get(resolved);
    if (cached) return cached;
    const arbitrary = this.build(resolved, depth);
    if (depth === 0) this.cache.set(resolved, arbitrary);
    return arbitrary;
  }

  private build(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    const variants = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
    if (variants) return fc.oneof(...variants.map((variant) => this.valid(variant, depth + 1)));
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
    if (Array.isArray(schema.type)) {
      return fc.oneof(...(schema.type as string[]).map((type) => this.build({ ...schema, type }, depth)));
    }
    switch (schema.type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return fc.integer({
          min: typeof schema.minimum === 'number' ? schema.minimum : -5,
          max: typeof schema.maximum === 'number' ? schema.maximum : 2 ** 31 - 1,
        });
      case 'number':
        return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
      case 'string':
        return this.text(schema);
      case 'array':
        if (depth > 4) return fc.constant([]);
        return fc.array(this.valid(schema.items as Schema, depth + 1), {
          maxLength: Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 4, 4),
        });
      case 'object':
        return this.object(schema, depth);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  private text(schema: Schema): fc.Arbitrary<string> {
    const maxLength = typeof schema.maxLength === 'number' ? Math.min(schema.maxLength, 64) : 32;
    const minLength = typeof schema.minLength === 'number' ? Math.min(schema.minLength, maxLength) : 0;
    switch (schema.format) {
      case 'uuid':
        return fc.uuid();
      case 'email':
        return fc.emailAddress();
      case 'binary':
        return fc.string({ maxLength: 16 });
      default:
        return fc.oneof(
          fc.string({ minLength, maxLength }),
          fc.constantFrom('flag{fuzz}', 'Passw0rd', 'Web', 'fuzz team', 'https://example.com/x'),
        );
    }
  }

  private object(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const keys = Object.keys(properties);
    if (keys.length === 0 || depth > 4) return fc.constant({});
    const model = Object.fromEntries(keys.map((key) => [key, this.valid(properties[key], depth + 1)]));
    return fc.record(model, { requiredKeys: (schema.required as string[] | undefined) ?? [] });
  }

  /** A body of the schema with one thing wrong with it (or, now and then, nothing). */
  broken(schema: Schema | undefined, known?: fc.Arbitrary<unknown>): fc.Arbitrary<{ body: unknown; how: string }> {
    const resolved = this.resolve(schema);
    // A known-good body (exemplars.ts), when there is one, is the usual starting point.
    const valid = known
      ? fc.oneof({ weight: 3, arbitrary: known }, { weight: 1, arbitrary: this.valid(resolved) })
      : this.valid(resolved);
    const label = (how: string) => (body: unknown) => ({ body, how });
    const options: fc.Arbitrary<{ body: unknown; how: string }>[] = [
      valid.map(label('shaped')),
      valid.map(label('shaped')),
      hostileValue.map(label('hostile body')),
    ];
    const properties = Object.keys((resolved.properties ?? {}) as Record<string, unknown>);
    if (resolved.type === 'object' && properties.length > 0) {
      const required = (resolved.required as string[] | undefined) ?? [];
      options.push(
        fc
          .tuple(valid, fc.constantFrom(...properties), hostileValue)
          .map(([body, key, value]) => ({ body: { ...(body as object), [key]: value }, how: `hostile ${key}` })),
        fc
          .tuple(valid, fc.dictionary(fc.string({ maxLength: 8 }), hostileValue, { minKeys: 1, maxKeys: 4 }))
          .map(([body, extra]) => ({ body: { ...extra, ...(body as object) }, how: 'extra fields' })),
      );
      if (required.length > 0) {
        options.push(
          fc.tuple(valid, fc.constantFrom(...required)).map(([body, key]) => {
            const copy = { ...(body as Record<string, unknown>) };
            delete copy[key];
            return { body: copy, how: `missing ${key}` };
          }),
        );
      }
    }
    if (resolved.type === 'array') {
      options.push(
        fc
          .tuple(valid, hostileValue)
          .map(([body, value]) => ({ body: [...(body as unknown[]), value], how: 'hostile item' })),
      );
    }
    return fc.oneof(...options);
  }
}

/** The seeded value that fits a path parameter, chosen by the operation's path. */
function seededPathValue(operation: ContractOperation, name: string, seed: SeedIds): string[] {
  const path = operation.path;
  switch (name) {
    case 'id':
      if (path.startsWith('/api/team/') || path.startsWith('/api/admin/teams/')) return [String(seed.team)];
      if (path.includes('/posts/')) return [seed.post];
      if (path.startsWith('/api/admin/participation/')) return [String(seed.participation)];
      if (path.startsWith('/api/admin/instances/') || path.startsWith('/api/proxy/')) {
        return ['00000000-0000-4000-8000-000000000000'];
      }
      return [String(seed.game)];
    case 'cId':
    case 'challengeId':
      return [String(seed.challenge)];
    case 'noticeId':
      return [String(seed.notice)];
    case 'fId':
      return [String(seed.flag)];
    case 'submitId':
      return [String(seed.submission)];
    case 'partId':
      return [String(seed.participation)];
    case 'userid':
    case 'userId':
      return seed.users;
    case 'hash':
      return [seed.hash];
    case 'filename':
      return [seed.filename];
    default:
      return ['1'];
  }
}

// ---------- whole requests ----------

const MEDIA_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'application/octet-stream',
  'application/vnd.api+json',
  'multipart/form-data; boundary=x',
];

type BodyPart = { headers: Record<string, string>; payload?: string | Buffer; note: string; refuse?: boolean };

function jsonPart(body: unknown, how: string): BodyPart {
  return {
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body) ?? 'null',
    note: `json(${how}): ${preview(body)}`,
  };
}

/** Bodies no JSON parser should accept quietly: bad UTF-8, truncated, empty, too big. */
const rawJson: fc.Arbitrary<BodyPart> = fc.oneof(
  fc.constant<BodyPart>({
    headers: { 'content-type': 'application/json' },
    payload: Buffer.concat([Buffer.from('{"userName":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('","a":1}')]),
    note: 'json with invalid UTF-8',
    refuse: true,
  }),
  fc.constant<BodyPart>({ headers: { 'content-type': 'application/json' }, payload: '{"a":', note: 'truncated json' }),
  fc.constant<BodyPart>({ headers: { 'content-type': 'application/json' }, payload: '', note: 'empty json' }),
  fc.constant<BodyPart>({
    headers: { 'content-type': 'application/json' },
    payload: '{"a":1,"a":2,"__proto__":{"x":1}}',
    note: 'json with duplicate and __proto__ keys',
  }),
  fc.constant<BodyPart>({
    headers: { 'content-type': 'application/json' },
    payload: `{"a":"${'B'.repeat(2 * 1024 * 1024)}"}`,
    note: 'json of 2 MiB',
    refuse: true,
  }),
);

function wrongMedia(schemaBody: fc.Arbitrary<{ body: unknown; how: string }>): fc.Arbitrary<BodyPart> {
  return fc.tuple(fc.constantFrom(...MEDIA_TYPES), schemaBody).map(([type, { body }]) => ({
    headers: { 'content-type': type },
    payload: JSON.stringify(body) ?? '',
    note: `${type} body: ${preview(body)}`,
    refuse: true,
  }));
}

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Multipart bodies for the upload routes: a real image, junk, odd names, no file, many files. */
const multipartBody: fc.Arbitrary<BodyPart> = fc
  .tuple(
    fc.constantFrom('file', 'files', 'other'),
    fc.oneof(fc.constant('a.png'), oddString, fc.constant('../../x.png'), fc.constant('A'.repeat(1_000))),
    fc.oneof(
      fc.constant(PNG_1PX),
      fc.uint8Array({ maxLength: 256 }).map((bytes) => Buffer.from(bytes)),
      fc.constant(Buffer.from('%PDF-1.4 not really')),
    ),
    fc.integer({ min: 0, max: 3 }),
  )
  .map(([field, filename, content, count]) => {
    const parts = Array.from({ length: count }, () => ({ field, filename: filename || 'x', content }));
    const body = multipart(parts, parts.length > 0 ? {} : { note: 'no file' });
    return {
      headers: body.headers,
      payload: body.payload,
      note: `multipart ${count}x ${field} ${JSON.stringify(filename.slice(0, 40))} (${content.length} bytes)`,
    };
  });

function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
}

/** Every request the fuzzer may send to one operation, as any of the three callers. */
export function requestsFor(
  operation: ContractOperation,
  document: OpenApiDocument,
  schemas: SchemaArbitraries,
  seed: () => SeedIds,
): fc.Arbitrary<FuzzRequest> {
  const spec = document.paths[operation.path]![operation.method] as OperationObject;
  const parameters = spec.parameters ?? [];
  const pathParameters = parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = parameters.filter((parameter) => parameter.in === 'query');

  // Each path parameter: the seeded id most of the time, so the handler runs, else a hostile one.
  const pathValues = fc.tuple(
    ...pathParameters.map((parameter) =>
      fc.oneof(
        { weight: 5, arbitrary: fc.nat().map((pick) => ({ pick })) },
        { weight: 2, arbitrary: hostileId.map((raw) => ({ raw })) },
        {
          weight: 1,
          arbitrary: schemas.valid(parameter.schema).map((value) => ({ raw: encodeURIComponent(String(value)) })),
        },
      ),
    ),
  );
  const queryValues = fc.tuple(
    ...queryParameters.map((parameter) =>
      fc.oneof(
        fc.constant(undefined),
        schemas.valid(parameter.schema).map((value) => encodeURIComponent(String(value))),
        hostileId,
      ),
    ),
  );

  const content = spec.requestBody?.content ?? {};
  const jsonSchema = content['application/json']?.schema;
  let body: fc.Arbitrary<BodyPart>;
  if ('multipart/form-data' in content) {
    const shaped = schemas.broken(undefined);
    body = fc.oneof({ weight: 4, arbitrary: multipartBody }, { weight: 1, arbitrary: wrongMedia(shaped) });
  } else if (jsonSchema) {
    const known = exemplar(operation.operationId);
    const shaped = schemas.broken(jsonSchema, known && fc.constant(null).map(() => known(seed())));
    body = fc.oneof(
      { weight: 6, arbitrary: shaped.map(({ body: value, how }) => jsonPart(value, how)) },
      { weight: 1, arbitrary: rawJson },
      // Every body in the contract is required: none at all must be refused, not read as `undefined`.
      { weight: 1, arbitrary: fc.constant<BodyPart>({ headers: {}, note: 'no body', refuse: true }) },
      { weight: 1, arbitrary: wrongMedia(shaped) },
    );
  } else {
    // No body in the contract: mostly none, sometimes an unwanted one.
    body = fc.oneof(
      { weight: 4, arbitrary: fc.constant<BodyPart>({ headers: {}, note: 'no body' }) },
      { weight: 1, arbitrary: hostileValue.map((value) => jsonPart(value, 'unwanted')) },
      { weight: 1, arbitrary: wrongMedia(hostileValue.map((value) => ({ body: value, how: 'unwanted' }))) },
    );
  }

  return fc
    .tuple(fc.constantFrom<Caller>('anon', 'player', 'admin'), pathValues, queryValues, body)
    .map(([caller, pathPicks, queryPicks, part]) => {
      const ids = seed();
      let url = operation.path;
      pathParameters.forEach((parameter, index) => {
        const choice = pathPicks[index]!;
        const seeded = seededPathValue(operation, parameter.name, ids);
        const value = 'raw' in choice ? choice.raw : encodeURIComponent(seeded[choice.pick % seeded.length]!);
        url = url.replace(`{${parameter.name}}`, value);
      });
      const query = queryParameters
        .map((parameter, index) => (queryPicks[index] === undefined ? '' : `${parameter.name}=${queryPicks[index]}`))
        .filter(Boolean)
        .join('&');
      if (query) url += `?${query}`;
      return {
        caller,
        method: operation.method.toUpperCase(),
        url,
        headers: part.headers,
        ...(part.payload === undefined ? {} : { payload: part.payload }),
        note: part.note,
        // A route without a body in the contract may ignore one; a route with one must refuse the wrong kind.
        refuse: Boolean(part.refuse) && spec.requestBody !== undefined,
      };
    });
}
