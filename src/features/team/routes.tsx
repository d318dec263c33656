import type { RouteObject } from 'react-router';
import { lazyPage } from '@/shared/ui/lazyPage';

/**
 * The teams page (spec §2). The app provides the signed-in user around it (src/app/guards.tsx,
 * `TeamViewerRoute`), which this feature may not read from the account feature itself.
 */
export const teamRoutes: RouteObject[] = [
  { path: 'teams', element: lazyPage(() => import(/* webpackChunkName: "teams" */ './pages/TeamsPage')) },
];
