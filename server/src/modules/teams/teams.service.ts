import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { components } from '../../contract/api.generated';
import type { Database, Db } from '../../db/client';
import { badRequest, forbidden, HttpError, notFound, unauthorized } from '../../lib/http-error';
import { toWebp } from '../../lib/images';
import { avatarUrl } from '../../lib/blobs';
import { releaseFileRow, removeBlob, removeBlobs, storeFile } from '../attachments';
import { bus } from '../../lib/bus';
import { verifyTeamToken } from '../../lib/team-token';
import type { SessionUser } from '../../plugins/app/auth';
import { lockUser } from '../accounts';
import { recountAcceptedCounts } from '../challenges';
import { deleteUserParticipations } from '../participations';
import {
  countCaptaincies,
  deleteMember,
  deleteTeamRow,
  findTeam,
  hasPlayed,
  inUnfinishedGame,
  insertMember,
  insertTeam,
  isMember,
  lockTeam,
  membersOf,
  solvedChallengeIds,
  teamsOfUser,
  updateTeam,
  teamTraces,
  writeupHashesOfTeam,
  type TeamChanges,
  type TeamRow,
} from './teams.repository';
import { toTeamInfo, type TeamInfoModel } from './teams.models';

/**
 * Teams (reference §2.8, §5.3): what players do with them. Administration is `admin.service.ts`.
 *
 * Concurrency: every change to a team's captain or members runs in one transaction that first
 * row-locks the team (`lockTeam`), so kicks, leaves, transfers, deletes and token refreshes on one
 * team happen one after another and each sees the outcome of the last. Whatever adds a captaincy to
 * a user (create, transfer to them) also row-locks that user before counting, so the limit of 3
 * cannot be overrun by parallel requests. Locks are always taken team first, then user, and the
 * participations module's joins, leaves and reviews lock the team before its participation (a delete
 * holds the team, then, an admin's, the challenges of its games, then cascades to the participations).
 * Membership itself is the (team, user) primary key, so a double join inserts once.
 *
 * Invariant kept here: the captain is always a member. The captain cannot be kicked or leave, and a
 * transfer goes only to a current member (GZCTF does not check that; we do).
 */

type Schemas = components['schemas'];
export type TeamUpdateModel = Schemas['TeamUpdateModel'];
export type SignatureVerifyModel = Schemas['SignatureVerifyModel'];

/** GZCTF's `MaxTeamsAllowed`: how many teams one user may captain. */
export const MAX_CAPTAINCIES = 3;
const INT32_MAX = 2_147_483_647;

// The code is "{name}:{id}:{token}"; names may hold colons, so it is read from the end.
const INVITE_CODE = /:(\d+):([0-9a-f]{32})$/;

const newInviteToken = () => randomBytes(16).toString('hex');
const inviteCodeOf = (team: TeamRow) => `${team.name}:${team.id}:${team.inviteToken}`;
/** Names are trimmed; a name of only spaces counts as empty. */
export const cleanName = (name: string | null | undefined) => name?.trim() ?? '';

// ---- models ----

/** Teams with their members, fetched in one query for all of them. */
export async function withMembers(db: Db, rows: TeamRow[]): Promise<TeamInfoModel[]> {
  const members = await membersOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toTeamInfo(row, members));
}

async function infoOf(db: Db, team: TeamRow): Promise<TeamInfoModel> {
  return toTeamInfo(team, await membersOf(db, [team.id]));
}

// ---- shared rules ----

/**
 * The team, locked for the rest of the transaction, if the caller captains it. GZCTF answers a missing
 * team with 400 on update and 404 elsewhere, hence `missing`.
 */
async function lockCaptainedTeam(tx: Db, user: SessionUser, id: number, missing: 400 | 404 = 404): Promise<TeamRow> {
  const team = await lockTeam(tx, id);
  if (!team) throw new HttpError(missing, 'team.notFound');
  if (team.captainId !== user.id) throw forbidden('team.notCaptain');
  return team;
}

/**
 * Team lock (reference §5.3): a locked team cannot lose members or be deleted while it takes part in
 * a game that has not ended. Once no such game is left the lock has done its job and is cleared, in
 * the caller's transaction, so it is undone with everything else if the operation then fails.
 */
async function ensureNotLocked(tx: Db, team: TeamRow, now = new Date()): Promise<void> {
  if (!team.locked) return;
  if (await inUnfinishedGame(tx, team.id, now)) throw badRequest('team.locked');
  await updateTeam(tx, team.id, { locked: false });
}

/** What deleting a team leaves to do once committed: blobs to unlink, boards to rebuild, containers to stop. */
export interface RemovedTeam {
  blobs: string[];
  gameIds: number[];
  containerIds: string[];
}

/**
 * Deletes a locked team row and drops the file references it held (its avatar and its writeups),
 * and recounts the accepted counts of the challenges it had solved (its solves go with it), so the
 * challenge dialog's score and the judge's next blood agree with the board again. Returns what
 * `afterTeamRemoved` does once the transaction has committed.
 *
 * The caller has made the team's solves stable: the admin's deletion holds the challenges of its
 * games (no judgement can add one), the player's has just found the team never submitted a flag
 * and holds its participations (none can be stored). The recount then locks nothing new: it must
 * not: the team's participations are locked (deleted) by now, and a judgement holding a challenge
 * may be waiting for a key-share lock on one of them (a cheat record naming the team as the source).
 */
export async function removeTeam(tx: Db, team: TeamRow): Promise<RemovedTeam> {
  const held = [...(team.avatarHash ? [team.avatarHash] : []), ...(await writeupHashesOfTeam(tx, team.id))];
  const traces = await teamTraces(tx, team.id);
  const solved = await solvedChallengeIds(tx, team.id);
  await deleteTeamRow(tx, team.id);
  await recountAcceptedCounts(tx, solved);
  const blobs: string[] = [];
  for (const hash of held) {
    if ((await releaseFileRow(tx, hash)) === 'deleted') blobs.push(hash);
  }
  return { blobs, ...traces };
}

/** After the commit: the files go, the engine stops the team's containers, and its games' boards drop it. */
export async function afterTeamRemoved(db: Db, dataDir: string, removed: RemovedTeam): Promise<void> {
  await removeBlobs(db, dataDir, removed.blobs);
  if (removed.containerIds.length > 0) bus.emit('containersRemoved', { containerIds: removed.containerIds });
  for (const gameId of removed.gameIds) bus.emit('scoreboardChanged', { gameId, cause: 'edit' });
}

// ---- player operations ----

export async function getTeam(db: Db, id: number): Promise<TeamInfoModel> {
  const team = await findTeam(db, id);
  if (!team) throw notFound('team.notFound');
  return infoOf(db, team);
}

export async function getMyTeams(db: Db, user: SessionUser): Promise<TeamInfoModel[]> {
  return withMembers(db, await teamsOfUser(db, user.id));
}

export async function createTeam(db: Database, user: SessionUser, body: TeamUpdateModel): Promise<TeamInfoModel> {
  const name = cleanName(body.name);
  if (!name) throw badRequest('team.nameEmpty');
  return db.transaction(async (tx) => {
    if (!(await lockUser(tx, user.id))) throw unauthorized();
    if ((await countCaptaincies(tx, user.id)) >= MAX_CAPTAINCIES) {
      throw badRequest('team.captainLimit', { limit: MAX_CAPTAINCIES });
    }
    const team = await insertTeam(tx, {
      name,
      bio: body.bio ?? null,
      captainId: user.id,
      inviteToken: newInviteToken(),
    });
    await insertMember(tx, team.id, user.id);
    return infoOf(tx, team);
  });
}

/** An empty name keeps the old one; the bio is always replaced, as in GZCTF. */
export async function updateTeamInfo(
  db: Database,
  user: SessionUser,
  id: number,
  body: TeamUpdateModel,
): Promise<TeamInfoModel> {
  return db.transaction(async (tx) => {
    await lockCaptainedTeam(tx, user, id, 400);
    const name = cleanName(body.name);
    const changes: TeamChanges = { bio: body.bio ?? null, ...(name ? { name } : {}) };
    const team = await updateTeam(tx, id, changes);
    if (!team) throw badRequest('team.notFound');
    return infoOf(tx, team);
  });
}

/**
 * A player's deletion. Besides the team lock, a team that has submitted a flag in a game it was
 * accepted to, or whose flag another team submitted there, stays: deleting it would take its solves
 * off the final board (bloods moving to others, dynamic scores rising) and its cheat records with it.
 * Only an admin deletes it then. During a game the lock already refuses; once the game is over the judge stores no new solve (practice stores
 * none), except for flags sent before the end and judged late, and `hasPlayed` sees those.
 */
export async function deleteTeam(db: Database, dataDir: string, user: SessionUser, id: number): Promise<TeamRow> {
  const { team, removed } = await db.transaction(async (tx) => {
    const team = await lockCaptainedTeam(tx, user, id);
    await ensureNotLocked(tx, team);
    if (await hasPlayed(tx, team.id)) throw badRequest('team.played');
    return { team, removed: await removeTeam(tx, team) };
  });
  await afterTeamRemoved(db, dataDir, removed);
  return team;
}

/** Lets the route refuse a non-captain before it reads an upload; `replaceTeamAvatar` checks again. */
export async function assertCaptain(db: Db, user: SessionUser, id: number): Promise<void> {
  const team = await findTeam(db, id);
  if (!team) throw notFound('team.notFound');
  if (team.captainId !== user.id) throw forbidden('team.notCaptain');
}

/** Avatars are 300 px wide WebP, like user avatars; the old picture loses its reference. */
export async function replaceTeamAvatar(
  db: Database,
  dataDir: string,
  user: SessionUser,
  id: number,
  upload: Buffer,
): Promise<string> {
  const webp = await toWebp(upload, { width: 300 });
  const { hash, released } = await db.transaction(async (tx) => {
    const team = await lockCaptainedTeam(tx, user, id);
    const stored = await storeFile(tx, dataDir, { buffer: webp, name: 'avatar.webp' });
    await updateTeam(tx, id, { avatarHash: stored.hash });
    // Re-uploading the same picture took a second reference above; dropping the old one balances it.
    const old = team.avatarHash;
    const released = old && (await releaseFileRow(tx, old)) === 'deleted' ? old : undefined;
    return { hash: stored.hash, released };
  });
  if (released) await removeBlob(db, dataDir, released);
  return avatarUrl(hash)!;
}

export async function getInviteCode(db: Db, user: SessionUser, id: number): Promise<string> {
  const team = await findTeam(db, id);
  if (!team) throw notFound('team.notFound');
  if (team.captainId !== user.id) throw forbidden('team.notCaptain');
  return inviteCodeOf(team);
}

/** A new token: every code handed out before stops working. */
export async function refreshInviteCode(db: Database, user: SessionUser, id: number): Promise<string> {
  return db.transaction(async (tx) => {
    await lockCaptainedTeam(tx, user, id);
    const team = await updateTeam(tx, id, { inviteToken: newInviteToken() });
    if (!team) throw notFound('team.notFound');
    return inviteCodeOf(team);
  });
}

function sameToken(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/**
 * Joins the team an invite code names. Only the id and the token count (the name is decoration);
 * GZCTF applies no member cap and no lock check here, and neither do we.
 */
export async function acceptInvite(db: Database, user: SessionUser, code: string): Promise<TeamRow> {
  const match = INVITE_CODE.exec(code.trim());
  if (!match) throw badRequest('team.inviteMalformed');
  const id = Number(match[1]);
  const token = match[2]!;
  if (id > INT32_MAX) throw badRequest('team.notFound');
  return db.transaction(async (tx) => {
    // A share lock lets members join side by side but waits for a token refresh in progress, so a
    // code that was just replaced can never slip in.
    const team = await lockTeam(tx, id, 'share');
    if (!team) throw badRequest('team.notFound');
    if (!sameToken(team.inviteToken, token)) throw badRequest('team.inviteInvalid');
    if (!(await insertMember(tx, team.id, user.id))) throw badRequest('team.alreadyMember');
    return team;
  });
}

export async function kickMember(db: Database, user: SessionUser, id: number, userId: string): Promise<TeamInfoModel> {
  return db.transaction(async (tx) => {
    const team = await lockCaptainedTeam(tx, user, id);
    if (userId === team.captainId) throw badRequest('team.cannotKickCaptain');
    await ensureNotLocked(tx, team);
    if (!(await deleteMember(tx, id, userId))) throw badRequest('team.userNotMember');
    await deleteUserParticipations(tx, id, userId);
    const current = await findTeam(tx, id);
    return infoOf(tx, current ?? team);
  });
}

/**
 * For a transaction of another module that adds the user to the team's games (joining one): locks
 * the team, so a kick or a leave (which lock it too and drop the member from its games) cannot slip
 * between the check and the join, and tells whether the user is a member. Undefined when there is no
 * such team. The lock is exclusive (`no key update`), not shared: a join that accepts the team then
 * sets its `locked` flag, and two joins of one team each holding a share lock while waiting to
 * update the row deadlocked on PostgreSQL (one answered 500). Joins of one team take turns anyway,
 * on its participation row.
 */
export async function lockTeamMembership(
  tx: Db,
  teamId: number,
  userId: string,
): Promise<{ isMember: boolean } | undefined> {
  if (!(await lockTeam(tx, teamId))) return undefined;
  return { isMember: await isMember(tx, teamId, userId) };
}

/**
 * Leaves a team. The captain cannot: a team always has a captain who is a member, so the captain
 * first transfers the captaincy (or deletes the team).
 */
export async function leaveTeam(db: Database, user: SessionUser, id: number): Promise<TeamRow> {
  return db.transaction(async (tx) => {
    const team = await lockTeam(tx, id);
    if (!team) throw notFound('team.notFound');
    if (!(await isMember(tx, id, user.id))) throw badRequest('team.notMember');
    if (team.captainId === user.id) throw badRequest('team.captainCannotLeave');
    await ensureNotLocked(tx, team);
    await deleteMember(tx, id, user.id);
    await deleteUserParticipations(tx, id, user.id);
    return team;
  });
}

/** Hands the captaincy to another member who captains fewer than 3 teams. */
export async function transferCaptaincy(
  db: Database,
  user: SessionUser,
  id: number,
  newCaptainId: string,
): Promise<TeamInfoModel> {
  return db.transaction(async (tx) => {
    const team = await lockCaptainedTeam(tx, user, id);
    if (newCaptainId === team.captainId) throw badRequest('team.alreadyCaptain');
    // The team lock is held, so the member cannot be kicked or leave before the captaincy lands.
    if (!(await isMember(tx, id, newCaptainId))) throw badRequest('team.newCaptainNotMember');
    const target = await lockUser(tx, newCaptainId);
    if (!target) throw badRequest('team.newCaptainNotMember');
    if ((await countCaptaincies(tx, newCaptainId)) >= MAX_CAPTAINCIES) {
      throw badRequest('team.newCaptainLimit', { userName: target.userName, limit: MAX_CAPTAINCIES });
    }
    const updated = await updateTeam(tx, id, { captainId: newCaptainId });
    return infoOf(tx, updated ?? team);
  });
}

/** 200 for a valid team token, 401 for a wrong signature, 400 when token or key is malformed. */
export function verifySignature(body: SignatureVerifyModel): void {
  const result = verifyTeamToken(body.teamToken, body.publicKey);
  if (result === 'malformed') throw badRequest('team.signatureMalformed');
  if (result === 'invalid') throw new HttpError(401, 'team.signatureInvalid');
}
