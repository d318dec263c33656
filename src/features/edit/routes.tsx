import { Navigate, type RouteObject } from 'react-router';
import { lazyRoute } from '@/shared/ui/lazyPage';

/**
 * Game authoring (spec §2, admin area): the sections under `/admin/games`. The app mounts them inside
 * the admin layout and its admin guard (src/app/router.tsx), so none of this loads for anyone else.
 * `games/:id` is the game's frame (name and section tabs); its sections render inside it.
 */
export const editAdminRoutes: RouteObject[] = [
  lazyRoute('games', () => import(/* webpackChunkName: "edit-games" */ './pages/GamesPage')),
  lazyRoute('games/:id', () => import(/* webpackChunkName: "edit-game-frame" */ './pages/GameFramePage'), [
    { index: true, element: <Navigate to="info" replace /> },
    lazyRoute('info', () => import(/* webpackChunkName: "edit-game-info" */ './pages/GameInfoPage')),
    lazyRoute('notices', () => import(/* webpackChunkName: "edit-game-notices" */ './pages/NoticesPage')),
    lazyRoute('review', () => import(/* webpackChunkName: "edit-game-review" */ './pages/ReviewPage')),
    lazyRoute('writeups', () => import(/* webpackChunkName: "edit-game-writeups" */ './pages/WriteupsPage')),
    lazyRoute(
      'challenges',
      () => import(/* webpackChunkName: "edit-challenges" */ './challenges/pages/ChallengesPage'),
    ),
    lazyRoute(
      'challenges/:chalId',
      () => import(/* webpackChunkName: "edit-challenge" */ './challenges/pages/ChallengeEditPage'),
    ),
    lazyRoute(
      'challenges/:chalId/flags',
      () => import(/* webpackChunkName: "edit-flags" */ './challenges/pages/FlagsPage'),
    ),
  ]),
];
