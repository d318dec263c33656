import { configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { waitFor } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import type { AppDispatch, RootState } from '@/app/store';
import { api, type AnswerResult, type ChallengeDetailModel, type ChallengeType } from '@/features/game/api';
import { addGameListeners, STATUS_POLL_MS } from '@/features/game/listeners';
import { baseApi } from '@/shared/api/baseApi';
import { server } from '../../../msw';
import { API } from '../../../helpers/render';
import { GAME_ID } from './support';

const CHALLENGE_ID = 3;
const listeners: Array<ReturnType<typeof createListenerMiddleware>> = [];

/** A store with the API and only the game listeners, on a middleware of its own. */
function setup() {
  const listener = createListenerMiddleware();
  listeners.push(listener);
  const store = configureStore({
    reducer: { [baseApi.reducerPath]: baseApi.reducer },
    middleware: (getDefault) => getDefault().prepend(listener.middleware).concat(baseApi.middleware),
  });
  addGameListeners(listener.startListening.withTypes<RootState, AppDispatch>());
  return store;
}

afterEach(() => listeners.splice(0).forEach((listener) => listener.clearListeners()));

/**
 * One challenge with (or without) an instance, a verdict for every submission (after `waits`
 * answers of FlagSubmitted), and the deletes and status reads asked for. Flags are given id 1.
 */
function serve(type: ChallengeType, verdict: AnswerResult, instance = true, waits = 0) {
  const state = {
    entry: instance ? '10.0.0.5:30001' : null,
    deletes: 0,
    statusReads: 0,
  };
  const detail = (): ChallengeDetailModel => ({
    id: CHALLENGE_ID,
    title: 'Pwn me',
    content: '',
    category: 'Pwn',
    hints: [],
    score: 500,
    type,
    context: { instanceEntry: state.entry, closeTime: state.entry ? Date.now() + 3_600_000 : null },
  });
  server.use(
    http.get(`${API}/game/${GAME_ID}/challenges/${CHALLENGE_ID}`, () => HttpResponse.json(detail())),
    http.get(`${API}/game/${GAME_ID}/challenges/${CHALLENGE_ID}/status/:submitId`, () => {
      state.statusReads += 1;
      return HttpResponse.json(state.statusReads > waits ? verdict : 'FlagSubmitted');
    }),
    http.post(`${API}/game/${GAME_ID}/challenges/${CHALLENGE_ID}`, () => HttpResponse.json(1)),
    http.delete(`${API}/game/${GAME_ID}/container/${CHALLENGE_ID}`, async () => {
      state.deletes += 1;
      // Slow enough for a second verdict to arrive while the first destroy is on its way.
      await delay(100);
      state.entry = null;
      return new HttpResponse(null, { status: 200 });
    }),
  );
  return state;
}

/** Opens the challenge (as the dialog does), then receives the verdict of submission 1. */
async function judge(store: ReturnType<typeof setup>) {
  const arg = { id: GAME_ID, challengeId: CHALLENGE_ID };
  await store.dispatch(api.endpoints.gameGetChallenge.initiate(arg));
  await store.dispatch(api.endpoints.gameStatus.initiate({ ...arg, submitId: 1 }));
  return () => api.endpoints.gameGetChallenge.select(arg)(store.getState() as never).data?.context;
}

describe('after a correct flag (reference §7.4)', () => {
  it('destroys the instance of a dynamic container challenge', async () => {
    const state = serve('DynamicContainer', 'Accepted');
    const store = setup();
    const context = await judge(store);
    await waitFor(() => expect(state.deletes).toBe(1));
    await waitFor(() => expect(context()?.instanceEntry).toBeNull());
    expect(context()?.closeTime).toBeNull();
  });

  it.each([
    ['a wrong flag', 'DynamicContainer', 'WrongAnswer', true],
    ['a static container (shared content)', 'StaticContainer', 'Accepted', true],
    ['a dynamic container without an instance', 'DynamicContainer', 'Accepted', false],
  ] as const)('leaves %s alone', async (_case, type, verdict, instance) => {
    const state = serve(type, verdict, instance);
    const store = setup();
    await judge(store);
    // Whatever the listener would do starts as the verdict arrives; give a call the time to go out.
    await delay(100);
    expect(state.deletes).toBe(0);
  });
});

describe('a flag accepted right after the instance started', () => {
  afterEach(() => jest.useRealTimers());

  it('waits out the server’s 10 s throttle before destroying', async () => {
    const state = serve('DynamicContainer', 'Accepted');
    server.use(
      http.post(`${API}/game/${GAME_ID}/container/${CHALLENGE_ID}`, () =>
        HttpResponse.json({
          status: 'Running',
          startedAt: Date.now(),
          expectStopAt: Date.now() + 3_600_000,
          entry: state.entry,
        }),
      ),
    );
    const store = setup();
    await store.dispatch(api.endpoints.gameCreateContainer.initiate({ id: GAME_ID, challengeId: CHALLENGE_ID }));
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    await judge(store);
    await jest.advanceTimersByTimeAsync(9_000);
    expect(state.deletes).toBe(0);
    await jest.advanceTimersByTimeAsync(2_000);
    jest.useRealTimers();
    await waitFor(() => expect(state.deletes).toBe(1));
  });
});

const submit = (store: ReturnType<typeof setup>) =>
  store.dispatch(
    api.endpoints.gameSubmit.initiate({ id: GAME_ID, challengeId: CHALLENGE_ID, flagSubmitModel: { flag: 'flag{x}' } }),
  );

describe('after a submission, independently of any component', () => {
  afterEach(() => jest.useRealTimers());

  it('polls the status every 500 ms until the verdict (reference §5.7), then stops', async () => {
    // Lets msw answer between two steps of the fake clock, on the real one (taken before faking).
    const realSetTimeout = globalThis.setTimeout;
    const settle = async () => {
      for (let round = 0; round < 10; round += 1) await new Promise((resolve) => realSetTimeout(resolve, 5));
    };
    const state = serve('DynamicContainer', 'WrongAnswer', true, 2);
    const store = setup();
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    await submit(store);
    await jest.advanceTimersByTimeAsync(450);
    await settle();
    expect(state.statusReads).toBe(0);
    await jest.advanceTimersByTimeAsync(50);
    await settle();
    expect(state.statusReads).toBe(1);
    await jest.advanceTimersByTimeAsync(500);
    await settle();
    expect(state.statusReads).toBe(2);
    await jest.advanceTimersByTimeAsync(500);
    await settle();
    expect(state.statusReads).toBe(3); // the verdict
    await jest.advanceTimersByTimeAsync(3000);
    await settle();
    expect(state.statusReads).toBe(3);
    expect(state.deletes).toBe(0);
  });

  it('destroys the solved dynamic instance though nothing on screen asks for the status', async () => {
    const state = serve('DynamicContainer', 'Accepted', true, 1);
    const store = setup();
    // The dialog read the challenge, then closed before the verdict: nothing subscribes any more.
    const opened = store.dispatch(api.endpoints.gameGetChallenge.initiate({ id: GAME_ID, challengeId: CHALLENGE_ID }));
    await opened;
    opened.unsubscribe();
    await submit(store);
    await waitFor(() => expect(state.deletes).toBe(1), { timeout: 5000 });
    expect(state.statusReads).toBe(2);
  });

  it('destroys once when the form and the poll both see the verdict', async () => {
    const state = serve('DynamicContainer', 'Accepted');
    const store = setup();
    const arg = { id: GAME_ID, challengeId: CHALLENGE_ID };
    await store.dispatch(api.endpoints.gameGetChallenge.initiate(arg));
    await submit(store);
    // The flag form's own read, and another while the first destroy is still on its way.
    await store.dispatch(api.endpoints.gameStatus.initiate({ ...arg, submitId: 1 }));
    await store.dispatch(api.endpoints.gameStatus.initiate({ ...arg, submitId: 1 }, { forceRefetch: true }));
    await waitFor(() => expect(state.deletes).toBe(1), { timeout: 5000 });
    await delay(2 * STATUS_POLL_MS + 200);
    expect(state.deletes).toBe(1);
  });
});
