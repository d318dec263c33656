import { useCallback } from 'react';
import { successNotifier, titledTexts } from '@/shared/notifications/success';
import { filesBody } from '@/shared/api/multipart';
import { pageParams, toPage, type Page } from '@/shared/api/paging';
import {
  editApi,
  type EditUpdatePostApiArg,
  type AdminWriteupsApiArg,
  type GameParticipationsApiArg,
  type ParticipationInfoModel,
  type PostEditModel,
  type WriteupInfoModel,
} from './api.generated';

export type {
  GameInfoModel,
  GameNotice,
  ParticipationInfoModel,
  ParticipationStatus,
  PostEditModel,
  WriteupInfoModel,
} from './api.generated';

const notifyPosts = successNotifier(titledTexts('posts'));
const notifyEdit = successNotifier(titledTexts('edit'));

/** A pin toggle sends only the title and the new pin (see `usePinPost`). */
const isPinOnly = ({ postEditModel }: EditUpdatePostApiArg) => postEditModel.content === undefined;

/**
 * Admin content management (`/api/edit/…`).
 *
 * Posts: the posts feature reads them under the 'Post' tag ('LIST' for the lists, the post's id for
 * one post); writing here invalidates exactly what changed, so lists, the post page and the home
 * page refresh.
 */
export const api = editApi.enhanceEndpoints({
  addTagTypes: ['Post', 'EditGame', 'EditNotice', 'Participation', 'Writeup'],
  endpoints: {
    // Games: 'LIST' for the admin list, the id for one game (its frame and Info page).
    editGetGames: { providesTags: [{ type: 'EditGame', id: 'LIST' }] },
    editGetGame: { providesTags: (_result, _error, { id }) => [{ type: 'EditGame', id }] },
    editAddGame: {
      invalidatesTags: [{ type: 'EditGame', id: 'LIST' }],
      onQueryStarted: notifyEdit.on('gameCreated'),
    },
    editUpdateGame: {
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'EditGame', id: 'LIST' },
        { type: 'EditGame', id },
      ],
      onQueryStarted: notifyEdit.on('gameSaved'),
    },
    editDeleteGame: {
      invalidatesTags: [{ type: 'EditGame', id: 'LIST' }],
      onQueryStarted: notifyEdit.on('gameDeleted'),
    },
    editUpdateGamePoster: {
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'EditGame', id: 'LIST' },
        { type: 'EditGame', id },
      ],
      onQueryStarted: notifyEdit.on('posterUploaded'),
    },
    // Notices of one game, by game id.
    editGetGameNotices: { providesTags: (_result, _error, { id }) => [{ type: 'EditNotice', id }] },
    editAddGameNotice: {
      invalidatesTags: (_result, _error, { id }) => [{ type: 'EditNotice', id }],
      onQueryStarted: notifyEdit.on('noticeAdded'),
    },
    editUpdateGameNotice: {
      invalidatesTags: (_result, _error, { id }) => [{ type: 'EditNotice', id }],
      onQueryStarted: notifyEdit.on('noticeSaved'),
    },
    editDeleteGameNotice: {
      invalidatesTags: (_result, _error, { id }) => [{ type: 'EditNotice', id }],
      onQueryStarted: notifyEdit.on('noticeDeleted'),
    },
    // A review changes one participation: its row is patched in every cached page that shows it
    // (`participationPages` below) instead of refetching lists of thousands of teams.
    gameParticipations: { providesTags: ['Participation'] },
    adminParticipation: {
      // Not the generated 'Admin' tag: nothing is refetched, the row is patched below.
      invalidatesTags: [],
      onQueryStarted: (arg, { dispatch, getState, queryFulfilled }) => {
        void queryFulfilled.then(
          () => {
            const { status, division } = arg.participationEditModel;
            const pages = participationPages.util.selectCachedArgsForQuery(getState(), 'gameParticipationsPage');
            for (const pageArg of pages) {
              dispatch(
                participationPages.util.updateQueryData('gameParticipationsPage', pageArg, (draft) => {
                  const row = draft.items.find((item) => item.id === arg.id);
                  if (!row) return;
                  if (status) row.status = status;
                  if (division !== undefined && division !== null) row.division = division.trim() || null;
                }),
              );
            }
          },
          () => undefined,
        );
        return notifyEdit.whenDone(dispatch, queryFulfilled, 'participationSaved');
      },
    },
    adminWriteups: { providesTags: (_result, _error, { id }) => [{ type: 'Writeup', id }] },
    editAddPost: {
      invalidatesTags: [{ type: 'Post', id: 'LIST' }],
      onQueryStarted: notifyPosts.on('created'),
    },
    editUpdatePost: {
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Post', id: 'LIST' },
        { type: 'Post', id },
      ],
      onQueryStarted: notifyPosts.on((arg) =>
        isPinOnly(arg) ? (arg.postEditModel.isPinned ? 'pinned' : 'unpinned') : 'saved',
      ),
    },
    editDeletePost: {
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Post', id: 'LIST' },
        { type: 'Post', id },
      ],
      onQueryStarted: notifyPosts.on('deleted'),
    },
  },
});

/** The post fields the editor starts from: a stored post, or nothing for a new one. */
export interface EditablePost extends Required<Omit<PostEditModel, 'tags'>> {
  id: string;
  tags?: string[] | null;
}

/**
 * Pins or unpins a post. GZCTF's update rule (reference §3.9, the contract's PostEditModel): when
 * `isPinned` differs from the stored value only the pin changes, so the title (required) and the
 * new pin are all it needs.
 */
export function usePinPost() {
  const [update, state] = api.useEditUpdatePostMutation();
  const pin = useCallback(
    (post: { id: string; title: string; isPinned: boolean }) =>
      update({ id: post.id, postEditModel: { title: post.title, isPinned: !post.isPinned } }),
    [update],
  );
  return [pin, state] as const;
}

/**
 * Saves the editor's fields: creates the post (resolving to the new id) or updates it. Because a
 * changed pin is the only change an update applies, an edit that also moves the pin is sent as two
 * updates: the text with the stored pin, then the pin.
 */
export function useSavePost() {
  const [add, addState] = api.useEditAddPostMutation();
  const [update, updateState] = api.useEditUpdatePostMutation();
  const save = useCallback(
    async (model: Required<PostEditModel>, stored: EditablePost | null): Promise<string> => {
      if (!stored) return add({ postEditModel: model }).unwrap();
      await update({ id: stored.id, postEditModel: { ...model, isPinned: stored.isPinned } }).unwrap();
      if (model.isPinned !== stored.isPinned) {
        await update({ id: stored.id, postEditModel: { title: model.title, isPinned: model.isPinned } }).unwrap();
      }
      return stored.id;
    },
    [add, update],
  );
  return [save, { isLoading: addState.isLoading || updateState.isLoading }] as const;
}

export const {
  useEditDeletePostMutation,
  useEditGetGamesQuery,
  useEditGetGameQuery,
  useEditAddGameMutation,
  useEditUpdateGameMutation,
  useEditDeleteGameMutation,
  useEditUpdateGamePosterMutation,
  useEditGetGameNoticesQuery,
  useEditAddGameNoticeMutation,
  useEditUpdateGameNoticeMutation,
  useEditDeleteGameNoticeMutation,
  useGameParticipationsQuery,
  useAdminParticipationMutation,
} = api;

/**
 * The scoreboard freeze (beyond GZCTF; Admin), read and set on a game's Info page. Players then see
 * the standings as of the freeze.
 */
const freezeApi = api.enhanceEndpoints({
  endpoints: {
    beyondGetGameFreeze: {
      providesTags: (_result, _error, { id }) => [{ type: 'EditGame', id: `freeze-${id}` }],
    },
    beyondSetGameFreeze: {
      invalidatesTags: (_result, _error, { id }) => [{ type: 'EditGame', id: `freeze-${id}` }],
      onQueryStarted: notifyEdit.on(({ gameFreezeModel }) =>
        gameFreezeModel.freezeAt === null ? 'freezeLifted' : 'freezeSaved',
      ),
    },
  },
});

export const { useBeyondGetGameFreezeQuery, useBeyondSetGameFreezeMutation } = freezeApi;

/**
 * The review page's list, one page at a time: the contract's `gameParticipations` with paging
 * parameters, the total read from `X-Total-Count` (shared/api/paging.ts). Each page is its own cache
 * entry; `adminParticipation` patches rows in them.
 */
const participationPages = api.injectEndpoints({
  endpoints: (build) => ({
    gameParticipationsPage: build.query<Page<ParticipationInfoModel>, GameParticipationsApiArg>({
      query: ({ id, ...params }) => ({ url: `/api/game/${id}/participations`, params: pageParams(params) }),
      transformResponse: toPage<ParticipationInfoModel>,
      providesTags: ['Participation'],
    }),
  }),
});

export const { useGameParticipationsPageQuery } = participationPages;

/**
 * The writeups page's list, one page at a time and searched by team name on the server (beyond
 * GZCTF: `count`, `skip`, `search`, `X-Total-Count`); deleting all writeups invalidates the game's tag.
 */
const writeupPages = api.injectEndpoints({
  endpoints: (build) => ({
    adminWriteupsPage: build.query<Page<WriteupInfoModel>, AdminWriteupsApiArg>({
      query: ({ id, ...params }) => ({ url: `/api/admin/writeups/${id}`, params: pageParams(params) }),
      transformResponse: toPage<WriteupInfoModel>,
      providesTags: (_result, _error, { id }) => [{ type: 'Writeup', id }],
    }),
  }),
});

export const { useAdminWriteupsPageQuery } = writeupPages;

/** The poster upload's body (field `file`). */
export const posterUploadBody = (file: File) => filesBody<{ file?: string }>(file);

/** Where the browser downloads every writeup of a game as one archive (a plain link; the cookie signs it). */
export const allWriteupsUrl = (gameId: number) => `/api/admin/writeups/${gameId}/all`;

// ---- Challenges (admin challenge authoring: list, edit, flags, attachments) ----------------------

/** One challenge (by id) and the list of a game ('game-<id>'): what a challenge write touches. */
const challengeTags = (gameId: number, challengeId: number) => [
  { type: 'Challenge' as const, id: `game-${gameId}` },
  { type: 'Challenge' as const, id: challengeId },
];

const notifyChallenge = successNotifier(titledTexts('challengeEdit'));

/**
 * Challenge endpoints under the 'Challenge' tag. An update that carries only `isEnabled` is the
 * enable switch and is announced as such; a refused one (no flag yet) is announced by the error
 * listener and leaves the cached challenge as the server has it, so the switch falls back.
 */
export const challengeApi = api.enhanceEndpoints({
  addTagTypes: ['Challenge'],
  endpoints: {
    editGetGameChallenges: { providesTags: (_result, _error, { id }) => [{ type: 'Challenge', id: `game-${id}` }] },
    editGetGameChallenge: { providesTags: (_result, _error, { cId }) => [{ type: 'Challenge', id: cId }] },
    editAddGameChallenge: {
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Challenge', id: `game-${id}` }],
      onQueryStarted: notifyChallenge.on('challengeCreated'),
    },
    editUpdateGameChallenge: {
      invalidatesTags: (_result, _error, { id, cId }) => challengeTags(id, cId),
      onQueryStarted: notifyChallenge.on(({ challengeUpdateModel: model }) => {
        const toggle = Object.keys(model).length === 1 && typeof model.isEnabled === 'boolean';
        return toggle ? (model.isEnabled ? 'challengeEnabled' : 'challengeDisabled') : 'challengeSaved';
      }),
    },
    editDeleteGameChallenge: {
      invalidatesTags: (_result, _error, { id, cId }) => challengeTags(id, cId),
      onQueryStarted: notifyChallenge.on('challengeDeleted'),
    },
    // Recounting can change every challenge's score: the list and any open challenge refresh.
    editUpdateGameChallengesAcceptedCount: {
      invalidatesTags: ['Challenge'],
      onQueryStarted: notifyChallenge.on('acceptedUpdated'),
    },
    editUpdateAttachment: {
      invalidatesTags: (_result, _error, { id, cId }) => challengeTags(id, cId),
      onQueryStarted: notifyChallenge.on('attachmentSaved'),
    },
    editAddFlags: {
      invalidatesTags: (_result, _error, { id, cId }) => challengeTags(id, cId),
      onQueryStarted: notifyChallenge.on('flagsAdded'),
    },
    // Removing the last flag disables the challenge, so the list refreshes too.
    editRemoveFlag: {
      invalidatesTags: (_result, _error, { id, cId }) => challengeTags(id, cId),
      onQueryStarted: notifyChallenge.on('flagRemoved'),
    },
    // The admin test container (reference §2.4) lives on the challenge's detail (`testContainer`):
    // the answer is written there at once, then the detail is fetched again.
    editCreateTestContainer: {
      invalidatesTags: (_result, _error, { cId }) => [{ type: 'Challenge', id: cId }],
      onQueryStarted: ({ id, cId }, { dispatch, queryFulfilled }) =>
        queryFulfilled.then(
          ({ data }) => {
            dispatch(
              challengeApi.util.updateQueryData('editGetGameChallenge', { id, cId }, (draft) => {
                draft.testContainer = data;
              }),
            );
          },
          () => undefined,
        ),
    },
    editDestroyTestContainer: {
      invalidatesTags: (_result, _error, { cId }) => [{ type: 'Challenge', id: cId }],
      onQueryStarted: ({ id, cId }, { dispatch, queryFulfilled }) =>
        queryFulfilled.then(
          () => {
            dispatch(
              challengeApi.util.updateQueryData('editGetGameChallenge', { id, cId }, (draft) => {
                draft.testContainer = null;
              }),
            );
          },
          () => undefined,
        ),
    },
  },
});

export type {
  Attachment,
  ChallengeEditDetailModel,
  ChallengeInfoModel,
  ContainerInfoModel,
  FlagInfoModel,
} from './api.generated';

export const {
  useEditGetGameChallengesQuery,
  useEditGetGameChallengeQuery,
  useEditAddGameChallengeMutation,
  useEditUpdateGameChallengeMutation,
  useEditDeleteGameChallengeMutation,
  useEditUpdateGameChallengesAcceptedCountMutation,
  useEditUpdateAttachmentMutation,
  useEditAddFlagsMutation,
  useEditRemoveFlagMutation,
  useEditCreateTestContainerMutation,
  useEditDestroyTestContainerMutation,
} = challengeApi;

// ---- end of challenges --------------------------------------------------------------------------
