import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { ContainerInfoModel } from '@/features/edit/api';
import { TestContainerPanel } from '@/features/edit/challenges/components/TestContainerPanel';
import {
  formFromChallenge,
  updateModel,
  validateForm,
  type StoredChallenge,
} from '@/features/edit/challenges/lib/challengeForm';
import { DEFAULT_INSTANCE_SETTINGS, InstanceSettingsContext } from '@/shared/instances/InstanceSettings';
import { ProxyEntrySlot, type ProxyEntryProps } from '@/shared/instances/ProxyEntrySlot';
import { server } from '../../../msw';
import { API, renderApp, renderWithProviders } from '../../../helpers/render';
import { detail, GAME_ID, serveChallenges } from './support';

jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 8000 });
beforeAll(() => import('@/features/edit/challenges/pages/ChallengeEditPage'), 30_000);

const GUID = '0b6f6a8e-3c1d-4e2f-9a7b-5c4d3e2f1a0b';
const HOUR = 3_600_000;

const running = (entry: string): ContainerInfoModel => ({
  status: 'Running',
  startedAt: Date.now(),
  expectStopAt: Date.now() + 2 * HOUR,
  entry,
});

/** The test container calls on top of the edit API of `support.ts`; the detail carries what runs. */
function serveTestContainer(entry = '10.0.0.9:31000') {
  const state = { container: null as ContainerInfoModel | null, calls: [] as string[] };
  const base = `${API}/edit/games/:id/challenges/:cId`;
  server.use(
    http.post(`${base}/container`, () => {
      state.calls.push('start');
      state.container = running(entry);
      return HttpResponse.json(state.container);
    }),
    http.delete(`${base}/container`, () => {
      state.calls.push('stop');
      state.container = null;
      return new HttpResponse(null, { status: 200 });
    }),
    http.get(base, () =>
      HttpResponse.json(
        detail({ id: 11, type: 'StaticContainer', containerImage: 'nginx:1', testContainer: state.container }),
      ),
    ),
  );
  return state;
}

function FakeProxyEntry({ remote, label }: ProxyEntryProps) {
  return <output aria-label="Local mapping">{`${label} -> ${remote}`}</output>;
}

describe('the test container of a container challenge', () => {
  it('starts, shows its entry with a copy button, and stops', async () => {
    serveChallenges([detail({ id: 11, type: 'StaticContainer' })]);
    const state = serveTestContainer();
    renderApp(`/admin/games/${GAME_ID}/challenges/11`);
    const panel = await screen.findByRole('region', { name: 'Test container' });
    expect(within(panel).getByText(/No test container is running/)).toBeInTheDocument();

    await userEvent.click(within(panel).getByRole('button', { name: 'Start test container' }));
    expect(await within(panel).findByRole('textbox', { name: 'Entry' })).toHaveValue('10.0.0.9:31000');
    expect(within(panel).getByRole('button', { name: 'Copy the entry' })).toBeInTheDocument();
    expect(within(panel).getByText('Running')).toBeInTheDocument();
    expect(within(panel).getByText(/^Started .+ · stops .+$/)).toBeInTheDocument();
    expect(state.calls).toEqual(['start']);

    await userEvent.click(within(panel).getByRole('button', { name: 'Stop' }));
    expect(await within(panel).findByRole('button', { name: 'Start test container' })).toBeInTheDocument();
    expect(within(panel).queryByRole('textbox', { name: 'Entry' })).not.toBeInTheDocument();
    expect(state.calls).toEqual(['start', 'stop']);
  });

  it('shows a running test container from the challenge detail', async () => {
    serveChallenges([detail({ id: 11, type: 'DynamicContainer', testContainer: running('ctf.example:32000') })]);
    renderApp(`/admin/games/${GAME_ID}/challenges/11`);
    const panel = await screen.findByRole('region', { name: 'Test container' });
    expect(within(panel).getByRole('textbox', { name: 'Entry' })).toHaveValue('ctf.example:32000');
    expect(within(panel).getByRole('button', { name: 'Stop' })).toBeInTheDocument();
  });

  it('is not offered for attachment challenges', async () => {
    serveChallenges([detail({ id: 11, type: 'StaticAttachment' })]);
    renderApp(`/admin/games/${GAME_ID}/challenges/11`);
    await screen.findByTestId('current-attachment');
    expect(screen.queryByRole('region', { name: 'Test container' })).not.toBeInTheDocument();
  });

  it('hands a proxied test container to the proxy slot through the no-instance route', async () => {
    renderWithProviders(
      <InstanceSettingsContext.Provider value={{ ...DEFAULT_INSTANCE_SETTINGS, portMapping: 'PlatformProxy' }}>
        <ProxyEntrySlot.Provider value={FakeProxyEntry}>
          <TestContainerPanel gameId={GAME_ID} challengeId={11} title="Echo" container={running(GUID)} />
        </ProxyEntrySlot.Provider>
      </InstanceSettingsContext.Provider>,
    );
    expect(screen.getByRole('status', { name: 'Local mapping' })).toHaveTextContent(
      `Echo (test) -> ws://localhost/api/proxy/noinst/${GUID}`,
    );
  });

  it('shows the no-instance proxy URL when the app provides no slot', async () => {
    renderWithProviders(
      <InstanceSettingsContext.Provider value={{ ...DEFAULT_INSTANCE_SETTINGS, portMapping: 'PlatformProxy' }}>
        <ProxyEntrySlot.Provider value={null}>
          <TestContainerPanel gameId={GAME_ID} challengeId={11} title="Echo" container={running(GUID)} />
        </ProxyEntrySlot.Provider>
      </InstanceSettingsContext.Provider>,
    );
    expect(screen.getByRole('textbox', { name: 'Proxy address (WebSocket)' })).toHaveValue(
      `ws://localhost/api/proxy/noinst/${GUID}`,
    );
  });
});

describe('the process limit of a container challenge', () => {
  const stored: StoredChallenge = {
    title: 'Echo',
    category: 'Pwn',
    content: '',
    hints: [],
    originalScore: 500,
    minScoreRate: 0.25,
    difficulty: 5,
    containerImage: 'echo:1',
    cpuCount: 1,
    memoryLimit: 64,
    storageLimit: 256,
    containerExposePort: 7,
  };

  it('defaults to 256 when none is stored, and is sent with the container fields only', () => {
    const form = formFromChallenge(stored);
    expect(form.pidsLimit).toBe('256');
    expect(formFromChallenge({ ...stored, pidsLimit: 1024 }).pidsLimit).toBe('1024');
    expect(updateModel({ ...form, pidsLimit: '512' }, 'StaticContainer')).toMatchObject({ pidsLimit: 512 });
    expect(updateModel(form, 'StaticAttachment')).not.toHaveProperty('pidsLimit');
  });

  it.each([
    ['15', true],
    ['16', false],
    ['65536', false],
    ['65537', true],
    ['12.5', true],
    ['', true],
  ])('treats %s as out of range: %s', (value, invalid) => {
    const errors = validateForm({ ...formFromChallenge(stored), pidsLimit: value }, 'DynamicContainer');
    expect(errors.pidsLimit).toEqual(
      invalid ? { key: 'challengeEdit:validation.integerRange', values: { min: 16, max: 65536 } } : undefined,
    );
    // Attachment challenges have no container to limit.
    expect(validateForm({ ...formFromChallenge(stored), pidsLimit: value }, 'StaticAttachment').pidsLimit).toBe(
      undefined,
    );
  });

  it('is a field of the editor, checked before saving and then saved', async () => {
    const sent = serveChallenges([
      detail({ id: 11, type: 'StaticContainer', containerImage: 'echo:1', pidsLimit: 128 }),
    ]);
    renderApp(`/admin/games/${GAME_ID}/challenges/11`);
    const field = await screen.findByRole('textbox', { name: 'Processes' });
    expect(field).toHaveValue('128');
    expect(screen.getByText('Most processes at once: 16 to 65536 (default 256).')).toBeInTheDocument();

    await userEvent.clear(field);
    await userEvent.type(field, '8');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A whole number from 16 to 65536.')).toBeInTheDocument();
    expect(sent.updates).toEqual([]);

    await userEvent.clear(field);
    await userEvent.type(field, '512');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent.updates).toHaveLength(1));
    expect(sent.updates[0]!.body).toMatchObject({ pidsLimit: 512, containerImage: 'echo:1' });
  });
});
