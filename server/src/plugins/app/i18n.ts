import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { TFunction } from 'i18next';
import { languageFromHeader, type Language } from '../../i18n/languages';
import { translator } from '../../i18n/translator';

declare module 'fastify' {
  interface FastifyRequest {
    language: Language;
    t: TFunction;
  }
}

/** Resolves the request's language from Accept-Language, as the client sends it on every call. */
export default fp(
  async function i18n(app: FastifyInstance) {
    app.decorateRequest('language', 'en-US');
    app.decorateRequest('t', null as unknown as TFunction);
    app.addHook('onRequest', async (request) => {
      request.language = languageFromHeader(request.headers['accept-language']);
      request.t = translator(request.language);
    });
  },
  { name: 'i18n' },
);
