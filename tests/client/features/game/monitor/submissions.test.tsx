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

function mockSubmissions(rows: Submission[] = ALL) {
  const asked: Array<string | null> = [];
  const requests: URLSearchParams[] = [];
  server.use(
    http.get(`${API}/game/${GAME_ID}/submissions`, ({ request }) => {
      const params = new URL(request.url).searchParams;
      requests.push(params);
      const type = params.get('type') as AnswerResult | null;
      const search = params.get('search')?.toLowerCase();
      asked.push(type);
      const matching = rows.filter(
        (row) =>
          (!type || row.status === type) &&
          (!search ||
            [row.team, row.user, row.challenge, row.answer].some((text) => text.toLowerCase().includes(search))),
      );
      const skip = Number(params.get('skip') ?? 0);
      const count = Number(params.get('count') ?? 100);
      return HttpResponse.json(matching.slice(skip, skip + count), {
        headers: { 'X-Total-Count': String(matching.length) },
      });
    }),
  );
  return Object.assign(asked, { requests });
}

/** 120 answers of five teams, newest first. */
const MANY: Submission[] = Array.from({ length: 120 }, (_, index) => ({
  answer: `flag{try_${120 - index}}`,
  status: 'WrongAnswer',
  time: 1_800_000_000_000 - index * 1000,
  user: `player${index % 5}`,
  team: `Team ${index % 5}`,
  challenge: index % 2 ? 'Warmup' : 'Crypto',
}));

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

  test("pages through the server's total and searches on the server once typing pauses", async () => {
    mockGame('Monitor');
    const { requests } = mockSubmissions(MANY);
    renderApp(`/games/${GAME_ID}/monitor/submissions`);

    const table = await screen.findByRole('table', { name: 'Submissions' });
    await within(table).findByText('flag{try_120}');
    expect(screen.getByText('1–50 of 120')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Last page' }));
    await within(table).findByText('flag{try_20}');
    expect(screen.getByText('101–120 of 120')).toBeInTheDocument();
    expect(requests.at(-1)?.get('skip')).toBe('100');
    expect(requests.at(-1)?.get('count')).toBe('50');

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search submissions' }), 'team 3');
    // Back to the first page of the matches, asked for once the typing settled.
    expect(await screen.findByText('1–24 of 24')).toBeInTheDocument();
    await within(table).findByText('flag{try_117}');
    const searched = requests.filter((params) => params.has('search'));
    expect(searched.map((params) => [params.get('search'), params.get('skip')]).at(-1)).toEqual(['team 3', '0']);
    // Asked once per pause in the typing, not once per key.
    expect(searched.length).toBeLessThan('team 3'.length);
    expect(within(table).getAllByText('Team 3')).toHaveLength(24);
  });

  test('a player gets a "monitors only" message instead of the tabs', async () => {
    mockGame('User');
    mockSubmissions();
    renderApp(`/games/${GAME_ID}/monitor/cheatinfo`);
    expect(await screen.findByText('Only monitors and admins can see this page.')).toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
  });
});
