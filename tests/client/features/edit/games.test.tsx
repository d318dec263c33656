import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { GameInfoModel } from '@/features/edit/api';
import { enterText } from '../../helpers/enterText';
import { server } from '../../msw';
import { API, renderApp } from '../../helpers/render';
import { game, mockAdmin, serveGame } from './support';

jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 5000 });
beforeAll(() => import('@/features/edit/pages/GamesPage'), 30_000);
beforeEach(() => mockAdmin());

function serveGames() {
  let games = [game(2, { title: 'Spring Cup', hidden: true }), game(1, { title: 'Winter Cup' })];
  const pages: string[] = [];
  const created: GameInfoModel[] = [];
  const deleted: string[] = [];
  server.use(
    http.get(`${API}/edit/games`, ({ request }) => {
      const params = new URL(request.url).searchParams;
      pages.push(`${params.get('count')}/${params.get('skip')}`);
      return HttpResponse.json({ data: games, length: games.length, total: games.length });
    }),
    http.post(`${API}/edit/games`, async ({ request }) => {
      const body = (await request.json()) as GameInfoModel;
      created.push(body);
      const stored = game(9, body);
      games = [stored, ...games];
      return HttpResponse.json(stored);
    }),
    http.delete(`${API}/edit/games/:id`, ({ params }) => {
      deleted.push(String(params.id));
      games = games.filter((item) => item.id !== Number(params.id));
      return new HttpResponse(null, { status: 200 });
    }),
  );
  return { pages, created, deleted };
}

describe('the admin games list', () => {
  it('lists games by page with their flags, creates one and opens its Info page', async () => {
    const { pages, created } = serveGames();
    serveGame(game(9, { title: 'Autumn Cup' }));
    renderApp('/admin/games');
    const grid = await screen.findByRole('grid', { name: 'Games' });
    await within(grid).findByRole('link', { name: 'Spring Cup' });
    expect(pages).toEqual(['30/0']);
    const spring = within(grid).getByRole('row', { name: /Spring Cup/ });
    expect(within(spring).getByText('Hidden')).toBeInTheDocument();
    expect(within(spring).getByText('Practice')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'New game' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a game' });
    // Nothing is sent without a title.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Enter a title.')).toBeInTheDocument();
    await enterText(within(dialog).getByRole('textbox', { name: 'Title' }), 'Autumn Cup');
    const start = within(dialog).getByLabelText(/^Start/);
    const end = within(dialog).getByLabelText(/^End/);
    // An end before the start is refused here.
    await userEvent.clear(end);
    await userEvent.type(end, '2030-01-01T10:00');
    await userEvent.clear(start);
    await userEvent.type(start, '2030-01-02T10:00');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('The end must be after the start.')).toBeInTheDocument();
    expect(created).toEqual([]);

    await userEvent.clear(end);
    await userEvent.type(end, '2030-01-03T18:30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]).toEqual({
      title: 'Autumn Cup',
      start: new Date(2030, 0, 2, 10, 0).getTime(),
      end: new Date(2030, 0, 3, 18, 30).getTime(),
    });
    expect(await screen.findByRole('heading', { name: 'Autumn Cup', level: 2 })).toBeInTheDocument();
    expect(await screen.findByRole('textbox', { name: 'Title' })).toHaveValue('Autumn Cup');
    expect(await screen.findByText('Game created')).toBeInTheDocument();
  });

  it('deletes a game only after confirming', async () => {
    const { deleted } = serveGames();
    renderApp('/admin/games');
    const grid = await screen.findByRole('grid', { name: 'Games' });
    await within(grid).findByRole('link', { name: 'Winter Cup' });

    await userEvent.click(within(grid).getByRole('menuitem', { name: 'Delete Winter Cup' }));
    let confirm = await screen.findByRole('dialog', { name: 'Delete the game?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deleted).toEqual([]);

    await userEvent.click(within(grid).getByRole('menuitem', { name: 'Delete Winter Cup' }));
    confirm = await screen.findByRole('dialog', { name: 'Delete the game?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleted).toEqual(['1']));
    await waitFor(() => expect(within(grid).queryByRole('link', { name: 'Winter Cup' })).not.toBeInTheDocument());
    expect(await screen.findByText('Game deleted')).toBeInTheDocument();
  });
});
