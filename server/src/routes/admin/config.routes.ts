import type { Handlers } from '../../contract/handlers';
import { MAX_IMAGE_BYTES } from '../../lib/images';
import { sendEmpty } from '../../lib/reply';
import { readUploads } from '../../lib/uploads';
import { getConfig, resetLogo, updateConfig, updateLogo } from '../../modules/settings';

/** The platform's settings and logo (reference §2.2); each change is logged for the admin log page. */
export const adminConfigHandlers: Handlers = {
  async adminGetConfigs(request) {
    const { accountPolicy, globalConfig, containerPolicy } = await getConfig(request.server);
    // The payload encryption key pair never leaves the server this way (the public half is in /api/config).
    const { apiPublicKey: _public, apiPrivateKey: _private, ...publicGlobalConfig } = globalConfig;
    return { accountPolicy, globalConfig: publicGlobalConfig, containerPolicy };
  },

  async adminUpdateConfigs(request, reply) {
    await updateConfig(request.server, request.body);
    const sections = Object.entries(request.body)
      .filter(([, value]) => value != null)
      .map(([key]) => key);
    request.log.info({ status: 'Success' }, `Settings updated: ${sections.join(', ') || 'nothing'}`);
    return sendEmpty(reply);
  },

  async adminUpdateLogo(request, reply) {
    const [upload] = await readUploads(request, {
      fields: ['file'],
      maxFiles: 1,
      maxBytes: MAX_IMAGE_BYTES,
      tooLargeKey: 'assets.imageTooLarge',
      tooLargeParams: { limit: '3 MiB' },
    });
    const { logoHash } = await updateLogo(request.server, upload!.buffer);
    request.log.info({ status: 'Success' }, `Platform logo updated (${logoHash.slice(0, 12)})`);
    return sendEmpty(reply);
  },

  async adminResetLogo(request, reply) {
    await resetLogo(request.server);
    request.log.info({ status: 'Success' }, 'Platform logo reset to the default');
    return sendEmpty(reply);
  },
};
