import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { ContainerInstanceModel, TeamInfoModel } from '@/features/admin/api';
import { server } from '../../msw';
import { API, renderApp } from '../../helpers/render';
import { mockAdmin } from './support';

jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 8000 });
beforeAll(() => import('@/features/admin/pages/InstancesPage'), 30_000);
beforeEach(() => mockAdmin());

const MINUTE = 60_000;
const RED = { id: 1, name: 'Red', avatar: null };
const BLUE = { id: 2, name: 'Blue', avatar: null };
const WEB = { id: 10, title: 'Cookie jar', category: 'Web' as const };
const PWN = { id: 11, title: 'Heap of fun', category: 'Pwn' as const };

const instance = (
  index: number,
  team: typeof RED,
  challenge: typeof WEB | typeof PWN,
  stopsIn = 90 * MINUTE,
): ContainerInstanceModel => ({
  team,
  challenge,
  image: `registry.example/${challenge.category.toLowerCase()}:latest`,
  containerGuid: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  containerId: `docker${index}`,
  startedAt: Date.now() - 30 * MINUTE,
  expectStopAt: Date.now() + stopsIn,
  ip: '10.0.0.5',
  port: 30000 + index,
});

/**
 * The admin instances API over an in-memory list, filtered and paged like the server (`total`
 * counts every match); records every page request and every destroy.
 */
function serveInstances(initial: ContainerInstanceModel[]) {
  let instances = initial;
  const requests: Array<Record<string, string>> = [];
  const destroyed: string[] = [];
  const searches: string[] = [];
  server.use(
    http.get(`${API}/admin/instances`, ({ request }) => {
      const params = Object.fromEntries(new URL(request.url).searchParams);
      requests.push(params);
      const matches = instances.filter(
        (item) =>
          (!params.teamId || item.team?.id === Number(params.teamId)) &&
          (!params.challengeId || item.challenge?.id === Number(params.challengeId)),
      );
      const skip = Number(params.skip ?? 0);
      const data = params.count ? matches.slice(skip, skip + Number(params.count)) : matches;
      return HttpResponse.json({ data, length: data.length, total: matches.length });
    }),
    http.delete(`${API}/admin/instances/:id`, ({ params }) => {
      destroyed.push(String(params.id));
      instances = instances.filter((item) => item.containerGuid !== params.id);
      return new HttpResponse(null, { status: 200 });
    }),
    http.post(`${API}/admin/teams/search`, ({ request }) => {
      const hint = new URL(request.url).searchParams.get('hint') ?? '';
      searches.push(hint);
      const data: TeamInfoModel[] = [RED, BLUE]
        .filter((team) => team.name.toLowerCase().includes(hint.toLowerCase()))
        .map((team) => ({ ...team, bio: null, locked: false, members: [] }));
      return HttpResponse.json({ data, length: data.length, total: data.length });
    }),
  );
  return { requests, destroyed, searches };
}

const lastRequest = (requests: Array<Record<string, string>>) => requests[requests.length - 1];

describe('the admin instances table', () => {
  it('pages through the server with count and skip, and shows what runs where', async () => {
    const all = Array.from({ length: 35 }, (_item, index) =>
      instance(index + 1, index % 2 ? BLUE : RED, index % 3 ? WEB : PWN),
    );
    all[0] = { ...all[0]!, expectStopAt: Date.now() + 26 * 60 * MINUTE };
    const { requests } = serveInstances(all);
    renderApp('/admin/instances');
    const grid = await screen.findByRole('grid', { name: 'Instances' });
    await within(grid).findByText('10.0.0.5:30001');
    expect(requests).toEqual([{ count: '30', skip: '0' }]);

    const first = within(grid).getByText('10.0.0.5:30001').closest('[role="row"]') as HTMLElement;
    expect(within(first).getByText('Red')).toBeInTheDocument();
    expect(within(first).getByText('Heap of fun')).toBeInTheDocument();
    expect(within(first).getByText('Pwn')).toBeInTheDocument();
    expect(within(first).getByText('registry.example/pwn:latest')).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Copy 10.0.0.5:30001' })).toBeInTheDocument();
    expect(within(first).getByText(/^in 1 d (01:59|02:00):\d\d$/)).toBeInTheDocument();
    const second = within(grid).getByText('10.0.0.5:30002').closest('[role="row"]') as HTMLElement;
    expect(within(second).getByText(/^in (01:29|01:30):\d\d$/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await within(grid).findByText('10.0.0.5:30031');
    expect(lastRequest(requests)).toEqual({ count: '30', skip: '30' });
    expect(within(grid).queryByText('10.0.0.5:30001')).not.toBeInTheDocument();
  });

  it('filters by a clicked team and a clicked challenge, with chips that remove the filters', async () => {
    const { requests } = serveInstances([instance(1, RED, WEB), instance(2, BLUE, WEB), instance(3, RED, PWN)]);
    renderApp('/admin/instances');
    const grid = await screen.findByRole('grid', { name: 'Instances' });
    await within(grid).findByText('10.0.0.5:30003');
    const filters = screen.getByRole('group', { name: 'Active filters' });
    expect(within(filters).getByText(/Click a team or a challenge/)).toBeInTheDocument();

    await userEvent.click(within(grid).getAllByRole('button', { name: 'Show only the instances of team Red' })[0]!);
    await waitFor(() => expect(lastRequest(requests)).toEqual({ count: '30', skip: '0', teamId: '1' }));
    await waitFor(() => expect(within(grid).queryByText('10.0.0.5:30002')).not.toBeInTheDocument());
    expect(within(filters).getByRole('button', { name: 'Remove the filter on team Red' })).toHaveTextContent(
      'Team: Red',
    );

    await userEvent.click(within(grid).getByRole('button', { name: 'Show only the instances of Heap of fun' }));
    await waitFor(() =>
      expect(lastRequest(requests)).toEqual({ count: '30', skip: '0', teamId: '1', challengeId: '11' }),
    );
    await waitFor(() => expect(within(grid).queryByText('10.0.0.5:30001')).not.toBeInTheDocument());
    expect(within(grid).getByText('10.0.0.5:30003')).toBeInTheDocument();

    await userEvent.click(within(filters).getByRole('button', { name: 'Remove the filter on team Red' }));
    await waitFor(() => expect(lastRequest(requests)).toEqual({ count: '30', skip: '0', challengeId: '11' }));
    // The chip is reachable by keyboard and goes with Delete.
    const chip = within(filters).getByRole('button', { name: 'Remove the filter on challenge Heap of fun' });
    act(() => chip.focus());
    await userEvent.keyboard('{Delete}');
    await waitFor(() => expect(lastRequest(requests)).toEqual({ count: '30', skip: '0' }));
    expect(await within(grid).findByText('10.0.0.5:30002')).toBeInTheDocument();
  });

  it('filters by a team found with the search box', async () => {
    const { requests, searches } = serveInstances([instance(1, RED, WEB), instance(2, BLUE, WEB)]);
    renderApp('/admin/instances');
    const grid = await screen.findByRole('grid', { name: 'Instances' });
    await within(grid).findByText('10.0.0.5:30002');

    await userEvent.type(screen.getByRole('combobox', { name: 'Filter by team' }), 'blu');
    await userEvent.click(await screen.findByRole('option', { name: 'Blue' }));
    expect(searches).toContain('blu');
    await waitFor(() => expect(lastRequest(requests)).toEqual({ count: '30', skip: '0', teamId: '2' }));
    await waitFor(() => expect(within(grid).queryByText('10.0.0.5:30001')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Remove the filter on team Blue' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Filter by team' })).toHaveValue('');
  });

  it('destroys an instance after confirmation and takes its row out of the page', async () => {
    const { requests, destroyed } = serveInstances([instance(1, RED, WEB), instance(2, BLUE, PWN)]);
    renderApp('/admin/instances');
    const grid = await screen.findByRole('grid', { name: 'Instances' });
    await within(grid).findByText('10.0.0.5:30002');

    await userEvent.click(within(grid).getByRole('menuitem', { name: 'Destroy the instance at 10.0.0.5:30002' }));
    const dialog = await screen.findByRole('dialog', { name: 'Destroy this instance?' });
    expect(within(dialog).getByText(/10\.0\.0\.5:30002 \(Blue, Heap of fun\)/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Destroy' }));

    await waitFor(() => expect(destroyed).toEqual(['00000000-0000-4000-8000-000000000002']));
    await waitFor(() => expect(within(grid).queryByText('10.0.0.5:30002')).not.toBeInTheDocument());
    expect(within(grid).getByText('10.0.0.5:30001')).toBeInTheDocument();
    expect(screen.getByText(/1–1 of 1/)).toBeInTheDocument();
    expect(lastRequest(requests)).toEqual({ count: '30', skip: '0' });
    expect(await screen.findByText('The instance was destroyed.')).toBeInTheDocument();
  });

  it('says when nothing runs', async () => {
    serveInstances([]);
    renderApp('/admin/instances');
    expect(await screen.findByText('No instances are running.')).toBeInTheDocument();
  });
});
