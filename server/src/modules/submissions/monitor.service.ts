import type { components } from '../../contract/api.generated';
import type { Db } from '../../db/client';
import { participationStatuses, type AnswerResult, type EventType } from '../../db/schema/enums';
import { searchPattern } from '../../lib/paging';
import { fileUrl } from '../../lib/storage';
import * as repo from './monitor.repository';
import { requireGame, requireStarted } from './game.service';

/**
 * The monitor's and the reviewer's lists of a game: events, submissions, cheat records and
 * participations, a page at a time with the number of all matches.
 */

type Schemas = components['schemas'];
type GameEventModel = Schemas['GameEvent'];
type CheatInfoModel = Schemas['CheatInfoModel'];

/** A page of a list and the number of all rows its filters match (sent as `X-Total-Count`). */
export interface Listed<T> {
  rows: T[];
  total: number;
}

export async function events(
  db: Db,
  gameId: number,
  query: { count?: number; skip?: number; hideContainer?: boolean; type?: EventType; search?: string },
): Promise<Listed<GameEventModel>> {
  requireStarted(await requireGame(db, gameId));
  const filter = {
    hideContainer: query.hideContainer ?? false,
    type: query.type,
    pattern: searchPattern(query.search),
  };
  const [rows, total] = await Promise.all([
    repo.listEvents(db, gameId, { count: query.count ?? 100, skip: query.skip ?? 0 }, filter),
    repo.countEvents(db, gameId, filter),
  ]);
  return {
    total,
    rows: rows.map((row) => ({
      type: row.event.type,
      values: row.event.values,
      time: row.event.at.getTime(),
      user: row.user ?? '',
      team: row.team ?? '',
    })),
  };
}

type SubmissionView = Awaited<ReturnType<typeof repo.listSubmissions>>[number];
export const toSubmission = (row: SubmissionView) => ({
  answer: row.answer,
  status: row.status,
  time: row.submittedAt.getTime(),
  user: row.user ?? '',
  team: row.team,
  challenge: row.challenge,
});

export async function submissionList(
  db: Db,
  gameId: number,
  query: { count?: number; skip?: number; type?: AnswerResult; search?: string },
): Promise<Listed<ReturnType<typeof toSubmission>>> {
  await requireGame(db, gameId);
  const filter = { type: query.type, pattern: searchPattern(query.search) };
  const [rows, total] = await Promise.all([
    repo.listSubmissions(db, gameId, { count: query.count ?? 100, skip: query.skip ?? 0 }, filter),
    repo.countSubmissions(db, gameId, filter),
  ]);
  return { rows: rows.map(toSubmission), total };
}

export async function cheatInfoList(
  db: Db,
  gameId: number,
  query: { count?: number; skip?: number; search?: string } = {},
): Promise<Listed<CheatInfoModel>> {
  requireStarted(await requireGame(db, gameId));
  const pattern = searchPattern(query.search);
  const [rows, total] = await Promise.all([
    repo.listCheatInfo(db, gameId, { count: query.count ?? 0, skip: query.skip ?? 0 }, pattern),
    repo.countCheatInfo(db, gameId, pattern),
  ]);
  const parts = new Map(
    (await repo.listParticipationTeams(db, [...new Set(rows.flatMap((row) => [row.submit, row.source]))])).map(
      (row) => [row.participation.id, row],
    ),
  );
  const subs = new Map(
    (
      await repo.listSubmissionViews(
        db,
        rows.map((row) => row.submissionId),
      )
    ).map((row) => [row.id, row]),
  );
  const participationModel = (id: number) => {
    const row = parts.get(id)!;
    return {
      id,
      team: {
        id: row.team.id,
        name: row.team.name,
        avatar: row.team.avatarHash ? fileUrl(row.team.avatarHash, 'avatar') : null,
      },
      status: row.participation.status,
      division: row.participation.division,
    };
  };
  return {
    total,
    rows: rows.map((row) => ({
      ownedTeam: participationModel(row.source),
      submitTeam: participationModel(row.submit),
      submission: toSubmission(subs.get(row.submissionId)!),
    })),
  };
}

/** The statuses the review list can be filtered by. */
export const PARTICIPATION_STATUSES = participationStatuses;

/** The review list (see `repo.listGameParticipations`): the items as GZCTF shapes them, and the total. */
export async function participationList(db: Db, gameId: number, filter: repo.ParticipationFilter = {}) {
  await requireGame(db, gameId);
  const { rows, total, members, registered } = await repo.listGameParticipations(db, gameId, filter);
  const membersOf = groupBy(members, (member) => member.teamId);
  const registeredIn = groupBy(registered, (row) => row.participationId);
  const items = rows.map(({ participation, team }) => ({
    id: participation.id,
    team: {
      id: team.id,
      name: team.name,
      bio: team.bio,
      avatar: team.avatarHash ? fileUrl(team.avatarHash, 'avatar') : null,
      locked: team.locked,
      captainId: team.captainId,
      members: (membersOf.get(team.id) ?? []).map(({ user }) => ({
        // ProfileUserInfoModel names the id `userId`; the captain is told by the team's `captainId`.
        userId: user.id,
        userName: user.userName,
        realName: user.realName,
        stdNumber: user.stdNumber,
        phone: user.phone,
        email: user.email,
        avatar: user.avatarHash ? fileUrl(user.avatarHash, 'avatar') : null,
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
