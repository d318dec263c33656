import type { components } from '../../contract/api.generated';
import type { Database, Db } from '../../db/client';
import { badRequest, notFound } from '../../lib/http-error';
import type { SortRequest } from '../../lib/sorting';
import { lockChallengesOfGames } from '../challenges';
import {
  countTeams,
  listTeams,
  lockTeam,
  playedGameIds,
  searchTeams,
  updateTeam,
  type TeamChanges,
  type TeamRow,
  type TeamSort,
} from './teams.repository';
import { afterTeamRemoved, cleanName, removeTeam, withMembers } from './teams.service';

/**
 * The administration of teams (reference §2.2): lists, search, edits and deletes that ignore
 * captaincy. Edits and deletes lock the team row like the players' operations (`teams.service.ts`).
 */

export type AdminTeamModel = components['schemas']['AdminTeamModel'];

/** Admin search returns at most this many teams (reference §2.2). */
const SEARCH_LIMIT = 30;

/** A page of teams; with `search`, of the matching ones, and `total` counts the matches. */
export async function getTeams(
  db: Db,
  page: { count: number; skip: number; search?: string | undefined } & SortRequest<TeamSort>,
) {
  const [rows, total] = await Promise.all([listTeams(db, page, page.search), countTeams(db, page.search)]);
  const data = await withMembers(db, rows);
  return { data, length: data.length, total };
}

export async function findTeams(db: Db, hint: string | undefined) {
  const data = await withMembers(db, await searchTeams(db, (hint ?? '').trim(), SEARCH_LIMIT));
  return { data, length: data.length, total: data.length };
}

/** Empty name or bio keeps the old value; `locked` null keeps the lock. A missing team is 400, as in GZCTF. */
export async function adminUpdateTeam(db: Database, id: number, body: AdminTeamModel): Promise<TeamRow> {
  return db.transaction(async (tx) => {
    if (!(await lockTeam(tx, id))) throw badRequest('team.notFound');
    const name = cleanName(body.name);
    const changes: TeamChanges = {
      ...(name ? { name } : {}),
      ...(body.bio ? { bio: body.bio } : {}),
      ...(body.locked != null ? { locked: body.locked } : {}),
    };
    const team = await updateTeam(tx, id, changes);
    if (!team) throw badRequest('team.notFound');
    return team;
  });
}

/**
 * Admins delete regardless of the lock or of what the team has scored. The challenges of the games
 * it was accepted to are locked before anything else, in id order as the judge locks them, so no
 * solve of the team lands while `removeTeam` reads the solves it takes away and recounts.
 *
 * Lock order: team, challenges, then (the deletion) the team's participations and rows below them.
 * The judge locks submissions, then challenges, then takes key-share locks on the participations
 * and teams its rows point at; joins and reviews lock the team before the participation. The one
 * cycle left needs a flag of this very team in the judge's hands at that moment (the judge holds
 * it and waits for a challenge; the deletion holds the challenge and must delete the flag), which
 * deadlocked before too (the judge then waited for the deleted participation): PostgreSQL cancels
 * one, and the judge retries its batch, or the admin the deletion.
 */
export async function adminDeleteTeam(db: Database, dataDir: string, id: number): Promise<TeamRow> {
  const { team, removed } = await db.transaction(async (tx) => {
    const team = await lockTeam(tx, id);
    if (!team) throw notFound('team.notFound');
    await lockChallengesOfGames(tx, await playedGameIds(tx, team.id));
    return { team, removed: await removeTeam(tx, team) };
  });
  await afterTeamRemoved(db, dataDir, removed);
  return team;
}
