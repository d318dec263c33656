import { recentGamesApi } from './recent.generated';

/**
 * `GET /api/game/recent` on its own: the home page shows recent games, and importing the feature's
 * api.ts would bring every game endpoint (and the live-update code) into the home page's scripts,
 * whose budget is 220 KB gzipped (`npm run bench -- bundle`). Everything else uses ./api.ts.
 */
export const { useGameRecentGamesQuery } = recentGamesApi;
