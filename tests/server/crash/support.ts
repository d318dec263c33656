import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { DatabaseHandle } from '../../../server/src/db/client';
import { challenges, gameEvents, gameNotices, solves, submissions } from '../../../server/src/db/schema';
import { createSessionCookie, createTeam, createUser } from '../db/fixtures';
import { call, sleep, type CallResult } from '../helpers/server-process';

/**
 * What the crash tests share: a running game with teams signed in, a flood of submissions that
 * records what the server acknowledged, and the check that every acknowledged submission was judged
 * exactly once with consistent solves and bloods.
 */

/** The environment every crash test's server runs with (the database and Redis are the test's). */
export const serverEnv = (dataDir: string, overrides: Record<string, string>): Record<string, string> => ({
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  // The floods come from one address far faster than a player would submit.
  DISABLE_RATE_LIMIT: 'true',
  CONTAINER_PROVIDER: 'None',
  ADMIN_PASSWORD: 'Crash-Admin-Passw0rd',
  DATA_DIR: dataDir,
  DIST_DIR: `${dataDir}/no-client`,
  REDIS_URL: '',
  ...overrides,
});

export interface Player {
  cookie: string;
  teamId: number;
}

export interface PlayingGame {
  gameId: number;
  adminCookie: string;
  players: Player[];
  /** A new enabled static challenge with `flag`, created over HTTP as the admin. */
  newChallenge(flag: string): Promise<{ id: number; title: string }>;
}

/** A game under way with `teams` teams joined (accepted without review), through the server at `base()`. */
export async function startGame(database: DatabaseHandle, base: () => string, teams: number): Promise<PlayingGame> {
  const admin = await createUser(database.db, { role: 'Admin' });
  const adminCookie = await createSessionCookie(database.db, admin.id);
  const game = await call(base(), adminCookie, 'POST', '/api/edit/games', {
    title: `crash ${randomBytes(3).toString('hex')}`,
    start: Date.now() - 3_600_000,
    end: Date.now() + 3_600_000,
    acceptWithoutReview: true,
  });
  assert.equal(game.status, 200, game.text);
  const gameId = game.json<{ id: number }>().id;
  const players: Player[] = [];
  for (let n = 0; n < teams; n += 1) {
    const user = await createUser(database.db);
    const team = await createTeam(database.db, user.id);
    const cookie = await createSessionCookie(database.db, user.id);
    const joined = await call(base(), cookie, 'POST', `/api/game/${gameId}`, { teamId: team.id });
    assert.equal(joined.status, 200, joined.text);
    players.push({ cookie, teamId: team.id });
  }
  return {
    gameId,
    adminCookie,
    players,
    async newChallenge(flag) {
      const title = `challenge ${randomBytes(3).toString('hex')}`;
      const created = await call(base(), adminCookie, 'POST', `/api/edit/games/${gameId}/challenges`, {
        title,
        category: 'Web',
        type: 'StaticAttachment',
      });
      assert.equal(created.status, 200, created.text);
      const id = created.json<{ id: number }>().id;
      const url = `/api/edit/games/${gameId}/challenges/${id}`;
      const flags = await call(base(), adminCookie, 'POST', `${url}/flags`, [{ flag, attachmentType: 'None' }]);
      assert.equal(flags.status, 200, flags.text);
      const enabled = await call(base(), adminCookie, 'PUT', url, { isEnabled: true });
      assert.equal(enabled.status, 200, enabled.text);
      return { id, title };
    },
  };
}

export interface Flood {
  /** Ids the server answered 200 for: committed, so they must be judged. */
  acknowledged: number[];
  /** Every answer that was neither a 200 nor a network failure, for the caller to judge. */
  refusals: CallResult[];
  /** Requests that got no answer within the per-request timeout (a hang). */
  hangs: number;
  /** Scoreboard reads answered 200. */
  boards: number;
  /** Ends the flood and waits for the requests in flight. */
  stop(): Promise<void>;
}

/**
 * Every player of `players` (default: all) submits in a loop (wrong answers, every fourth the right
 * one) and, when `boards` is set, every other request reads the scoreboard, against whatever
 * `base()` is at the time.
 */
export function flood(
  base: () => string,
  game: PlayingGame,
  challenge: { id: number },
  flag: string,
  options: { boards?: boolean; timeoutMs?: number; players?: Player[] } = {},
): Flood {
  let stopped = false;
  const result: Flood = {
    acknowledged: [],
    refusals: [],
    hangs: 0,
    boards: 0,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
  const record = (response: CallResult & { timedOut?: boolean }) => {
    if (response.timedOut) result.hangs += 1;
    else if (response.status !== 0 && response.status !== 200) result.refusals.push(response);
  };
  const loops = (options.players ?? game.players).map(async (player, n) => {
    let sent = 0;
    for (let round = 0; !stopped; round += 1) {
      if (options.boards && (n + round) % 2) {
        const board = await call(
          base(),
          undefined,
          'GET',
          `/api/game/${game.gameId}/scoreboard`,
          undefined,
          options.timeoutMs,
        );
        if (board.status === 200) result.boards += 1;
        record(board);
        continue;
      }
      sent += 1;
      const answer = sent % 4 === 0 ? flag : `flag{wrong-${n}-${round}}`;
      const response = await call(
        base(),
        player.cookie,
        'POST',
        `/api/game/${game.gameId}/challenges/${challenge.id}`,
        { flag: answer },
        options.timeoutMs,
      );
      if (response.status === 200) result.acknowledged.push(response.json<number>());
      record(response);
      // A server that is down refuses at once: without a pause the loop would only spin.
      if (response.status !== 200) await sleep(50);
    }
  });
  return result;
}

/** How many submissions of the challenge are still waiting for their verdict. */
export async function unjudged(database: DatabaseHandle, challengeId: number): Promise<number> {
  const rows = await database.db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(eq(submissions.challengeId, challengeId), eq(submissions.status, 'FlagSubmitted')));
  return rows.length;
}

/**
 * Every acknowledged submission is stored and judged, each exactly once (one FlagSubmit event per
 * submission), every team that answered right solved once, and the first three solves are the
 * bloods, announced once each, with the challenge's accepted count matching.
 */
export async function assertJudgedOnce(
  database: DatabaseHandle,
  gameId: number,
  challenge: { id: number; title: string },
  acknowledged: number[],
): Promise<void> {
  const rows = await database.db
    .select({ id: submissions.id, status: submissions.status, teamId: submissions.teamId })
    .from(submissions)
    .where(eq(submissions.challengeId, challenge.id));
  const byId = new Map(rows.map((row) => [row.id, row]));
  assert.equal(new Set(acknowledged).size, acknowledged.length, 'each acknowledgement names a new submission');
  for (const id of acknowledged) {
    const row = byId.get(id);
    assert.ok(row, `acknowledged submission ${id} is stored`);
    assert.notEqual(row.status, 'FlagSubmitted', `acknowledged submission ${id} is judged`);
  }
  assert.ok(
    rows.every((row) => row.status === 'Accepted' || row.status === 'WrongAnswer'),
    `verdicts: ${[...new Set(rows.map((row) => row.status))].join(', ')}`,
  );

  const events = await database.db
    .select({ values: gameEvents.values })
    .from(gameEvents)
    .where(and(eq(gameEvents.gameId, gameId), eq(gameEvents.type, 'FlagSubmit')));
  const judgements = events.filter((event) => event.values[3] === String(challenge.id));
  assert.equal(judgements.length, rows.length, 'one judgement (FlagSubmit event) per submission');

  const solved = await database.db
    .select({ type: solves.type, submissionId: solves.submissionId })
    .from(solves)
    .where(eq(solves.challengeId, challenge.id))
    .orderBy(solves.solvedAt);
  const solvers = new Set(rows.filter((row) => row.status === 'Accepted').map((row) => row.teamId));
  assert.equal(solved.length, solvers.size, 'one solve per team that answered right');
  const bloods = ['FirstBlood', 'SecondBlood', 'ThirdBlood'];
  assert.deepEqual(
    solved.map((row) => row.type),
    solved.map((_row, index) => bloods[index] ?? 'Normal'),
    'the first three solves are the bloods, in order',
  );
  for (const solve of solved) assert.equal(byId.get(solve.submissionId)?.status, 'Accepted');

  const notices = await database.db
    .select({ type: gameNotices.type, values: gameNotices.values })
    .from(gameNotices)
    .where(eq(gameNotices.gameId, gameId));
  const announced = notices.filter((notice) => bloods.includes(notice.type) && notice.values[1] === challenge.title);
  assert.deepEqual(announced.map((notice) => notice.type).sort(), bloods.slice(0, solved.length).sort());

  const [counters] = await database.db
    .select({ accepted: challenges.acceptedCount })
    .from(challenges)
    .where(eq(challenges.id, challenge.id));
  assert.deepEqual(counters, { accepted: solved.length });
}
