import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/** The contract file is the single source of every path, parameter and schema (architecture §3). */
export const CONTRACT_PATH = path.resolve(__dirname, '../../../openapi/gzctf.yaml');

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options';
export const HTTP_METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

export type AuthLevel = 'anon' | 'User' | 'Monitor' | 'Admin';

export interface ContractOperation {
  operationId: string;
  method: HttpMethod;
  path: string;
  tag: string;
  auth: AuthLevel;
  rateLimit: string | undefined;
  /** The media types its request body may have (none: it takes no body). */
  mediaTypes: string[];
  /** GZCTF 1.4.0 does not have it (`x-beyond`). */
  beyond: boolean;
  /** Served by its own plugin, not bound by the contract plugin (`x-plain-route`). */
  plainRoute: boolean;
  /** More methods its path answers the same way, without its upgrade (`x-other-methods`). */
  otherMethods: HttpMethod[];
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Partial<Record<HttpMethod, OpenApiOperation>>>;
  components?: { schemas?: Record<string, unknown> };
  [key: string]: unknown;
}

export interface OpenApiOperation {
  operationId?: string;
  tags?: string[];
  'x-auth'?: AuthLevel;
  'x-rate-limit'?: string;
  'x-beyond'?: boolean;
  'x-plain-route'?: boolean;
  'x-other-methods'?: HttpMethod[];
  requestBody?: { content?: Record<string, unknown> };
  [key: string]: unknown;
}

let cached: OpenApiDocument | undefined;

/** Parses the contract once per process; callers get a fresh deep copy because plugins mutate schemas. */
export function loadContract(file = CONTRACT_PATH): OpenApiDocument {
  if (file !== CONTRACT_PATH) return parse(fs.readFileSync(file, 'utf8')) as OpenApiDocument;
  cached ??= parse(fs.readFileSync(file, 'utf8')) as OpenApiDocument;
  return structuredClone(cached);
}

export function listOperations(document: OpenApiDocument): ContractOperation[] {
  const operations: ContractOperation[] = [];
  for (const [route, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation?.operationId) continue;
      operations.push({
        operationId: operation.operationId,
        method,
        path: route,
        tag: operation.tags?.[0] ?? 'Untagged',
        auth: operation['x-auth'] ?? 'anon',
        rateLimit: operation['x-rate-limit'],
        mediaTypes: Object.keys(operation.requestBody?.content ?? {}),
        beyond: operation['x-beyond'] === true,
        plainRoute: operation['x-plain-route'] === true,
        otherMethods: operation['x-other-methods'] ?? [],
      });
    }
  }
  return operations;
}
