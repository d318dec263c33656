import { useCallback } from 'react';
import { successNotifier, titledTexts } from '@/shared/notifications/success';
import { accountApi, type AccountAvatarApiArg, type ProfileUserInfoModel } from './api.generated';

export type { ProfileUserInfoModel, RegisterStatus, Role } from './api.generated';

/**
 * Statuses of the profile probe that simply mean "nobody is signed in": 401 (no session), 403 (a
 * banned account; the account pages will say so) and 501 (the server has no accounts yet).
 */
export const SIGNED_OUT_STATUSES = [401, 403, 501] as const;

const notify = successNotifier(titledTexts('account'));

/**
 * Every account mutation invalidates the profile (the generated 'Account' tags), so the app bar and
 * role-based navigation follow sign-in and sign-out without a reload. The forms show expected
 * failures (bad input, wrong password: 400/401/404) inline with the server's `title`, so those are
 * quiet; anything else (429, 5xx) still reaches the error notification.
 */
export const api = accountApi.enhanceEndpoints({
  endpoints: {
    accountProfile: { extraOptions: { quiet: SIGNED_OUT_STATUSES } },
    accountLogIn: { extraOptions: { quiet: [400, 401], encrypt: ['password'] } },
    accountRegister: { extraOptions: { quiet: [400], encrypt: ['password'] } },
    accountRecovery: { extraOptions: { quiet: [400, 404] } },
    accountPasswordReset: { extraOptions: { quiet: [400], encrypt: ['password'] } },
    // The verify and confirm pages show the outcome, whatever it is.
    accountVerify: { extraOptions: { quiet: true, maxRetries: 0 } },
    accountMailChangeConfirm: { extraOptions: { quiet: true, maxRetries: 0 } },
    accountLogOut: { onQueryStarted: notify.on('signedOut') },
    accountUpdate: { extraOptions: { quiet: [400] }, onQueryStarted: notify.on('profileUpdated') },
    accountChangePassword: {
      extraOptions: { quiet: [400], encrypt: ['old', 'new'] },
      onQueryStarted: notify.on('passwordChanged'),
    },
    // The dialog shows the server's answer ("mail sent" or "ask an admin").
    accountChangeEmail: { extraOptions: { quiet: [400] } },
    accountAvatar: { extraOptions: { quiet: [400, 413] }, onQueryStarted: notify.on('avatarUpdated') },
  },
});

/**
 * Who is signed in, as data: the profile, or null when the server answers one of the signed-out
 * statuses. As a failure, "signed out" would be asked again by every page that mounts the probe
 * (RTK Query retries a failed entry for each new subscriber); as data it is asked once, and again
 * only when an account mutation invalidates 'Account'.
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

export const {
  useAccountLogInMutation,
  useAccountLogOutMutation,
  useAccountRegisterMutation,
  useAccountRecoveryMutation,
  useAccountPasswordResetMutation,
  useAccountVerifyMutation,
  useAccountMailChangeConfirmMutation,
  useAccountUpdateMutation,
  useAccountChangePasswordMutation,
  useAccountChangeEmailMutation,
} = api;

/**
 * `PUT /api/account/avatar` with a chosen file. The contract describes the multipart body by its
 * fields; on the wire it is FormData, which the base query sends as is (the browser sets the boundary).
 */
export function useAvatarUpload() {
  const [trigger, state] = api.useAccountAvatarMutation();
  const upload = useCallback(
    (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return trigger({ body: form as unknown as AccountAvatarApiArg['body'] });
    },
    [trigger],
  );
  return [upload, state] as const;
}

export interface ProfileState {
  /** The signed-in user, or null when signed out (or not known yet). */
  user: ProfileUserInfoModel | null;
  signedIn: boolean;
  isAdmin: boolean;
  /** True until the first answer (or failure) of the probe. */
  isLoading: boolean;
  /** True while the probe runs again (after signing in or out): `signedIn` may be about to change. */
  isFetching: boolean;
}

/** Who is signed in, from `GET /api/account/profile`; 401/403/501 quietly mean signed out. */
export function useProfile(): ProfileState {
  const { data, isUninitialized, isLoading, isFetching, isError } = withSession.useAccountSessionQuery();
  const user = !isError && data ? data : null;
  // Uninitialized (the first render, before the probe starts) counts as loading: not yet known.
  return {
    user,
    signedIn: user !== null,
    isAdmin: user?.role === 'Admin',
    isLoading: isUninitialized || isLoading,
    isFetching,
  };
}
