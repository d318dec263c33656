import type { components } from '../../contract/api.generated';
import type { Db } from '../../db/client';
import type { AnswerResult } from '../../db/schema/enums';
import { searchPattern } from '../../lib/paging';
import { gameOrNotFound, requireStarted } from '../games';
import { listParticipationTeams } from '../participations';
import { toTeamModel } from '../teams';
import * as repo from './monitor.repository';

/** The monitor's lists of a game: submissions and cheat records, a page at a time with the number of all matches. */

type Schemas = components['schemas'];
type CheatInfoModel = Schemas['CheatInfoModel'];

/** A page of a list and the number of all rows its filters match (sent as `X-Total-Count`). */
export interface Listed<T> {
  rows: T[];
  total: number;
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
  requireStarted(await gameOrNotFound(db, gameId));
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
  requireStarted(await gameOrNotFound(db, gameId));
  const pattern = searchPattern(query.search);
  const [rows, total] = await Promise.all([
    repo.listCheatInfo(db, gameId, { count: query.count ?? 0, skip: query.skip ?? 0 }, pattern),
    repo.countCheatInfo(db, gameId, pattern),
  ]);
  const parts = new Map(
    (await listParticipationTeams(db, [...new Set(rows.flatMap((row) => [row.submit, row.source]))])).map((row) => [
      row.participation.id,
      row,
    ]),
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
      team: toTeamModel(row.team),
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
