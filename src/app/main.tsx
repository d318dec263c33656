import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { initI18n } from './i18n';
import { Providers } from './Providers';
import { createAppRouter } from './router';
import { setupStore } from './store';

const store = setupStore();
void initI18n(store.getState().preferences.language);

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

createRoot(container).render(
  <StrictMode>
    <Providers store={store}>
      <RouterProvider router={createAppRouter()} />
    </Providers>
  </StrictMode>,
);
