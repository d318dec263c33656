import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { notificationRaised } from '@/shared/notifications/slice';
import { textKey } from '@/shared/text/textRef';
import { teamApi, type TeamAvatarApiArg } from './api.generated';

export type { TeamInfoModel, TeamUserInfoModel } from './api.generated';

/** Contract limits (reference §3.5): name ≤ 20, bio ≤ 72. */
export const TEAM_NAME_MAX = 20;
export const TEAM_BIO_MAX = 72;

/** What the server checks in an invite code `{name}:{id}:{token}` (reference §2.8). */
export const INVITE_CODE = /:(\d+):([0-9a-f]{32})$/;

/** The team name a code starts with (names may hold colons, so it is read from the end). */
export const inviteTeamName = (code: string) => code.trim().replace(INVITE_CODE, '');

type Dispatch = ThunkDispatch<unknown, unknown, UnknownAction>;

/** A success toast once the call succeeds; failures are announced by the notification listener. */
async function announce(
  dispatch: Dispatch,
  queryFulfilled: Promise<unknown>,
  key: string,
  values?: Record<string, string | number>,
) {
  try {
    await queryFulfilled;
  } catch {
    return;
  }
  dispatch(
    notificationRaised({
      variant: 'success',
      title: textKey('team:notification.done'),
      message: textKey(`team:notification.${key}`, values),
    }),
  );
}

export const api = teamApi.enhanceEndpoints({
  endpoints: {
    // A session that ran out while the page was open: the page asks to sign in again instead.
    teamGetTeamsInfo: { extraOptions: { quiet: [401] } },
    teamCreateTeam: {
      onQueryStarted: ({ teamUpdateModel }, { dispatch, queryFulfilled }) =>
        announce(dispatch, queryFulfilled, 'created', { name: teamUpdateModel.name ?? '' }),
    },
    teamUpdateTeam: {
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => announce(dispatch, queryFulfilled, 'saved'),
    },
    teamAvatar: {
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => announce(dispatch, queryFulfilled, 'avatarUpdated'),
    },
    teamDeleteTeam: {
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => announce(dispatch, queryFulfilled, 'deleted'),
    },
    teamKickUser: {
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => announce(dispatch, queryFulfilled, 'kicked'),
    },
    teamTransfer: {
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => announce(dispatch, queryFulfilled, 'transferred'),
    },
    teamLeave: {
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => announce(dispatch, queryFulfilled, 'left'),
    },
    // The body is the code as a JSON string; a plain string would go out as text/plain.
    teamAccept: {
      query: ({ body }) => ({
        url: '/api/team/accept',
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json' },
      }),
      onQueryStarted: ({ body }, { dispatch, queryFulfilled }) =>
        announce(dispatch, queryFulfilled, 'joined', { name: inviteTeamName(body) }),
    },
    // The new code replaces the cached one; nothing else about the team changed.
    teamUpdateInviteToken: {
      invalidatesTags: [],
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(api.util.upsertQueryData('teamInviteCode', { id }, data));
        } catch {
          return;
        }
        await announce(dispatch, Promise.resolve(), 'inviteRefreshed');
      },
    },
  },
});

/** The avatar goes as multipart (field `file`); the base query sends a FormData as it is. */
export function avatarBody(file: File): TeamAvatarApiArg['body'] {
  const form = new FormData();
  form.append('file', file);
  return form as unknown as TeamAvatarApiArg['body'];
}

export const {
  useTeamGetTeamsInfoQuery,
  useTeamCreateTeamMutation,
  useTeamUpdateTeamMutation,
  useTeamAvatarMutation,
  useTeamDeleteTeamMutation,
  useTeamInviteCodeQuery,
  useTeamUpdateInviteTokenMutation,
  useTeamKickUserMutation,
  useTeamTransferMutation,
  useTeamLeaveMutation,
  useTeamAcceptMutation,
} = api;
