import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageSpinner } from '@/shared/ui/PageSpinner';
import { AppLayout } from './AppLayout';

/** Each page is its own chunk, loaded on first visit behind the spinner. */
function page(Component: LazyExoticComponent<ComponentType>) {
  return (
    <Suspense fallback={<PageSpinner />}>
      <Component />
    </Suspense>
  );
}

const HomePage = lazy(() => import(/* webpackChunkName: "home" */ './pages/HomePage'));
const NotFoundPage = lazy(() => import(/* webpackChunkName: "not-found" */ './pages/NotFoundPage'));

/** Matching is case-insensitive (react-router's default), as GZCTF's lower-case routes expect. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { index: true, element: page(HomePage) },
      { path: '*', element: page(NotFoundPage) },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
