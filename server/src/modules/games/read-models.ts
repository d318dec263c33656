import { games } from '../../db/schema/games';
import { readModel } from '../../lib/read-model';

// What other modules may read of games (lib/read-model.ts): everything but the signing key pair.

export const gameRows = <TAlias extends string = 'game_rows'>(alias: TAlias = 'game_rows' as TAlias) =>
  readModel
    .select({
      id: games.id,
      title: games.title,
      summary: games.summary,
      hidden: games.hidden,
      posterHash: games.posterHash,
      acceptWithoutReview: games.acceptWithoutReview,
      divisions: games.divisions,
      teamMemberCountLimit: games.teamMemberCountLimit,
      containerCountLimit: games.containerCountLimit,
      practiceMode: games.practiceMode,
      startAt: games.startAt,
      endAt: games.endAt,
      freezeAt: games.freezeAt,
      writeupRequired: games.writeupRequired,
      writeupDeadline: games.writeupDeadline,
      bloodBonus: games.bloodBonus,
    })
    .from(games)
    .as(alias);
