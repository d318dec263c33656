import { useParams } from 'react-router';

/** The game and challenge ids of the current admin route (`games/:id/challenges/:chalId…`). */
export function useChallengeRoute() {
  const { id, chalId } = useParams();
  return { gameId: Number(id), challengeId: Number(chalId) };
}

export const challengesPath = (gameId: number) => `/admin/games/${gameId}/challenges`;
export const challengePath = (gameId: number, challengeId: number) => `${challengesPath(gameId)}/${challengeId}`;
export const flagsPath = (gameId: number, challengeId: number) => `${challengePath(gameId, challengeId)}/flags`;
