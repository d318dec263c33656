import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { GameEvent } from '@/features/game/api';
import { server } from '../../../msw';
import { API, renderApp } from '../../../helpers/render';
import { GAME_ID, mockGame } from './support';

// Pages load lazily, and the machine running the suites may be busy.
configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(30_000);

const EVENTS: GameEvent[] = [
  {
    type: 'FlagSubmit',
    values: ['Accepted', 'flag{right}', 'Warmup', '1'],
    time: 1_800_000_003_000,
    user: 'alice',
    team: 'Red',
  },
  { type: 'CheatDetected', values: ['Warmup', 'Blue', 'Red'], time: 1_800_000_002_000, user: 'bob', team: 'Blue' },
  { type: 'ContainerStart', values: ['2', 'Pwn me'], time: 1_800_000_001_000, user: 'carol', team: 'Green' },
];

describe('the monitor events tab', () => {
  test('describes each event, and asks the server for one type or a search', async () => {
    mockGame('Monitor');
    const asked: Array<{ type: string | null; search: string | null }> = [];
    server.use(
      http.get(`${API}/game/${GAME_ID}/events`, ({ request }) => {
        const params = new URL(request.url).searchParams;
        const type = params.get('type');
        const search = params.get('search');
        asked.push({ type, search });
        const rows = EVENTS.filter(
          (event) => (!type || event.type === type) && (!search || event.team.toLowerCase().includes(search)),
        );
        return HttpResponse.json(rows, { headers: { 'X-Total-Count': String(rows.length) } });
      }),
    );
    renderApp(`/games/${GAME_ID}/monitor`);

    const list = await screen.findByRole('list', { name: 'Game events' });
    await within(list).findByText('Submitted a flag for Warmup');
    expect(within(list).getByText('Cheat on Warmup: Blue submitted the flag of Red')).toBeInTheDocument();
    expect(within(list).getByText('Started the container of Pwn me')).toBeInTheDocument();
    expect(screen.getByText('1–3 of 3')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Cheat detected' }));
    // The filtered page once it has arrived: while it loads, the list shows neither.
    await waitFor(() => {
      expect(list).toHaveAttribute('aria-busy', 'false');
      expect(within(list).getByText('Cheat on Warmup: Blue submitted the flag of Red')).toBeInTheDocument();
      expect(within(list).queryByText('Submitted a flag for Warmup')).not.toBeInTheDocument();
    });
    expect(screen.getByRole('button', { name: 'Cheat detected' })).toHaveAttribute('aria-pressed', 'true');
    expect(asked.at(-1)).toEqual({ type: 'CheatDetected', search: null });

    await userEvent.click(screen.getByRole('button', { name: 'All' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search events' }), 'green');
    await waitFor(() => {
      expect(list).toHaveAttribute('aria-busy', 'false');
      expect(within(list).getByText('Started the container of Pwn me')).toBeInTheDocument();
      expect(within(list).queryByText('Submitted a flag for Warmup')).not.toBeInTheDocument();
    });
    // One request per pause in the typing, not one per key.
    const searched = asked.filter((item) => item.search !== null);
    expect(searched.at(-1)).toEqual({ type: null, search: 'green' });
    expect(searched.length).toBeLessThan('green'.length);
  });
});
