// First: the page's CSP nonce must reach the style libraries before any of them loads.
import { CSP_NONCE } from './nonce';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { setupListeners } from '@reduxjs/toolkit/query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { ErrorBoundary } from '@/shared/ui/ErrorBoundary';
import { createBootstrap } from './bootstrap';
import { startPersistence } from './persist';
import { Providers } from './Providers';
import { RootErrorFallback } from './RootErrorFallback';
import { createAppRouter } from './router';
import { setupStore } from './store';

const store = setupStore();
const persistence = startPersistence(store);
setupListeners(store.dispatch);

// MUI's styles go into `<style>` tags carrying the page's nonce, the only ones its policy lets in;
// the cache wraps the error screen too, which must be styled when all else failed.
const styleCache = createCache({ key: 'css', nonce: CSP_NONCE });

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

createRoot(container).render(
  <StrictMode>
    <CacheProvider value={styleCache}>
      <ErrorBoundary fallback={(props) => <RootErrorFallback {...props} cleanCache={persistence.cleanCache} />}>
        <Providers store={store} persistence={persistence} onStart={createBootstrap(store)}>
          <RouterProvider router={createAppRouter()} />
        </Providers>
      </ErrorBoundary>
    </CacheProvider>
  </StrictMode>,
);
