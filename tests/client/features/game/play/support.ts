import { http, HttpResponse } from 'msw';
import type { ChallengeInfo, DetailedGameInfoModel, GameDetailModel } from '@/features/game/api';
import { server } from '../../../msw';
import { API, mockPlatform } from '../../../helpers/render';

export const GAME_ID = 7;
const HOUR = 3_600_000;

export const ME = { userId: 'me', userName: 'alice', role: 'User' };

/** A running game the viewer has not joined, with overrides. */
export function gameInfo(overrides: Partial<DetailedGameInfoModel> = {}): DetailedGameInfoModel {
  const now = Date.now();
  return {
    id: GAME_ID,
    title: 'Spring CTF',
    summary: 'Warm up for the season',
    content: 'Read **the rules**.',
    hidden: false,
    divisions: null,
    inviteCodeRequired: false,
    writeupRequired: false,
    poster: null,
    limit: 4,
    teamCount: 3,
    division: null,
    teamName: null,
    practiceMode: false,
    status: 'Unsubmitted',
    start: now - HOUR,
    end: now + HOUR,
    ...overrides,
  };
}

export const challenge = (overrides: Partial<ChallengeInfo> & Pick<ChallengeInfo, 'id' | 'title'>): ChallengeInfo => ({
  category: 'Web',
  score: 500,
  solved: 0,
  bloods: [],
  disableBloodBonus: false,
  ...overrides,
});

/** The details of a team that solved the challenges listed in `solved`. */
export function details(challenges: ChallengeInfo[], solved: number[] = [], score = 0): GameDetailModel {
  const byCategory: GameDetailModel['challenges'] = {};
  for (const item of challenges) (byCategory[item.category] ??= []).push(item);
  return {
    challenges: byCategory,
    challengeCount: challenges.length,
    rank: {
      id: 1,
      name: 'Red',
      score,
      rank: solved.length > 0 ? 1 : 0,
      lastSubmissionTime: Date.now(),
      solvedChallenges: solved.map((id) => ({ id, score: 500, type: 'Normal' as const, time: Date.now() })),
      solvedCount: solved.length,
      divisionRank: null,
    },
    teamToken: '1:c2lnbmF0dXJl',
    writeupRequired: false,
    writeupDeadline: Date.now() + HOUR,
  };
}

/** A signed-in player; the game answers `info` and the teams list `teams`. */
export function mockPlayer(info: DetailedGameInfoModel, teams = [{ id: 1, name: 'Red' }]) {
  mockPlatform();
  server.use(
    http.get(`${API}/account/profile`, () => HttpResponse.json(ME)),
    http.get(`${API}/team`, () =>
      HttpResponse.json(teams.map((team) => ({ ...team, bio: null, avatar: null, locked: false, members: [] }))),
    ),
    http.get(`${API}/game/${GAME_ID}`, () => HttpResponse.json(info)),
  );
}
