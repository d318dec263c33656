import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { TeamInfoModel } from '@/features/team/api';
import { enterText } from '../../helpers/enterText';
import { server } from '../../msw';
import { API, mockPlatform, renderApp } from '../../helpers/render';

jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 5000 });
beforeAll(() => import('@/features/team/pages/TeamsPage'), 30_000);

const ME = { userId: 'me', userName: 'alice', role: 'User' };
const TOKEN = '0123456789abcdef0123456789abcdef';

function signedIn() {
  mockPlatform();
  server.use(http.get(`${API}/account/profile`, () => HttpResponse.json(ME)));
}

const mine: TeamInfoModel = {
  id: 1,
  name: 'Red',
  bio: 'We hack',
  avatar: null,
  locked: false,
  members: [
    { id: 'me', userName: 'alice', captain: true, avatar: null, bio: null },
    { id: 'bob', userName: 'bob', captain: false, avatar: null, bio: null },
  ],
};
const theirs: TeamInfoModel = {
  id: 2,
  name: 'Blue',
  bio: null,
  avatar: null,
  locked: true,
  members: [
    { id: 'carol', userName: 'carol', captain: true, avatar: null, bio: null },
    { id: 'me', userName: 'alice', captain: false, avatar: null, bio: null },
  ],
};

/** GET /api/team from a list the other handlers change. */
function serveTeams(initial: TeamInfoModel[]) {
  const state = { teams: initial, calls: 0 };
  server.use(
    http.get(`${API}/team`, () => {
      state.calls += 1;
      return HttpResponse.json(state.teams);
    }),
  );
  return state;
}

const card = (name: string) => screen.getByRole('article', { name });

describe('the teams page', () => {
  it('asks signed-out visitors to sign in, without asking for teams', async () => {
    mockPlatform();
    const state = serveTeams([]);
    renderApp('/teams');
    expect(await screen.findByRole('heading', { name: 'Sign in to see your teams' })).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/account/login?from=%2Fteams',
    );
    expect(state.calls).toBe(0);
    expect(screen.queryByRole('button', { name: 'Create team' })).not.toBeInTheDocument();
  });

  it('shows my teams as cards: the captain may manage, a member may leave; locked teams say so', async () => {
    signedIn();
    serveTeams([mine, theirs]);
    renderApp('/teams');
    await screen.findByRole('article', { name: 'Red' });
    const red = card('Red');
    expect(within(red).getByText('We hack')).toBeInTheDocument();
    expect(within(red).getByText('Captain', { selector: '.MuiChip-label' })).toBeInTheDocument();
    expect(within(red).getByRole('button', { name: 'Manage Red' })).toBeInTheDocument();
    expect(within(red).queryByRole('button', { name: /Leave/ })).not.toBeInTheDocument();
    expect(within(red).getByTitle('Captain')).toBeInTheDocument();
    expect(within(red).queryByText('Locked')).not.toBeInTheDocument();

    const blue = card('Blue');
    expect(within(blue).getByText('Member')).toBeInTheDocument();
    expect(within(blue).getByText('Locked')).toBeInTheDocument();
    expect(within(blue).getByRole('button', { name: 'Leave Blue' })).toBeInTheDocument();
    expect(within(blue).queryByRole('button', { name: /Manage/ })).not.toBeInTheDocument();
    expect(within(within(blue).getByRole('list', { name: 'Members' })).getAllByRole('listitem')).toHaveLength(2);
  });

  it('joins a team with an invite code sent as a JSON string', async () => {
    signedIn();
    const state = serveTeams([]);
    const accepted: Array<{ type: string | null; body: unknown }> = [];
    server.use(
      http.post(`${API}/team/accept`, async ({ request }) => {
        accepted.push({ type: request.headers.get('content-type'), body: await request.json() });
        state.teams = [theirs];
        return new HttpResponse(null, { status: 200 });
      }),
    );
    renderApp('/teams');
    expect(await screen.findByRole('heading', { name: 'You are not in a team yet' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Join team' }));
    const dialog = await screen.findByRole('dialog', { name: 'Join a team' });
    const code = within(dialog).getByRole('textbox', { name: 'Invite code' });
    // Dialogs open on their first field.
    expect(code).toHaveFocus();
    await enterText(code, 'Blue:2:nothex');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Join' }));
    expect(within(dialog).getByText(/This is not an invite code/)).toBeInTheDocument();
    expect(accepted).toEqual([]);

    await userEvent.clear(code);
    await enterText(code, `  Blue:2:${TOKEN} `);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Join' }));
    await waitFor(() => expect(accepted).toEqual([{ type: 'application/json', body: `Blue:2:${TOKEN}` }]));
    expect(await screen.findByRole('article', { name: 'Blue' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Join a team' })).not.toBeInTheDocument();
    expect(await screen.findByText('You joined Blue.')).toBeInTheDocument();
  });

  it('leaves a team only after confirming', async () => {
    signedIn();
    const state = serveTeams([mine, theirs]);
    const left: string[] = [];
    server.use(
      http.post(`${API}/team/:id/leave`, ({ params }) => {
        left.push(String(params.id));
        state.teams = [mine];
        return new HttpResponse(null, { status: 200 });
      }),
    );
    renderApp('/teams');
    await screen.findByRole('article', { name: 'Blue' });
    await userEvent.click(screen.getByRole('button', { name: 'Leave Blue' }));
    let dialog = await screen.findByRole('dialog', { name: 'Leave this team?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(left).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Leave Blue' }));
    dialog = await screen.findByRole('dialog', { name: 'Leave this team?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(left).toEqual(['2']));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Blue' })).not.toBeInTheDocument());
  });

  it('creates a team after checking its name', async () => {
    signedIn();
    const state = serveTeams([]);
    const created: unknown[] = [];
    server.use(
      http.post(`${API}/team`, async ({ request }) => {
        created.push(await request.json());
        state.teams = [mine];
        return HttpResponse.json(mine);
      }),
    );
    renderApp('/teams');
    await screen.findByRole('heading', { name: 'You are not in a team yet' });
    await userEvent.click(screen.getByRole('button', { name: 'Create team' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a team' });
    expect(within(dialog).getByRole('textbox', { name: 'Team name' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('A team needs a name.')).toBeInTheDocument();
    await enterText(within(dialog).getByRole('textbox', { name: 'Team name' }), 'A name much too long for a team');
    expect(within(dialog).getByText('At most 20 characters.')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByRole('textbox', { name: 'Team name' }));
    await enterText(within(dialog).getByRole('textbox', { name: 'Team name' }), 'Red');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(created).toEqual([{ name: 'Red', bio: null }]));
    expect(await screen.findByRole('article', { name: 'Red' })).toBeInTheDocument();
  });

  it('gives the captain the invite code, a new code, and confirmed kick, transfer and delete', async () => {
    signedIn();
    const state = serveTeams([mine]);
    const calls: string[] = [];
    let token = TOKEN;
    server.use(
      http.get(`${API}/team/1/invite`, () => HttpResponse.json(`Red:1:${token}`)),
      http.put(`${API}/team/1/invite`, () => {
        calls.push('refresh');
        token = 'f'.repeat(32);
        return HttpResponse.json(`Red:1:${token}`);
      }),
      http.post(`${API}/team/1/kick/:userId`, ({ params }) => {
        calls.push(`kick ${String(params.userId)}`);
        state.teams = [{ ...mine, members: mine.members!.slice(0, 1) }];
        return HttpResponse.json(state.teams[0]);
      }),
      http.delete(`${API}/team/1`, () => {
        calls.push('delete');
        state.teams = [];
        return new HttpResponse(null, { status: 200 });
      }),
    );
    renderApp('/teams');
    await screen.findByRole('article', { name: 'Red' });
    await userEvent.click(screen.getByRole('button', { name: 'Manage Red' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage Red' });
    const code = within(dialog).getByRole('textbox', { name: 'Invite code' });
    await waitFor(() => expect(code).toHaveValue(`Red:1:${TOKEN}`));
    const writeText = jest.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy the invite code' }));
    expect(writeText).toHaveBeenCalledWith(`Red:1:${TOKEN}`);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Make a new invite code' }));
    await waitFor(() => expect(code).toHaveValue(`Red:1:${'f'.repeat(32)}`));

    // Kick: asked first; cancelling sends nothing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove bob from the team' }));
    let confirm = await screen.findByRole('dialog', { name: 'Remove this member?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove this member?' })).not.toBeInTheDocument());
    expect(calls).toEqual(['refresh']);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove bob from the team' }));
    confirm = await screen.findByRole('dialog', { name: 'Remove this member?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls).toEqual(['refresh', 'kick bob']));
    await waitFor(() =>
      expect(within(screen.getByRole('dialog', { name: 'Manage Red' })).queryByText('bob')).not.toBeInTheDocument(),
    );

    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Manage Red' })).getByRole('button', { name: 'Delete team' }),
    );
    confirm = await screen.findByRole('dialog', { name: 'Delete this team?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete team' }));
    await waitFor(() => expect(calls).toEqual(['refresh', 'kick bob', 'delete']));
    expect(await screen.findByRole('heading', { name: 'You are not in a team yet' })).toBeInTheDocument();
  });

  it('hands the captaincy over after confirming, and the card becomes a member card', async () => {
    signedIn();
    const state = serveTeams([mine]);
    const transfers: unknown[] = [];
    server.use(
      http.get(`${API}/team/1/invite`, () => HttpResponse.json(`Red:1:${TOKEN}`)),
      http.put(`${API}/team/1/transfer`, async ({ request }) => {
        transfers.push(await request.json());
        const swapped = { ...mine, members: mine.members!.map((member) => ({ ...member, captain: !member.captain })) };
        state.teams = [swapped];
        return HttpResponse.json(swapped);
      }),
    );
    renderApp('/teams');
    await screen.findByRole('article', { name: 'Red' });
    await userEvent.click(screen.getByRole('button', { name: 'Manage Red' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage Red' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Make bob captain' }));
    const confirm = await screen.findByRole('dialog', { name: 'Hand over the captaincy?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Make captain' }));
    await waitFor(() => expect(transfers).toEqual([{ newCaptainId: 'bob' }]));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Manage Red' })).not.toBeInTheDocument());
    await waitFor(() => expect(within(card('Red')).getByRole('button', { name: 'Leave Red' })).toBeInTheDocument());
  });
});
