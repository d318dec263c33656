import type { FastifyInstance, RouteHandlerMethod, RouteOptions } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import fp from 'fastify-plugin';
import {
  HTTP_METHODS,
  listOperations,
  loadContract,
  type ContractOperation,
  type OpenApiDocument,
} from '../../contract/contract';
import type { Handlers } from '../../contract/handlers';
import { HttpError } from '../../lib/http-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    operation?: ContractOperation;
  }
}

export interface ContractOptions {
  handlers: Handlers;
  /** More route options for some operations (the proxy's upgrade hooks), by operationId. */
  routeOptions?: Record<string, Partial<RouteOptions>>;
}

const notImplemented: RouteHandlerMethod = async (request) => {
  throw new HttpError(501, 'error.notImplemented', { operation: request.routeOptions.config.operation?.operationId });
};

/**
 * Multipart bodies are streamed by the handlers (@fastify/multipart), not buffered for Ajv, so their
 * JSON-schema body is dropped from the server's copy of the contract; the client codegen keeps it.
 */
function withoutMultipartBodies(document: OpenApiDocument): OpenApiDocument {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      const body = (operation as { requestBody?: { content?: Record<string, unknown> } }).requestBody;
      if (body?.content && 'multipart/form-data' in body.content) {
        delete (operation as { requestBody?: unknown }).requestBody;
      }
    }
  }
  return document;
}

/**
 * Plain routes (hubs, probes, metrics, files) are listed in the contract so it names every route the
 * server answers, but their own plugins serve them: the glue must not bind them a second time.
 */
function withoutPlainRoutes(document: OpenApiDocument): OpenApiDocument {
  for (const [route, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      if (item[method]?.['x-plain-route']) delete item[method];
    }
    if (Object.keys(item).length === 0) delete document.paths[route];
  }
  return document;
}

/** Registers every contract operation: validation and serialisation from its schemas, 501 until built. */
export default fp(
  async function contract(app: FastifyInstance, options: ContractOptions) {
    const full = loadContract();
    // Listed before the multipart bodies go, so each operation still names every media type it takes.
    const operations = new Map(listOperations(full).map((operation) => [operation.operationId, operation]));
    const document = withoutPlainRoutes(withoutMultipartBodies(full));
    const handlers = options.handlers as Record<string, RouteHandlerMethod | undefined>;
    for (const operationId of Object.keys(handlers)) {
      const operation = operations.get(operationId);
      if (!operation) throw new Error(`Handler ${operationId} has no operation in the contract`);
      if (operation.plainRoute) throw new Error(`Handler ${operationId} is for a plain route, served by its plugin`);
    }
    await app.register(openapiGlue, {
      specification: document,
      // The glue merges what we return into the route it built (method, url and schemas included).
      operationResolver(operationId: string) {
        const route = {
          ...options.routeOptions?.[operationId],
          handler: handlers[operationId] ?? notImplemented,
          // The body media types strict-input lets through.
          config: { operation: operations.get(operationId), accepts: operations.get(operationId)?.mediaTypes },
        };
        return route as unknown as RouteOptions;
      },
    });
  },
  { name: 'contract', dependencies: ['errors'] },
);
