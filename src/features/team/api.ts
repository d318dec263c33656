import { filesBody } from '@/shared/api/multipart';
import { doneTexts, successNotifier } from '@/shared/notifications/success';
import { teamApi, type TeamAvatarApiArg } from './api.generated';

export type { TeamInfoModel, TeamUserInfoModel } from './api.generated';

/** Contract limits (reference §3.5): name ≤ 20, bio ≤ 72. */
export const TEAM_NAME_MAX = 20;
export const TEAM_BIO_MAX = 72;

/** What the server checks in an invite code `{name}:{id}:{token}` (reference §2.8). */
export const INVITE_CODE = /:(\d+):([0-9a-f]{32})$/;

/** The team name a code starts with (names may hold colons, so it is read from the end). */
export const inviteTeamName = (code: string) => code.trim().replace(INVITE_CODE, '');

const notify = successNotifier(doneTexts('team'));

export const api = teamApi.enhanceEndpoints({
  endpoints: {
    teamCreateTeam: {
      onQueryStarted: notify.on('created', ({ teamUpdateModel }) => ({ name: teamUpdateModel.name ?? '' })),
    },
    teamUpdateTeam: { onQueryStarted: notify.on('saved') },
    teamAvatar: { onQueryStarted: notify.on('avatarUpdated') },
    teamDeleteTeam: { onQueryStarted: notify.on('deleted') },
    teamKickUser: { onQueryStarted: notify.on('kicked') },
    teamTransfer: { onQueryStarted: notify.on('transferred') },
    teamLeave: { onQueryStarted: notify.on('left') },
    // The body is the code as a JSON string; a plain string would go out as text/plain.
    teamAccept: {
      query: ({ body }) => ({
        url: '/api/team/accept',
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json' },
      }),
      onQueryStarted: notify.on('joined', ({ body }) => ({ name: inviteTeamName(body) })),
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
        notify.raise(dispatch, 'inviteRefreshed');
      },
    },
  },
});

/** The avatar upload's body (field `file`). */
export const avatarBody = (file: File) => filesBody<TeamAvatarApiArg['body']>(file);

export const {
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
