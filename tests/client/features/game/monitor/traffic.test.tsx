import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { ChallengeTrafficModel, FileRecord, TeamTrafficModel } from '@/features/game/api';
import { server } from '../../../msw';
import { API, renderApp } from '../../../helpers/render';
import { GAME_ID, mockGame } from './support';

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(30_000);
beforeAll(() => import('@/features/game/monitor/TrafficPage'), 30_000);

const CHALLENGES: ChallengeTrafficModel[] = [
  { id: 21, title: 'Echo server', category: 'Pwn', type: 'DynamicContainer', isEnabled: true, count: 2 },
  { id: 22, title: 'Old proxy', category: 'Web', type: 'StaticContainer', isEnabled: false, count: 0 },
];
const TEAMS: TeamTrafficModel[] = [
  { id: 301, teamId: 1, name: 'Red', division: 'Open', avatar: null, count: 2 },
  { id: 302, teamId: 2, name: 'Blue', division: null, avatar: null, count: 1 },
];

/** The capture endpoints over in-memory folders (challenge → participation → files); records deletions. */
function serveCaptures(challenges = CHALLENGES) {
  const folders: Record<number, Record<number, FileRecord[]>> = {
    21: {
      301: [
        { fileName: 'a1b2c3d4-1.pcap', size: 1536, updateTime: 1_800_000_000_000 },
        { fileName: 'a1b2c3d4-2.pcap', size: 3 * 1024 * 1024, updateTime: 1_800_000_100_000 },
      ],
      302: [{ fileName: 'e5f6a7b8-1.pcap', size: 12, updateTime: 1_800_000_200_000 }],
    },
  };
  const deleted: string[] = [];
  server.use(
    http.get(`${API}/game/games/${GAME_ID}/captures`, () => HttpResponse.json(challenges)),
    http.get(`${API}/game/captures/:cid`, ({ params }) => {
      const folder = folders[Number(params.cid)];
      if (!folder) return HttpResponse.json({ title: 'No captures', status: 404 }, { status: 404 });
      return HttpResponse.json(
        TEAMS.filter((team) => folder[team.id]).map((team) => ({ ...team, count: folder[team.id]!.length })),
      );
    }),
    http.get(`${API}/game/captures/:cid/:pid`, ({ params }) =>
      HttpResponse.json(folders[Number(params.cid)]?.[Number(params.pid)] ?? []),
    ),
    http.delete(`${API}/game/captures/:cid/:pid/all`, ({ params }) => {
      deleted.push(`${params.cid}/${params.pid}/all`);
      delete folders[Number(params.cid)]![Number(params.pid)];
      return new HttpResponse(null, { status: 200 });
    }),
    http.delete(`${API}/game/captures/:cid/:pid/:file`, ({ params }) => {
      deleted.push(`${params.cid}/${params.pid}/${String(params.file)}`);
      const folder = folders[Number(params.cid)]!;
      folder[Number(params.pid)] = folder[Number(params.pid)]!.filter((file) => file.fileName !== params.file);
      return new HttpResponse(null, { status: 200 });
    }),
  );
  return { deleted };
}

describe('the monitor traffic tab', () => {
  test('drills down from challenges to teams to files, with download links', async () => {
    mockGame('Monitor');
    serveCaptures();
    renderApp(`/games/${GAME_ID}/monitor/traffic`);

    const challenges = await screen.findByRole('list', { name: 'Challenges with capture' });
    const echo = await within(challenges).findByRole('button', { name: /Echo server/ });
    expect(within(echo).getByText('Pwn · Teams: 2')).toBeInTheDocument();
    expect(within(challenges).getByRole('button', { name: /Old proxy/ })).toHaveTextContent('Disabled');
    expect(screen.getByText('Choose a challenge to see the teams with captures.')).toBeInTheDocument();

    await userEvent.click(echo);
    const teams = await screen.findByRole('list', { name: 'Teams' });
    expect(screen.getByRole('heading', { name: 'Teams · Echo server' })).toBeInTheDocument();
    const red = await within(teams).findByRole('button', { name: /Red/ });
    expect(within(red).getByText('Open · Files: 2')).toBeInTheDocument();
    expect(within(teams).getByRole('button', { name: /Blue/ })).toHaveTextContent('Files: 1');
    expect(screen.getByText('Choose a team to see its capture files.')).toBeInTheDocument();

    await userEvent.click(red);
    const files = await screen.findByRole('list', { name: 'Capture files' });
    expect(screen.getByRole('heading', { name: 'Files · Red' })).toBeInTheDocument();
    await within(files).findByText('a1b2c3d4-1.pcap');
    expect(within(files).getByText(/^1\.50 KiB · /)).toBeInTheDocument();
    expect(within(files).getByText(/^3\.00 MiB · /)).toBeInTheDocument();
    expect(within(files).getByRole('link', { name: 'Download a1b2c3d4-1.pcap' })).toHaveAttribute(
      'href',
      '/api/game/captures/21/301/a1b2c3d4-1.pcap',
    );
    expect(screen.getByRole('link', { name: 'Download all files' })).toHaveAttribute(
      'href',
      '/api/game/captures/21/301/all',
    );

    // Another team, then another challenge: what is shown always belongs to the current choice.
    await userEvent.click(within(teams).getByRole('button', { name: /Blue/ }));
    expect(await screen.findByRole('heading', { name: 'Files · Blue' })).toBeInTheDocument();
    const blueFiles = await screen.findByRole('list', { name: 'Capture files' });
    expect(await within(blueFiles).findByText('e5f6a7b8-1.pcap')).toBeInTheDocument();
    expect(within(blueFiles).queryByText('a1b2c3d4-1.pcap')).not.toBeInTheDocument();
    await userEvent.click(within(challenges).getByRole('button', { name: /Old proxy/ }));
    expect(await screen.findByText(/No captures for this challenge yet/)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Capture files' })).not.toBeInTheDocument();
  });

  test('deletes one file, then all of a team, each after confirmation', async () => {
    mockGame('Monitor');
    const { deleted } = serveCaptures();
    renderApp(`/games/${GAME_ID}/monitor/traffic`);
    await userEvent.click(await screen.findByRole('button', { name: /Echo server/ }));
    await userEvent.click(await screen.findByRole('button', { name: /Red/ }));
    const files = await screen.findByRole('list', { name: 'Capture files' });
    await within(files).findByText('a1b2c3d4-1.pcap');

    await userEvent.click(within(files).getByRole('button', { name: 'Delete a1b2c3d4-1.pcap' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete this capture?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deleted).toEqual([]);

    await userEvent.click(within(files).getByRole('button', { name: 'Delete a1b2c3d4-1.pcap' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete this capture?' });
    expect(within(dialog).getByText('a1b2c3d4-1.pcap will be deleted for good.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(files).queryByText('a1b2c3d4-1.pcap')).not.toBeInTheDocument());
    expect(deleted).toEqual(['21/301/a1b2c3d4-1.pcap']);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The team's count follows.
    const teams = screen.getByRole('list', { name: 'Teams' });
    await waitFor(() => expect(within(teams).getByRole('button', { name: /Red/ })).toHaveTextContent('Files: 1'));

    await userEvent.click(screen.getByRole('button', { name: 'Delete all files' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete all captures of this team?' });
    expect(
      within(dialog).getByText('Every capture file of Red for Echo server will be deleted for good.'),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete all' }));
    await waitFor(() => expect(deleted).toEqual(['21/301/a1b2c3d4-1.pcap', '21/301/all']));
    await waitFor(() => expect(within(teams).queryByRole('button', { name: /Red/ })).not.toBeInTheDocument());
    expect(screen.getByText('This team has no capture files for this challenge.')).toBeInTheDocument();
  });

  test('says what captures need when no challenge records traffic', async () => {
    mockGame('Monitor');
    serveCaptures([]);
    renderApp(`/games/${GAME_ID}/monitor/traffic`);
    expect(
      await screen.findByText(/Captures need the platform proxy \(port mapping PlatformProxy\)/),
    ).toBeInTheDocument();
  });
});
