import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { WriteupInfoModel } from '@/features/edit/api';
import { server } from '../../msw';
import { API, renderApp } from '../../helpers/render';
import { game, mockAdmin, serveGame } from './support';

jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 5000 });
beforeAll(() => import('@/features/edit/pages/WriteupsPage'), 30_000);
beforeEach(() => mockAdmin());

const writeup = (id: number, name: string, time: number): WriteupInfoModel => ({
  id,
  team: { id: 100 + id, name, locked: true, avatar: null, members: null },
  url: `/assets/hash${id}/Writeup-${id}.pdf`,
  uploadTimeUtc: time,
});

describe('the game Writeups page', () => {
  it('lists the writeups newest first, shows the chosen PDF and links the archive of all', async () => {
    serveGame(game(8));
    server.use(
      http.get(`${API}/admin/writeups/:id`, () =>
        HttpResponse.json([writeup(1, 'Owls', 1_900_000_000_000), writeup(2, 'Foxes', 1_900_000_500_000)]),
      ),
    );
    renderApp('/admin/games/8/writeups');
    const list = await screen.findByRole('list', { name: 'Submitted writeups' });
    expect(screen.getByRole('status')).toHaveTextContent('Writeups submitted: 2');
    expect(
      within(list)
        .getAllByRole('button', { name: /Uploaded/ })
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Foxes'), expect.stringContaining('Owls')]);
    expect(screen.getByLabelText('Writeup of Foxes')).toHaveAttribute('data', '/assets/hash2/Writeup-2.pdf');

    await userEvent.click(within(list).getByRole('button', { name: /Owls\s*Uploaded/ }));
    expect(await screen.findByLabelText('Writeup of Owls')).toHaveAttribute('data', '/assets/hash1/Writeup-1.pdf');
    expect(within(list).getByRole('link', { name: 'Open the writeup of Owls in a new tab' })).toHaveAttribute(
      'href',
      '/assets/hash1/Writeup-1.pdf',
    );
    expect(screen.getByRole('link', { name: 'Download all' })).toHaveAttribute('href', '/api/admin/writeups/8/all');
  });

  it('pages through the writeups and searches them by team on the server', async () => {
    serveGame(game(8));
    const all = Array.from({ length: 60 }, (_, index) =>
      writeup(index + 1, `Team ${index + 1}`, 1_900_000_000_000 - index),
    );
    const asked: URLSearchParams[] = [];
    server.use(
      http.get(`${API}/admin/writeups/:id`, ({ request }) => {
        const params = new URL(request.url).searchParams;
        asked.push(params);
        const search = params.get('search') ?? '';
        const matching = all.filter((item) => item.team.name!.includes(search));
        const skip = Number(params.get('skip') ?? 0);
        const page = matching.slice(skip, skip + Number(params.get('count') ?? matching.length));
        return HttpResponse.json(page, { headers: { 'X-Total-Count': String(matching.length) } });
      }),
    );
    renderApp('/admin/games/8/writeups');
    const list = await screen.findByRole('list', { name: 'Submitted writeups' });
    expect(screen.getByRole('status')).toHaveTextContent('Writeups submitted: 60');
    expect(within(list).getAllByRole('button', { name: /Uploaded/ })).toHaveLength(50);
    expect(screen.getByText('1–50 of 60')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await within(list).findByRole('button', { name: /Team 60\s*Uploaded/ })).toBeInTheDocument();
    expect(asked.at(-1)?.get('skip')).toBe('50');

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search by team' }), 'Team 5');
    expect(await screen.findByText('1–11 of 11')).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: /Team 59\s*Uploaded/ })).toBeInTheDocument();
    expect(asked.at(-1)?.get('search')).toBe('Team 5');
    expect(asked.at(-1)?.get('skip')).toBe('0');
  });

  it('deletes every writeup of the game, only after confirming', async () => {
    serveGame(game(8));
    let stored = [writeup(1, 'Owls', 1_900_000_000_000), writeup(2, 'Foxes', 1_900_000_500_000)];
    const deletes: string[] = [];
    server.use(
      http.get(`${API}/admin/writeups/:id`, () =>
        HttpResponse.json(stored, { headers: { 'X-Total-Count': String(stored.length) } }),
      ),
      http.delete(`${API}/edit/games/:id/writeups`, ({ params }) => {
        deletes.push(String(params.id));
        stored = [];
        return new HttpResponse(null, { status: 200 });
      }),
    );
    renderApp('/admin/games/8/writeups');
    await screen.findByRole('list', { name: 'Submitted writeups' });

    await userEvent.click(screen.getByRole('button', { name: 'Delete all' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete every writeup?' });
    expect(dialog).toHaveTextContent('All writeups submitted to this game are removed for good, for every team.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deletes).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Delete all' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete every writeup?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete all' }));
    await waitFor(() => expect(deletes).toEqual(['8']));
    expect(await screen.findByText('Writeups deleted')).toBeInTheDocument();
    // The list is read again: nothing left, and nothing to delete or download.
    expect(await screen.findByText('Writeups submitted: 0')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Submitted writeups' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete all' })).toBeDisabled();
  });
});
