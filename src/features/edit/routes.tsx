import { Navigate, type RouteObject } from 'react-router';
import { lazyPage } from '@/shared/ui/lazyPage';

/**
 * Game authoring (spec §2, admin area): the sections under `/admin/games`. The app mounts them inside
 * the admin layout and its admin guard (src/app/router.tsx), so none of this loads for anyone else.
 * `games/:id` is the game's frame (name and section tabs); its sections render inside it.
 */
export const editAdminRoutes: RouteObject[] = [
  { path: 'games', element: lazyPage(() => import(/* webpackChunkName: "edit-games" */ './pages/GamesPage')) },
  {
    path: 'games/:id',
    element: lazyPage(() => import(/* webpackChunkName: "edit-game-frame" */ './pages/GameFramePage')),
    children: [
      { index: true, element: <Navigate to="info" replace /> },
      {
        path: 'info',
        element: lazyPage(() => import(/* webpackChunkName: "edit-game-info" */ './pages/GameInfoPage')),
      },
      {
        path: 'notices',
        element: lazyPage(() => import(/* webpackChunkName: "edit-game-notices" */ './pages/NoticesPage')),
      },
      {
        path: 'review',
        element: lazyPage(() => import(/* webpackChunkName: "edit-game-review" */ './pages/ReviewPage')),
      },
      {
        path: 'writeups',
        element: lazyPage(() => import(/* webpackChunkName: "edit-game-writeups" */ './pages/WriteupsPage')),
      },
      {
        path: 'challenges',
        element: lazyPage(() => import(/* webpackChunkName: "edit-challenges" */ './challenges/pages/ChallengesPage')),
      },
      {
        path: 'challenges/:chalId',
        element: lazyPage(
          () => import(/* webpackChunkName: "edit-challenge" */ './challenges/pages/ChallengeEditPage'),
        ),
      },
      {
        path: 'challenges/:chalId/flags',
        element: lazyPage(() => import(/* webpackChunkName: "edit-flags" */ './challenges/pages/FlagsPage')),
      },
    ],
  },
];
