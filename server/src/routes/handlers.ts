import type { Handlers } from '../contract/handlers';
import { accountHandlers } from './account/account.routes';
import { adminHandlers } from './admin/admin.routes';
import { assetsHandlers } from './assets/assets.routes';
import { captchaHandlers } from './info/captcha.routes';
import { infoHandlers } from './info/info.routes';
import { postsHandlers } from './posts/posts.routes';
import { editHandlers } from './edit/edit.routes';
import { gameHandlers } from './game/game.routes';
import { reviewHandlers } from './edit/review.routes';
import { writeupsHandlers } from './edit/writeups.routes';
import { adminTeamHandlers } from './team/admin-teams.routes';
import { teamHandlers } from './team/team.routes';
import { capturesHandlers } from './instances/captures.routes';
import { instancesHandlers } from './instances/instances.routes';
import { proxyHandlers } from './instances/proxy.routes';

/** Every built operation, by operationId. Anything missing here answers 501 (see `npm run api:coverage`). */
export const handlers: Handlers = {
  ...infoHandlers,
  ...accountHandlers,
  ...captchaHandlers,
  ...adminHandlers,
  ...assetsHandlers,
  ...postsHandlers,
  ...editHandlers,
  ...reviewHandlers,
  ...writeupsHandlers,
  ...teamHandlers,
  ...adminTeamHandlers,
  ...gameHandlers,
  ...instancesHandlers,
  ...capturesHandlers,
  ...proxyHandlers,
};
