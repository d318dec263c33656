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

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

createRoot(container).render(
  <StrictMode>
    <ErrorBoundary fallback={(props) => <RootErrorFallback {...props} cleanCache={persistence.cleanCache} />}>
      <Providers store={store} persistence={persistence} onStart={createBootstrap(store)}>
        <RouterProvider router={createAppRouter()} />
      </Providers>
    </ErrorBoundary>
  </StrictMode>,
);
