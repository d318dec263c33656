import { configure, screen, within } from '@testing-library/react';
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
        .getAllByRole('button', { name: /^Read the writeup of/ })
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Foxes'), expect.stringContaining('Owls')]);
    expect(screen.getByLabelText('Writeup of Foxes')).toHaveAttribute('data', '/assets/hash2/Writeup-2.pdf');

    await userEvent.click(within(list).getByRole('button', { name: 'Read the writeup of Owls' }));
    expect(await screen.findByLabelText('Writeup of Owls')).toHaveAttribute('data', '/assets/hash1/Writeup-1.pdf');
    expect(within(list).getByRole('link', { name: 'Open the writeup of Owls in a new tab' })).toHaveAttribute(
      'href',
      '/assets/hash1/Writeup-1.pdf',
    );
    expect(screen.getByRole('link', { name: 'Download all' })).toHaveAttribute('href', '/api/admin/writeups/8/all');
  });
});
