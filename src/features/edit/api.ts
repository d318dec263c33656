import { successNotifier, titledTexts } from '@/shared/notifications/success';
import { filesBody } from '@/shared/api/multipart';
import { pageParams, toPage, type Page } from '@/shared/api/paging';
import {
  editApi,
  type AdminWriteupsApiArg,
  type GameParticipationsApiArg,
  type ParticipationInfoModel,
  type PostDetailModel,
  type PostEditModel,
  type WriteupInfoModel,
} from './api.generated';

export type {
  GameInfoModel,
  GameNotice,
  ParticipationInfoModel,
  ParticipationStatus,
  WriteupInfoModel,
} from './api.generated';

const notifyPosts = successNotifier(titledTexts('posts'));
const notifyEdit = successNotifier(titledTexts('edit'));

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
    // Not the generated 'Edit' tag, which no query here provides: the game's writeup lists refresh.
    editDeleteGameWriteUps: {
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Writeup', id }],
      onQueryStarted: notifyEdit.on('writeupsDeleted'),
    },
    // Pages write posts through `editSavePost` and `editSetPostPin` below, which announce themselves;
    // these tags only keep the caches right should anything call the plain endpoints.
    editAddPost: { invalidatesTags: [{ type: 'Post', id: 'LIST' }] },
    editUpdatePost: {
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Post', id: 'LIST' },
        { type: 'Post', id },
      ],
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

/** What the editor saves: a new post (`id` null) or over the stored post `id`. */
interface SavePostArg {
  id: string | null;
  /** Title, summary, content and tags as typed. */
  text: Required<Omit<PostEditModel, 'isPinned'>>;
  /**
   * The pin to set, or undefined to leave a stored post's pin as it is by then (the admin did not touch
   * the switch, so a pin changed elsewhere meanwhile stays). A new post starts unpinned unless told.
   */
  isPinned?: boolean;
}

/** The text of a post as the server compares it: an update that kept it applied only a pin change. */
const textOf = ({ title, summary, content, tags }: Pick<PostDetailModel, 'title' | 'summary' | 'content' | 'tags'>) =>
  JSON.stringify([title, summary ?? '', content ?? '', tags ?? []]);

/** A PUT that hit the pin-only branch is sent again this often at most (each means a concurrent pin change). */
const TEXT_ATTEMPTS = 3;

/**
 * Post writes that cannot lose text. GZCTF's update rule (reference §2.4 "PUT /api/edit/posts/{id}",
 * §3.9): when `isPinned` differs from the stored value **only** the pin changes, otherwise title,
 * summary, content and tags are replaced (missing ones become empty). A client that guesses the
 * stored pin from a cached copy either drops the text (editor) or wipes it (pin toggle). So both
 * read the post fresh (`GET /api/posts/{id}`) right before writing and always send the whole post.
 */
const postWrites = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * Sets a post's pin to `isPinned` (what the toggle showed the admin, flipped). When the fresh copy
     * already has it (a second click, another admin) nothing is written: a PUT with an unchanged pin
     * would rewrite the author and time. Otherwise the whole stored post goes out with the new pin, so
     * even if the pin moved in between and the server takes the text branch, the text stays as stored.
     */
    editSetPostPin: build.mutation<PostDetailModel, { id: string; isPinned: boolean }>({
      async queryFn({ id, isPinned }, _api, _extraOptions, baseQuery) {
        const stored = await baseQuery({ url: `/api/posts/${id}` });
        if (stored.error) return { error: stored.error };
        const post = stored.data as PostDetailModel;
        if (post.isPinned === isPinned) return { data: post };
        const { title, summary, content, tags } = post;
        const body: PostEditModel = { title, summary, content, tags: tags ?? [], isPinned };
        const saved = await baseQuery({ url: `/api/edit/posts/${id}`, method: 'PUT', body });
        return saved.error ? { error: saved.error } : { data: saved.data as PostDetailModel };
      },
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Post', id: 'LIST' },
        { type: 'Post', id },
      ],
      onQueryStarted: notifyPosts.on(({ isPinned }) => (isPinned ? 'pinned' : 'unpinned')),
    }),
    /**
     * Creates a post (resolving to its id) or saves the editor's text over a stored one. The text goes
     * out with the pin the server has now, read fresh, so it takes the text branch; should the answer
     * show the old text (the pin moved in between), it is sent again. A pin the admin changed follows
     * as a second update, again with the whole post.
     */
    editSavePost: build.mutation<string, SavePostArg>({
      async queryFn({ id, text, isPinned }, _api, _extraOptions, baseQuery) {
        if (id === null) {
          const body: PostEditModel = { ...text, isPinned: isPinned ?? false };
          const created = await baseQuery({ url: '/api/edit/posts', method: 'POST', body });
          return created.error ? { error: created.error } : { data: created.data as string };
        }
        const stored = await baseQuery({ url: `/api/posts/${id}` });
        if (stored.error) return { error: stored.error };
        let pinned = (stored.data as PostDetailModel).isPinned;
        for (let attempt = 1; attempt <= TEXT_ATTEMPTS; attempt++) {
          const body: PostEditModel = { ...text, isPinned: pinned };
          const saved = await baseQuery({ url: `/api/edit/posts/${id}`, method: 'PUT', body });
          if (saved.error) return { error: saved.error };
          const answer = saved.data as PostDetailModel;
          pinned = answer.isPinned;
          if (textOf(answer) === textOf(text)) break;
          // The old text came back: the pin moved after the read and only it changed. The stored pin is
          // now the one sent, so the same body takes the text branch this time.
        }
        if (isPinned !== undefined && isPinned !== pinned) {
          const body: PostEditModel = { ...text, isPinned };
          const saved = await baseQuery({ url: `/api/edit/posts/${id}`, method: 'PUT', body });
          if (saved.error) return { error: saved.error };
        }
        return { data: id };
      },
      invalidatesTags: (_result, _error, { id }) =>
        id === null
          ? [{ type: 'Post', id: 'LIST' }]
          : [
              { type: 'Post', id: 'LIST' },
              { type: 'Post', id },
            ],
      onQueryStarted: notifyPosts.on(({ id }) => (id === null ? 'created' : 'saved')),
    }),
  }),
});

export const { useEditSetPostPinMutation, useEditSavePostMutation } = postWrites;

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
  useEditDeleteGameWriteUpsMutation,
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
 * GZCTF: `count`, `skip`, `search`, `X-Total-Count`). Every page of a game shares its 'Writeup' tag,
 * which deleting all of the game's writeups invalidates.
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
