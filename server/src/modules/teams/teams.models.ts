import type { components } from '../../contract/api.generated';
import { avatarUrl } from '../../lib/blobs';
import type { MemberRow, TeamRow } from './teams.repository';

/**
 * How a team is shown, wherever it appears (team pages, admin lists, writeups, monitors, containers):
 * one mapper per contract shape, so the avatar and the fields are written once.
 */

type Schemas = components['schemas'];
export type TeamModel = Schemas['TeamModel'];
export type TeamInfoModel = Schemas['TeamInfoModel'];

/** The short form (`TeamModel`): id, name and avatar. */
export function toTeamModel(team: Pick<TeamRow, 'id' | 'name' | 'avatarHash'>): TeamModel {
  return { id: team.id, name: team.name, avatar: avatarUrl(team.avatarHash) };
}

/**
 * `TeamInfoModel`. Without `members` the list is null, as GZCTF sends it where it leaves them out
 * (writeup lists); with them, only the team's own are kept, captain first, then by membership age
 * (membersOf's order), as the team pages list them.
 */
export function toTeamInfo(
  team: Pick<TeamRow, 'id' | 'name' | 'bio' | 'avatarHash' | 'locked'> & { captainId?: string },
  members?: MemberRow[],
): TeamInfoModel {
  const own = members?.filter((member) => member.teamId === team.id);
  own?.sort((a, b) => Number(b.userId === team.captainId) - Number(a.userId === team.captainId));
  return {
    id: team.id,
    name: team.name,
    bio: team.bio,
    avatar: avatarUrl(team.avatarHash),
    locked: team.locked,
    members:
      own?.map((member) => ({
        id: member.userId,
        userName: member.userName,
        bio: member.bio,
        avatar: avatarUrl(member.avatarHash),
        captain: member.userId === team.captainId,
      })) ?? null,
  };
}
