import type { components } from '../../contract/api.generated';
import type { Database } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import type { Env } from '../../env';
import { badRequest, notFound } from '../../lib/http-error';
import { gameTeamToken } from '../../lib/game-keys';
import type { SessionUser } from '../../plugins/app/auth';
import { bus } from '../../lib/bus';
import { ended, gameOrNotFound, type GameRow } from '../games';
import { lockTeam, lockTeamMembership, setTeamLocked } from '../teams';
import * as repo from './join.repository';
import { ensureInstancesForParticipation } from '../instances';
import { updateParticipation } from './review.repository';

/**
 * Joining and leaving a game: the team's participation, its members, and the instances an accepted
 * team gets.
 */

type Schemas = components['schemas'];

/** What joining uses of the app: the database (one transaction) and the key that derives team tokens. */
export interface JoinDeps {
  db: Database;
  env: Pick<Env, 'xorKey'>;
}

function checkedDivision(game: GameRow, division: string | null | undefined): string | null {
  const value = division?.trim() ? division.trim() : null;
  const divisions = game.divisions ?? [];
  if (divisions.length === 0) {
    if (value !== null) throw badRequest('game.invalidDivision');
    return null;
  }
  if (value === null || !divisions.includes(value)) throw badRequest('game.invalidDivision');
  return value;
}

/** Join (reference §5.3), steps in order, in one transaction. */
export async function joinGame(
  deps: JoinDeps,
  gameId: number,
  user: SessionUser,
  model: Schemas['GameJoinModel'],
): Promise<void> {
  const db = deps.db;
  const game = await gameOrNotFound(db, gameId);
  if (game.endAt.getTime() < Date.now() && !game.practiceMode) throw ended();
  if (game.inviteCode && game.inviteCode !== (model.inviteCode ?? '')) throw badRequest('game.wrongInviteCode');
  const division = checkedDivision(game, model.division);
  const accepted = await db
    .transaction(async (tx) => {
      const team = await lockTeamMembership(tx, model.teamId, user.id);
      if (!team) throw notFound('game.teamNotFound');
      if (!team.isMember) throw badRequest('game.notTeamMember');
      const current = await repo.findUserParticipation(tx, user.id, gameId);
      if (current && current.participation.status !== 'Rejected') throw badRequest('game.inOtherTeam');
      await repo.deleteRejectedMemberships(tx, user.id, gameId);
      const participation = await repo.lockOrCreateParticipation(tx, {
        gameId,
        teamId: model.teamId,
        token: gameTeamToken(game.privateKey, deps.env.xorKey, model.teamId),
        division,
      });
      if (
        game.teamMemberCountLimit > 0 &&
        (await repo.countMembers(tx, participation.id)) >= game.teamMemberCountLimit
      ) {
        throw badRequest('game.teamFull');
      }
      await repo.insertMembership(tx, user.id, gameId, participation.id);
      // GZCTF lets a joining member set the division and, with acceptWithoutReview, accept the team
      // again: a suspended team could add a fresh account and let itself back in, or an accepted one
      // move to another division unreviewed. Once reviewed, both stay the admins' decision.
      const reviewed = participation.status === 'Accepted' || participation.status === 'Suspended';
      const status = reviewed
        ? participation.status
        : game.acceptWithoutReview
          ? 'Accepted'
          : participation.status === 'Rejected'
            ? 'Pending'
            : participation.status;
      await updateParticipation(tx, participation.id, reviewed ? { status } : { division, status });
      if (status === 'Accepted' && participation.status !== 'Accepted') {
        await setTeamLocked(tx, participation.teamId);
        await ensureInstancesForParticipation(tx, participation.id, gameId);
        return true;
      }
      return false;
    })
    .catch((error: unknown) => {
      // Two joins by one user racing: the (user, game) key lets one through.
      if (isUniqueViolation(error)) throw badRequest('game.inOtherTeam');
      throw error;
    });
  if (accepted) bus.emit('scoreboardChanged', { gameId, cause: 'edit' });
}

/**
 * Leave: only while Pending or Rejected; the participation goes with its last member. Under the
 * team's lock, as joins and reviews: read unlocked, the status and the member count let a leave
 * delete a participation an admin had just accepted, or one a member had just joined.
 */
export async function leaveGame(db: Database, gameId: number, user: SessionUser): Promise<string | null> {
  await gameOrNotFound(db, gameId);
  return db.transaction(async (tx) => {
    const seen = await repo.findUserParticipation(tx, user.id, gameId);
    if (!seen) throw badRequest('game.notParticipated');
    await lockTeam(tx, seen.participation.teamId);
    // Read again under the lock: a kick or a team deletion may have come first (and the user may even
    // have joined with another team since, whose lock this is not: then the leave is not made).
    const mine = await repo.findUserParticipation(tx, user.id, gameId);
    if (!mine || mine.participation.teamId !== seen.participation.teamId) throw badRequest('game.notParticipated');
    if (mine.participation.status !== 'Pending' && mine.participation.status !== 'Rejected') {
      throw badRequest('game.cannotLeave');
    }
    await repo.deleteMembership(tx, user.id, gameId);
    if ((await repo.countMembers(tx, mine.participation.id)) === 0) {
      return repo.deleteParticipation(tx, mine.participation.id);
    }
    return null;
  });
}
