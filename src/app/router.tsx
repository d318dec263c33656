import { createBrowserRouter, type RouteObject } from 'react-router';
import { accountRoutes } from '@/features/account/routes';
import { adminRoutes } from '@/features/admin/routes';
import { editAdminRoutes } from '@/features/edit/routes';
import { gameRoutes } from '@/features/game/routes';
import { teamRoutes } from '@/features/team/routes';
import { lazyPage } from '@/shared/ui/lazyPage';
import { RequireAdmin } from './guards';
import { AppFrame, RouteErrorScreen } from './layout/AppFrame';

/**
 * The route tree of spec §2. Each feature owns its routes in `src/features/<feature>/routes.tsx`;
 * this file only composes them (see src/features/README.md). Matching is case-insensitive:
 * react-router's default (`caseSensitive` unset), as GZCTF's lower-case routes expect.
 */
export const routes: RouteObject[] = [
  {
    element: <AppFrame />,
    // Render errors are caught by AppFrame's own boundaries; this covers the router's own failures.
    errorElement: <RouteErrorScreen />,
    children: [
      { index: true, element: lazyPage(() => import(/* webpackChunkName: "home" */ './pages/HomePage')) },
      { path: 'about', element: lazyPage(() => import(/* webpackChunkName: "about" */ './pages/AboutPage')) },
      ...gameRoutes,
      ...teamRoutes,
      {
        // Posts pages compose the posts feature (reading) with the edit feature (admin writes).
        path: 'posts',
        children: [
          { index: true, element: lazyPage(() => import(/* webpackChunkName: "posts" */ './pages/PostsPage')) },
          { path: ':postId', element: lazyPage(() => import(/* webpackChunkName: "post" */ './pages/PostPage')) },
          {
            path: ':postId/edit',
            element: lazyPage(() => import(/* webpackChunkName: "post-edit" */ './pages/PostEditPage')),
          },
        ],
      },
      ...accountRoutes,
      { element: <RequireAdmin />, children: adminRoutes(editAdminRoutes) },
      { path: '*', element: lazyPage(() => import(/* webpackChunkName: "not-found" */ './pages/NotFoundPage')) },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
