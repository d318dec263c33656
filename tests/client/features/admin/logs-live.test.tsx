import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { LogMessageModel } from '@/features/admin/api';
import { openHub } from '@/shared/api/hub';
import { server } from '../../msw';
import { API, renderApp } from '../../helpers/render';
import { mockAdmin } from './support';

// The page refreshes every REFRESH_INTERVAL_MS (spec §7: 10 s); shortened here so a test sees a few
// polls without waiting for them.
jest.mock('@/shared/api/baseApi', () => ({
  ...jest.requireActual<Record<string, unknown>>('@/shared/api/baseApi'),
  REFRESH_INTERVAL_MS: 300,
}));

// The hub is replaced by a fake that keeps what each connection was opened with, so the test can push.
jest.mock('@/shared/api/hub', () => ({ openHub: jest.fn() }));
const mockedOpenHub = jest.mocked(openHub);

jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 5000 });
beforeAll(() => import('@/features/admin/pages/LogsPage'), 30_000);

interface Connection {
  path: string;
  query: Record<string, string | number>;
  handlers: Record<string, (payload: unknown) => void>;
  stopped: boolean;
}
let connections: Connection[] = [];

beforeEach(() => {
  mockAdmin();
  connections = [];
  mockedOpenHub.mockReset();
  mockedOpenHub.mockImplementation((path, query, handlers) => {
    const connection: Connection = { path, query, handlers, stopped: false };
    connections.push(connection);
    return { stop: () => (connection.stopped = true) };
  });
});

const T0 = 1_700_000_000_000;
const line = (msg: string, time: number, level = 'Information'): LogMessageModel => ({
  time,
  name: 'root',
  level,
  ip: '10.0.0.1',
  msg,
  status: 'Success',
});

/** The stored log (newest first), filtered by level as the server does; counts the requests. */
function serveLogs(initial: LogMessageModel[]) {
  const state = { stored: initial, requests: 0 };
  server.use(
    http.get(`${API}/admin/logs`, ({ request }) => {
      state.requests += 1;
      const level = new URL(request.url).searchParams.get('level');
      return HttpResponse.json(state.stored.filter((item) => level === 'All' || item.level === level));
    }),
  );
  return state;
}

/** The one open /hub/admin connection. */
function adminHub() {
  const open = connections.filter((item) => item.path === '/hub/admin' && !item.stopped);
  expect(open).toHaveLength(1);
  return open[0]!;
}

describe('the admin logs, live', () => {
  it('shows each pushed line at once and keeps it through polls until the database has it', async () => {
    const logs = serveLogs([line('Server started', T0)]);
    renderApp('/admin/logs');
    const grid = await screen.findByRole('grid', { name: 'Logs' });
    await within(grid).findByText('Server started');
    // The admin hub has no game: one channel for the platform.
    await waitFor(() => expect(adminHub().query).toEqual({}));

    // Hub payloads carry ISO times (reference §6).
    adminHub().handlers.ReceivedLog!({ ...line('User alice signed in', 0), time: new Date(T0 + 1000).toISOString() });
    expect(await within(grid).findByText('User alice signed in')).toBeInTheDocument();

    // The server stores lines in batches: the next polls come back without it, and it stays.
    const seen = logs.requests;
    await waitFor(() => expect(logs.requests).toBeGreaterThanOrEqual(seen + 2));
    expect(within(grid).getByText('User alice signed in')).toBeInTheDocument();

    // Once stored, the polled copy replaces the pushed one (not both).
    logs.stored = [line('User alice signed in', T0 + 1000), ...logs.stored];
    const stored = logs.requests;
    await waitFor(() => expect(logs.requests).toBeGreaterThanOrEqual(stored + 2));
    expect(within(grid).getAllByText('User alice signed in')).toHaveLength(1);
    expect(within(grid).getByText('Server started')).toBeInTheDocument();
  });

  it('asks again every refresh period, so lines show even without the hub', async () => {
    const logs = serveLogs([line('Server started', T0)]);
    renderApp('/admin/logs');
    const grid = await screen.findByRole('grid', { name: 'Logs' });
    await within(grid).findByText('Server started');
    logs.stored = [line('Game 1 created', T0 + 5000), ...logs.stored];
    expect(await within(grid).findByText('Game 1 created')).toBeInTheDocument();
  });

  it('adds a pushed line only to a list whose level filter admits it', async () => {
    serveLogs([line('Disk almost full', T0, 'Warning')]);
    renderApp('/admin/logs');
    const grid = await screen.findByRole('grid', { name: 'Logs' });
    await within(grid).findByText('Disk almost full');
    await userEvent.click(screen.getByRole('button', { name: 'Warning' }));
    // The list of the other level let its connection go with it.
    await waitFor(() => expect(connections.filter((item) => !item.stopped)).toHaveLength(1));

    adminHub().handlers.ReceivedLog!({ ...line('Just information', 0), time: new Date(T0 + 1).toISOString() });
    adminHub().handlers.ReceivedLog!({
      ...line('Another warning', 0, 'Warning'),
      time: new Date(T0 + 2).toISOString(),
    });
    expect(await within(grid).findByText('Another warning')).toBeInTheDocument();
    expect(within(grid).queryByText('Just information')).not.toBeInTheDocument();
  });
});
