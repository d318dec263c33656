import { Navigate, type RouteObject } from 'react-router';
import { comingSoon, lazyPage } from '@/shared/ui/lazyPage';

/**
 * Admin area (spec §2); `/admin` opens the games list. The app wraps these routes in its admin guard
 * (src/app/guards.tsx), so nothing here loads for anyone else. Each section is its own chunk; the
 * data grid they share loads with the first of them.
 */
export const adminRoutes: RouteObject[] = [
  {
    path: 'admin',
    element: lazyPage(() => import(/* webpackChunkName: "admin" */ './pages/AdminLayout')),
    children: [
      { index: true, element: <Navigate to="games" replace /> },
      { path: 'instances', element: comingSoon() },
      { path: 'logs', element: lazyPage(() => import(/* webpackChunkName: "admin-logs" */ './pages/LogsPage')) },
      {
        path: 'settings',
        element: lazyPage(() => import(/* webpackChunkName: "admin-settings" */ './pages/SettingsPage')),
      },
      { path: 'teams', element: lazyPage(() => import(/* webpackChunkName: "admin-teams" */ './pages/TeamsPage')) },
      { path: 'users', element: lazyPage(() => import(/* webpackChunkName: "admin-users" */ './pages/UsersPage')) },
      { path: 'files', element: lazyPage(() => import(/* webpackChunkName: "admin-files" */ './pages/FilesPage')) },
      { path: 'games', element: comingSoon() },
      { path: 'games/:id/info', element: comingSoon() },
      { path: 'games/:id/notices', element: comingSoon() },
      { path: 'games/:id/review', element: comingSoon() },
      { path: 'games/:id/writeups', element: comingSoon() },
      { path: 'games/:id/challenges', element: comingSoon() },
      { path: 'games/:id/challenges/:chalId', element: comingSoon() },
      { path: 'games/:id/challenges/:chalId/flags', element: comingSoon() },
    ],
  },
];
