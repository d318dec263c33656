import { assetsApi } from '@/shared/api/assets';
import { hubSubscription } from '@/shared/api/hubSubscription';
import { filesBody } from '@/shared/api/multipart';
import { doneTexts, successNotifier } from '@/shared/notifications/success';
import { addLiveLog, mergeLogPage } from './lib/liveLogs';
import {
  adminApi,
  type AdminLogsApiArg,
  type AdminSearchTeamsApiArg,
  type AdminSearchTeamsApiResponse,
  type AdminTeamModel,
  type AdminUpdateLogoApiArg,
  type AdminUserInfoModel,
  type ProfileUserInfoModel,
  type TeamInfoModel,
  type UserInfoModel,
} from './api.generated';

export type {
  AccountPolicy,
  AdminLogsApiArg,
  AdminTeamModel,
  AdminUserInfoModel,
  ChallengeModel,
  ConfigEditModel,
  ContainerInstanceModel,
  ContainerPolicy,
  GlobalConfig,
  LocalFile,
  LogMessageModel,
  ProfileUserInfoModel,
  Role,
  TeamInfoModel,
  TeamModel,
  UserCreateModel,
  UserInfoModel,
} from './api.generated';

/**
 * Tags of the admin pages. The generated endpoints tag everything `Admin`, so saving the settings
 * would refetch the user list; here each list has its own tag. `Team` (the /teams page), `Info` (the
 * client config the app bar shows) and `Account` (the signed-in profile) belong to other features'
 * endpoints: an admin change to what they show refreshes them.
 */
const TAGS = [
  'AdminUser',
  'AdminTeam',
  'AdminConfig',
  'AdminLog',
  'AdminFile',
  'AdminInstance',
  'Asset',
  'Team',
  'Info',
  'Account',
] as const;

const notify = successNotifier(doneTexts('admin'));

/**
 * The team search is a POST in the contract, so it was generated as a mutation. The instances page's
 * team picker needs it as a cached query, so it is added once more as a query here, with the same
 * request.
 */
const withQueries = adminApi.enhanceEndpoints({ addTagTypes: TAGS }).injectEndpoints({
  endpoints: (build) => ({
    adminSearchTeamsList: build.query<AdminSearchTeamsApiResponse, AdminSearchTeamsApiArg>({
      query: ({ hint }) => ({ url: '/api/admin/teams/search', method: 'POST', params: { hint } }),
      providesTags: ['AdminTeam'],
    }),
    /**
     * The size of a stored file, from the `Content-Length` of a HEAD request: `LocalFile` carries only
     * hash and name. A hash always names the same bytes, so the answer is kept for the whole visit.
     * Asked one file at a time, on demand (files.columns.tsx): each HEAD counts in the rate limit.
     */
    assetSize: build.query<number | null, { hash: string; name: string }>({
      query: ({ hash, name }) => ({
        url: `/assets/${hash}/${encodeURIComponent(name)}`,
        method: 'HEAD',
        responseHandler: (response) => {
          const length = response.headers.get('content-length');
          return Promise.resolve(length === null ? null : Number(length));
        },
      }),
      keepUnusedDataFor: 3600,
      // A failure just brings the button back; a rate limit is announced so the admin knows why.
      extraOptions: { maxRetries: 0, quiet: { except: [429] } },
    }),
  }),
});

export const api = withQueries.enhanceEndpoints({
  endpoints: {
    adminGetConfigs: { providesTags: ['AdminConfig'] },
    adminUpdateConfigs: {
      invalidatesTags: ['AdminConfig', 'Info'],
      onQueryStarted: notify.on('configSaved'),
    },
    adminUpdateLogo: {
      invalidatesTags: ['AdminConfig', 'Info', 'AdminFile'],
      onQueryStarted: notify.on('logoUpdated'),
    },
    adminResetLogo: {
      invalidatesTags: ['AdminConfig', 'Info', 'AdminFile'],
      onQueryStarted: notify.on('logoReset'),
    },

    // A page (or search) of users is one list; one user's profile is tagged by its id, so editing a
    // user patches its row in the cached pages instead of asking for them again.
    adminGetUsers: { providesTags: [{ type: 'AdminUser', id: 'LIST' }] },
    adminAddUsers: {
      invalidatesTags: ['AdminUser', 'AdminTeam', 'Team'],
      onQueryStarted: notify.on('usersCreated', ({ body }) => ({ number: body.length })),
    },
    // The edit dialog reads the user afresh when it opens (the list is not polled, and the user may
    // have changed their profile since): the row it was opened from takes the fresh values too.
    adminUserInfo: {
      providesTags: (_result, _error, { userid }) => [{ type: 'AdminUser', id: userid }],
      async onQueryStarted({ userid }, { dispatch, getState, queryFulfilled }) {
        let fresh: ProfileUserInfoModel;
        try {
          ({ data: fresh } = await queryFulfilled);
        } catch {
          return;
        }
        const state = getState() as Parameters<typeof api.util.selectCachedArgsForQuery>[0];
        const apply = applyUserChanges(userid, fresh);
        for (const args of api.util.selectCachedArgsForQuery(state, 'adminGetUsers')) {
          dispatch(api.util.updateQueryData('adminGetUsers', args, apply));
        }
      },
    },
    adminUpdateUserInfo: {
      // Team lists show member names; the signed-in admin may have edited themself.
      invalidatesTags: (_result, _error, { userid }) => [
        { type: 'AdminUser', id: userid },
        'AdminTeam',
        'Team',
        'Account',
      ],
      async onQueryStarted({ userid, adminUserInfoModel }, { dispatch, getState, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return;
        }
        // Only once saved: the server may refuse (a taken name), and the row must not show it meanwhile.
        const state = getState() as Parameters<typeof api.util.selectCachedArgsForQuery>[0];
        const apply = applyUserChanges(userid, adminUserInfoModel);
        for (const args of api.util.selectCachedArgsForQuery(state, 'adminGetUsers')) {
          dispatch(api.util.updateQueryData('adminGetUsers', args, apply));
        }
        notify.raise(dispatch, 'userSaved');
      },
    },
    adminDeleteUser: {
      invalidatesTags: ['AdminUser', 'AdminTeam', 'Team'],
      onQueryStarted: notify.on('userDeleted'),
    },
    // The new password is shown in a dialog; nothing in the lists changes.
    adminResetPassword: { invalidatesTags: [] },

    adminGetTeams: { providesTags: ['AdminTeam'] },
    adminUpdateTeam: {
      // The row is patched below; the team pages elsewhere ask again.
      invalidatesTags: ['Team'],
      // The lock switch answers at once; a refused change is undone.
      async onQueryStarted({ id, adminTeamModel }, { dispatch, getState, queryFulfilled }) {
        // The root state's type knows the base API without this feature's endpoints, hence the cast.
        const apply = applyTeamChanges(id, adminTeamModel);
        const patchLists = () => {
          const state = getState() as Parameters<typeof api.util.selectCachedArgsForQuery>[0];
          return [
            ...api.util
              .selectCachedArgsForQuery(state, 'adminGetTeams')
              .map((args) => dispatch(api.util.updateQueryData('adminGetTeams', args, apply))),
            // The instances page's team picker.
            ...api.util
              .selectCachedArgsForQuery(state, 'adminSearchTeamsList')
              .map((args) => dispatch(api.util.updateQueryData('adminSearchTeamsList', args, apply))),
          ];
        };
        const patches = patchLists();
        try {
          await queryFulfilled;
        } catch {
          patches.forEach((patch) => patch.undo());
          return;
        }
        // Again once done: a list that arrived meanwhile (a search typed while the switch was flipped)
        // was read before the change and shows the row as it was.
        patchLists();
        const key = adminTeamModel.locked == null ? 'teamSaved' : adminTeamModel.locked ? 'teamLocked' : 'teamUnlocked';
        notify.raise(dispatch, key);
      },
    },
    adminDeleteTeam: {
      invalidatesTags: ['AdminTeam', 'Team'],
      onQueryStarted: notify.on('teamDeleted'),
    },

    adminLogs: {
      providesTags: ['AdminLog'],
      // Every page and level is an entry, and a first page holds a hub connection: one the page no
      // longer shows goes at once, with its connection, instead of staying open for 60 s.
      keepUnusedDataFor: 0,
      merge: (cached, polled, { arg }) => mergeLogPage(cached, polled, arg),
      // Spec §7, reference §6/§7.4: the log is live. Each Information+ line is pushed on /hub/admin;
      // it belongs on the first page, and later pages follow on their polling (as the monitor lists).
      async onCacheEntryAdded(arg, lifecycle) {
        if (arg.skip) return;
        const live = hubSubscription('/hub/admin', (_arg: AdminLogsApiArg, { updateCachedData }: typeof lifecycle) => ({
          ReceivedLog: (payload) => updateCachedData((draft) => addLiveLog(draft, payload, arg)),
        }));
        await live(arg, lifecycle);
      },
    },

    adminFiles: { providesTags: ['AdminFile', 'Asset'] },

    adminInstances: { providesTags: ['AdminInstance'] },
    // The destroyed row leaves every cached page at once; the pages' polling refills them.
    adminDestroyInstance: {
      invalidatesTags: [],
      async onQueryStarted({ id }, { dispatch, getState, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return;
        }
        const state = getState() as Parameters<typeof api.util.selectCachedArgsForQuery>[0];
        for (const args of api.util.selectCachedArgsForQuery(state, 'adminInstances')) {
          dispatch(
            api.util.updateQueryData('adminInstances', args, (draft) => {
              const index = draft.data.findIndex((item) => item.containerGuid === id);
              if (index < 0) return;
              draft.data.splice(index, 1);
              draft.length = draft.data.length;
              if (draft.total != null) draft.total -= 1;
            }),
          );
        }
        notify.raise(dispatch, 'instanceDestroyed');
      },
    },
  },
});

/** The files page's uploads and deletions (shared endpoints) announce their success. */
assetsApi.enhanceEndpoints({
  endpoints: {
    assetsUpload: {
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) =>
        queryFulfilled.then(
          ({ data }) => notify.raise(dispatch, 'filesUploaded', { number: data.length }),
          () => undefined,
        ),
    },
    assetsDelete: {
      onQueryStarted: notify.on('fileDeleted'),
    },
  },
});

/**
 * Applies a saved admin user edit, or a freshly read profile, to a cached page of users; null (or
 * missing) fields were left unchanged.
 */
const applyUserChanges = (id: string, changes: AdminUserInfoModel) => (draft: { data: UserInfoModel[] }) => {
  const user = draft.data.find((item) => item.id === id);
  if (!user) return;
  for (const key of ['userName', 'email', 'bio', 'phone', 'realName', 'stdNumber'] as const) {
    const value = changes[key];
    if (value != null) user[key] = value;
  }
  if (changes.role != null) user.role = changes.role;
  if (changes.emailConfirmed != null) user.emailConfirmed = changes.emailConfirmed;
};

/** Applies an admin team edit to a cached team page or search result. */
const applyTeamChanges = (id: number, changes: AdminTeamModel) => (draft: { data: TeamInfoModel[] }) => {
  const team = draft.data.find((item) => item.id === id);
  if (!team) return;
  if (changes.locked != null) team.locked = changes.locked;
  if (changes.name) team.name = changes.name;
  if (changes.bio) team.bio = changes.bio;
};

/** A file's size if it was asked for already, without asking (files.columns.tsx asks on demand). */
export const useAssetSizeState = api.endpoints.assetSize.useQueryState;

/** The logo upload's body (field `file`). */
export const logoUploadBody = (file: File) => filesBody<AdminUpdateLogoApiArg['body']>(file);

export { assetsUploadBody, useAssetsDeleteMutation, useAssetsUploadMutation } from '@/shared/api/assets';

export const {
  useAdminGetConfigsQuery,
  useAdminUpdateConfigsMutation,
  useAdminUpdateLogoMutation,
  useAdminResetLogoMutation,
  useAdminGetUsersQuery,
  useAdminAddUsersMutation,
  useAdminUserInfoQuery,
  useAdminUpdateUserInfoMutation,
  useAdminDeleteUserMutation,
  useAdminResetPasswordMutation,
  useAdminGetTeamsQuery,
  useAdminSearchTeamsListQuery,
  useAdminUpdateTeamMutation,
  useAdminDeleteTeamMutation,
  useAdminLogsQuery,
  useAdminFilesQuery,
  useLazyAssetSizeQuery,
  useAdminInstancesQuery,
  useAdminDestroyInstanceMutation,
} = api;
