import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { incomingDir } from '../../lib/blobs';
import { removeStaleUploads } from '../../lib/uploads';
import { builtInFavicon, matchesEtag, openAsset } from './assets.service';

/** An upload received this long ago is no longer arriving: a request times out after 5 minutes. */
const STALE_UPLOAD_MS = 3_600_000;

/**
 * Start-up removes what a crash left of uploads being received. `GET /favicon.webp`: the favicon made from the uploaded logo, or a built-in one. GZCTF serves it
 * outside its API, so the contract lists it as a plain route (`serverFavicon`). Browsers revalidate it on each
 * visit (`no-cache` + ETag), so a new logo shows up at once and an unchanged one costs a 304.
 */
export default fp(
  async function assets(app: FastifyInstance) {
    // What a crash left of uploads being received (`receiveUploads`, the asset upload's).
    app.addHook('onReady', async () => {
      await removeStaleUploads(incomingDir(app.env.dataDir), Date.now() - STALE_UPLOAD_MS).catch((error: unknown) =>
        app.log.warn({ err: error }, 'could not remove stale uploads'),
      );
    });
    app.get('/favicon.webp', { logLevel: 'warn' }, async (request, reply) => {
      const { faviconHash } = (await app.settings.get()).globalConfig;
      const asset = faviconHash ? await openAsset(app.env.dataDir, faviconHash, 'favicon.webp') : undefined;
      const etag = asset ? asset.headers.etag! : '"default"';
      reply.header('cache-control', 'public, no-cache').header('etag', etag);
      if (matchesEtag(request.headers['if-none-match'], etag)) {
        asset?.file.stream.destroy();
        return reply.status(304).send();
      }
      if (asset) {
        return reply
          .type('image/webp')
          .header('content-length', String(asset.file.size))
          .header('last-modified', asset.headers['last-modified'])
          .send(asset.file.stream);
      }
      return reply.type('image/webp').send(await builtInFavicon());
    });
  },
  { name: 'assets', dependencies: ['settings'] },
);
