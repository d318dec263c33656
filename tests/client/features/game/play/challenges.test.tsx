import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import type { AnswerResult, ChallengeDetailModel, GameDetailModel } from '@/features/game/api';
import { enterText } from '../../../helpers/enterText';
import { server } from '../../../msw';
import { API, renderApp } from '../../../helpers/render';
import { challenge, details, GAME_ID, gameInfo, mockPlayer } from './support';

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(30_000);
beforeAll(() => import('@/features/game/pages/ChallengesPage'), 30_000);

const WARMUP = challenge({ id: 1, title: 'Warmup', category: 'Misc', solved: 4 });
const XSS = challenge({
  id: 2,
  title: 'Stored XSS',
  category: 'Web',
  score: 480,
  solved: 2,
  bloods: [
    { id: 5, name: 'Blue', submitTimeUtc: 1 },
    { id: 6, name: 'Green', submitTimeUtc: 2 },
  ],
});
const RSA = challenge({ id: 3, title: 'Tiny RSA', category: 'Crypto' });

const accepted = () => gameInfo({ status: 'Accepted', teamName: 'Red' });

function serveDetails(initial: GameDetailModel) {
  const state = { details: initial, calls: 0 };
  server.use(
    http.get(`${API}/game/${GAME_ID}/details`, () => {
      state.calls += 1;
      return HttpResponse.json(state.details);
    }),
    http.get(`${API}/game/${GAME_ID}/notices`, () => HttpResponse.json([])),
  );
  return state;
}

const detail = (overrides: Partial<ChallengeDetailModel> = {}): ChallengeDetailModel => ({
  id: 2,
  title: 'Stored XSS',
  content: 'Steal the *cookie*.',
  category: 'Web',
  hints: ['Look at the comments'],
  score: 480,
  type: 'StaticAttachment',
  context: { url: '/assets/abc/xss.zip', fileSize: 1536 },
  ...overrides,
});

describe('the challenges page', () => {
  test('shows category tabs, hides solved challenges on demand, and the rank card', async () => {
    mockPlayer(accepted());
    serveDetails(details([WARMUP, XSS, RSA], [1], 500));
    renderApp(`/games/${GAME_ID}/challenges`);

    const tabs = await screen.findByRole('tablist', { name: 'Challenge categories' });
    // Contract order: Misc, Crypto, Web.
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['All (3)', 'Misc (1)', 'Crypto (1)', 'Web (1)']);
    expect(screen.getByRole('button', { name: /^Warmup Solved / })).toBeInTheDocument();
    const xss = screen.getByRole('button', { name: /^Stored XSS / });
    // Issue 18: the card is named by all it shows, not by its title alone (WCAG 2.5.3).
    expect(xss).toHaveAccessibleName(/^Stored XSS .*480 pts.*First blood: Blue.*Second blood: Green.*Solves: 2$/);
    expect(within(xss).getByText('480 pts')).toBeInTheDocument();
    expect(within(xss).getByText('Solves: 2')).toBeInTheDocument();
    expect(within(xss).getByLabelText('First blood: Blue')).toBeInTheDocument();
    expect(within(xss).getByLabelText('Second blood: Green')).toBeInTheDocument();

    await userEvent.click(within(tabs).getByRole('tab', { name: 'Crypto (1)' }));
    expect(screen.getByRole('button', { name: /^Tiny RSA / })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Stored XSS / })).not.toBeInTheDocument();

    await userEvent.click(within(tabs).getByRole('tab', { name: 'All (3)' }));
    await userEvent.click(screen.getByRole('switch', { name: 'Hide solved' }));
    expect(screen.queryByRole('button', { name: /^Warmup Solved / })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Tiny RSA / })).toBeInTheDocument();

    const rank = screen.getByRole('region', { name: 'Red' });
    expect(within(rank).getByText('#1')).toBeInTheDocument();
    expect(within(rank).getByText('500')).toBeInTheDocument();
    expect(within(rank).getByText('Solved 1 of 3', { selector: 'p' })).toBeInTheDocument();
    expect(within(rank).getByText('1:c2lnbmF0dXJl')).toBeInTheDocument();
    expect(within(rank).getByRole('button', { name: 'Copy the team token' })).toBeInTheDocument();
  });

  test('submits a flag, polls its status until judged, and refreshes the board on Accepted', async () => {
    mockPlayer(accepted());
    const state = serveDetails(details([WARMUP, XSS], [], 0));
    const flags: string[] = [];
    const verdicts: Record<number, AnswerResult[]> = { 11: ['FlagSubmitted', 'WrongAnswer'], 12: ['Accepted'] };
    const polls: number[] = [];
    server.use(
      http.get(`${API}/game/${GAME_ID}/challenges/2`, () => HttpResponse.json(detail())),
      http.post(`${API}/game/${GAME_ID}/challenges/2`, async ({ request }) => {
        flags.push(((await request.json()) as { flag: string }).flag);
        return HttpResponse.json(10 + flags.length);
      }),
      http.get(`${API}/game/${GAME_ID}/challenges/2/status/:submitId`, async ({ params }) => {
        const id = Number(params.submitId);
        polls.push(id);
        await delay(20);
        const queue = verdicts[id]!;
        return HttpResponse.json(queue.length > 1 ? queue.shift() : queue[0]);
      }),
    );
    renderApp(`/games/${GAME_ID}/challenges`);
    await userEvent.click(await screen.findByRole('button', { name: /^Stored XSS / }));
    const dialog = await screen.findByRole('dialog', { name: 'Stored XSS' });
    expect(await within(dialog).findByText('cookie')).toBeInTheDocument();
    expect(within(dialog).getByText('Look at the comments')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Download the attachment' })).toHaveAttribute(
      'href',
      '/assets/abc/xss.zip',
    );
    expect(within(dialog).getByText('(1.50 KiB)')).toBeInTheDocument();

    // The dialog opens on the flag field (it comes with the statement), not on its container.
    const input = within(dialog).getByRole('textbox', { name: 'Flag' });
    expect(input).toHaveFocus();
    await enterText(input, ' flag{nope} ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('Submitted; the flag is being checked…')).toBeInTheDocument();
    expect(await within(dialog).findByText('Wrong answer. Try again.')).toBeInTheDocument();
    expect(polls.filter((id) => id === 11)).toHaveLength(2); // asked again while FlagSubmitted, then stopped
    expect(flags).toEqual(['flag{nope}']);

    const before = state.calls;
    state.details = details([WARMUP, { ...XSS, solved: 3 }], [2], 480);
    await userEvent.clear(input);
    await enterText(input, 'flag{yes}');
    // Sent from the keyboard this time: Enter in the field.
    await userEvent.keyboard('{Enter}');
    expect(await within(dialog).findByText('Accepted! The flag is correct.')).toBeInTheDocument();
    expect(flags).toEqual(['flag{nope}', 'flag{yes}']);
    // The verdict refreshed the details: the card and the rank card show the solve, and the field
    // becomes read-only (keeping the focus) with the verdict still shown.
    await waitFor(() => expect(state.calls).toBeGreaterThan(before));
    await waitFor(() => expect(input).toHaveAttribute('readonly'));
    expect(input).toHaveFocus();
    expect(within(dialog).getByText('Accepted! The flag is correct.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    const solvedCard = await screen.findByRole('button', { name: /^Stored XSS Solved / });
    expect(within(screen.getByRole('region', { name: 'Red' })).getByText('480')).toBeInTheDocument();
    // Opened again, a solved challenge says so, and its field takes no more flags.
    await userEvent.click(solvedCard);
    const again = await screen.findByRole('dialog', { name: 'Stored XSS' });
    expect(await within(again).findByText('Your team has solved this challenge.')).toBeInTheDocument();
    expect(within(again).getByRole('textbox', { name: 'Flag' })).toHaveAttribute('readonly');
    expect(within(again).getByRole('button', { name: 'Submit' })).toBeDisabled();
    expect(flags).toHaveLength(2);
    await userEvent.click(within(again).getByRole('button', { name: 'Close' }));
    // No more polling once judged. The wait is inside act: the dialog's exit and the page's clock
    // update the page meanwhile.
    const settled = polls.length;
    await act(() => delay(1500));
    expect(polls).toHaveLength(settled);
  });

  test('a rate-limited submission gets the "try later" notification (spec §8)', async () => {
    mockPlayer(accepted());
    serveDetails(details([WARMUP, XSS]));
    server.use(
      http.get(`${API}/game/${GAME_ID}/challenges/2`, () => HttpResponse.json(detail())),
      http.post(`${API}/game/${GAME_ID}/challenges/2`, () =>
        HttpResponse.json({ title: 'Too many submissions, slow down', status: 429 }, { status: 429 }),
      ),
    );
    renderApp(`/games/${GAME_ID}/challenges`);
    await userEvent.click(await screen.findByRole('button', { name: /^Stored XSS / }));
    const dialog = await screen.findByRole('dialog', { name: 'Stored XSS' });
    await enterText(await within(dialog).findByRole('textbox', { name: 'Flag' }), 'flag{fast}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Please try again later')).toBeInTheDocument();
    // The notification carries the server's message (the form says it too, by the field).
    await waitFor(() => expect(screen.getAllByText('Too many submissions, slow down')).toHaveLength(2));
  });

  test('reads a challenge afresh each time it is opened', async () => {
    mockPlayer(accepted());
    serveDetails(details([WARMUP, XSS]));
    let hints = ['Look at the comments'];
    server.use(http.get(`${API}/game/${GAME_ID}/challenges/2`, () => HttpResponse.json(detail({ hints }))));
    renderApp(`/games/${GAME_ID}/challenges`);
    await userEvent.click(await screen.findByRole('button', { name: /^Stored XSS / }));
    let dialog = await screen.findByRole('dialog', { name: 'Stored XSS' });
    expect(await within(dialog).findByText('Look at the comments')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // An organiser adds a hint; the player opens the challenge again well within a minute.
    hints = ['Look at the comments', 'The admin bot visits /report'];
    await userEvent.click(screen.getByRole('button', { name: /^Stored XSS / }));
    dialog = await screen.findByRole('dialog', { name: 'Stored XSS' });
    expect(await within(dialog).findByText('The admin bot visits /report')).toBeInTheDocument();
  });

  test('says why there is no board before the start and after the end', async () => {
    const now = Date.now();
    mockPlayer(gameInfo({ status: 'Accepted', start: now + 90_000_000, end: now + 99_000_000 }));
    const state = serveDetails(details([WARMUP]));
    const { unmount } = renderApp(`/games/${GAME_ID}/challenges`);
    expect(await screen.findByRole('heading', { name: 'The game has not started yet' })).toBeInTheDocument();
    expect(screen.getByText(/\(in 1 d \d\d:\d\d:\d\d\)/)).toBeInTheDocument();
    unmount();

    mockPlayer(gameInfo({ status: 'Accepted', start: now - 9_000_000, end: now - 1000 }));
    renderApp(`/games/${GAME_ID}/challenges`);
    expect(await screen.findByRole('heading', { name: 'The game has ended' })).toBeInTheDocument();
    // In the header and in the message.
    expect(screen.getAllByRole('link', { name: 'Scoreboard' })).toHaveLength(2);
    expect(state.calls).toBe(0);
  });
});
