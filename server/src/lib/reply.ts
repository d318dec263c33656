import type { FastifyReply } from 'fastify';

/**
 * Several GZCTF operations answer a bare JSON string (a new id, a password, a URL). Fastify sends a
 * returned string as-is (text/plain) rather than through the response schema, so it is encoded here.
 */
export function sendJsonString(reply: FastifyReply, value: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(value));
}

/** 200 with no body, for operations whose contract declares none. */
export function sendEmpty(reply: FastifyReply, status = 200): FastifyReply {
  return reply.status(status).send();
}
