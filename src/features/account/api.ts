import { useCallback } from 'react';
import { filesBody } from '@/shared/api/multipart';
import { successNotifier, titledTexts } from '@/shared/notifications/success';
import { accountApi, type AccountAvatarApiArg } from './api.generated';

export type { RegisterStatus } from './api.generated';

const notify = successNotifier(titledTexts('account'));

/**
 * Every account mutation invalidates the profile (the generated 'Account' tags), so the session
 * (src/shared/api/session.ts) follows sign-in and sign-out without a reload. The forms show expected
 * failures (bad input, wrong password: 400/401/404) inline with the server's `title`, so those are
 * quiet; anything else (429, 5xx) still reaches the error notification.
 */
export const api = accountApi.enhanceEndpoints({
  endpoints: {
    accountLogIn: { extraOptions: { quiet: [400, 401], encrypt: ['password'] } },
    accountRegister: { extraOptions: { quiet: [400], encrypt: ['password'] } },
    accountRecovery: { extraOptions: { quiet: [400, 404] } },
    accountPasswordReset: { extraOptions: { quiet: [400], encrypt: ['password'] } },
    // The verify and confirm pages show the outcome, whatever it is; a rate limit still gets the
    // spec §8 "try later" notification, which tells the visitor that opening the link again later helps.
    accountVerify: { extraOptions: { quiet: { except: [429] }, maxRetries: 0 } },
    accountMailChangeConfirm: { extraOptions: { quiet: { except: [429] }, maxRetries: 0 } },
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
 * `PUT /api/account/avatar` with a chosen file (multipart, field `file`).
 */
export function useAvatarUpload() {
  const [trigger, state] = api.useAccountAvatarMutation();
  const upload = useCallback(
    (file: File) => trigger({ body: filesBody<AccountAvatarApiArg['body']>(file) }),
    [trigger],
  );
  return [upload, state] as const;
}
