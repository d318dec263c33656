import { REFRESH_INTERVAL_MS } from '@/shared/api/baseApi';
import { gameErrorCode, getErrorStatus } from '@/shared/api/errors';
import { notificationRaised } from '@/shared/notifications/slice';
import { textKey } from '@/shared/text/textRef';
import { hubSubscription } from '@/shared/api/hubSubscription';
import { pageParams, toPage, type Page } from '@/shared/api/paging';
import {
  gameApi,
  type CheatInfoModel,
  type ContainerInfoModel,
  type GameCheatInfoApiArg,
  type GameEvent,
  type GameEventsApiArg,
  type GameSubmissionsApiArg,
  type Submission,
} from './api.generated';
import { addNotice, isBloodNotice, noticeFromHub, noticeText, plainAnnouncement } from './lib/notices';
import { addLiveEvent, addLiveSubmission } from './monitor/liveUpdates';

export type * from './api.generated';

/**
 * Tags of the game pages: `Game` (list, info, details), `Challenge` (one challenge's detail, with its
 * instance), `Notice` (the notice panel) and `Traffic` (the monitor's capture lists). `Team` is the
 * team feature's tag, named here because joining or leaving a game locks or unlocks the team.
 */
const TAGS = ['Game', 'Challenge', 'Notice', 'Traffic', 'Team'] as const;

/**
 * Whether a failed details call means the board may no longer be shown: a refusal (400 for a team that
 * is no longer accepted or a game that ended, 403, 404), not a hiccup (a timeout, a 5xx, a rate limit)
 * after which the last board is still the best there is.
 */
export function isBoardRefused(error: unknown): boolean {
  if (gameErrorCode(error) !== undefined) return true;
  const status = getErrorStatus(error);
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/** A container call changes only that challenge's instance: its detail carries entry and close time. */
const challengeTag = (_result: unknown, _error: unknown, { challengeId }: { challengeId: number }) => [
  { type: 'Challenge' as const, id: challengeId },
];

/** Writes a container call's answer into the open challenge's detail at once (it is refetched too). */
function showContainerAnswer(
  { id, challengeId }: { id: number; challengeId: number },
  {
    dispatch,
    queryFulfilled,
  }: { dispatch: (action: unknown) => unknown; queryFulfilled: Promise<{ data: ContainerInfoModel }> },
) {
  return queryFulfilled.then(
    ({ data }) => {
      dispatch(
        api.util.updateQueryData('gameGetChallenge', { id, challengeId }, (draft) => {
          draft.context.instanceEntry = data.entry;
          draft.context.closeTime = data.expectStopAt;
        }),
      );
    },
    () => undefined,
  );
}

export const api = gameApi.enhanceEndpoints({
  addTagTypes: TAGS,
  endpoints: {
    // ---- player pages ----
    // The pages show these failures inline (not started 10001, ended 10002, not accepted, a wrong
    // invite code…), so the notification listener keeps quiet about them.
    // Joining with `acceptWithoutReview` locks the team, and leaving may unlock it: the teams page
    // must not offer a kick or a deletion the server would refuse.
    gameJoinGame: { extraOptions: { quiet: true }, invalidatesTags: ['Game', 'Team'] },
    gameLeaveGame: { invalidatesTags: ['Game', 'Team'] },
    gameGame: { extraOptions: { quiet: [404] } }, // an unknown game is said on the page
    gameDetails: {
      extraOptions: { quiet: true },
      // A refused board means the participation or the game changed under the page (the team was
      // suspended, the end moved earlier, code 10002): the game is read again at once, so the page
      // switches to the message that says why instead of waiting for its next poll. Only the game:
      // invalidating `Game` would fetch these details again, and be refused again, in a loop.
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch (failure) {
          const error = (failure as { error?: unknown }).error;
          if (isBoardRefused(error))
            void dispatch(api.endpoints.gameGame.initiate({ id }, { subscribe: false, forceRefetch: true }));
        }
      },
    },
    gameGetChallenge: {
      extraOptions: { quiet: true },
      providesTags: (_result, _error, { challengeId }) => [{ type: 'Challenge', id: challengeId }],
    },
    gameGetWriteup: { extraOptions: { quiet: true } },
    gameSubmitWriteup: { extraOptions: { quiet: true } },
    // A submission changes nothing until it is judged; the status poll refreshes on Accepted. Refusals
    // show under the flag field, but a rate limit (the Submit policy, reference §5.16) gets the spec
    // §8 "try later" notification like any other 429.
    gameSubmit: { extraOptions: { quiet: { except: [429] }, encrypt: ['flag'] }, invalidatesTags: [] },
    gameStatus: {
      extraOptions: { quiet: true },
      // Never tagged: invalidating `Game` below would otherwise poll the status again, forever.
      providesTags: [],
      keepUnusedDataFor: 0,
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          // A solve moves the rank card, the solved marks and the scores.
          if (data === 'Accepted') dispatch(api.util.invalidateTags(['Game']));
        } catch {
          return;
        }
      },
    },
    gameNotices: {
      // Before the start the notices answer 400 (10001); the page says the game has not started.
      extraOptions: { quiet: [400] },
      providesTags: ['Notice'],
      // Notices are pushed on /hub/user on top of the 10 s polling (reference §6). Players spend
      // their time in the challenge dialog, which covers the panel, so announcements, new hints and
      // new challenges are also raised as notifications, as GZCTF's panel does; so are bloods.
      onCacheEntryAdded: hubSubscription('/hub/user', (_arg, { updateCachedData, dispatch }) => ({
        ReceivedGameNotice: (payload) => {
          const notice = noticeFromHub(payload);
          if (!notice) return;
          updateCachedData((draft) => addNotice(draft, notice));
          // A hint or a (re-enabled, edited) challenge changed: open dialogs show the new statement,
          // hints and attachment now rather than after their next poll.
          if (notice.type === 'NewHint' || notice.type === 'NewChallenge')
            dispatch(api.util.invalidateTags(['Challenge']));
          const blood = isBloodNotice(notice.type);
          const text = noticeText(notice);
          if (notice.type === 'Normal') text.values.content = plainAnnouncement(text.values.content ?? '');
          dispatch(
            notificationRaised({
              id: `game-notice-${notice.id}`,
              // New content to look at stands out; an announcement or a blood is for information.
              variant: notice.type === 'NewHint' || notice.type === 'NewChallenge' ? 'warning' : 'info',
              title: textKey(blood ? 'game:notice.bloodTitle' : `common:noticeType.${notice.type}`),
              message: textKey(text.key, text.values),
            }),
          );
        },
      })),
    },

    // ---- scoreboard and monitor ----
    // Before the start the board and the monitor lists answer 400 (10001), and non-monitors meet
    // 403 on the monitor lists: the pages say so inline instead of an error toast.
    gameScoreboard: { extraOptions: { quiet: [400] } },
    // ---- end scoreboard and monitor ----

    // ---- challenge instances (player containers, reference §5.9) ----
    // Each answer is written into the open challenge's detail at once, and the detail is fetched
    // again so the entry and close time are the server's. Refusals (429 within 10 s of the last
    // operation, the team's container limit…) are announced by the notification listener.
    gameCreateContainer: { invalidatesTags: challengeTag, onQueryStarted: showContainerAnswer },
    gameExtendContainerLifetime: { invalidatesTags: challengeTag, onQueryStarted: showContainerAnswer },
    gameDeleteContainer: {
      // The server throttles container operations for 10 s: retrying a 429 within a second is useless.
      extraOptions: { maxRetries: 0 },
      invalidatesTags: challengeTag,
      onQueryStarted: ({ id, challengeId }, { dispatch, queryFulfilled }) =>
        queryFulfilled.then(
          () => {
            dispatch(
              api.util.updateQueryData('gameGetChallenge', { id, challengeId }, (draft) => {
                draft.context.instanceEntry = null;
                draft.context.closeTime = null;
              }),
            );
          },
          () => undefined,
        ),
    },

    // ---- traffic captures (monitor, reference §5.10) ----
    // A challenge without any capture folder answers 404: the page shows that as "no captures".
    gameGetChallengesWithTrafficCapturing: { extraOptions: { quiet: [400, 403] }, providesTags: ['Traffic'] },
    gameGetChallengeTraffic: { extraOptions: { quiet: [404] }, providesTags: ['Traffic'] },
    gameGetTeamTrafficFiles: { extraOptions: { quiet: [404] }, providesTags: ['Traffic'] },
    // Deleting changes the file list and the counts of the two lists above it.
    gameDeleteTeamTraffic: { invalidatesTags: ['Traffic'] },
    gameDeleteAllTeamTraffic: { invalidatesTags: ['Traffic'] },
  },
});

/**
 * The monitor lists, paged and filtered on the server: the same requests as the generated
 * `gameSubmissions`/`gameEvents`/`gameCheatInfo`, kept with the `X-Total-Count` of their answer so
 * the pagers know the number of pages. Before the start they answer 400 (10001) and non-monitors
 * meet 403: the pages say so inline instead of an error toast.
 */
const monitorApi = api.injectEndpoints({
  endpoints: (build) => ({
    gameSubmissionsPage: build.query<Page<Submission>, GameSubmissionsApiArg>({
      query: ({ id, ...params }) => ({ url: `/api/game/${id}/submissions`, params: pageParams(params) }),
      transformResponse: toPage<Submission>,
      extraOptions: { quiet: [400, 403] },
      // Each page, filter and search is an entry with its own hub connection: an entry no page shows
      // goes at once, and its connection with it, instead of a dozen staying open for 60 s each.
      keepUnusedDataFor: 0,
      // Judged submissions are pushed on /hub/monitor on top of the 10 s polling (reference §6).
      onCacheEntryAdded: hubSubscription('/hub/monitor', (arg, { updateCachedData }) => ({
        ReceivedSubmissions: (payload) =>
          updateCachedData((draft) => {
            draft.total += addLiveSubmission(draft.items, payload, arg);
          }),
      })),
    }),
    gameEventsPage: build.query<Page<GameEvent>, GameEventsApiArg>({
      query: ({ id, hideContainer, ...params }) => ({
        url: `/api/game/${id}/events`,
        params: pageParams({ ...params, hideContainer: hideContainer ? 'true' : undefined }),
      }),
      transformResponse: toPage<GameEvent>,
      extraOptions: { quiet: [400, 403] },
      keepUnusedDataFor: 0, // one hub connection per shown list, as for the submissions above
      onCacheEntryAdded: hubSubscription('/hub/monitor', (arg, { updateCachedData }) => ({
        ReceivedGameEvent: (payload) =>
          updateCachedData((draft) => {
            draft.total += addLiveEvent(draft.items, payload, arg);
          }),
      })),
    }),
    gameCheatInfoPage: build.query<Page<CheatInfoModel>, GameCheatInfoApiArg>({
      query: ({ id, ...params }) => ({ url: `/api/game/${id}/cheatinfo`, params: pageParams(params) }),
      transformResponse: toPage<CheatInfoModel>,
      extraOptions: { quiet: [400, 403] },
    }),
  }),
});

export const {
  useGameGamesQuery,
  useGameGameQuery,
  useGameJoinGameMutation,
  useGameLeaveGameMutation,
  useGameDetailsQuery,
  useGameNoticesQuery,
  useGameGetWriteupQuery,
  useGameSubmitWriteupMutation,
  useGameGetChallengeQuery,
  useGameSubmitMutation,
  useGameStatusQuery,
} = api;

/**
 * A game as its pages show it, polled: the viewer's status (accepted, suspended…) and the times
 * decide what they show, and an admin may change either while a page is open. `skip` until the
 * viewer is known (the participation part depends on who asks).
 */
export const useLiveGame = (id: number, skip: boolean) =>
  api.useGameGameQuery({ id }, { skip, pollingInterval: REFRESH_INTERVAL_MS });

// ---- scoreboard and monitor hooks ----
// The two sheets are plain file downloads (an anchor to the endpoint), not cached queries.
export const { useGameScoreboardQuery } = api;
export const { useGameEventsPageQuery, useGameSubmissionsPageQuery, useGameCheatInfoPageQuery } = monitorApi;
// ---- end scoreboard and monitor hooks ----

export const {
  useGameCreateContainerMutation,
  useGameExtendContainerLifetimeMutation,
  useGameDeleteContainerMutation,
  useGameGetChallengesWithTrafficCapturingQuery,
  useGameGetChallengeTrafficQuery,
  useGameGetTeamTrafficFilesQuery,
  useGameDeleteTeamTrafficMutation,
  useGameDeleteAllTeamTrafficMutation,
} = api;

/**
 * Capture downloads are plain links (the session cookie signs them): one pcap file, or a tar of all
 * of a team's files for one challenge.
 */
export const captureFileUrl = (challengeId: number, partId: number, fileName: string) =>
  `/api/game/captures/${challengeId}/${partId}/${encodeURIComponent(fileName)}`;
export const captureArchiveUrl = (challengeId: number, partId: number) =>
  `/api/game/captures/${challengeId}/${partId}/all`;
