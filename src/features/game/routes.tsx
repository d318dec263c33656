import { Navigate, type RouteObject } from 'react-router';
import { lazyPage } from '@/shared/ui/lazyPage';

/** Public game pages and the monitor tabs (spec §2); `/games/:id/monitor` opens the events tab. */
export const gameRoutes: RouteObject[] = [
  // The list is its own route (not an index child), so `/games` matches a route with a path.
  { path: 'games', element: lazyPage(() => import(/* webpackChunkName: "games" */ './pages/GamesPage')) },
  {
    path: 'games',
    children: [
      { path: ':id', element: lazyPage(() => import(/* webpackChunkName: "game" */ './pages/GameDetailPage')) },
      {
        path: ':id/challenges',
        element: lazyPage(() => import(/* webpackChunkName: "challenges" */ './pages/ChallengesPage')),
      },
      {
        path: ':id/scoreboard',
        element: lazyPage(() => import(/* webpackChunkName: "scoreboard" */ './scoreboard/ScoreboardPage')),
      },
      {
        path: ':id/monitor',
        element: lazyPage(() => import(/* webpackChunkName: "monitor" */ './monitor/MonitorLayout')),
        children: [
          { index: true, element: <Navigate to="events" replace /> },
          {
            path: 'cheatinfo',
            element: lazyPage(() => import(/* webpackChunkName: "monitor-cheatinfo" */ './monitor/CheatInfoPage')),
          },
          {
            path: 'events',
            element: lazyPage(() => import(/* webpackChunkName: "monitor-events" */ './monitor/EventsPage')),
          },
          {
            path: 'submissions',
            element: lazyPage(() => import(/* webpackChunkName: "monitor-submissions" */ './monitor/SubmissionsPage')),
          },
          {
            path: 'traffic',
            element: lazyPage(() => import(/* webpackChunkName: "monitor-traffic" */ './monitor/TrafficPage')),
          },
        ],
      },
    ],
  },
];
