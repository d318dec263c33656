import type { components } from '../../contract/api.generated';
import type { Db } from '../../db/client';
import { badRequest } from '../../lib/http-error';
import type { SessionUser } from '../../plugins/app/auth';
import { ended, gameOrNotFound, posterUrl, requireStarted, type GameRow } from '../games';
import { countParticipations, findUserParticipation } from './join.repository';
import type { ParticipationRow } from './review.repository';

/** A user's participation in a game as the player's views need it: the game page and the context checks. */

type Schemas = components['schemas'];

export async function gameInfo(
  db: Db,
  id: number,
  user: SessionUser | null,
): Promise<Schemas['DetailedGameInfoModel']> {
  const game = await gameOrNotFound(db, id);
  const mine = user ? await findUserParticipation(db, user.id, id) : undefined;
  return {
    id: game.id,
    title: game.title,
    summary: game.summary,
    content: game.content,
    hidden: game.hidden,
    divisions: game.divisions,
    inviteCodeRequired: !!game.inviteCode,
    writeupRequired: game.writeupRequired,
    poster: posterUrl(game),
    limit: game.teamMemberCountLimit,
    teamCount: await countParticipations(db, id),
    division: mine?.participation.division ?? null,
    teamName: mine?.teamName ?? null,
    practiceMode: game.practiceMode,
    status: mine?.participation.status ?? 'Unsubmitted',
    start: game.startAt.getTime(),
    end: game.endAt.getTime(),
  };
}

export interface PlayContext {
  game: GameRow;
  participation: ParticipationRow;
  teamName: string;
}

/** GZCTF's GetContextInfo (reference §2.5), in its order. */
export async function playContext(
  db: Db,
  gameId: number,
  user: SessionUser,
  options: { allowEnded?: boolean } = {},
): Promise<PlayContext> {
  const game = await gameOrNotFound(db, gameId);
  const mine = await findUserParticipation(db, user.id, gameId);
  if (!mine) throw badRequest('game.notParticipated');
  if (mine.participation.status !== 'Accepted') throw badRequest('game.notAccepted');
  requireStarted(game);
  if (game.endAt.getTime() < Date.now() && !game.practiceMode && !options.allowEnded) throw ended();
  return { game, participation: mine.participation, teamName: mine.teamName };
}
