import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isDatabaseUnavailable, pgErrorCode } from '../../db/errors';
import { languageFromHeader } from '../../i18n/languages';
import { translator } from '../../i18n/translator';
import { describeValidationError } from '../../i18n/validation';
import { HttpError } from '../../lib/http-error';
import { responseOn } from '../../lib/socket-response';

const STATUS_KEYS: Record<number, string> = {
  401: 'error.loginRequired',
  403: 'error.forbidden',
  404: 'error.notFound',
  413: 'error.payloadTooLarge',
  415: 'error.unsupportedMediaType',
};

/** 22021: character not in repertoire (e.g. U+0000); 22P05: untranslatable character. */
const INVALID_TEXT_CODES = new Set(['22021', '22P05']);

/**
 * Fastify's `frameworkErrors`: a URL it cannot decode (`%ff`) or a path parameter over its length
 * limit is refused before routing, so before any hook or the error handler; it gets the same
 * `{title, status}` in the caller's language.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const statusCode = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
  const t = translator(languageFromHeader(request.headers['accept-language']));
  return reply.status(statusCode).send({ title: t(STATUS_KEYS[statusCode] ?? 'error.badRequest'), status: statusCode });
}

/**
 * Every failure leaves the server as GZCTF's `{title, status}` in the request's language. Server
 * faults are logged with their stack but never described to the client.
 */
export default fp(
  async function errors(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
      if (error instanceof HttpError) {
        // A 429 that says when to come back says it in the header too, unless its thrower already did.
        const seconds = error.params.seconds;
        if (error.statusCode === 429 && typeof seconds === 'number' && !reply.hasHeader('retry-after')) {
          reply.header('retry-after', seconds);
        }
        return reply
          .status(error.statusCode)
          .send({ title: request.t(error.messageKey, error.params), status: error.bodyStatus });
      }
      if (error.validation) {
        const title = describeValidationError(request.t, error.validation, error.validationContext);
        return reply.status(400).send({ title, status: 400 });
      }
      // Text PostgreSQL cannot store (a NUL character, bad UTF-8) is the client's fault wherever it
      // arrives; nothing was written, because the statement failed.
      if (INVALID_TEXT_CODES.has(pgErrorCode(error) ?? '')) {
        return reply.status(400).send({ title: request.t('error.badRequest'), status: 400 });
      }
      // The database is restarting or unreachable: worth retrying, and no fault of this server's code.
      // The pool reconnects on its own once the database is back.
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: error }, 'database unavailable');
        return reply
          .status(503)
          .header('retry-after', '5')
          .send({ title: request.t('error.serviceUnavailable'), status: 503 });
      }
      const statusCode = error.statusCode ?? 500;
      if (statusCode >= 500) {
        request.log.error({ err: error }, 'request failed');
        return reply.status(statusCode).send({ title: request.t('error.internal'), status: statusCode });
      }
      // Fastify's own 4xx (body too large, bad JSON, unsupported media type...) keep their status.
      const key = STATUS_KEYS[statusCode] ?? 'error.badRequest';
      return reply.status(statusCode).send({ title: request.t(key), status: statusCode });
    });
  },
  { name: 'errors', dependencies: ['i18n'] },
);

/** What a request Node refused before Fastify saw it is answered with, and in which words. */
const CLIENT_ERRORS: Record<string, { status: number; key: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, key: 'error.requestTimeout' },
  HPE_HEADER_OVERFLOW: { status: 431, key: 'error.headersTooLarge' },
};

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refused (malformed, headers too
 * large) or whose body did not arrive within the request timeout. Fastify's own answer is JSON of
 * another shape in English; this one is `{title, status}` in the request's language when its headers
 * had arrived (a stalled body), else the default's, and the connection closes.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const response = responseOn(socket);
  if (socket.writable && !response?.headersSent) {
    const { status, key } = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, key: 'error.badRequest' };
    const t = translator(languageFromHeader(response?.req.headers['accept-language']));
    const body = JSON.stringify({ title: t(key), status });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
