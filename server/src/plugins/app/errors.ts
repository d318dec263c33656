import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { pgErrorCode } from '../../db/errors';
import { describeValidationError } from '../../i18n/validation';
import { HttpError } from '../../lib/http-error';
import { isDatabaseUnavailable } from '../../db/errors';

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
 * Every failure leaves the server as GZCTF's `{title, status}` in the request's language. Server
 * faults are logged with their stack but never described to the client.
 */
export default fp(
  async function errors(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
      if (error instanceof HttpError) {
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
