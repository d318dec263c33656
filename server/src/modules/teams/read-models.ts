import { teamMembers, teams } from '../../db/schema/teams';
import { readModel } from '../../lib/read-model';

// What other modules may read of teams (lib/read-model.ts): everything but the invite token. A query
// that needs a second copy (two teams in one row) passes its own alias.

export const teamRows = <TAlias extends string = 'team_rows'>(alias: TAlias = 'team_rows' as TAlias) =>
  readModel
    .select({
      id: teams.id,
      name: teams.name,
      bio: teams.bio,
      avatarHash: teams.avatarHash,
      locked: teams.locked,
      captainId: teams.captainId,
      createdAt: teams.createdAt,
    })
    .from(teams)
    .as(alias);

export const teamMemberRows = <TAlias extends string = 'team_member_rows'>(
  alias: TAlias = 'team_member_rows' as TAlias,
) => readModel.select().from(teamMembers).as(alias);
