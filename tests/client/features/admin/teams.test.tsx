import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { TeamInfoModel } from '@/features/admin/api';
import { enterText } from '../../helpers/enterText';
import { server } from '../../msw';
import { API, renderApp } from '../../helpers/render';
import { mockAdmin } from './support';

jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 5000 });
beforeAll(() => import('@/features/admin/pages/TeamsPage'), 30_000);
beforeEach(() => mockAdmin());

const team = (id: number, overrides: Partial<TeamInfoModel> = {}): TeamInfoModel => ({
  id,
  name: `Team ${id}`,
  bio: `Bio ${id}`,
  avatar: null,
  locked: false,
  members: [
    { id: `u${id}a`, userName: `cap${id}`, captain: true, avatar: null, bio: null },
    { id: `u${id}b`, userName: `mem${id}`, captain: false, avatar: null, bio: null },
  ],
  ...overrides,
});

function serveTeams() {
  let teams = [team(1), team(2, { locked: true })];
  const pages: string[] = [];
  const updates: Array<{ id: string; body: unknown }> = [];
  const deletes: string[] = [];
  const searches: string[] = [];
  server.use(
    http.get(`${API}/admin/teams`, ({ request }) => {
      const params = new URL(request.url).searchParams;
      pages.push(`${params.get('count')}/${params.get('skip')}`);
      const search = params.get('search');
      if (search !== null) searches.push(search);
      const data = teams.filter((item) => item.name!.includes(search ?? ''));
      return HttpResponse.json({ data, length: data.length, total: data.length });
    }),
    http.put(`${API}/admin/teams/:id`, async ({ params, request }) => {
      const body = (await request.json()) as Partial<TeamInfoModel>;
      updates.push({ id: String(params.id), body });
      teams = teams.map((item) => (item.id === Number(params.id) ? { ...item, ...body } : item));
      return new HttpResponse(null, { status: 200 });
    }),
    http.delete(`${API}/admin/teams/:id`, ({ params }) => {
      deletes.push(String(params.id));
      teams = teams.filter((item) => item.id !== Number(params.id));
      return new HttpResponse(null, { status: 200 });
    }),
  );
  return { pages, updates, deletes, searches };
}

describe('the admin teams table', () => {
  it('lists teams by page with members, and the lock switch saves at once, patching only that row', async () => {
    const { pages, updates } = serveTeams();
    renderApp('/admin/teams');
    const grid = await screen.findByRole('grid', { name: 'Teams' });
    await within(grid).findByText('Team 1');
    expect(pages).toEqual(['30/0']);
    expect(within(grid).getByText('Bio 1')).toBeInTheDocument();
    expect(within(grid).getByLabelText('cap1 (captain)')).toBeInTheDocument();
    expect(within(grid).getByLabelText('mem1')).toBeInTheDocument();

    const lock1 = within(grid).getByRole('switch', { name: 'Lock team Team 1' });
    const lock2 = within(grid).getByRole('switch', { name: 'Lock team Team 2' });
    expect(lock1).not.toBeChecked();
    expect(lock2).toBeChecked();
    await userEvent.click(lock1);
    await waitFor(() => expect(updates).toEqual([{ id: '1', body: { locked: true } }]));
    await waitFor(() => expect(within(grid).getByRole('switch', { name: 'Lock team Team 1' })).toBeChecked());
    expect(await screen.findByText('The team is locked.')).toBeInTheDocument();
    // The row changed in place: the page was not asked for again.
    expect(pages).toEqual(['30/0']);
  });

  it('edits name and bio in a dialog, and the row shows them without reloading the page', async () => {
    const { updates, pages } = serveTeams();
    renderApp('/admin/teams');
    await screen.findByText('Team 1');
    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit Team 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit team Team 1' });
    const name = within(dialog).getByRole('textbox', { name: 'Team' });
    expect(name).toHaveFocus();
    await userEvent.clear(name);
    await enterText(name, 'Renamed');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(updates).toEqual([{ id: '1', body: { name: 'Renamed', bio: 'Bio 1' } }]));
    expect(await screen.findByText('Renamed')).toBeInTheDocument();
    expect(pages).toEqual(['30/0']);
  });

  it('deletes only after confirming', async () => {
    const { deletes } = serveTeams();
    renderApp('/admin/teams');
    await screen.findByText('Team 2');
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete Team 2' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete this team?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deletes).toEqual([]);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete Team 2' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete this team?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deletes).toEqual(['2']));
    await waitFor(() => expect(screen.queryByText('Team 2')).not.toBeInTheDocument());
  });

  it('asks the server for the matches of the search once typing pauses, paged like the list', async () => {
    const { searches, pages } = serveTeams();
    renderApp('/admin/teams');
    await screen.findByText('Team 2');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search teams' }), 'Team 1');
    await waitFor(() => expect(screen.queryByText('Team 2')).not.toBeInTheDocument());
    expect(searches.at(-1)).toBe('Team 1');
    expect(searches.length).toBeLessThan('Team 1'.length);
    expect(pages.at(-1)).toBe('30/0');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Search results: 1'));
    expect(screen.getByText('Team 1')).toBeInTheDocument();
  });
});
