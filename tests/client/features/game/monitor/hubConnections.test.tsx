import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { Submission } from '@/features/game/api';
import { openHub } from '@/shared/api/hub';
import { server } from '../../../msw';
import { API, renderApp } from '../../../helpers/render';
import { GAME_ID, mockGame } from './support';

// The hub is replaced by a fake that counts the connections opened and stopped.
jest.mock('@/shared/api/hub', () => ({ openHub: jest.fn() }));
const mockedOpenHub = jest.mocked(openHub);

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(30_000);

const connections = { opened: 0, stopped: 0 };

beforeEach(() => {
  connections.opened = 0;
  connections.stopped = 0;
  mockedOpenHub.mockReset();
  mockedOpenHub.mockImplementation((path) => {
    if (path !== '/hub/monitor') return { stop: () => undefined };
    connections.opened += 1;
    let stopped = false;
    return {
      stop: () => {
        if (!stopped) connections.stopped += 1;
        stopped = true;
      },
    };
  });
});

/** 200 answers, newest first: four pages of 50. */
const MANY: Submission[] = Array.from({ length: 200 }, (_, index) => ({
  answer: `flag{try_${200 - index}}`,
  status: 'WrongAnswer',
  time: 1_800_000_000_000 - index * 1000,
  user: 'player',
  team: 'Red',
  challenge: 'Warmup',
}));

describe('the monitor lists', () => {
  test('keep one hub connection open, not one per page visited', async () => {
    mockGame('Monitor');
    server.use(
      http.get(`${API}/game/${GAME_ID}/submissions`, ({ request }) => {
        const params = new URL(request.url).searchParams;
        const skip = Number(params.get('skip') ?? 0);
        const count = Number(params.get('count') ?? 50);
        return HttpResponse.json(MANY.slice(skip, skip + count), {
          headers: { 'X-Total-Count': String(MANY.length) },
        });
      }),
    );
    renderApp(`/games/${GAME_ID}/monitor/submissions`);
    const table = await screen.findByRole('table', { name: 'Submissions' });
    await within(table).findByText('flag{try_200}');
    await waitFor(() => expect(connections.opened).toBe(1));

    for (const first of ['flag{try_150}', 'flag{try_100}', 'flag{try_50}']) {
      await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
      await within(table).findByText(first);
    }
    // Each page was live while shown; the ones left behind let their connection go.
    await waitFor(() => expect(connections.opened).toBe(4));
    await waitFor(() => expect(connections.opened - connections.stopped).toBe(1));
  });
});
