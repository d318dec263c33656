import type { Handlers } from '../contract/handlers';
import { accountHandlers } from './account/account.routes';
import { adminConfigHandlers } from './admin/config.routes';
import { adminLogsFilesHandlers } from './admin/logs-files.routes';
import { adminUsersHandlers } from './admin/users.routes';
import { assetsHandlers } from '../modules/assets/assets.routes';
import { captchaHandlers } from './info/captcha.routes';
import { infoHandlers } from './info/info.routes';
import { postsHandlers } from './posts/posts.routes';
import { editHandlers } from './edit/edit.routes';
import { gameChallengeHandlers } from './game/challenges.routes';
import { gameDetailsHandlers } from './game/details.routes';
import { gameJoinHandlers } from './game/join.routes';
import { gameMonitorHandlers } from './game/monitor.routes';
import { gameWriteupHandlers } from './game/writeups.routes';
import { reviewHandlers } from './admin/review.routes';
import { writeupsHandlers } from './admin/writeups.routes';
import { adminTeamHandlers } from './admin/teams.routes';
import { teamHandlers } from './team/team.routes';
import { capturesHandlers, instancesHandlers, proxyHandlers } from '../modules/instances';

/** Every built operation, by operationId. Anything missing here answers 501 (see `npm run api:coverage`). */
export const handlers: Handlers = {
  ...infoHandlers,
  ...accountHandlers,
  ...captchaHandlers,
  ...adminConfigHandlers,
  ...adminUsersHandlers,
  ...adminLogsFilesHandlers,
  ...assetsHandlers,
  ...postsHandlers,
  ...editHandlers,
  ...reviewHandlers,
  ...writeupsHandlers,
  ...teamHandlers,
  ...adminTeamHandlers,
  ...gameDetailsHandlers,
  ...gameJoinHandlers,
  ...gameChallengeHandlers,
  ...gameWriteupHandlers,
  ...gameMonitorHandlers,
  ...instancesHandlers,
  ...capturesHandlers,
  ...proxyHandlers,
};
