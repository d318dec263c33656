import { Navigate, Outlet, type RouteObject } from 'react-router';
import { comingSoon } from '@/shared/ui/lazyPage';

/**
 * Game authoring (spec §2, admin area): the sections under `/admin/games`. The app mounts them inside
 * the admin layout and its admin guard (src/app/router.tsx), so none of this loads for anyone else.
 * `games/:id` is the game's frame (name and section tabs); its sections render inside it.
 */
export const editAdminRoutes: RouteObject[] = [
  { path: 'games', element: comingSoon() },
  {
    path: 'games/:id',
    element: <Outlet />,
    children: [
      { index: true, element: <Navigate to="info" replace /> },
      { path: 'info', element: comingSoon() },
      { path: 'notices', element: comingSoon() },
      { path: 'review', element: comingSoon() },
      { path: 'writeups', element: comingSoon() },
      { path: 'challenges', element: comingSoon() },
      { path: 'challenges/:chalId', element: comingSoon() },
      { path: 'challenges/:chalId/flags', element: comingSoon() },
    ],
  },
];
