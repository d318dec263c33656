import type { Handlers } from '../../contract/handlers';
import { toClientConfig } from '../../modules/settings';

export const infoHandlers: Handlers = {
  async infoGetClientConfig(request) {
    const settings = await request.server.settings.get();
    return toClientConfig(settings, request.server.env.portMapping);
  },
};
