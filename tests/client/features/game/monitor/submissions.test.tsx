import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { AnswerResult, Submission } from '@/features/game/api';
import { server } from '../../../msw';
import { API, renderApp } from '../../../helpers/render';
import { GAME_ID, mockGame } from './support';

// Pages load lazily, and the machine running the suites may be busy.
configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(30_000);

const ALL: Submission[] = [
  {
    answer: 'flag{right}',
    status: 'Accepted',
    time: 1_800_000_002_000,
    user: 'alice',
    team: 'Red',
    challenge: 'Warmup',
  },
  {
    answer: 'flag{wrong}',
    status: 'WrongAnswer',
    time: 1_800_000_001_000,
    user: 'bob',
    team: 'Blue',
    challenge: 'Warmup',
  },
];

function mockSubmissions() {
  const asked: Array<string | null> = [];
  server.use(
    http.get(`${API}/game/${GAME_ID}/submissions`, ({ request }) => {
      const type = new URL(request.url).searchParams.get('type') as AnswerResult | null;
      asked.push(type);
      return HttpResponse.json(type ? ALL.filter((row) => row.status === type) : ALL);
    }),
  );
  return asked;
}

describe('the monitor submissions tab', () => {
  test('lists every answer and filters by status on the server', async () => {
    mockGame('Monitor');
    const asked = mockSubmissions();
    renderApp(`/games/${GAME_ID}/monitor/submissions`);

    const table = await screen.findByRole('table', { name: 'Submissions' });
    await within(table).findByText('flag{wrong}');
    expect(within(table).getByText('flag{right}')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Monitor · Spring CTF' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Submissions', selected: true })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Wrong answer' }));
    await waitFor(() => expect(within(table).queryByText('flag{right}')).not.toBeInTheDocument());
    expect(within(table).getByText('flag{wrong}')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Wrong answer' })).toHaveAttribute('aria-pressed', 'true');
    expect(asked).toContain('WrongAnswer');

    // A fetch with progress (shared/ui/DownloadButton), no longer a plain link.
    expect(screen.getByRole('button', { name: 'Export submissions sheet' })).toBeEnabled();
  });

  test('a player gets a "monitors only" message instead of the tabs', async () => {
    mockGame('User');
    mockSubmissions();
    renderApp(`/games/${GAME_ID}/monitor/cheatinfo`);
    expect(await screen.findByText('Only monitors and admins can see this page.')).toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
  });
});
