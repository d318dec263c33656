import type { FastifyReply, FastifyRequest } from 'fastify';
import type { operations } from './api.generated';

/** Handler types derived from the generated contract types, so a handler cannot drift from the YAML. */
export type OperationId = keyof operations;

type Field<T, K extends PropertyKey> = T extends Record<K, infer V> ? V : never;
type OrEmpty<T> = [T] extends [never] ? Record<string, never> : undefined extends T ? Record<string, never> : T;

export type PathParams<O extends OperationId> = OrEmpty<Field<operations[O]['parameters'], 'path'>>;
export type QueryParams<O extends OperationId> = OrEmpty<Field<operations[O]['parameters'], 'query'>>;
export type JsonBody<O extends OperationId> = operations[O] extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Body
  : operations[O] extends { requestBody?: { content: { 'application/json': infer Body } } }
    ? Body | undefined
    : undefined;

type SuccessResponse<O extends OperationId> = Field<operations[O]['responses'], 200>;
export type JsonResult<O extends OperationId> =
  SuccessResponse<O> extends {
    content: { 'application/json': infer Result };
  }
    ? Result
    : void;

export type OperationRequest<O extends OperationId> = FastifyRequest<{
  Params: PathParams<O>;
  Querystring: QueryParams<O>;
  Body: JsonBody<O>;
}>;

/**
 * A JSON operation returns its 200 body; operations that stream files or answer with no body send
 * through `reply` themselves and return it. An answer made ahead (a cached board: its status, type
 * and coding set on `reply`) returns its bytes, which Fastify sends: returning `reply` makes Fastify
 * wait for the response to finish (`reply.then`), which had cost each revalidated scoreboard about
 * 3 µs of the server's main thread. Such an answer returns undefined for no body at all (a 304).
 */
export type OperationHandler<O extends OperationId> = (
  request: OperationRequest<O>,
  reply: FastifyReply,
) => Promise<JsonResult<O> | FastifyReply | Buffer | undefined>;

export type Handlers = { [O in OperationId]?: OperationHandler<O> };
