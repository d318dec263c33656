import type { components } from '../../contract/api.generated';
import type { Database } from '../../db/client';
import type { ParticipationStatus } from '../../db/schema/enums';
import { badRequest, notFound } from '../../lib/http-error';
import { bus } from '../../lib/bus';
import { rejectNul } from '../../lib/text';
import { lockTeam, setTeamLocked } from '../teams';
import { ensureInstancesForParticipation } from '../instances';
import { recountAcceptedCounts } from '../challenges';
import {
  lockParticipation,
  participationTeam,
  solvedChallengeIds,
  updateParticipation,
  type ParticipationRow,
} from './review.repository';

export type ParticipationEditModel = components['schemas']['ParticipationEditModel'];

/**
 * What an admin may do to a participation (client spec §4): review a pending team, suspend an
 * accepted one and take it back. A rejected team re-applies by joining again, which is the player's
 * move, not the admin's. GZCTF saves any status; we refuse the rest with 400.
 */
export const ADMIN_TRANSITIONS: Readonly<Record<ParticipationStatus, readonly ParticipationStatus[]>> = {
  Pending: ['Accepted', 'Rejected'],
  Accepted: ['Suspended'],
  Suspended: ['Accepted'],
  Rejected: [],
  Unsubmitted: [],
};

export function canTransition(from: ParticipationStatus, to: ParticipationStatus): boolean {
  return ADMIN_TRANSITIONS[from].includes(to);
}

/**
 * A division the game accepts: one of its divisions, or none ('' clears) when it has none. GZCTF
 * ignores an invalid division silently; we answer 400 so the admin sees that nothing changed.
 */
function checkedDivision(divisions: string[] | null, requested: string): string | null {
  rejectNul(requested);
  const division = requested.trim();
  if (!divisions || divisions.length === 0) {
    if (division === '') return null;
    throw badRequest('edit.participations.noDivisions');
  }
  if (!divisions.includes(division)) throw badRequest('edit.participations.invalidDivision', { division });
  return division;
}

/**
 * Changes a participation's status and/or division in one transaction; either both apply or neither.
 * Asking for the status it already has is no transition and is allowed (so a division can be sent
 * along with the unchanged status). Accepting locks the team and gives it instances of every enabled
 * challenge. A null or missing field is left as it is.
 */
export async function reviewParticipation(db: Database, id: number, model: ParticipationEditModel): Promise<void> {
  const changedGame = await db.transaction(async (tx) => {
    // The team's lock before the participation's, as joins, leaves and team deletions take them:
    // the other way round, accepting a team while a member joined or the team was deleted
    // deadlocked on PostgreSQL.
    const teamId = await participationTeam(tx, id);
    if (teamId === undefined || !(await lockTeam(tx, teamId))) throw notFound('edit.participations.notFound');
    const found = await lockParticipation(tx, id);
    if (!found) throw notFound('edit.participations.notFound');
    const { participation, game } = found;
    const changes: Partial<Pick<ParticipationRow, 'status' | 'division'>> = {};
    if (model.status && model.status !== participation.status) {
      if (!canTransition(participation.status, model.status)) {
        throw badRequest('edit.participations.invalidTransition', { from: participation.status, to: model.status });
      }
      changes.status = model.status;
    }
    if (model.division !== null && model.division !== undefined) {
      const division = checkedDivision(game.divisions, model.division);
      if (division !== participation.division) changes.division = division;
    }
    if (changes.status === undefined && changes.division === undefined) return undefined;
    await updateParticipation(tx, id, changes);
    if (changes.status === 'Accepted') {
      await setTeamLocked(tx, participation.teamId);
      await ensureInstancesForParticipation(tx, id, game.id);
    }
    // The board counts only Accepted teams' solves; the stored accepted counts (the challenge
    // dialog's score, the judge's next blood) follow in this transaction. Only the challenges this
    // team solved change. Locks: team, participation (NO KEY UPDATE), then the challenges in id
    // order. The judge locks submissions, then challenges in id order, and then only takes key-share
    // locks on participations and teams (the foreign keys of what it writes), which ours never block,
    // and it never waits for a submission of ours: no cycle, whatever the two hold.
    if (changes.status !== undefined) await recountAcceptedCounts(tx, await solvedChallengeIds(tx, id));
    return game.id;
  });
  if (changedGame !== undefined) bus.emit('scoreboardChanged', { gameId: changedGame, cause: 'edit' });
}
