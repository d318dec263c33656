import { lazy, Suspense, type ComponentType, type ReactElement } from 'react';
import type { RouteObject } from 'react-router';
import { PageSpinner } from './PageSpinner';

type Load = () => Promise<{ default: ComponentType }>;

/**
 * A route element whose page code loads on first visit, behind the page spinner (spec §2). Give the
 * import a chunk name: `lazyPage(() => import(/* webpackChunkName: "games" *\/ './pages/GamesPage'))`.
 *
 * React.lazy remembers a failed load forever; here a failure arms a fresh attempt, so the error
 * screen's "try again" really loads the chunk again (after a deploy, or a dropped connection).
 */
export function lazyPage(load: Load): ReactElement {
  const attempt: Load = () =>
    load().catch((error: unknown) => {
      current = lazy(attempt);
      throw error;
    });
  let current = lazy(attempt);
  function LazyPage() {
    const Page = current;
    return <Page />;
  }
  return (
    <Suspense fallback={<PageSpinner />}>
      <LazyPage />
    </Suspense>
  );
}

/**
 * A route whose page loads on first visit: one line a route keeps a feature's route table readable
 * as a list of paths and the pages they load.
 */
export const lazyRoute = (path: string, load: Load, children?: RouteObject[]): RouteObject => ({
  path,
  element: lazyPage(load),
  ...(children ? { children } : {}),
});
