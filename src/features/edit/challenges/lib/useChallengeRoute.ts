import { useParams } from 'react-router';
import { parseRouteId } from '../../lib/gameId';

/**
 * The game and challenge ids of the current admin route (`games/:id/challenges/:chalId…`); NaN for one
 * that cannot name anything, which the pages show as not found instead of asking the server.
 */
export function useChallengeRoute() {
  const { id, chalId } = useParams();
  return { gameId: parseRouteId(id), challengeId: parseRouteId(chalId) };
}

export const challengesPath = (gameId: number) => `/admin/games/${gameId}/challenges`;
export const challengePath = (gameId: number, challengeId: number) => `${challengesPath(gameId)}/${challengeId}`;
export const flagsPath = (gameId: number, challengeId: number) => `${challengePath(gameId, challengeId)}/flags`;
