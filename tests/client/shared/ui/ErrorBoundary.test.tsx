import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { CleanCacheContext } from '@/shared/persist/CleanCacheContext';
import { ErrorBoundary } from '@/shared/ui/ErrorBoundary';
import { ErrorScreen } from '@/shared/ui/ErrorScreen';
import { renderWithProviders } from '../../helpers/render';

let broken = true;
function Fragile() {
  if (broken) throw new TypeError('Cannot read properties of undefined (reading "title")');
  return <p>All good</p>;
}

let consoleError: jest.SpyInstance;
beforeEach(() => {
  broken = true;
  // React reports caught render errors on the console; that is expected here.
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => consoleError.mockRestore());

function Harness({ cleanCache }: { cleanCache: () => Promise<void> }) {
  return (
    <CleanCacheContext.Provider value={cleanCache}>
      <ErrorBoundary
        fallback={({ error, reset }) => <ErrorScreen error={error} onRetry={reset} onCleanCache={cleanCache} />}
      >
        <Fragile />
      </ErrorBoundary>
    </CleanCacheContext.Provider>
  );
}

describe('the error screen (spec §2)', () => {
  it('shows the message and a scrollable monospace stack trace', () => {
    renderWithProviders(<Harness cleanCache={jest.fn()} />);
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByTestId('error-message')).toHaveTextContent('Cannot read properties of undefined');
    expect(screen.getByText('TypeError')).toBeInTheDocument();
    const stack = screen.getByRole('region', { name: 'Stack trace' });
    expect(stack.tagName).toBe('PRE');
    expect(stack).toHaveTextContent('Fragile');
    expect(stack).toHaveAttribute('tabindex', '0');
    expect(getComputedStyle(stack).overflow).toBe('auto');
    expect(getComputedStyle(stack).fontFamily).toMatch(/monospace/);
  });

  it('"try again" renders the content again', async () => {
    renderWithProviders(<Harness cleanCache={jest.fn()} />);
    broken = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('All good')).toBeInTheDocument();
  });

  it('"try again" shows the screen again if it still fails', async () => {
    renderWithProviders(<Harness cleanCache={jest.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
  });

  it('"clean cache" wipes the local cache (then the page reloads)', async () => {
    const cleanCache = jest.fn(() => Promise.resolve());
    renderWithProviders(<Harness cleanCache={cleanCache} />);
    const button = screen.getByRole('button', { name: 'Clean cache' });
    await userEvent.click(button);
    expect(cleanCache).toHaveBeenCalledTimes(1);
    expect(button).toBeDisabled();
  });

  it('is in the reader language', () => {
    renderWithProviders(<Harness cleanCache={jest.fn()} />, {
      language: 'zh-CN',
      preloadedState: {
        preferences: { language: 'zh-CN', colorScheme: 'dark', themeProvider: 'Managed', customColor: null },
      },
    });
    expect(screen.getByRole('button', { name: '清除缓存' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '重试' })).toBeInTheDocument();
  });

  it('clears itself when its reset keys change (a new page)', () => {
    function Switcher() {
      const [page, setPage] = useState('a');
      return (
        <>
          <button onClick={() => setPage('b')}>next</button>
          <ErrorBoundary resetKeys={[page]} fallback={() => <p>failed</p>}>
            {page === 'a' ? <Fragile /> : <p>page b</p>}
          </ErrorBoundary>
        </>
      );
    }
    renderWithProviders(<Switcher />);
    expect(screen.getByText('failed')).toBeInTheDocument();
    act(() => screen.getByText('next').click());
    expect(screen.getByText('page b')).toBeInTheDocument();
  });
});
