import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { ChallengeDetailModel } from '@/features/game/api';
import { server } from '../../../msw';
import { API, mockPlatform, renderApp } from '../../../helpers/render';
import { challenge, details, GAME_ID, gameInfo, mockPlayer } from './support';

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(30_000);
beforeAll(() => import('@/features/game/pages/ChallengesPage'), 30_000);

describe('a challenge without a description', () => {
  test('shows no empty statement and no divider above the flag field', async () => {
    const bare = challenge({ id: 4, title: 'Bare', category: 'Misc' });
    mockPlayer(gameInfo({ status: 'Accepted', teamName: 'Red' }));
    const detail: ChallengeDetailModel = {
      id: 4,
      title: 'Bare',
      content: '  \n',
      category: 'Misc',
      hints: [],
      score: 100,
      type: 'StaticAttachment',
      context: {},
    };
    server.use(
      http.get(`${API}/game/${GAME_ID}/details`, () => HttpResponse.json(details([bare]))),
      http.get(`${API}/game/${GAME_ID}/notices`, () => HttpResponse.json([])),
      http.get(`${API}/game/${GAME_ID}/challenges/4`, () => HttpResponse.json(detail)),
    );
    renderApp(`/games/${GAME_ID}/challenges`);
    await userEvent.click(await screen.findByRole('button', { name: /Bare/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Bare' });
    expect(await within(dialog).findByRole('textbox', { name: /flag/i })).toBeInTheDocument();
    expect(within(dialog).queryByTestId('challenge-statement')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('separator')).not.toBeInTheDocument();
  });
});

describe('a team not (or no longer) accepted', () => {
  test.each([
    ['Pending', "Your team's application awaits review", /Red has applied and waits/],
    ['Rejected', "Your team's application was rejected", /application of Red was rejected/],
    ['Suspended', 'Your team is suspended from this game', /participation of Red is suspended/],
  ] as const)('%s: the page says so, as the game page does', async (status, title, message) => {
    mockPlayer(gameInfo({ status, teamName: 'Red' }));
    renderApp(`/games/${GAME_ID}/challenges`);
    expect(await screen.findByText(title)).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(screen.queryByText('Your team is not playing in this game')).not.toBeInTheDocument();
  });
});

describe("an admin's preview", () => {
  test('shows the enabled challenges as players would, read-only, from the editor API', async () => {
    mockPlatform({ profile: { userId: 'root', userName: 'root', role: 'Admin' } });
    const played: string[] = [];
    server.use(
      http.get(`${API}/team`, () => HttpResponse.json([])),
      http.get(`${API}/game/${GAME_ID}`, () => HttpResponse.json(gameInfo({ status: 'Unsubmitted' }))),
      // The board is anyone's to read: the preview takes the solves and bloods from it.
      http.get(`${API}/game/${GAME_ID}/scoreboard`, () =>
        HttpResponse.json({
          challenges: {
            Web: [
              {
                id: 2,
                title: 'Stored XSS',
                category: 'Web',
                score: 450,
                solved: 3,
                bloods: [{ id: 9, name: 'Red', avatar: null, submitTimeUtc: Date.now() }],
                disableBloodBonus: false,
              },
            ],
          },
          items: [],
          timeLines: {},
          updateTimeUtc: Date.now(),
          bloodBonus: 0,
        }),
      ),
      http.get(`${API}/game/${GAME_ID}/*`, ({ request }) => {
        played.push(request.url);
        return HttpResponse.json({ title: 'Your team is not playing', status: 400 }, { status: 400 });
      }),
      http.get(`${API}/edit/games/${GAME_ID}/challenges`, () =>
        HttpResponse.json([
          { id: 2, title: 'Stored XSS', category: 'Web', type: 'StaticAttachment', isEnabled: true, score: 480 },
          { id: 3, title: 'Draft', category: 'Crypto', type: 'StaticAttachment', isEnabled: false, score: 500 },
        ]),
      ),
      http.get(`${API}/edit/games/${GAME_ID}/challenges/2`, () =>
        HttpResponse.json({
          id: 2,
          title: 'Stored XSS',
          content: 'Steal the *cookie*.',
          category: 'Web',
          type: 'StaticAttachment',
          hints: ['Look at the comments'],
          isEnabled: true,
          acceptedCount: 0,
          attachment: { id: 1, type: 'Local', url: '/assets/abc/xss.zip', fileSize: 1536 },
          flags: [{ id: 1, flag: 'flag{secret}', attachment: null }],
        }),
      ),
    );
    renderApp(`/games/${GAME_ID}/challenges`);
    expect(await screen.findByTestId('challenge-preview')).toHaveTextContent(/Preview/);
    expect(screen.queryByText('Your team is not playing in this game')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Draft/ })).not.toBeInTheDocument();
    // The editor's list has no counts: the board's solves and current score are shown.
    const card = await screen.findByRole('button', { name: /Stored XSS/ });
    expect(await within(card).findByText('Solves: 3')).toBeInTheDocument();
    expect(within(card).getByText(/450/)).toBeInTheDocument();

    await userEvent.click(await screen.findByRole('button', { name: /Stored XSS/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Stored XSS' });
    expect(await within(dialog).findByText('cookie')).toBeInTheDocument();
    expect(within(dialog).getByText('Look at the comments')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Download the attachment' })).toHaveAttribute(
      'href',
      '/assets/abc/xss.zip',
    );
    expect(within(dialog).getByText(/Preview only/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(dialog).queryByText('flag{secret}')).not.toBeInTheDocument();
    // Nothing was asked of the player API beyond the game itself and its public board.
    expect(played).toEqual([]);
  });
});
