import type { RouteObject } from 'react-router';
import { lazyPage } from '@/shared/ui/lazyPage';

/** Account area (spec §2, reference §7.4). */
export const accountRoutes: RouteObject[] = [
  {
    path: 'account',
    children: [
      { path: 'login', element: lazyPage(() => import(/* webpackChunkName: "account-login" */ './pages/LoginPage')) },
      {
        path: 'register',
        element: lazyPage(() => import(/* webpackChunkName: "account-register" */ './pages/RegisterPage')),
      },
      {
        path: 'recovery',
        element: lazyPage(() => import(/* webpackChunkName: "account-recovery" */ './pages/RecoveryPage')),
      },
      { path: 'reset', element: lazyPage(() => import(/* webpackChunkName: "account-reset" */ './pages/ResetPage')) },
      {
        path: 'verify',
        element: lazyPage(() => import(/* webpackChunkName: "account-verify" */ './pages/VerifyPage')),
      },
      {
        path: 'confirm',
        element: lazyPage(() => import(/* webpackChunkName: "account-confirm" */ './pages/ConfirmPage')),
      },
      {
        path: 'profile',
        element: lazyPage(() => import(/* webpackChunkName: "account-profile" */ './pages/ProfilePage')),
      },
    ],
  },
];
