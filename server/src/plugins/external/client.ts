import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { addVary } from '../../lib/http-caching';
import { newNonce, setShellHeaders } from '../app/security-headers';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Paths the SPA never owns: unknown ones get a JSON 404 rather than the app shell. */
const SERVER_PREFIXES = ['/api/', '/assets/', '/hub/', '/static/', '/js/', '/healthz'];
const isServerPath = (pathname: string) => SERVER_PREFIXES.some((prefix) => pathname.toLowerCase().startsWith(prefix));

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * Serves the built client from DIST_DIR: hashed bundles and language files with long-lived caching,
 * and index.html (title, description and language filled in, as GZCTF does) for every client route.
 * The build compressed the bundles (`.br`, `.gz` beside each file); the file matching the request's
 * Accept-Encoding is sent as it is, so serving one costs no compression.
 */
export default fp(
  async function client(app: FastifyInstance) {
    const indexFile = path.join(app.env.distDir, 'index.html');
    const hasClient = fs.existsSync(indexFile);
    const template = hasClient ? fs.readFileSync(indexFile, 'utf8') : undefined;

    if (hasClient) {
      await app.register(fastifyStatic, {
        root: app.env.distDir,
        prefix: '/',
        index: false,
        // One route per file the build wrote, rather than a catch-all reading the disk for any path:
        // every other path reaches the not-found handler below (a page or a JSON 404), where a
        // catch-all had answered 403 to a name too long for the file system.
        wildcard: false,
        // The page is made per answer (sendShell below), never sent as the raw template.
        globIgnore: ['index.html'],
        cacheControl: false,
        preCompressed: true,
        setHeaders(reply, filePath) {
          const relative = path.relative(app.env.distDir, filePath);
          reply.header('Cache-Control', relative === 'index.html' ? 'no-cache' : IMMUTABLE);
        },
      });
    } else {
      app.log.warn({ distDir: app.env.distDir }, 'no built client found; run `npm run build` to serve the web app');
    }

    async function sendShell(request: FastifyRequest, reply: FastifyReply) {
      if (!template) {
        return reply.status(503).type('text/plain').send('The web client is not built. Run `npm run build`.');
      }
      const { globalConfig } = await app.settings.get();
      const nonce = newNonce();
      const values: Record<string, string> = {
        title: `${globalConfig.title}::CTF`,
        description: globalConfig.description ?? globalConfig.slogan,
        lang: request.language,
        nonce,
      };
      // The minified template drops attribute quotes (`content=%description%`), so quote those here.
      const html = template.replace(
        /(=)?%(title|description|lang|nonce)%/g,
        (_match, equals: string | undefined, name: string) =>
          equals ? `="${escapeHtml(values[name] ?? '')}"` : escapeHtml(values[name] ?? ''),
      );
      // Every answer carries its own nonce, in the page and in its policy, so the two must always
      // travel together: with an ETag, a 304 would pair the browser's stored page (old nonce) with
      // this answer's policy (new nonce) and block every style. So the shell is never stored nor
      // revalidated; it is a kilobyte, and the bundles it names stay cached for a year.
      reply.header('Cache-Control', 'no-store');
      setShellHeaders(request, reply, nonce);
      addVary(reply, 'Accept-Language', 'Accept-Encoding');
      return reply.status(200).type('text/html; charset=utf-8').send(html);
    }

    // The static plugin would answer 403 for the directory and the raw template for index.html.
    app.get('/', sendShell);
    app.get('/index.html', sendShell);

    app.setNotFoundHandler(async (request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      const isPage = (request.method === 'GET' || request.method === 'HEAD') && !isServerPath(pathname);
      if (isPage) return sendShell(request, reply);
      return reply.status(404).send({ title: request.t('error.notFound'), status: 404 });
    });
  },
  { name: 'client', dependencies: ['i18n', 'settings'] },
);
