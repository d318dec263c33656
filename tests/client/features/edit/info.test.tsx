import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api } from '@/features/edit/api';
import { toLocalInput } from '@/features/edit/lib/gameForm';
import { decodeBloodBonus } from '@/shared/lib/bloodBonus';
import { server } from '../../msw';
import { API, renderApp } from '../../helpers/render';
import { END, game, mockAdmin, serveGame, START } from './support';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 5000 });
beforeAll(
  () => Promise.all([import('@/features/edit/pages/GameInfoPage'), import('@/features/edit/pages/GameFramePage')]),
  30_000,
);
beforeEach(() => mockAdmin());

/** Sets a field's text in one change (typing key by key into this long form is slow under jsdom). */
const fill = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });

describe('the game Info page', () => {
  it('refuses invalid fields without saving, then saves every field with the bonus packed and dates in ms', async () => {
    const state = serveGame(game(4, { title: 'Summer Cup', divisions: ['Pro'] }));
    renderApp('/admin/games/4/info');
    const title = await screen.findByRole('textbox', { name: 'Title' });
    expect(title).toHaveValue('Summer Cup');
    expect(screen.getByRole('textbox', { name: 'Public key' })).toHaveValue('PUBKEY');
    expect(screen.getByRole('textbox', { name: 'First blood' })).toHaveValue('50');

    // Problems are named at their fields and nothing is sent.
    const first = screen.getByRole('textbox', { name: 'First blood' });
    fill(first, '1500');
    const members = screen.getByRole('textbox', { name: 'Team member limit' });
    fill(members, '-2');
    const end = screen.getByLabelText(/^End/);
    fill(end, '2020-01-01T00:00');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A whole number from 0 to 1000.')).toBeInTheDocument();
    expect(screen.getByText('A whole number, 0 or more.')).toBeInTheDocument();
    expect(screen.getByText('The end must be after the start.')).toBeInTheDocument();
    expect(screen.getByText('Some fields need attention before saving.')).toBeInTheDocument();
    expect(state.updates).toEqual([]);

    // Fixed, plus a division, an invite code and a switch.
    fill(first, '120');
    fill(members, '4');
    fill(end, '2030-02-01T12:00');
    const divisions = screen.getByRole('combobox', { name: 'Divisions' });
    await userEvent.type(divisions, 'Students{Enter}');
    await userEvent.type(divisions, 'Open, ');
    fill(screen.getByRole('textbox', { name: 'Invite code' }), 'letmein');
    await userEvent.click(screen.getByRole('switch', { name: /Hidden/ }));
    fill(screen.getByRole('textbox', { name: 'Description (markdown)' }), 'Be **kind**');
    // Narrow (as jsdom is), the preview is a tab next to the source.
    const contentTabs = screen.getByRole('tablist', { name: 'Description (markdown)' });
    await userEvent.click(within(contentTabs).getByRole('tab', { name: 'Preview' }));
    expect(await screen.findByTestId('game-content-preview')).toContainHTML('<strong>kind</strong>');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(state.updates).toHaveLength(1));
    const saved = state.updates[0]!;
    expect(saved).toMatchObject({
      id: 4,
      title: 'Summer Cup',
      hidden: true,
      inviteCode: 'letmein',
      divisions: ['Pro', 'Students', 'Open'],
      teamMemberCountLimit: 4,
      containerCountLimit: 3,
      content: 'Be **kind**',
      start: START,
      end: new Date(2030, 1, 1, 12, 0).getTime(),
      writeupDeadline: END,
    });
    expect(saved.bloodBonus).toBe((120 << 20) + (30 << 10) + 10);
    expect(decodeBloodBonus(saved.bloodBonus!)).toEqual({ first: 120, second: 30, third: 10 });
    expect(await screen.findByText('Game saved')).toBeInTheDocument();
  });

  it('shows the server’s refusal inline', async () => {
    serveGame(game(5));
    server.use(
      http.put(`${API}/edit/games/:id`, () =>
        HttpResponse.json({ title: 'The writeup deadline is before the end', status: 400 }, { status: 400 }),
      ),
    );
    renderApp('/admin/games/5/info');
    await screen.findByRole('textbox', { name: 'Title' });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText('The writeup deadline is before the end')).not.toHaveLength(0);
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Game 5');
  });

  it('freezes the scoreboard at a time within the game, refuses one outside it, and lifts the freeze', async () => {
    const state = serveGame(game(6));
    renderApp('/admin/games/6/info');
    const section = await screen.findByRole('region', { name: 'Scoreboard freeze' });
    expect(await within(section).findByText('The scoreboard is live for everyone.')).toBeInTheDocument();
    const field = within(section).getByLabelText('Freeze the scoreboard at');
    expect(within(section).getByRole('button', { name: 'Lift the freeze' })).toBeDisabled();

    fill(field, '2031-01-01T00:00');
    await userEvent.click(within(section).getByRole('button', { name: 'Freeze' }));
    expect(
      await within(section).findByText('Pick a time between the start and the end of the game.'),
    ).toBeInTheDocument();
    expect(state.freezes).toEqual([]);

    const at = new Date(2030, 0, 11, 20, 30).getTime();
    fill(field, '2030-01-11T20:30');
    await userEvent.click(within(section).getByRole('button', { name: 'Freeze' }));
    await waitFor(() => expect(state.freezes).toEqual([at]));
    expect(await screen.findByText('Scoreboard frozen')).toBeInTheDocument();
    expect(await within(section).findByText(/^Players see the standings as of \d/)).toBeInTheDocument();

    await userEvent.click(within(section).getByRole('button', { name: 'Lift the freeze' }));
    await waitFor(() => expect(state.freezes).toEqual([at, null]));
    expect(await within(section).findByText('The scoreboard is live for everyone.')).toBeInTheDocument();
  });

  it('starts from a fresh answer, not the game frame’s older copy, so a save keeps changes made meanwhile', async () => {
    const state = serveGame(game(4));
    server.use(http.get(`${API}/edit/games/:id/challenges`, () => HttpResponse.json([])));
    renderApp('/admin/games/4/challenges');
    // The frame has loaded (and keeps) the game while the admin works on another section.
    expect(await screen.findByRole('heading', { name: 'Game 4', level: 2 })).toBeInTheDocument();
    const later = END + 60 * 60 * 1000;
    state.game = { ...state.game, end: later };

    await userEvent.click(screen.getByRole('tab', { name: 'Info' }));
    const summary = await screen.findByRole('textbox', { name: 'Summary' });
    expect(screen.getByLabelText(/^End/)).toHaveValue(toLocalInput(later));
    fill(summary, 'Fixed a typo');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(state.updates).toHaveLength(1));
    expect(state.updates[0]).toMatchObject({ summary: 'Fixed a typo', end: later });
  });

  it('follows a reload while nothing is typed, and keeps typed edits through one', async () => {
    const state = serveGame(game(4));
    const { store } = renderApp('/admin/games/4/info');
    const title = await screen.findByRole('textbox', { name: 'Title' });
    expect(title).toHaveValue('Game 4');

    state.game = { ...state.game, title: 'Renamed elsewhere' };
    store.dispatch(api.util.invalidateTags([{ type: 'EditGame', id: 4 }]));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Renamed elsewhere'));

    fill(screen.getByRole('textbox', { name: 'Summary' }), 'Typed here');
    state.game = { ...state.game, title: 'Renamed again', summary: 'Stored summary' };
    store.dispatch(api.util.invalidateTags([{ type: 'EditGame', id: 4 }]));
    // The reload has landed (the frame shows it), and the form is as typed.
    expect(await screen.findByRole('heading', { name: 'Renamed again', level: 2 })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Summary' })).toHaveValue('Typed here');
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Renamed elsewhere');
  });

  it('keeps the forms and what was typed when a reload fails, and says so above them', async () => {
    serveGame(game(4), Date.UTC(2030, 0, 11));
    const { store } = renderApp('/admin/games/4/info');
    fill(await screen.findByRole('textbox', { name: 'Summary' }), 'Unsaved words');
    const section = await screen.findByRole('region', { name: 'Scoreboard freeze' });
    await within(section).findByText(/^Players see the standings as of \d/);

    const refusal = { title: 'The game is locked for maintenance', status: 400 };
    server.use(
      http.get(`${API}/edit/games/:id`, () => HttpResponse.json(refusal, { status: 400 })),
      http.get(`${API}/game/:id/freeze`, () => HttpResponse.json(refusal, { status: 400 })),
    );
    store.dispatch(api.util.invalidateTags([{ type: 'EditGame', id: 4 }]));
    store.dispatch(api.util.invalidateTags([{ type: 'EditGame', id: 'freeze-4' }]));

    const alert = (await screen.findByText('The latest settings could not be loaded. The form keeps what you typed.'))
      .parentElement!;
    expect(alert).toHaveTextContent('The game is locked for maintenance');
    expect(screen.getByRole('textbox', { name: 'Summary' })).toHaveValue('Unsaved words');
    expect(await within(section).findByText('The game is locked for maintenance')).toBeInTheDocument();
    expect(within(section).getByLabelText('Freeze the scoreboard at')).toBeInTheDocument();
  });

  it('shows the not-found page for a game id that is not a number, without asking the server', async () => {
    const asked: string[] = [];
    server.use(
      http.all(`${API}/edit/*`, ({ request }) => {
        asked.push(request.url);
        return HttpResponse.json({ title: 'Not found', status: 404 }, { status: 404 });
      }),
    );
    renderApp('/admin/games/abc/info');
    expect(await screen.findByRole('heading', { name: 'Page not found', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All games' })).toHaveAttribute('href', '/admin/games');
    expect(screen.queryByRole('textbox', { name: 'Title' })).not.toBeInTheDocument();
    expect(asked).toEqual([]);
  });
});
