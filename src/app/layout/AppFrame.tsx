import { useLocation, useNavigate, useRouteError } from 'react-router';
import { useCleanCache } from '@/shared/persist/CleanCacheContext';
import { ErrorBoundary } from '@/shared/ui/ErrorBoundary';
import { ErrorScreen } from '@/shared/ui/ErrorScreen';
import { AppLayout } from './AppLayout';

/** The error screen as a boundary fallback: "try again" re-renders, "clean cache" wipes and reloads. */
function FrameErrorScreen({ error, reset }: { error: Error; reset: () => void }) {
  const cleanCache = useCleanCache();
  return <ErrorScreen error={error} onRetry={reset} onCleanCache={cleanCache} />;
}

/**
 * The root route element. Its boundary catches failures of the frame itself (app bar, footer);
 * AppLayout has a second one around the routed page, so a broken page keeps the frame.
 */
export function AppFrame() {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary resetKeys={[pathname]} fallback={(props) => <FrameErrorScreen {...props} />}>
      <AppLayout />
    </ErrorBoundary>
  );
}

/** For errors react-router catches itself (not render failures, which the boundaries above take). */
export function RouteErrorScreen() {
  const error = useRouteError();
  const navigate = useNavigate();
  const cleanCache = useCleanCache();
  const asError =
    error instanceof Error ? error : new Error(String((error as { statusText?: string })?.statusText ?? error));
  return <ErrorScreen error={asError} onRetry={() => void navigate(0)} onCleanCache={cleanCache} />;
}
