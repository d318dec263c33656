import { api, type ChallengeCategory, type ChallengeInfo, type ChallengeType } from './api';

/**
 * An admin's preview of a game's challenges: the game API answers only members of an
 * accepted team, so the preview reads the challenge editor's list and details instead (admins only).
 * The fields kept are those the player board and dialog show; the editor's flags and settings are
 * left out. Typed here rather than imported because features never import each other.
 */
type EditChallengeListItem = {
  id?: number;
  title: string;
  category: ChallengeCategory;
  isEnabled?: boolean;
  score?: number;
};

export type PreviewChallengeDetail = {
  id: number;
  title: string;
  content: string;
  category: ChallengeCategory;
  type: ChallengeType;
  hints: string[];
  attachment?: { url?: string | null; fileSize?: number | null } | null;
};

/** The enabled challenges by category, shaped as the player board's `details.challenges`. */
export function previewBoard(list: EditChallengeListItem[]): Record<string, ChallengeInfo[]> {
  const board: Record<string, ChallengeInfo[]> = {};
  for (const item of list) {
    if (!item.isEnabled || item.id === undefined) continue;
    (board[item.category] ??= []).push({
      id: item.id,
      title: item.title,
      category: item.category,
      score: item.score ?? 0,
      solved: 0,
      bloods: [],
      disableBloodBonus: false,
    });
  }
  return board;
}

/**
 * The preview with each challenge's solves, bloods and current score as the scoreboard counts them
 * (the editor's list has neither counts nor the dynamic score). Challenges the board does not list
 * (it is not readable before the start) keep the editor's figures.
 */
export function withBoardCounts(
  preview: Record<string, ChallengeInfo[]>,
  board: Record<string, ChallengeInfo[]> | undefined,
): Record<string, ChallengeInfo[]> {
  if (!board) return preview;
  const counted = new Map(
    Object.values(board)
      .flat()
      .map((challenge) => [challenge.id, challenge]),
  );
  return Object.fromEntries(
    Object.entries(preview).map(([category, list]) => [
      category,
      list.map((challenge) => {
        const onBoard = counted.get(challenge.id);
        if (!onBoard) return challenge;
        const { score, solved, bloods, disableBloodBonus } = onBoard;
        return { ...challenge, score, solved, bloods, disableBloodBonus };
      }),
    ]),
  );
}

// Not cached once the page is left: the editor's changes do not invalidate these, so an admin coming
// back after an edit reads the challenges afresh.
const previewApi = api.injectEndpoints({
  endpoints: (build) => ({
    gamePreviewChallenges: build.query<Record<string, ChallengeInfo[]>, { id: number }>({
      query: ({ id }) => ({ url: `/api/edit/games/${id}/challenges` }),
      transformResponse: previewBoard,
      keepUnusedDataFor: 0,
    }),
    gamePreviewChallenge: build.query<PreviewChallengeDetail, { id: number; challengeId: number }>({
      query: ({ id, challengeId }) => ({ url: `/api/edit/games/${id}/challenges/${challengeId}` }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useGamePreviewChallengesQuery, useGamePreviewChallengeQuery } = previewApi;
