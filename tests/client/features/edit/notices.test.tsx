import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { GameNotice } from '@/features/edit/api';
import { enterText } from '../../helpers/enterText';
import { server } from '../../msw';
import { API, renderApp } from '../../helpers/render';
import { game, mockAdmin, serveGame } from './support';

jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 5000 });
beforeAll(() => import('@/features/edit/pages/NoticesPage'), 30_000);
beforeEach(() => mockAdmin());

function serveNotices() {
  let notices: GameNotice[] = [
    { id: 1, type: 'Normal', values: ['Welcome **everyone**'], time: 1_900_000_000_000 },
    { id: 2, type: 'NewChallenge', values: ['Baby RSA'], time: 1_900_000_100_000 },
    { id: 3, type: 'FirstBlood', values: ['Owls', 'Baby RSA'], time: 1_900_000_200_000 },
  ];
  const calls: string[] = [];
  server.use(
    http.get(`${API}/edit/games/:id/notices`, () => HttpResponse.json(notices)),
    http.post(`${API}/edit/games/:id/notices`, async ({ request }) => {
      const { content } = (await request.json()) as { content: string };
      calls.push(`add ${content}`);
      const notice: GameNotice = { id: 9, type: 'Normal', values: [content], time: 1_900_000_300_000 };
      notices = [...notices, notice];
      return HttpResponse.json(notice);
    }),
    http.put(`${API}/edit/games/:id/notices/:noticeId`, async ({ params, request }) => {
      const { content } = (await request.json()) as { content: string };
      calls.push(`edit ${params.noticeId} ${content}`);
      notices = notices.map((item) => (item.id === Number(params.noticeId) ? { ...item, values: [content] } : item));
      return HttpResponse.json(notices.find((item) => item.id === Number(params.noticeId)));
    }),
    http.delete(`${API}/edit/games/:id/notices/:noticeId`, ({ params }) => {
      calls.push(`delete ${params.noticeId}`);
      notices = notices.filter((item) => item.id !== Number(params.noticeId));
      return new HttpResponse(null, { status: 200 });
    }),
  );
  return calls;
}

describe('the game Notices page', () => {
  it('edits and deletes Normal notices only; the others show read-only with their type', async () => {
    serveGame(game(3));
    const calls = serveNotices();
    renderApp('/admin/games/3/notices');
    const list = await screen.findByRole('list', { name: 'Notices' });
    const normal = await within(list).findByRole('listitem', { name: 'Notice 1' });
    const newChallenge = within(list).getByRole('listitem', { name: 'Notice 2' });
    const blood = within(list).getByRole('listitem', { name: 'Notice 3' });

    expect(within(normal).getByText('everyone').tagName).toBe('STRONG');
    expect(within(normal).getByRole('button', { name: 'Edit notice 1' })).toBeInTheDocument();
    expect(within(normal).getByRole('button', { name: 'Delete notice 1' })).toBeInTheDocument();
    expect(within(newChallenge).getByText('New challenge')).toBeInTheDocument();
    expect(within(newChallenge).getByText('Baby RSA')).toBeInTheDocument();
    expect(within(blood).getByText('First blood')).toBeInTheDocument();
    expect(within(blood).getByText('Owls · Baby RSA')).toBeInTheDocument();
    for (const readOnly of [newChallenge, blood]) {
      expect(within(readOnly).queryByRole('button')).not.toBeInTheDocument();
    }
    // Newest first.
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(['Notice 3', 'Notice 2', 'Notice 1']);

    await userEvent.click(within(normal).getByRole('button', { name: 'Edit notice 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit notice' });
    const content = within(dialog).getByRole('textbox', { name: 'Notice (markdown)' });
    expect(content).toHaveValue('Welcome **everyone**');
    await userEvent.clear(content);
    await enterText(content, 'Welcome all');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls).toEqual(['edit 1 Welcome all']));
    expect(await within(list).findByText('Welcome all')).toBeInTheDocument();

    await userEvent.click(within(normal).getByRole('button', { name: 'Delete notice 1' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the notice?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls).toEqual(['edit 1 Welcome all', 'delete 1']));
    await waitFor(() => expect(within(list).queryByRole('listitem', { name: 'Notice 1' })).not.toBeInTheDocument());
  });

  it('publishes a new notice and refuses an empty one', async () => {
    serveGame(game(3));
    const calls = serveNotices();
    renderApp('/admin/games/3/notices');
    await screen.findByRole('list', { name: 'Notices' });
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Write something first.')).toBeInTheDocument();
    expect(calls).toEqual([]);

    const field = screen.getByRole('textbox', { name: 'New notice (markdown)' });
    await enterText(field, 'Hints at noon');
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(calls).toEqual(['add Hints at noon']));
    expect(await screen.findByRole('listitem', { name: 'Notice 9' })).toHaveTextContent('Hints at noon');
    expect(field).toHaveValue('');
    expect(await screen.findByText('Notice published')).toBeInTheDocument();
  });
});
