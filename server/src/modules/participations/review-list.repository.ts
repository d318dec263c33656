import { and, asc, count, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { ParticipationStatus } from '../../db/schema/enums';
import { participations, userParticipations } from '../../db/schema/participations';
import { likePattern } from '../../lib/paging';
import { userRows } from '../accounts/read-models';
import { teamMemberRows } from '../teams/read-models';
import { team, teamCard } from './team-card';

const teamMember = teamMemberRows();
const user = userRows();

/** Every participation of a game with its team, members and registered members (admin review). */
export interface ParticipationFilter {
  page?: { count: number; skip: number };
  status?: ParticipationStatus;
  division?: string;
  /** Part of the team name, matched case-insensitively. */
  search?: string;
}

/**
 * The review list: one page (or all) of a game's participations by team id, the filtered total,
 * and the members and registered users of just those teams. The total rides on every row as a
 * window count, so a page costs one scan of the filtered rows; a page past the end reads it apart.
 */
export async function listGameParticipations(db: Db, gameId: number, filter: ParticipationFilter = {}) {
  const where = and(
    eq(participations.gameId, gameId),
    filter.status ? eq(participations.status, filter.status) : undefined,
    filter.division !== undefined ? eq(participations.division, filter.division) : undefined,
    filter.search !== undefined ? ilike(team.name, likePattern(filter.search)) : undefined,
  );
  const query = db
    .select({
      participation: participations,
      team: teamCard,
      total: sql<number>`(count(*) over ())::integer`,
    })
    .from(participations)
    .innerJoin(team, eq(team.id, participations.teamId))
    .where(where)
    .orderBy(asc(team.id), asc(participations.id));
  const rows = filter.page ? await query.limit(filter.page.count).offset(filter.page.skip) : await query;
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && filter.page && filter.page.skip > 0) {
    const [counted] = await db
      .select({ total: count() })
      .from(participations)
      .innerJoin(team, eq(team.id, participations.teamId))
      .where(where);
    total = counted?.total ?? 0;
  }
  const teamIds = rows.map((row) => row.team.id);
  const participationIds = rows.map((row) => row.participation.id);
  const [members, registered] = await Promise.all([
    teamIds.length
      ? db
          .select({
            teamId: teamMember.teamId,
            user: {
              id: user.id,
              userName: user.userName,
              realName: user.realName,
              stdNumber: user.stdNumber,
              phone: user.phone,
              email: user.email,
              avatarHash: user.avatarHash,
            },
          })
          .from(teamMember)
          .innerJoin(user, eq(user.id, teamMember.userId))
          .where(inArray(teamMember.teamId, teamIds))
      : [],
    participationIds.length
      ? db
          .select({ participationId: userParticipations.participationId, userId: userParticipations.userId })
          .from(userParticipations)
          .where(
            and(eq(userParticipations.gameId, gameId), inArray(userParticipations.participationId, participationIds)),
          )
      : [],
  ]);
  return { rows, total, members, registered };
}
