import { renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { setupStore } from '@/app/store';
import { baseApi } from '@/shared/api/baseApi';
import { useMyTeams, useSession } from '@/shared/api/session';
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
