import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
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
});
