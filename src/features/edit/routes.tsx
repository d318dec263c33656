import type { RouteObject } from 'react-router';
import { comingSoon } from '@/shared/ui/lazyPage';

/**
 * Game authoring (spec §2, admin area): the sections under `/admin/games`. The app mounts them inside
 * the admin layout and its admin guard (src/app/router.tsx), so none of this loads for anyone else.
 */
export const editAdminRoutes: RouteObject[] = [
  { path: 'games', element: comingSoon() },
  { path: 'games/:id/info', element: comingSoon() },
  { path: 'games/:id/notices', element: comingSoon() },
  { path: 'games/:id/review', element: comingSoon() },
  { path: 'games/:id/writeups', element: comingSoon() },
  { path: 'games/:id/challenges', element: comingSoon() },
  { path: 'games/:id/challenges/:chalId', element: comingSoon() },
  { path: 'games/:id/challenges/:chalId/flags', element: comingSoon() },
];
