import { renderHook, waitFor } from '@testing-library/react';
import { setupListeners } from '@reduxjs/toolkit/query';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { setupStore } from '@/app/store';
import { baseApi } from '@/shared/api/baseApi';
import { sessionApi, useMyTeams, useSession } from '@/shared/api/session';
import { server } from '../../msw';

jest.setTimeout(30_000);

const API = 'http://localhost/api';
const TEAMS = [{ id: 1, name: 'Red', bio: null, avatar: null, locked: false, members: [] }];

function wrapper() {
  const store = setupStore();
  store.dispatch(baseApi.util.resetApiState());
  return ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
}

/** The profile probe answers `profile`, or the status given; the teams endpoint counts its calls. */
function serve(profile: object | number) {
  const calls = { teams: 0 };
  server.use(
    http.get(`${API}/account/profile`, () =>
      typeof profile === 'number'
        ? HttpResponse.json({ title: 'no', status: profile }, { status: profile })
        : HttpResponse.json(profile),
    ),
    http.get(`${API}/team`, () => {
      calls.teams += 1;
      return HttpResponse.json(TEAMS);
    }),
  );
  return calls;
}

describe('useSession', () => {
  it('is loading until the probe answers, then tells who is signed in and their role', async () => {
    serve({ userId: 'u1', userName: 'alice', role: 'Monitor' });
    const { result } = renderHook(() => useSession(), { wrapper: wrapper() });
    expect(result.current.isLoading).toBe(true);
    expect(result.current.signedIn).toBe(false);
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(result.current).toMatchObject({
      userId: 'u1',
      userName: 'alice',
      signedIn: true,
      isMonitor: true,
      isAdmin: false,
    });
  });

  it.each([401, 403, 501])('takes %i from the probe as signed out, not as an error', async (status) => {
    serve(status);
    const { result } = renderHook(() => useSession(), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(result.current).toMatchObject({ user: null, userId: null, signedIn: false, isMonitor: false });
  });

  it('counts admins as monitors', async () => {
    serve({ userId: 'u2', userName: 'root', role: 'Admin' });
    const { result } = renderHook(() => useSession(), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.signedIn).toBe(true));
    expect(result.current.isAdmin && result.current.isMonitor).toBe(true);
  });
});

describe('useMyTeams', () => {
  it("lists the signed-in user's teams", async () => {
    serve({ userId: 'u1', userName: 'alice', role: 'User' });
    const { result } = renderHook(() => useMyTeams(), { wrapper: wrapper() });
    expect(result.current.isLoading).toBe(true);
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(result.current.teams).toEqual(TEAMS);
    expect(result.current.error).toBeUndefined();
  });

  it('never asks for teams while nobody is signed in', async () => {
    const calls = serve(401);
    const { result } = renderHook(() => useMyTeams(), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(result.current.teams).toEqual([]);
    expect(calls.teams).toBe(0);
  });
});

describe('another user on this browser', () => {
  /** The cached answers of one endpoint, by state. */
  const cached = (store: ReturnType<typeof setupStore>, endpoint: string) =>
    Object.values(store.getState().api.queries).filter((entry) => entry?.endpointName === endpoint && entry.data);

  it('drops every cached answer when the signed-in user changes or signs out, and keeps them when it is the same one', async () => {
    const calls = serve({ userId: 'u1', userName: 'alice', role: 'User' });
    const store = setupStore();
    store.dispatch(baseApi.util.resetApiState());
    const { result } = renderHook(() => ({ session: useSession(), teams: useMyTeams() }), {
      wrapper: ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>,
    });
    await waitFor(() => expect(result.current.teams.teams).toEqual(TEAMS));
    expect(calls.teams).toBe(1);

    // The same user asked again (an account change): the teams stay cached.
    store.dispatch(sessionApi.util.invalidateTags(['Account']));
    await waitFor(() => expect(result.current.session.isFetching).toBe(false));
    expect(result.current.session.userId).toBe('u1');
    expect(calls.teams).toBe(1);
    expect(cached(store, 'teamGetTeamsInfo')).toHaveLength(1);

    // Someone else signed in: the first user's answers are gone and asked for again.
    const second = serve({ userId: 'u2', userName: 'bob', role: 'User' });
    store.dispatch(sessionApi.util.invalidateTags(['Account']));
    await waitFor(() => expect(result.current.session.userId).toBe('u2'));
    await waitFor(() => expect(second.teams).toBe(1));

    // Signed out: nothing of theirs is left in the cache.
    serve(401);
    store.dispatch(sessionApi.util.invalidateTags(['Account']));
    await waitFor(() => expect(result.current.session.signedIn).toBe(false));
    expect(cached(store, 'teamGetTeamsInfo')).toHaveLength(0);
  });
});

describe('a tab coming back into focus', () => {
  /** A session hook on a fresh store that refetches on focus; `stop` ends the focus listeners. */
  function sessionOnFocus() {
    const store = setupStore();
    store.dispatch(baseApi.util.resetApiState());
    const stop = setupListeners(store.dispatch);
    const { result } = renderHook(() => useSession(), {
      wrapper: ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>,
    });
    return { store, result, stop };
  }

  it('asks who is signed in again, so a sign-out in another tab reaches this one', async () => {
    serve({ userId: 'u1', userName: 'alice', role: 'User' });
    const { result, stop } = sessionOnFocus();
    try {
      await waitFor(() => expect(result.current.signedIn).toBe(true));
      serve(401);
      window.dispatchEvent(new Event('focus'));
      await waitFor(() => expect(result.current.signedIn).toBe(false));
    } finally {
      stop();
    }
  });

  it.each([
    ['a server error', () => HttpResponse.json({ title: 'Bad gateway', status: 502 }, { status: 502 }), 3],
    ['a network error', () => HttpResponse.error(), 1],
  ] as const)(
    'keeps the signed-in admin when the re-check fails with %s, after the usual retries',
    async (_name, failure, attempts) => {
      serve({ userId: 'u2', userName: 'root', role: 'Admin' });
      const { store, result, stop } = sessionOnFocus();
      try {
        await waitFor(() => expect(result.current.isAdmin).toBe(true));
        let probes = 0;
        server.use(
          http.get(`${API}/account/profile`, () => {
            probes += 1;
            return failure();
          }),
        );
        window.dispatchEvent(new Event('focus'));
        // The re-check has run and failed (RTK keeps the last answer in the entry).
        const probe = () =>
          Object.values(store.getState().api.queries).find((q) => q?.endpointName === 'accountSession');
        await waitFor(() => expect(probe()?.status).toBe('rejected'), { timeout: 5000 });
        // 5xx is retried twice by the base query; a network error is not retried.
        expect(probes).toBe(attempts);
        expect(result.current).toMatchObject({ userId: 'u2', signedIn: true, isAdmin: true, isLoading: false });
      } finally {
        stop();
      }
    },
  );
});
