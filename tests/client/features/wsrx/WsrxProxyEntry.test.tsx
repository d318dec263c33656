import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import WsrxProxyEntry, { WSRX_RELEASES_URL } from '@/features/wsrx/components/WsrxProxyEntry';
import { daemonChecked, initialWsrxState, poolSynced, type WsrxState } from '@/features/wsrx/slice';
import { enterText } from '../../helpers/enterText';
import { renderWithProviders } from '../../helpers/render';
import { mockDaemon } from './support';

const REMOTE = 'ws://localhost/api/proxy/7d0b3c5e-1a2b-4c3d-8e9f-0a1b2c3d4e5f';
const MAPPED = { label: 'Baby heap', remote: REMOTE, local: '127.0.0.1:40000' };

function renderEntry(wsrx: Partial<WsrxState> = {}) {
  const user = userEvent.setup();
  const view = renderWithProviders(<WsrxProxyEntry remote={REMOTE} label="Baby heap" />, {
    preloadedState: { wsrx: { ...initialWsrxState, ...wsrx } },
  });
  return { user, ...view };
}

describe('the proxied instance entry', () => {
  it('shows the local address while wsrx is usable, with copy and a switch to the WebSocket URL', async () => {
    const daemon = mockDaemon();
    const { user } = renderEntry({ daemon: 'Usable', poolSynced: true, instances: [MAPPED] });
    expect(screen.getByText('wsrx: connected')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Local address' })).toHaveValue('127.0.0.1:40000');
    expect(screen.queryByRole('textbox', { name: 'WebSocket URL' })).not.toBeInTheDocument();

    const writeText = jest.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(screen.getByRole('button', { name: 'Copy the local address' }));
    expect(writeText).toHaveBeenLastCalledWith('127.0.0.1:40000');

    await user.click(screen.getByRole('switch', { name: 'Show the WebSocket URL' }));
    expect(screen.getByRole('textbox', { name: 'WebSocket URL' })).toHaveValue(REMOTE);
    await user.click(screen.getByRole('button', { name: 'Copy the WebSocket URL' }));
    expect(writeText).toHaveBeenLastCalledWith(REMOTE);
    // Already in the pool: nothing was asked of the daemon.
    expect(daemon.calls).toEqual([]);
  });

  it('asks the daemon for a mapping while usable and shows the address it bound', async () => {
    const daemon = mockDaemon();
    renderEntry({ daemon: 'Usable', poolSynced: true });
    expect(screen.getByRole('status')).toHaveTextContent('Mapping the instance to a local port…');
    expect(await screen.findByRole('textbox', { name: 'Local address' })).toHaveValue('127.0.0.1:41234');
    expect(daemon.bodies).toEqual([
      { call: 'POST /pool', body: { label: 'Baby heap', remote: REMOTE, local: '127.0.0.1:0' } },
    ]);
  });

  it('offers to try again when the mapping failed, and does not retry by itself', async () => {
    const daemon = mockDaemon();
    daemon.poolStatus = 500;
    const { user } = renderEntry({ daemon: 'Usable', poolSynced: true });
    expect(await screen.findByText('wsrx could not map this instance to a local port.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'WebSocket URL' })).toHaveValue(REMOTE);
    expect(daemon.count('POST /pool')).toBe(1);

    daemon.poolStatus = 200;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('textbox', { name: 'Local address' })).toHaveValue('127.0.0.1:41234');
    expect(daemon.count('POST /pool')).toBe(2);
  });

  it('asks to approve the site in wsrx while the daemon waits for that', () => {
    const daemon = mockDaemon();
    renderEntry({ daemon: 'Pending' });
    expect(screen.getByText('wsrx: waiting for approval')).toBeInTheDocument();
    expect(
      screen.getByText('Approve this site in the wsrx app to map the instance to a local port.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'WebSocket URL' })).toHaveValue(REMOTE);
    expect(daemon.calls).toEqual([]);
  });

  it('without wsrx shows the WebSocket URL, what wsrx is, where to get it and how to connect', async () => {
    const daemon = mockDaemon();
    daemon.version = 404;
    const { user, store } = renderEntry();
    expect(screen.getByText('wsrx: not connected')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'WebSocket URL' })).toHaveValue(REMOTE);
    expect(screen.getByText(/wsrx is a small desktop app that forwards this WebSocket URL/)).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'Get wsrx' });
    expect(link).toHaveAttribute('href', WSRX_RELEASES_URL);
    expect(link).toHaveAttribute('rel', expect.stringContaining('noopener'));

    await user.click(screen.getByRole('button', { name: 'Connect to wsrx' }));
    expect(
      await screen.findByText('Your wsrx is too old for this platform. Please install the latest version.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try connecting again' })).toBeEnabled();
    expect(daemon.calls).toEqual(['GET /version']);
    // Raised by the listener and shown by the app's notification host.
    expect(await screen.findByText('This platform needs wsrx 0.4 or newer. Please update it.')).toBeInTheDocument();
    expect(store.getState().wsrx.error).toBe('daemon_version_mismatch');
  });

  it('can be used with the keyboard alone', async () => {
    const daemon = mockDaemon();
    daemon.version = 'network-error';
    const { user } = renderEntry();
    const connect = screen.getByRole('button', { name: 'Connect to wsrx' });
    for (let presses = 0; presses < 10 && document.activeElement !== connect; presses++) await user.tab();
    expect(connect).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(daemon.calls).toEqual(['GET /version']));
    await user.tab();
    expect(screen.getByRole('link', { name: 'Get wsrx' })).toHaveFocus();
  });

  it('changes the daemon address and LAN access in the settings dialog', async () => {
    const other = mockDaemon('http://192.168.1.20:3307');
    other.version = 'network-error';
    const { user, store } = renderEntry();
    await user.click(screen.getByRole('button', { name: 'wsrx settings' }));
    const dialog = screen.getByRole('dialog', { name: 'wsrx settings' });
    const address = within(dialog).getByRole('textbox', { name: 'wsrx address' });
    expect(address).toHaveValue('http://127.0.0.1:3307');

    await user.clear(address);
    await enterText(address, 'javascript:alert(1)');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      within(dialog).getByText(
        'Enter an address starting with http:// or https://, for example http://127.0.0.1:3307.',
      ),
    ).toBeInTheDocument();
    expect(store.getState().wsrx.options.api).toBe('http://127.0.0.1:3307');

    await user.clear(address);
    await enterText(address, 'http://192.168.1.20:3307/');
    await user.click(within(dialog).getByRole('switch', { name: 'Allow other devices on my network' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(store.getState().wsrx.options).toMatchObject({ api: 'http://192.168.1.20:3307', allowLan: true });
    // The listener connects to the new address once the change settled.
    await waitFor(() => expect(other.calls).toEqual(['GET /version']));
  });

  it('cancelling the settings keeps what was saved', async () => {
    const { user, store } = renderEntry();
    await user.click(screen.getByRole('button', { name: 'wsrx settings' }));
    const address = screen.getByRole('textbox', { name: 'wsrx address' });
    await user.clear(address);
    await enterText(address, 'http://10.0.0.1:1');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(store.getState().wsrx.options.api).toBe('http://127.0.0.1:3307');
    await user.click(screen.getByRole('button', { name: 'wsrx settings' }));
    expect(screen.getByRole('textbox', { name: 'wsrx address' })).toHaveValue('http://127.0.0.1:3307');
  });

  it('follows the daemon: the local address appears once wsrx becomes usable', async () => {
    const daemon = mockDaemon();
    const { store } = renderEntry({ daemon: 'Pending' });
    expect(screen.getByRole('textbox', { name: 'WebSocket URL' })).toBeInTheDocument();
    act(() => {
      store.dispatch(daemonChecked('Usable'));
      store.dispatch(poolSynced([]));
    });
    expect(await screen.findByRole('textbox', { name: 'Local address' })).toHaveValue('127.0.0.1:41234');
    expect(daemon.calls).toEqual(['POST /pool']);
  });
});
