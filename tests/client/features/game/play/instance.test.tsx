import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { ChallengeDialog } from '@/features/game/components/ChallengeDialog';
import type { AnswerResult, ChallengeDetailModel, ChallengeType, ClientFlagContext } from '@/features/game/api';
import {
  DEFAULT_INSTANCE_SETTINGS,
  InstanceSettingsContext,
  type InstanceSettings,
} from '@/shared/instances/InstanceSettings';
import { ProxyEntrySlot, type ProxyEntryProps } from '@/shared/instances/ProxyEntrySlot';
import { enterText } from '../../../helpers/enterText';
import { server } from '../../../msw';
import { API, renderWithProviders } from '../../../helpers/render';
import { challenge, GAME_ID } from './support';

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(30_000);

const MINUTE = 60_000;
const CHALLENGE_ID = 3;
const GUID = '7d0b3c5e-1a2b-4c3d-8e9f-0a1b2c3d4e5f';
const INFO = challenge({ id: CHALLENGE_ID, title: 'Pwn me', category: 'Pwn' });

/**
 * The challenge's detail and the three container calls over one in-memory instance; records what the
 * panel sends. `create` is the entry and lifetime a new instance gets.
 */
function serveInstance({
  type = 'DynamicContainer',
  context = {},
  create = { entry: '10.0.0.5:30001', lifetime: 120 * MINUTE },
}: {
  type?: ChallengeType;
  context?: ClientFlagContext;
  create?: { entry: string; lifetime: number };
} = {}) {
  const state = { context: { ...context }, calls: [] as string[], detailFetches: 0 };
  const detail = (): ChallengeDetailModel => ({
    id: CHALLENGE_ID,
    title: 'Pwn me',
    content: 'Get a *shell*.',
    category: 'Pwn',
    hints: [],
    score: 500,
    type,
    context: state.context,
  });
  const info = () => ({
    status: 'Running',
    startedAt: Date.now(),
    expectStopAt: state.context.closeTime!,
    entry: state.context.instanceEntry!,
  });
  const base = `${API}/game/${GAME_ID}`;
  server.use(
    http.get(`${base}/challenges/${CHALLENGE_ID}`, () => {
      state.detailFetches += 1;
      return HttpResponse.json(detail());
    }),
    http.post(`${base}/container/${CHALLENGE_ID}`, () => {
      state.calls.push('create');
      state.context = { ...state.context, instanceEntry: create.entry, closeTime: Date.now() + create.lifetime };
      return HttpResponse.json(info());
    }),
    http.post(`${base}/container/${CHALLENGE_ID}/extend`, () => {
      state.calls.push('extend');
      state.context = { ...state.context, closeTime: state.context.closeTime! + 120 * MINUTE };
      return HttpResponse.json(info());
    }),
    http.delete(`${base}/container/${CHALLENGE_ID}`, () => {
      state.calls.push('delete');
      state.context = { ...state.context, instanceEntry: null, closeTime: null };
      return new HttpResponse(null, { status: 200 });
    }),
  );
  return state;
}

/** A stand-in for the app's proxy slot (the wsrx mapping): shows what it was given. */
function FakeProxyEntry({ remote, label }: ProxyEntryProps) {
  return <output aria-label="Local mapping">{`${label} -> ${remote}`}</output>;
}

function renderDialog({
  settings = {},
  slot = null,
}: { settings?: Partial<InstanceSettings>; slot?: ((props: ProxyEntryProps) => React.JSX.Element) | null } = {}) {
  return renderWithProviders(
    <InstanceSettingsContext.Provider value={{ ...DEFAULT_INSTANCE_SETTINGS, ...settings }}>
      <ProxyEntrySlot.Provider value={slot}>
        <ChallengeDialog gameId={GAME_ID} challenge={INFO} solved={false} onClose={() => undefined} />
      </ProxyEntrySlot.Provider>
    </InstanceSettingsContext.Provider>,
  );
}

const panel = async () => screen.findByRole('region', { name: 'Instance' });

describe('the instance panel of the challenge dialog', () => {
  test('starts an instance, then shows its entry with a copy button and the time left', async () => {
    const state = serveInstance();
    renderDialog();
    const section = await panel();
    expect(within(section).getByText(/Start an instance to get its address/)).toBeInTheDocument();
    const fetchesBefore = state.detailFetches;

    await userEvent.click(within(section).getByRole('button', { name: 'Start instance' }));
    const entry = await within(section).findByRole('textbox', { name: 'Entry' });
    expect(entry).toHaveValue('10.0.0.5:30001');
    expect(within(section).getByRole('button', { name: 'Copy the entry' })).toBeInTheDocument();
    expect(within(section).getByRole('timer')).toHaveTextContent(/^Time left: (01:59:\d\d|02:00:00)$/);
    expect(state.calls).toEqual(['create']);
    // The detail is asked for again, so the server's entry and close time win.
    await waitFor(() => expect(state.detailFetches).toBeGreaterThan(fetchesBefore));
    expect(within(section).queryByRole('button', { name: 'Start instance' })).not.toBeInTheDocument();
  });

  test('keeps Renew disabled until the time left is within the renewal window', async () => {
    const state = serveInstance({ context: { instanceEntry: '10.0.0.5:30001', closeTime: Date.now() + 30 * MINUTE } });
    renderDialog({ settings: { renewalWindow: 10, extensionDuration: 120 } });
    const section = await panel();
    expect(await within(section).findByRole('button', { name: 'Renew' })).toBeDisabled();
    expect(
      within(section).getByText('Renewal opens 10 min before the stop time and adds 120 min.'),
    ).toBeInTheDocument();
    expect(state.calls).toEqual([]);
  });

  test('enables Renew by itself once the countdown enters the window', async () => {
    serveInstance({ context: { instanceEntry: '10.0.0.5:30001', closeTime: Date.now() + 10 * MINUTE + 3000 } });
    renderDialog({ settings: { renewalWindow: 10 } });
    const section = await panel();
    const renew = await within(section).findByRole('button', { name: 'Renew' });
    expect(renew).toBeDisabled();
    expect(within(section).getByRole('timer')).toHaveTextContent(/^Time left: 00:10:0\d$/);
    await waitFor(() => expect(within(section).getByRole('button', { name: 'Renew' })).toBeEnabled());
    expect(within(section).getByRole('timer')).toHaveTextContent(/^Time left: 00:0\d:\d\d$/);
  });

  test('renews inside the window and shows the new time left', async () => {
    const state = serveInstance({ context: { instanceEntry: '10.0.0.5:30001', closeTime: Date.now() + 5 * MINUTE } });
    renderDialog({ settings: { renewalWindow: 10 } });
    const section = await panel();
    expect(within(section).getByRole('timer')).toHaveTextContent(/^Time left: 00:0[45]:\d\d$/);
    const renew = await within(section).findByRole('button', { name: 'Renew' });
    expect(renew).toBeEnabled();

    await userEvent.click(renew);
    await waitFor(() => expect(within(section).getByRole('timer')).toHaveTextContent(/^Time left: 02:0[45]:\d\d$/));
    expect(state.calls).toEqual(['extend']);
    // Two hours away again: outside the window.
    expect(within(section).getByRole('button', { name: 'Renew' })).toBeDisabled();
  });

  test('destroys the instance only once confirmed', async () => {
    const state = serveInstance({ context: { instanceEntry: '10.0.0.5:30001', closeTime: Date.now() + 60 * MINUTE } });
    renderDialog();
    const section = await panel();

    await userEvent.click(await within(section).findByRole('button', { name: 'Destroy' }));
    let confirm = await screen.findByRole('dialog', { name: 'Destroy the instance?' });
    expect(within(confirm).getByText(/The instance of Pwn me stops/)).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Destroy the instance?' })).not.toBeInTheDocument(),
    );
    expect(state.calls).toEqual([]);

    await userEvent.click(within(section).getByRole('button', { name: 'Destroy' }));
    confirm = await screen.findByRole('dialog', { name: 'Destroy the instance?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Destroy' }));
    expect(await within(section).findByRole('button', { name: 'Start instance' })).toBeInTheDocument();
    expect(state.calls).toEqual(['delete']);
    expect(within(section).queryByRole('textbox', { name: 'Entry' })).not.toBeInTheDocument();
  });

  test('hands a proxied entry to the proxy slot, with the challenge title as its label', async () => {
    serveInstance({ context: { instanceEntry: GUID, closeTime: Date.now() + 60 * MINUTE } });
    renderDialog({ settings: { portMapping: 'PlatformProxy' }, slot: FakeProxyEntry });
    const section = await panel();
    expect(await within(section).findByRole('status', { name: 'Local mapping' })).toHaveTextContent(
      `Pwn me -> ws://localhost/api/proxy/${GUID}`,
    );
    expect(within(section).queryByRole('textbox', { name: 'Entry' })).not.toBeInTheDocument();
  });

  test('shows the WebSocket URL with a copy button when the app provides no proxy slot', async () => {
    serveInstance({ context: { instanceEntry: GUID, closeTime: Date.now() + 60 * MINUTE } });
    renderDialog({ settings: { portMapping: 'PlatformProxy' }, slot: null });
    const section = await panel();
    expect(await within(section).findByRole('textbox', { name: 'Proxy address (WebSocket)' })).toHaveValue(
      `ws://localhost/api/proxy/${GUID}`,
    );
    expect(within(section).getByRole('button', { name: 'Copy the entry' })).toBeInTheDocument();
  });

  test('shows host:port as it is without the platform proxy, even with a slot', async () => {
    serveInstance({ context: { instanceEntry: 'ctf.example:31337', closeTime: Date.now() + 60 * MINUTE } });
    const { unmount } = renderDialog({ settings: { portMapping: 'Default' }, slot: FakeProxyEntry });
    let section = await panel();
    expect(await within(section).findByRole('textbox', { name: 'Entry' })).toHaveValue('ctf.example:31337');
    expect(within(section).queryByRole('status', { name: 'Local mapping' })).not.toBeInTheDocument();
    unmount();

    // With the proxy on, an entry that is not a container GUID is still a reachable address.
    renderDialog({ settings: { portMapping: 'PlatformProxy' }, slot: FakeProxyEntry });
    section = await panel();
    expect(await within(section).findByRole('textbox', { name: 'Entry' })).toHaveValue('ctf.example:31337');
    expect(within(section).queryByRole('status', { name: 'Local mapping' })).not.toBeInTheDocument();
  });

  test('destroys a solved dynamic instance even when the dialog closes before the verdict', async () => {
    const state = serveInstance({ context: { instanceEntry: '10.0.0.5:30001', closeTime: Date.now() + 60 * MINUTE } });
    // The checker takes its time: the first two reads of the status find the flag still queued.
    const verdicts: AnswerResult[] = ['FlagSubmitted', 'FlagSubmitted', 'Accepted'];
    server.use(
      http.post(`${API}/game/${GAME_ID}/challenges/${CHALLENGE_ID}`, () => HttpResponse.json(41)),
      http.get(`${API}/game/${GAME_ID}/challenges/${CHALLENGE_ID}/status/41`, () =>
        HttpResponse.json(verdicts.length > 1 ? verdicts.shift() : verdicts[0]),
      ),
    );
    const { unmount } = renderDialog();
    const section = await panel();
    await within(section).findByRole('textbox', { name: 'Entry' });
    await enterText(screen.getByRole('textbox', { name: 'Flag' }), 'flag{mine}');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Submitted; the flag is being checked…')).toBeInTheDocument();
    unmount();

    await waitFor(() => expect(state.calls).toEqual(['delete']));
    expect(verdicts).toEqual(['Accepted']);
  });

  test('is absent for attachment challenges', async () => {
    serveInstance({ type: 'StaticAttachment' });
    renderDialog();
    expect(await screen.findByText('shell')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Instance' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start instance' })).not.toBeInTheDocument();
  });
});
