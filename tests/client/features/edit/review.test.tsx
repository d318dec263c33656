import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { ParticipationInfoModel, ParticipationStatus } from '@/features/edit/api';
import { server } from '../../msw';
import { API, renderApp } from '../../helpers/render';
import { game, mockAdmin, serveGame } from './support';

jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 5000 });
beforeAll(() => import('@/features/edit/pages/ReviewPage'), 30_000);
beforeEach(() => mockAdmin());

const participation = (id: number, name: string, status: ParticipationStatus): ParticipationInfoModel => ({
  id,
  status,
  division: 'Open',
  registeredMembers: [`c${id}`],
  team: {
    id: 100 + id,
    name,
    locked: status === 'Accepted',
    captainId: `c${id}`,
    avatar: null,
    members: [
      { userId: `c${id}`, userName: `cap${id}`, realName: `Captain ${id}`, email: `cap${id}@example.com` },
      { userId: `m${id}`, userName: `mem${id}` },
    ],
  },
});

/** The query of every list request the page made, in order. */
let reads: URLSearchParams[] = [];

function serveParticipations() {
  let list = [
    participation(1, 'Pending Pandas', 'Pending'),
    participation(2, 'Accepted Ants', 'Accepted'),
    participation(3, 'Suspended Swans', 'Suspended'),
    participation(4, 'Rejected Rats', 'Rejected'),
  ];
  const edits: Array<{ id: string; body: unknown }> = [];
  reads = [];
  server.use(
    // Filters and pages as the server does (server/src/modules/participations), total in X-Total-Count.
    http.get(`${API}/game/:id/participations`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      reads.push(query);
      const search = query.get('search')?.toLowerCase();
      const matching = list.filter(
        (item) =>
          (!query.get('status') || item.status === query.get('status')) &&
          (!search || item.team.name!.toLowerCase().includes(search)),
      );
      const skip = Number(query.get('skip') ?? 0);
      const page = matching.slice(skip, skip + Number(query.get('count') ?? matching.length));
      return HttpResponse.json(page, { headers: { 'X-Total-Count': String(matching.length) } });
    }),
    http.put(`${API}/admin/participation/:id`, async ({ params, request }) => {
      const body = (await request.json()) as { status?: ParticipationStatus; division?: string };
      edits.push({ id: String(params.id), body });
      list = list.map((item) =>
        item.id === Number(params.id)
          ? { ...item, status: body.status ?? item.status, division: body.division ?? item.division }
          : item,
      );
      return new HttpResponse(null, { status: 200 });
    }),
  );
  return edits;
}

const card = (name: string) => screen.findByRole('listitem', { name });

describe('the game Review page', () => {
  it('offers each state only its allowed moves (spec §4)', async () => {
    serveGame(game(6, { divisions: ['Open', 'Students'] }));
    serveParticipations();
    renderApp('/admin/games/6/review');
    const buttons = async (name: string) =>
      within(await card(name))
        .getAllByRole('button')
        .map((button) => button.textContent)
        .filter(Boolean);
    expect(await buttons('Pending Pandas')).toEqual(['Accept', 'Reject']);
    expect(await buttons('Accepted Ants')).toEqual(['Suspend']);
    expect(await buttons('Suspended Swans')).toEqual(['Accept']);
    expect(await buttons('Rejected Rats')).toEqual([]);
    expect(within(await card('Rejected Rats')).getByText('Rejected')).toBeInTheDocument();
  });

  it('accepts a pending team at once, suspends only after confirming, and filters by status', async () => {
    serveGame(game(6, { divisions: ['Open', 'Students'] }));
    const edits = serveParticipations();
    renderApp('/admin/games/6/review');
    const pandas = await card('Pending Pandas');
    await userEvent.click(within(pandas).getByRole('button', { name: 'Accept Pending Pandas' }));
    await waitFor(() => expect(edits).toEqual([{ id: '1', body: { status: 'Accepted' } }]));
    expect(await within(pandas).findByRole('button', { name: 'Suspend Pending Pandas' })).toBeInTheDocument();
    expect(within(pandas).getByText('Accepted')).toBeInTheDocument();
    expect(await screen.findByText('Participation updated')).toBeInTheDocument();
    // The row was patched in place: the page was read once, with its paging parameters.
    expect(reads).toHaveLength(1);
    expect(reads[0]!.get('count')).toBe('50');
    expect(reads[0]!.get('skip')).toBe('0');

    await userEvent.click(within(await card('Accepted Ants')).getByRole('button', { name: 'Suspend Accepted Ants' }));
    const confirm = await screen.findByRole('dialog', { name: 'Suspend the team?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(edits).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Suspended' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Pending Pandas' })).not.toBeInTheDocument());
    expect(screen.getAllByRole('listitem').map((item) => item.getAttribute('aria-label'))).toEqual(['Suspended Swans']);
    expect(reads.at(-1)!.get('status')).toBe('Suspended');
    expect(screen.getByText('Teams: 1')).toBeInTheDocument();
  });

  it('searches team names on the server once typing pauses', async () => {
    serveGame(game(6, { divisions: ['Open', 'Students'] }));
    serveParticipations();
    renderApp('/admin/games/6/review');
    await card('Rejected Rats');
    const before = reads.length;
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search teams' }), 'ants');
    expect(await card('Accepted Ants')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Rejected Rats' })).not.toBeInTheDocument());
    const searches = reads.slice(before).map((query) => query.get('search'));
    expect(searches).toEqual(['ants']);
  });

  it('moves a team to another division and lists its members', async () => {
    serveGame(game(6, { divisions: ['Open', 'Students'] }));
    const edits = serveParticipations();
    renderApp('/admin/games/6/review');
    const ants = await card('Accepted Ants');
    await userEvent.click(within(ants).getByRole('combobox', { name: /Division/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Students' }));
    await waitFor(() => expect(edits).toEqual([{ id: '2', body: { division: 'Students' } }]));

    await userEvent.click(within(ants).getByRole('button', { name: 'Members of Accepted Ants' }));
    const members = await within(ants).findByRole('list', { name: 'Members of Accepted Ants' });
    expect(within(members).getByText('cap2')).toBeInTheDocument();
    expect(within(members).getByText('Captain')).toBeInTheDocument();
    expect(within(members).getByText('Joined the game')).toBeInTheDocument();
    expect(within(members).getByText('Captain 2 · cap2@example.com')).toBeInTheDocument();
    expect(within(members).getByText('mem2')).toBeInTheDocument();
  });
});
