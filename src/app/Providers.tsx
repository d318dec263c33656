import { lazy, Suspense, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { PersistGate } from 'redux-persist/integration/react';
import { CaptchaWidgetContext, type CaptchaWidgetProps } from '@/shared/captcha/Captcha';
import { CleanCacheContext } from '@/shared/persist/CleanCacheContext';
import { BootSpinner } from '@/shared/ui/BootSpinner';
import { ConfirmProvider } from '@/shared/ui/ConfirmProvider';
import { AppThemeProvider } from './AppThemeProvider';
import { LanguageSync } from './LanguageSync';
import { NotificationBridge } from './NotificationBridge';
import type { Persistence } from './persist';
import type { AppStore } from './store';

// The account forms' captcha (info feature), loaded with the first form that shows one.
const CaptchaWidget = lazy(() => import(/* webpackChunkName: "captcha" */ '@/features/info/components/CaptchaWidget'));
const renderCaptcha = (props: CaptchaWidgetProps) => <CaptchaWidget {...props} />;

interface ProvidersProps {
  store: AppStore;
  /** The running local cache; without it (tests) nothing is restored and the children render at once. */
  persistence?: Persistence;
  /** Start-up work run after the cache is restored and before the app shows (see bootstrap.ts). */
  onStart?: () => Promise<void>;
  children: ReactNode;
}

/**
 * Everything the pages rely on. The theme sits outside the gate so even the start-up spinner has
 * the colour scheme; it reads the config without fetching it (see AppThemeProvider).
 */
export function Providers({ store, persistence, onStart, children }: ProvidersProps) {
  const app = (
    <Suspense fallback={<BootSpinner />}>
      <ConfirmProvider>
        <CaptchaWidgetContext.Provider value={renderCaptcha}>
          <LanguageSync />
          {children}
        </CaptchaWidgetContext.Provider>
      </ConfirmProvider>
      <NotificationBridge />
    </Suspense>
  );
  return (
    <Provider store={store}>
      <AppThemeProvider>
        {persistence ? (
          <CleanCacheContext.Provider value={persistence.cleanCache}>
            <PersistGate persistor={persistence.persistor} loading={<BootSpinner />} onBeforeLift={onStart}>
              {app}
            </PersistGate>
          </CleanCacheContext.Provider>
        ) : (
          app
        )}
      </AppThemeProvider>
    </Provider>
  );
}
