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

/**
 * A change of who is in a team, or of the team itself, changes the game pages too: deleting a team or
 * removing a member drops their participations (reference §2.8), and the game pages show the team's
 * name. `Game` is the game feature's tag; both live in the one base API, so naming it is enough.
 */
const TEAM_AND_GAMES = ['Team', 'Game'] as const;

export const api = teamApi.enhanceEndpoints({
  addTagTypes: ['Game'],
  endpoints: {
    teamCreateTeam: {
      onQueryStarted: notify.on('created', ({ teamUpdateModel }) => ({ name: teamUpdateModel.name ?? '' })),
    },
    teamUpdateTeam: { invalidatesTags: TEAM_AND_GAMES, onQueryStarted: notify.on('saved') },
    teamAvatar: { onQueryStarted: notify.on('avatarUpdated') },
    teamDeleteTeam: { invalidatesTags: TEAM_AND_GAMES, onQueryStarted: notify.on('deleted') },
    teamKickUser: { invalidatesTags: TEAM_AND_GAMES, onQueryStarted: notify.on('kicked') },
    teamTransfer: { invalidatesTags: TEAM_AND_GAMES, onQueryStarted: notify.on('transferred') },
    teamLeave: { invalidatesTags: TEAM_AND_GAMES, onQueryStarted: notify.on('left') },
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
