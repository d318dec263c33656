import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { ScoreboardModel } from '@/features/game/api';
import { server } from '../../../msw';
import { API, renderApp } from '../../../helpers/render';
import { GAME_ID, mockGame } from '../monitor/support';

// Pages load lazily, and the machine running the suites may be busy.
configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(30_000);

const T0 = 1_800_000_000_000;
const NONE = -62135596800000;

const BOARD: ScoreboardModel = {
  updateTimeUtc: T0 + 60_000,
  bloodBonus: (50 << 20) + (30 << 10) + 10,
  challengeCount: 2,
  challenges: {
    Web: [
      {
        id: 11,
        title: 'Login',
        category: 'Web',
        score: 500,
        solved: 2,
        disableBloodBonus: false,
        bloods: [
          { id: 1, name: 'Red', submitTimeUtc: T0 + 1000 },
          { id: 2, name: 'Blue', submitTimeUtc: T0 + 2000 },
        ],
      },
    ],
    Crypto: [
      {
        id: 12,
        title: 'RSA',
        category: 'Crypto',
        score: 300,
        solved: 1,
        disableBloodBonus: false,
        bloods: [{ id: 1, name: 'Red', submitTimeUtc: T0 + 3000 }],
      },
    ],
  },
  items: [
    {
      id: 1,
      name: 'Red',
      division: 'Pro',
      score: 840,
      rank: 1,
      divisionRank: 1,
      lastSubmissionTime: T0 + 3000,
      solvedCount: 2,
      solvedChallenges: [
        { id: 11, score: 525, type: 'FirstBlood', userName: 'alice', time: T0 + 1000 },
        { id: 12, score: 315, type: 'FirstBlood', userName: 'amy', time: T0 + 3000 },
      ],
    },
    {
      id: 2,
      name: 'Blue',
      division: 'Student',
      score: 515,
      rank: 2,
      divisionRank: 1,
      lastSubmissionTime: T0 + 2000,
      solvedCount: 1,
      solvedChallenges: [{ id: 11, score: 515, type: 'SecondBlood', userName: 'bob', time: T0 + 2000 }],
    },
    {
      id: 3,
      name: 'Green',
      division: 'Student',
      score: 0,
      rank: 3,
      divisionRank: 2,
      lastSubmissionTime: NONE,
      solvedCount: 0,
      solvedChallenges: [],
    },
  ],
  timeLines: {
    all: [
      {
        id: 1,
        name: 'Red',
        items: [
          { time: T0 + 1000, score: 525 },
          { time: T0 + 3000, score: 840 },
        ],
      },
      { id: 2, name: 'Blue', items: [{ time: T0 + 2000, score: 515 }] },
    ],
    Student: [{ id: 2, name: 'Blue', items: [{ time: T0 + 2000, score: 515 }] }],
    Pro: [
      {
        id: 1,
        name: 'Red',
        items: [
          { time: T0 + 1000, score: 525 },
          { time: T0 + 3000, score: 840 },
        ],
      },
    ],
  },
};

const rowOf = (table: HTMLElement, team: string) =>
  within(table)
    .getByRole('button', { name: `Show details of ${team}` })
    .closest('tr')!;

describe('the scoreboard page', () => {
  beforeEach(() => {
    mockGame(null);
    server.use(http.get(`${API}/game/${GAME_ID}/scoreboard`, () => HttpResponse.json(BOARD)));
  });

  test('shows ranks, scores and a mark per solved challenge with its blood', async () => {
    renderApp(`/games/${GAME_ID}/scoreboard`);
    const table = await screen.findByRole('table', { name: 'Scoreboard' });
    expect(await screen.findByRole('heading', { name: 'Scoreboard · Spring CTF' })).toBeInTheDocument();

    const red = rowOf(table, 'Red');
    expect(within(red).getByText('840')).toBeInTheDocument();
    expect(within(red).getByRole('img', { name: 'Red: first blood on Login' })).toBeInTheDocument();
    expect(within(red).getByRole('img', { name: 'Red: first blood on RSA' })).toBeInTheDocument();
    const blue = rowOf(table, 'Blue');
    expect(within(blue).getByRole('img', { name: 'Blue: second blood on Login' })).toBeInTheDocument();
    expect(within(blue).queryByRole('img', { name: /RSA/ })).not.toBeInTheDocument();
    expect(within(rowOf(table, 'Green')).queryAllByRole('img', { name: /blood|solved/ })).toHaveLength(0);
    // Category headers over the challenge columns.
    expect(within(table).getByText('Web')).toBeInTheDocument();
    expect(within(table).getByText('Crypto')).toBeInTheDocument();
    // Monitors only: no sheet download for a visitor.
    expect(screen.queryByRole('button', { name: 'Download scoreboard sheet' })).not.toBeInTheDocument();
  });

  test('filters by division (ranked within it) and searches by team name', async () => {
    renderApp(`/games/${GAME_ID}/scoreboard`);
    const table = await screen.findByRole('table', { name: 'Scoreboard' });
    await userEvent.click(screen.getByRole('combobox', { name: 'Division' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Student' }));
    await waitFor(() =>
      expect(within(table).queryByRole('button', { name: 'Show details of Red' })).not.toBeInTheDocument(),
    );
    const green = rowOf(table, 'Green');
    expect(within(green).getAllByRole('cell')[0]).toHaveTextContent('2');

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search teams' }), 'blu');
    expect(within(table).getByRole('button', { name: 'Show details of Blue' })).toBeInTheDocument();
    // The search filters once typing pauses (debounced), not on each keystroke.
    await waitFor(() =>
      expect(within(table).queryByRole('button', { name: 'Show details of Green' })).not.toBeInTheDocument(),
    );
  });

  test('opens a team with its solves', async () => {
    renderApp(`/games/${GAME_ID}/scoreboard`);
    const table = await screen.findByRole('table', { name: 'Scoreboard' });
    await userEvent.click(within(table).getByRole('button', { name: 'Show details of Red' }));
    const dialog = await screen.findByRole('dialog', { name: /Red/ });
    expect(within(dialog).getByText('Rank 1')).toBeInTheDocument();
    expect(within(dialog).getByText('alice', { selector: '.MuiChip-label' })).toBeInTheDocument();
    const solves = within(dialog).getByRole('table', { name: 'Solves' });
    expect(within(solves).getByText('Login')).toBeInTheDocument();
    expect(within(solves).getByText('525')).toBeInTheDocument();
  });
});
