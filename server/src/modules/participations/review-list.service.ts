import type { Db } from '../../db/client';
import { participationStatuses } from '../../db/schema/enums';
import { avatarUrl } from '../../lib/blobs';
import { gameOrNotFound } from '../games';
import { toTeamInfo } from '../teams';
import { listGameParticipations, type ParticipationFilter } from './review-list.repository';

/** The statuses the review list can be filtered by. */
export const PARTICIPATION_STATUSES = participationStatuses;

/** The review list (see `listGameParticipations`): the items as GZCTF shapes them, and the total. */
export async function participationList(db: Db, gameId: number, filter: ParticipationFilter = {}) {
  await gameOrNotFound(db, gameId);
  const { rows, total, members, registered } = await listGameParticipations(db, gameId, filter);
  const membersOf = groupBy(members, (member) => member.teamId);
  const registeredIn = groupBy(registered, (row) => row.participationId);
  const items = rows.map(({ participation, team }) => ({
    id: participation.id,
    team: {
      ...toTeamInfo(team),
      captainId: team.captainId,
      members: (membersOf.get(team.id) ?? []).map(({ user }) => ({
        // ProfileUserInfoModel names the id `userId`; the captain is told by the team's `captainId`.
        userId: user.id,
        userName: user.userName,
        realName: user.realName,
        stdNumber: user.stdNumber,
        phone: user.phone,
        email: user.email,
        avatar: avatarUrl(user.avatarHash),
      })),
    },
    registeredMembers: (registeredIn.get(participation.id) ?? []).map((row) => row.userId),
    division: participation.division,
    status: participation.status,
  }));
  return { items, total };
}

function groupBy<T, K>(list: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of list) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
