import { Navigate, type RouteObject } from 'react-router';
import { comingSoon } from '@/shared/ui/lazyPage';

/** Public game pages and the monitor tabs (spec §2); `/games/:id/monitor` opens the events tab. */
export const gameRoutes: RouteObject[] = [
  {
    path: 'games',
    children: [
      { index: true, element: comingSoon() },
      { path: ':id', element: comingSoon() },
      { path: ':id/challenges', element: comingSoon() },
      { path: ':id/scoreboard', element: comingSoon() },
      {
        path: ':id/monitor',
        children: [
          { index: true, element: <Navigate to="events" replace /> },
          { path: 'cheatinfo', element: comingSoon() },
          { path: 'events', element: comingSoon() },
          { path: 'submissions', element: comingSoon() },
          { path: 'traffic', element: comingSoon() },
        ],
      },
    ],
  },
];
