import { Navigate, type RouteObject } from 'react-router';
import { lazyRoute } from '@/shared/ui/lazyPage';

/** Public game pages and the monitor tabs (spec §2); `/games/:id/monitor` opens the events tab. */
export const gameRoutes: RouteObject[] = [
  // The list is its own route (not an index child), so `/games` matches a route with a path.
  lazyRoute('games', () => import(/* webpackChunkName: "games" */ './pages/GamesPage')),
  {
    path: 'games',
    children: [
      lazyRoute(':id', () => import(/* webpackChunkName: "game" */ './pages/GameDetailPage')),
      lazyRoute(':id/challenges', () => import(/* webpackChunkName: "challenges" */ './pages/ChallengesPage')),
      lazyRoute(':id/scoreboard', () => import(/* webpackChunkName: "scoreboard" */ './scoreboard/ScoreboardPage')),
      lazyRoute(':id/monitor', () => import(/* webpackChunkName: "monitor" */ './monitor/MonitorLayout'), [
        { index: true, element: <Navigate to="events" replace /> },
        lazyRoute('cheatinfo', () => import(/* webpackChunkName: "monitor-cheatinfo" */ './monitor/CheatInfoPage')),
        lazyRoute('events', () => import(/* webpackChunkName: "monitor-events" */ './monitor/EventsPage')),
        lazyRoute(
          'submissions',
          () => import(/* webpackChunkName: "monitor-submissions" */ './monitor/SubmissionsPage'),
        ),
        lazyRoute('traffic', () => import(/* webpackChunkName: "monitor-traffic" */ './monitor/TrafficPage')),
      ]),
    ],
  },
];
