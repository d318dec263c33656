import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ErrorBoundary } from '@/shared/ui/ErrorBoundary';
import { ErrorScreen } from '@/shared/ui/ErrorScreen';
import { lazyPage } from '@/shared/ui/lazyPage';
import type { ReactElement } from 'react';
import { renderWithProviders } from '../../helpers/render';

let consoleError: jest.SpyInstance;
beforeEach(() => {
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => consoleError.mockRestore());

describe('lazyPage', () => {
  it('shows the spinner while the page loads, then the page', async () => {
    let resolve!: (module: { default: () => ReactElement }) => void;
    const element = lazyPage(() => new Promise((done) => (resolve = done)));
    renderWithProviders(element);
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    resolve({ default: () => <h1>Loaded</h1> });
    expect(await screen.findByRole('heading', { name: 'Loaded' })).toBeInTheDocument();
  });

  it('loads again on "try again" after a failed chunk load', async () => {
    let online = false;
    const element = lazyPage(async () => {
      if (!online) throw new Error('Loading chunk 42 failed');
      return { default: () => <h1>Back online</h1> };
    });
    renderWithProviders(
      <ErrorBoundary
        fallback={({ error, reset }) => <ErrorScreen error={error} onRetry={reset} onCleanCache={jest.fn()} />}
      >
        {element}
      </ErrorBoundary>,
    );
    expect(await screen.findByText('Loading chunk 42 failed')).toBeInTheDocument();
    online = true;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Back online' })).toBeInTheDocument();
  });
});
