import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { PersistGate } from 'redux-persist/integration/react';
import { selectClientConfig } from '@/features/info/api';
import { CaptchaWidgetContext, type CaptchaWidgetProps } from '@/shared/captcha/Captcha';
import { InstanceSettingsContext, type InstanceSettings } from '@/shared/instances/InstanceSettings';
import { ProxyEntrySlot, type ProxyEntryProps } from '@/shared/instances/ProxyEntrySlot';
import { CleanCacheContext } from '@/shared/persist/CleanCacheContext';
import { BootSpinner } from '@/shared/ui/BootSpinner';
import { ConfirmProvider } from '@/shared/ui/ConfirmProvider';
import { AppThemeProvider } from './AppThemeProvider';
import { useAppSelector } from './hooks';
import { LanguageSync } from './LanguageSync';
import { NotificationBridge } from './NotificationBridge';
import type { Persistence } from './persist';
import type { AppStore } from './store';

// The account forms' captcha (info feature), loaded with the first form that shows one.
const CaptchaWidget = lazy(() => import(/* webpackChunkName: "captcha" */ '@/features/info/components/CaptchaWidget'));
const renderCaptcha = (props: CaptchaWidgetProps) => <CaptchaWidget {...props} />;

// A proxied instance's entry in the game feature's panels (wsrx feature), loaded with the first one
// shown, so the home page carries none of it; its own boundary keeps the rest of the panel on screen.
const WsrxProxyEntry = lazy(() => import(/* webpackChunkName: "wsrx" */ '@/features/wsrx/components/WsrxProxyEntry'));
function ProxyEntry(props: ProxyEntryProps) {
  return (
    <Suspense fallback={null}>
      <WsrxProxyEntry {...props} />
    </Suspense>
  );
}

/**
 * The container settings of the client config for the instance panels (game and edit features).
 * Read without subscribing, like the theme: the layout fetches the config, and a panel rendered on
 * its own (tests) must not start a request.
 */
function InstanceSettingsProvider({ children }: { children: ReactNode }) {
  const config = useAppSelector(selectClientConfig);
  const { portMapping, renewalWindow, extensionDuration } = config;
  const settings = useMemo<InstanceSettings>(
    () => ({ portMapping, renewalWindow, extensionDuration }),
    [portMapping, renewalWindow, extensionDuration],
  );
  return <InstanceSettingsContext.Provider value={settings}>{children}</InstanceSettingsContext.Provider>;
}

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
          <ProxyEntrySlot.Provider value={ProxyEntry}>
            <InstanceSettingsProvider>
              <LanguageSync />
              {children}
            </InstanceSettingsProvider>
          </ProxyEntrySlot.Provider>
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
