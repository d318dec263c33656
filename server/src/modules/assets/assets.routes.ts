import type { Handlers } from '../../contract/handlers';
import { notFound } from '../../lib/http-error';
import { sendEmpty } from '../../lib/reply';
import { incomingDir } from '../../lib/blobs';
import { discardUploads, receiveUploads } from '../../lib/uploads';
import { deleteAsset, matchesEtag, openAsset, uploadAssets } from './assets.service';

/** Stored files (reference §2.3): admin upload and delete, and the public, cacheable download. */
export const assetsHandlers: Handlers = {
  async assetsUpload(request) {
    const { dataDir } = request.server.env;
    const uploads = await receiveUploads(request, { fields: ['files'] }, incomingDir(dataDir));
    // Each stored one was moved into the store; what is left over failed to store.
    const stored = await uploadAssets(request.server.db, dataDir, uploads, request.query.filename).finally(() =>
      discardUploads(uploads),
    );
    request.log.info(
      { status: 'Success' },
      `Uploaded ${stored.map((file) => `${file.name} (${file.hash.slice(0, 12)})`).join(', ')}`,
    );
    return stored.map(({ hash, name }) => ({ hash, name }));
  },

  async assetsDelete(request, reply) {
    const { hash } = request.params;
    // GZCTF answers an unknown hash with an empty 404.
    if (!(await deleteAsset(request.server.db, request.server.env.dataDir, hash))) return sendEmpty(reply, 404);
    request.log.info({ status: 'Success' }, `File ${hash.slice(0, 12)} released`);
    return sendEmpty(reply);
  },

  async assetsGetFile(request, reply) {
    const { hash, filename } = request.params;
    const asset = await openAsset(request.server.env.dataDir, hash, filename);
    if (!asset) throw notFound('assets.notFound');
    const { file, headers } = asset;
    if (matchesEtag(request.headers['if-none-match'], headers.etag!)) {
      file.stream.destroy();
      return reply
        .status(304)
        .headers({
          etag: headers.etag,
          'cache-control': headers['cache-control'],
          'last-modified': headers['last-modified'],
        })
        .send();
    }
    return reply.status(200).headers(headers).send(file.stream);
  },
};
