import { Navigate, type RouteObject } from 'react-router';
import { lazyPage } from '@/shared/ui/lazyPage';

/**
 * Admin area (spec §2); `/admin` opens the games list. The app wraps these routes in its admin guard
 * (src/app/guards.tsx), so nothing here loads for anyone else. Each section is its own chunk; the
 * data grid they share loads with the first of them. `sections` are the sections other features own
 * (the edit feature's game authoring), composed by src/app/router.tsx.
 */
export const adminRoutes = (sections: RouteObject[]): RouteObject[] => [
  {
    path: 'admin',
    element: lazyPage(() => import(/* webpackChunkName: "admin" */ './pages/AdminLayout')),
    children: [
      { index: true, element: <Navigate to="games" replace /> },
      {
        path: 'instances',
        element: lazyPage(() => import(/* webpackChunkName: "admin-instances" */ './pages/InstancesPage')),
      },
      { path: 'logs', element: lazyPage(() => import(/* webpackChunkName: "admin-logs" */ './pages/LogsPage')) },
      {
        path: 'settings',
        element: lazyPage(() => import(/* webpackChunkName: "admin-settings" */ './pages/SettingsPage')),
      },
      { path: 'teams', element: lazyPage(() => import(/* webpackChunkName: "admin-teams" */ './pages/TeamsPage')) },
      { path: 'users', element: lazyPage(() => import(/* webpackChunkName: "admin-users" */ './pages/UsersPage')) },
      { path: 'files', element: lazyPage(() => import(/* webpackChunkName: "admin-files" */ './pages/FilesPage')) },
      ...sections,
    ],
  },
];
