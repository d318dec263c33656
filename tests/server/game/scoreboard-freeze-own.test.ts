import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { engines } from '../helpers/database';
import {
  acceptedPlayer,
  assertOk,
  newChallenge,
  newGame,
  settle,
  statusOf,
  submit,
  suiteWithAdmin,
  type Player,
} from './support';

interface Solve {
  id: number;
  score: number;
  type: string;
  time: number;
}
interface Row {
  id: number;
  score: number;
  rank: number;
  divisionRank?: number | null;
  solvedCount: number;
  solvedChallenges: Solve[];
}
interface Board {
  items: Row[];
  challenges: Record<string, Array<{ id: number; score: number }>>;
}

for (const engine of engines()) {
  describe(`under a freeze a team sees its own new solves, and nothing else (${engine.name})`, () => {
    const { ctx, admin } = suiteWithAdmin(engine);
    const get = (player: Player, url: string, etag?: string) =>
      ctx.app.inject({
        method: 'GET',
        url,
        headers: { cookie: player.cookie, ...(etag ? { 'if-none-match': etag } : {}) },
      });
    const scoreOf = (board: Board, challengeId: number) =>
      Object.values(board.challenges)
        .flat()
        .find((challenge) => challenge.id === challengeId)!.score;

    test("a solve after the freeze marks the solver's challenge solved at the frozen score, as a Normal solve", async () => {
      const game = await newGame(admin);
      const early = await newChallenge(admin, game.id, { flags: ['flag{early}'] });
      const late = await newChallenge(admin, game.id, { flags: ['flag{late}'] });
      const solver = await acceptedPlayer(ctx.app, game.id);
      const other = await acceptedPlayer(ctx.app, game.id);
      await submit(solver, game.id, early.id, 'flag{early}');
      // The other team's first blood on `late` makes the solver's later solve a second blood whose
      // live score has decayed: the details must show neither.
      await submit(other, game.id, late.id, 'flag{late}');
      await settle(ctx.app);
      const freezeAt = Date.now() - 1000;
      assert.equal((await admin('PUT', `/api/game/${game.id}/freeze`, { freezeAt })).statusCode, 200);
      await settle(ctx.app);

      const detailsUrl = `/api/game/${game.id}/details`;
      const boardUrl = `/api/game/${game.id}/scoreboard`;
      const solverBefore = await get(solver, detailsUrl);
      const ownBefore = (assertOk('gameDetails', solverBefore) as { rank: Row }).rank;
      const otherBefore = await get(other, detailsUrl);
      assert.equal(otherBefore.statusCode, 200);
      const boardBefore = await get(other, boardUrl);
      assert.equal(boardBefore.statusCode, 200);
      const frozenScore = scoreOf(boardBefore.json<Board>(), late.id);
      assert.ok(!ownBefore.solvedChallenges.some((solve) => solve.id === late.id));

      const id = await submit(solver, game.id, late.id, 'flag{late}');
      await settle(ctx.app);
      assert.equal(await statusOf(solver, game.id, late.id, id), 'Accepted');
      // The live board (an admin's) has it as a second blood at a decayed score.
      const live = (await admin('GET', boardUrl)).json<Board>();
      const liveSolve = live.items
        .find((item) => item.id === solver.team.id)!
        .solvedChallenges.find((solve) => solve.id === late.id)!;
      assert.equal(liveSolve.type, 'SecondBlood');
      assert.notEqual(scoreOf(live, late.id), frozenScore, 'the live score has decayed');

      const solverAfter = await get(solver, detailsUrl, String(solverBefore.headers.etag));
      assert.equal(solverAfter.statusCode, 200, 'the ETag changed with the solve');
      const own = (assertOk('gameDetails', solverAfter) as { rank: Row }).rank;
      const added = own.solvedChallenges.find((solve) => solve.id === late.id);
      assert.ok(added, 'the solve is on its own row');
      assert.equal(added.type, 'Normal');
      assert.equal(added.score, frozenScore);
      assert.ok(added.time >= freezeAt);
      assert.deepEqual(
        own.solvedChallenges.map((solve) => solve.id),
        [early.id, late.id],
      );
      assert.equal(own.solvedCount, 2);
      assert.equal(own.score, ownBefore.score);
      assert.equal(own.rank, ownBefore.rank);
      assert.equal(own.divisionRank, ownBefore.divisionRank);
      // Asked again, the same answer and ETag.
      const again = await get(solver, detailsUrl, String(solverAfter.headers.etag));
      assert.equal(again.statusCode, 304);

      const otherAfter = await get(other, detailsUrl);
      assert.equal(otherAfter.body, otherBefore.body);
      assert.equal(otherAfter.headers.etag, otherBefore.headers.etag);
      assert.equal((await get(other, detailsUrl, String(otherBefore.headers.etag))).statusCode, 304);

      const boardAfter = await get(solver, boardUrl);
      assert.equal(boardAfter.body, boardBefore.body);
      assert.equal((await get(other, boardUrl, String(boardBefore.headers.etag))).statusCode, 304);
    });
  });
}
