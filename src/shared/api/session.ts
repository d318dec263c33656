import type { TypedStartListening } from '@reduxjs/toolkit';
import { baseApi } from './baseApi';
import { sessionApi as generated, type ProfileUserInfoModel, type TeamInfoModel } from './session.generated';

export type { ProfileUserInfoModel } from './session.generated';

/**
 * Who is looking, for every part of the client: the signed-in user (`GET /api/account/profile`)
 * and their teams (`GET /api/team`). Account mutations invalidate 'Account' and team mutations
 * 'Team' (their generated tags), so both follow sign-in, sign-out and team changes without a reload.
 * They are comfort only: the server checks every call (architecture §6.5).
 */

/**
 * Statuses of the profile probe that simply mean "nobody is signed in": 401 (no session), 403 (a
 * banned account; the account pages will say so) and 501 (the server has no accounts yet).
 */
export const SIGNED_OUT_STATUSES = [401, 403, 501] as const;

const api = generated.enhanceEndpoints({
  endpoints: {
    accountProfile: { extraOptions: { quiet: SIGNED_OUT_STATUSES } },
    // A session that ran out while the page was open: the pages ask to sign in again instead.
    teamGetTeamsInfo: { extraOptions: { quiet: [401] } },
  },
});

/**
 * The profile as data: the user, or null when the server answers one of the signed-out statuses.
 * As a failure, "signed out" would be asked again by every page that mounts the probe (RTK Query
 * retries a failed entry for each new subscriber); as data it is asked once, and again only when an
 * account mutation invalidates 'Account'.
 */
const withSession = api.injectEndpoints({
  endpoints: (build) => ({
    accountSession: build.query<ProfileUserInfoModel | null, void>({
      async queryFn(_arg, _api, _extraOptions, baseQuery) {
        const result = await baseQuery({ url: '/api/account/profile' });
        const status = result.error?.status;
        if (typeof status === 'number' && (SIGNED_OUT_STATUSES as readonly number[]).includes(status)) {
          return { data: null };
        }
        return result.error ? { error: result.error } : { data: result.data as ProfileUserInfoModel };
      },
      providesTags: ['Account'],
    }),
  }),
});

/** The generated profile and teams endpoints, for code that dispatches them outside React. */
export { api as sessionApi };

export interface Session {
  /**
   * The signed-in user, or null when signed out (or not known yet). After a failed re-check it is
   * still the last known user.
   */
  user: ProfileUserInfoModel | null;
  userId: string | null;
  userName: string | null;
  signedIn: boolean;
  isAdmin: boolean;
  /** Monitors and admins: the monitor pages and live standings past a freeze. */
  isMonitor: boolean;
  /** True until the first answer (or failure) of the probe. */
  isLoading: boolean;
  /** True while the probe runs again (after signing in or out): `signedIn` may be about to change. */
  isFetching: boolean;
}

/** Who is signed in; 401/403/501 quietly mean signed out. */
export function useSession(): Session {
  // Asked again when the tab comes back into focus: another tab may have signed out or in meanwhile,
  // and the listener below then drops what this tab still holds of the last user.
  const { data, isUninitialized, isLoading, isFetching } = withSession.useAccountSessionQuery(undefined, {
    refetchOnFocus: true,
  });
  // Only an answer says who is signed in: the signed-out statuses come back as `null` data. A failed
  // re-check (5xx after the base query's retries, a network error, a timeout) keeps the last answer,
  // which RTK Query leaves in place; taking it as "signed out" would unmount the admin area and the
  // editors, and their unsaved input with them, over a proxy hiccup while the tab was away.
  const user = data ?? null;
  const role = user?.role;
  // Uninitialized (the first render, before the probe starts) counts as loading: not yet known.
  return {
    user,
    userId: user?.userId ?? null,
    userName: user?.userName ?? null,
    signedIn: user !== null,
    isAdmin: role === 'Admin',
    isMonitor: role === 'Monitor' || role === 'Admin',
    isLoading: isUninitialized || isLoading,
    isFetching,
  };
}

const NO_TEAMS: TeamInfoModel[] = [];

/**
 * The signed-in user's teams, asked for only once someone is signed in. `isLoading` is true while
 * the session or the teams are not known yet; `error` is the failed request's, if any.
 * `pollingInterval` lets a page that shows the teams follow other members' changes.
 */
export function useMyTeams({ pollingInterval }: { pollingInterval?: number } = {}) {
  const session = useSession();
  const { data, isLoading, isUninitialized, error } = api.useTeamGetTeamsInfoQuery(undefined, {
    skip: !session.signedIn,
    pollingInterval,
  });
  return {
    teams: session.signedIn ? (data ?? NO_TEAMS) : NO_TEAMS,
    isLoading: session.isLoading || (session.signedIn && (isUninitialized || isLoading)),
    error: session.signedIn ? error : undefined,
  };
}

/**
 * Another user, or nobody, is now signed in on this browser (signing in, out, a verify link, a
 * session that ran out): every cached answer is dropped, so nothing the last user saw (their team's
 * token, their instance, their dynamic attachment) is shown to the next one from the cache. The
 * previous user is read from the state before the answer, so a store keeps its own, and the probe
 * asked again after the reset (same user) changes nothing.
 */
export function addSessionListeners(startListening: TypedStartListening<unknown>) {
  return startListening({
    matcher: withSession.endpoints.accountSession.matchFulfilled,
    effect(action, { dispatch, getOriginalState }) {
      const before = withSession.endpoints.accountSession.select()(getOriginalState() as never).data;
      if (before === undefined) return;
      if ((before?.userId ?? null) !== (action.payload?.userId ?? null)) dispatch(baseApi.util.resetApiState());
    },
  });
}
