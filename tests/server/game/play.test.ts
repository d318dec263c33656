import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { cheatInfo, gameEvents, gameInstances, games, participations, solves } from '../../../server/src/db/schema';
import { computeScoreboard, type ScoreboardModel } from '../../../server/src/modules/scoreboard/scoreboard';
import { multipart } from '../helpers/multipart';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import {
  acceptedPlayer,
  assertError,
  assertOk,
  client,
  newChallenge,
  newGame,
  setTimes,
  settle,
  statusOf,
  submit,
  times,
  type Client,
  suiteWithAdmin,
} from './support';

const withoutTime = (board: ScoreboardModel) => ({ ...board, updateTimeUtc: 0 });

for (const engine of engines()) {
  describe(`playing a game (${engine.name})`, () => {
    const { ctx, admin } = suiteWithAdmin(engine);

    const scoreboard = async (api: Client, gameId: number) =>
      assertOk('gameScoreboard', await api('GET', `/api/game/${gameId}/scoreboard`)) as ScoreboardModel;

    test('before the start: 400 with 10001; after the end: 10002 unless practice mode', async () => {
      const game = await newGame(admin, { practiceMode: false });
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{a}'] });
      const player = await acceptedPlayer(ctx.app, game.id);
      await setTimes(ctx.app, game.id, times.HOUR, 2 * times.HOUR);
      for (const [operation, response] of [
        [
          'gameSubmit',
          await player.api('POST', `/api/game/${game.id}/challenges/${challenge.id}`, { flag: 'flag{a}' }),
        ],
        ['gameDetails', await player.api('GET', `/api/game/${game.id}/details`)],
        ['gameScoreboard', await player.api('GET', `/api/game/${game.id}/scoreboard`)],
        ['gameNotices', await player.api('GET', `/api/game/${game.id}/notices`)],
        ['gameSubmissions', await admin('GET', `/api/game/${game.id}/submissions`)],
        ['gameEvents', await admin('GET', `/api/game/${game.id}/events`)],
      ] as const) {
        assert.equal(response.statusCode, 400, `${operation}: ${response.body}`);
        assert.equal(response.json().status, 10001, operation);
      }
      await setTimes(ctx.app, game.id, -2 * times.HOUR, -times.HOUR);
      const ended = await player.api('POST', `/api/game/${game.id}/challenges/${challenge.id}`, { flag: 'flag{a}' });
      assert.equal(ended.statusCode, 400);
      assert.equal(ended.json().status, 10002);
      // Practice mode: accepted, but not scored.
      await ctx.app.db.update(games).set({ practiceMode: true }).where(eq(games.id, game.id));
      const id = await submit(player, game.id, challenge.id, 'flag{a}');
      await settle(ctx.app);
      assert.equal(await statusOf(player, game.id, challenge.id, id), 'Accepted');
      assert.equal((await ctx.app.db.select().from(solves).where(eq(solves.challengeId, challenge.id))).length, 0);
      const board = await scoreboard(player.api, game.id);
      assert.equal(board.items[0]!.score, 0);
    });

    test('a verdict reached after the end, or after a suspension, can still be read (as in GZCTF)', async () => {
      const game = await newGame(admin, { practiceMode: false });
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{late}'] });
      const player = await acceptedPlayer(ctx.app, game.id);
      const id = await submit(player, game.id, challenge.id, 'flag{late}');
      await settle(ctx.app);
      await setTimes(ctx.app, game.id, -2 * times.HOUR, -times.HOUR);
      await ctx.app.db.update(participations).set({ status: 'Suspended' }).where(eq(participations.gameId, game.id));
      assert.equal(await statusOf(player, game.id, challenge.id, id), 'Accepted');
      // Still only the submitter's own, in its game and challenge.
      const other = await newChallenge(admin, game.id, { flags: ['flag{other}'] });
      assertError(
        'gameStatus',
        await player.api('GET', `/api/game/${game.id}/challenges/${other.id}/status/${id}`),
        404,
      );
      const stranger = await acceptedPlayer(ctx.app, (await newGame(admin)).id);
      assertError(
        'gameStatus',
        await stranger.api('GET', `/api/game/${game.id}/challenges/${challenge.id}/status/${id}`),
        404,
      );
    });

    test('context checks: not joined, not accepted, unknown or disabled challenge', async () => {
      const game = await newGame(admin, { acceptWithoutReview: false });
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{b}'] });
      const { cookie } = await asUser(ctx.app);
      assertError('gameDetails', await client(ctx.app, cookie)('GET', `/api/game/${game.id}/details`), 400);
      const pending = await acceptedPlayer(ctx.app, game.id);
      assertError('gameGetChallenge', await pending.api('GET', `/api/game/${game.id}/challenges/${challenge.id}`), 400);
      const open = await newGame(admin);
      const player = await acceptedPlayer(ctx.app, open.id);
      assertError('gameGetChallenge', await player.api('GET', `/api/game/${open.id}/challenges/${challenge.id}`), 404);
      assertError('gameDetails', await player.api('GET', `/api/game/999999/details`), 404);
    });

    test('details and challenge detail follow the contract; dynamic flags are assigned once per team', async () => {
      const game = await newGame(admin);
      const fixed = await newChallenge(admin, game.id, { flags: ['flag{static}'] });
      const dynamic = await newChallenge(admin, game.id, {
        type: 'DynamicContainer',
        flagTemplate: 'flag{[TEAM_HASH]_dyn}',
      });
      const attachment = await newChallenge(admin, game.id, {
        type: 'DynamicAttachment',
        flags: ['flag{d1}', 'flag{d2}'],
      });
      const player = await acceptedPlayer(ctx.app, game.id);
      const details = assertOk('gameDetails', await player.api('GET', `/api/game/${game.id}/details`)) as {
        challengeCount: number;
        teamToken: string;
        rank: { rank: number };
      };
      assert.equal(details.challengeCount, 3);
      assert.match(details.teamToken, new RegExp(`^${player.team.id}:`));
      for (const challenge of [fixed, dynamic, attachment]) {
        const detail = assertOk(
          'gameGetChallenge',
          await player.api('GET', `/api/game/${game.id}/challenges/${challenge.id}`),
        ) as { id: number; score: number; context: { url?: string | null } };
        assert.equal(detail.id, challenge.id);
        assert.equal(detail.score, 1000);
        if (challenge === attachment) assert.match(detail.context.url!, /^https:\/\/example\.com\/flag/);
      }
      const [instance] = await ctx.app.db.select().from(gameInstances).where(eq(gameInstances.challengeId, dynamic.id));
      assert.match(instance!.flag!, /^flag\{[0-9a-f]{12}_dyn\}$/);
      await player.api('GET', `/api/game/${game.id}/challenges/${dynamic.id}`);
      const [again] = await ctx.app.db.select().from(gameInstances).where(eq(gameInstances.challengeId, dynamic.id));
      assert.equal(again!.flag, instance!.flag);
      // Two flags, three teams: the third gets 404.
      const second = await acceptedPlayer(ctx.app, game.id);
      const third = await acceptedPlayer(ctx.app, game.id);
      assert.equal((await second.api('GET', `/api/game/${game.id}/challenges/${attachment.id}`)).statusCode, 200);
      assertError('gameGetChallenge', await third.api('GET', `/api/game/${game.id}/challenges/${attachment.id}`), 404);
    });

    test('wrong, correct, repeated and another team\u2019s dynamic flag', async () => {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, {
        type: 'DynamicContainer',
        flagTemplate: 'flag{[TEAM_HASH]}',
      });
      const alice = await acceptedPlayer(ctx.app, game.id);
      const bob = await acceptedPlayer(ctx.app, game.id);
      for (const player of [alice, bob]) await player.api('GET', `/api/game/${game.id}/challenges/${challenge.id}`);
      const flagOf = async (participationTeam: number) => {
        const rows = await ctx.app.db.select().from(gameInstances).where(eq(gameInstances.challengeId, challenge.id));
        const all = await Promise.all(rows.map(async (row) => row));
        return all.find((row) => row.participationId === participationTeam)!.flag!;
      };
      const aliceDetails = assertOk('gameDetails', await alice.api('GET', `/api/game/${game.id}/details`)) as object;
      assert.ok(aliceDetails);
      const instances = await ctx.app.db
        .select()
        .from(gameInstances)
        .where(eq(gameInstances.challengeId, challenge.id));
      const [aliceFlag, bobFlag] = await Promise.all(instances.map((row) => flagOf(row.participationId)));
      assert.notEqual(aliceFlag, bobFlag);
      const aliceInstance = instances.find((row) => row.flag === aliceFlag)!;
      const bobInstance = instances.find((row) => row.flag === bobFlag)!;

      const wrong = await submit(alice, game.id, challenge.id, 'flag{nope}');
      const cheat = await submit(alice, game.id, challenge.id, `  ${bobInstance.flag!}  `);
      const right = await submit(alice, game.id, challenge.id, aliceInstance.flag!);
      const repeat = await submit(alice, game.id, challenge.id, aliceInstance.flag!);
      await settle(ctx.app);
      assert.equal(await statusOf(alice, game.id, challenge.id, wrong), 'WrongAnswer');
      assert.equal(await statusOf(alice, game.id, challenge.id, cheat), 'WrongAnswer');
      assert.equal(await statusOf(alice, game.id, challenge.id, right), 'Accepted');
      assert.equal(await statusOf(alice, game.id, challenge.id, repeat), 'Accepted');
      assertError(
        'gameStatus',
        await bob.api('GET', `/api/game/${game.id}/challenges/${challenge.id}/status/${right}`),
        404,
      );

      const cheats = await ctx.app.db.select().from(cheatInfo).where(eq(cheatInfo.gameId, game.id));
      assert.equal(cheats.length, 1);
      assert.equal(cheats[0]!.submissionId, cheat);
      const events = await ctx.app.db.select().from(gameEvents).where(eq(gameEvents.gameId, game.id));
      assert.equal(events.filter((event) => event.type === 'CheatDetected').length, 1);
      assert.equal(events.filter((event) => event.type === 'FlagSubmit').length, 4);
      assert.equal((await ctx.app.db.select().from(solves).where(eq(solves.challengeId, challenge.id))).length, 1);

      const monitor = client(ctx.app, (await asUser(ctx.app, 'Monitor')).cookie);
      const info = assertOk('gameCheatInfo', await monitor('GET', `/api/game/${game.id}/cheatinfo`)) as Array<{
        ownedTeam: { team: { id: number } };
        submission: { status: string };
      }>;
      assert.equal(info[0]!.ownedTeam.team.id, bob.team.id);
      assert.equal(info[0]!.submission.status, 'CheatDetected');
      const subs = assertOk('gameSubmissions', await monitor('GET', `/api/game/${game.id}/submissions`)) as unknown[];
      assert.equal(subs.length, 4);
      const accepted = assertOk(
        'gameSubmissions',
        await monitor('GET', `/api/game/${game.id}/submissions?type=Accepted`),
      ) as unknown[];
      assert.equal(accepted.length, 2);
      const evs = assertOk('gameEvents', await monitor('GET', `/api/game/${game.id}/events`)) as unknown[];
      assert.equal(evs.length, 5);
      const notices = assertOk('gameNotices', await alice.api('GET', `/api/game/${game.id}/notices`)) as Array<{
        type: string;
        values: string[];
      }>;
      assert.ok(notices.some((notice) => notice.type === 'FirstBlood' && notice.values[0] === alice.team.name));
      assertError('gameSubmissions', await alice.api('GET', `/api/game/${game.id}/submissions`), 403);
    });

    test('50 concurrent correct submissions from 10 teams: 10 solves, three bloods, board equals a recomputation', async () => {
      const game = await newGame(admin, { divisions: null });
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{race}'] });
      const other = await newChallenge(admin, game.id, { flags: ['flag{other}'] });
      const players = [];
      for (let index = 0; index < 10; index += 1) players.push(await acceptedPlayer(ctx.app, game.id));
      const ids = await Promise.all(
        players.flatMap((player) =>
          Array.from({ length: 5 }, () => submit(player, game.id, challenge.id, 'flag{race}')),
        ),
      );
      assert.equal(new Set(ids).size, 50);
      await submit(players[3]!, game.id, other.id, 'flag{other}');
      await settle(ctx.app);
      const rows = await ctx.app.db.select().from(solves).where(eq(solves.challengeId, challenge.id));
      assert.equal(rows.length, 10);
      const ordered = [...rows].sort(
        (a, b) => a.solvedAt.getTime() - b.solvedAt.getTime() || a.submissionId - b.submissionId,
      );
      assert.deepEqual(rows.map((row) => row.type).sort(), [
        'FirstBlood',
        'Normal',
        'Normal',
        'Normal',
        'Normal',
        'Normal',
        'Normal',
        'Normal',
        'SecondBlood',
        'ThirdBlood',
      ]);
      const board = await scoreboard(players[0]!.api, game.id);
      const info = board.challenges.Web!.find((item) => item.id === challenge.id)!;
      assert.equal(info.solved, 10);
      assert.equal(info.bloods.length, 3);
      assert.equal(board.items.length, 10);
      assert.deepEqual(
        board.items.map((item) => item.rank),
        Array.from({ length: 10 }, (_, index) => index + 1),
      );
      // Bloods on the board are the three earliest solves.
      assert.deepEqual(
        ordered.slice(0, 3).map((row) => row.type),
        ['FirstBlood', 'SecondBlood', 'ThirdBlood'],
      );
      const teamOfParticipation = new Map(
        (await ctx.app.db.select().from(participations).where(eq(participations.gameId, game.id))).map((row) => [
          row.id,
          row.teamId,
        ]),
      );
      assert.deepEqual(
        info.bloods.map((blood) => blood.id),
        ordered.slice(0, 3).map((row) => teamOfParticipation.get(row.participationId)),
      );
      const [game0] = await ctx.app.db.select().from(games).where(eq(games.id, game.id));
      assert.deepEqual(withoutTime(board), withoutTime(await computeScoreboard(ctx.app.db, game0!)));
      // Blood bonus: 1000 × 1.05 for the first, and the retroactive dynamic score for the rest.
      const first = board.items
        .flatMap((item) => item.solvedChallenges)
        .find((item) => item.type === 'FirstBlood' && item.id === challenge.id)!;
      assert.equal(first.score, Math.round(info.score * 1.05));
      // The team with the extra solve ranks first.
      assert.equal(board.items[0]!.id, players[3]!.team.id);
    });

    test('monitors download the scoreboard and submission sheets', async () => {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{sheet}'] });
      const player = await acceptedPlayer(ctx.app, game.id);
      await submit(player, game.id, challenge.id, 'flag{sheet}');
      await submit(player, game.id, challenge.id, 'flag{no}');
      await settle(ctx.app);
      const monitor = client(ctx.app, (await asUser(ctx.app, 'Monitor')).cookie);
      const board = await monitor('GET', `/api/game/${game.id}/scoreboardsheet`);
      assert.equal(board.statusCode, 200, board.body);
      assert.match(String(board.headers['content-disposition']), /Scoreboard-\d+\.xlsx/);
      const boardBook = new ExcelJS.Workbook();
      await boardBook.xlsx.load(board.rawPayload as unknown as ArrayBuffer);
      const row = boardBook.worksheets[0]!.getRow(2).values as unknown[];
      assert.deepEqual(row.slice(1, 6), [1, player.team.name, '', 1, 1050]);
      const subs = await monitor('GET', `/api/game/${game.id}/submissionsheet`);
      assert.equal(subs.statusCode, 200, subs.body);
      assert.match(String(subs.headers['content-disposition']), /_Submissions_\d{14}\.xlsx/);
      const subsBook = new ExcelJS.Workbook();
      await subsBook.xlsx.load(subs.rawPayload as unknown as ArrayBuffer);
      assert.equal(subsBook.worksheets[0]!.rowCount, 3);
      assertError('gameSubmissionSheet', await player.api('GET', `/api/game/${game.id}/submissionsheet`), 403);
    });

    test('writeups: PDF only, while required and before the deadline; replacing keeps one file', async () => {
      const game = await newGame(admin, {
        writeupRequired: true,
        // After the game's end (now + 1 h, read a few ms later), or the game is refused.
        writeupDeadline: Date.now() + 2 * times.HOUR,
        writeupNote: 'n',
      });
      const player = await acceptedPlayer(ctx.app, game.id);
      const upload = (name: string, contentType: string, content = '%PDF-1.4 writeup') => {
        const body = multipart([{ field: 'file', filename: name, content, contentType }]);
        return ctx.app.inject({
          method: 'POST',
          url: `/api/game/${game.id}/writeup`,
          payload: body.payload,
          headers: { ...body.headers, cookie: player.cookie },
        });
      };
      const empty = assertOk('gameGetWriteup', await player.api('GET', `/api/game/${game.id}/writeup`)) as {
        submitted: boolean;
        name: string;
      };
      assert.deepEqual([empty.submitted, empty.name], [false, '#']);
      assertError('gameSubmitWriteup', await upload('w.txt', 'application/pdf'), 400);
      assertError('gameSubmitWriteup', await upload('w.pdf', 'text/plain'), 400);
      assert.equal((await upload('w.pdf', 'application/pdf')).statusCode, 200);
      assert.equal((await upload('w2.pdf', 'application/pdf', '%PDF-1.4 second')).statusCode, 200);
      const info = assertOk('gameGetWriteup', await player.api('GET', `/api/game/${game.id}/writeup`)) as {
        submitted: boolean;
        name: string;
        fileSize: number;
        note: string;
      };
      assert.equal(info.submitted, true);
      assert.match(info.name, new RegExp(`^Writeup-${game.id}-${player.team.id}-\\d+\\.pdf$`));
      assert.equal(info.fileSize, '%PDF-1.4 second'.length);
      assert.equal(info.note, 'n');
      await ctx.app.db
        .update(games)
        .set({ writeupDeadline: new Date(Date.now() - 1000) })
        .where(eq(games.id, game.id));
      assertError('gameSubmitWriteup', await upload('w.pdf', 'application/pdf'), 400);
    });

    test('a freeze hides later solves from players only; the CTFtime feed follows the players\u2019 view', async () => {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{frozen}'] });
      const player = await acceptedPlayer(ctx.app, game.id);
      const freeze = await ctx.app.inject({
        method: 'PUT',
        url: `/api/game/${game.id}/freeze`,
        payload: { freezeAt: Date.now() - 1000 },
        headers: { cookie: (await asUser(ctx.app, 'Admin')).cookie },
      });
      assert.equal(freeze.statusCode, 200, freeze.body);
      const refused = await player.api('PUT', `/api/game/${game.id}/freeze`, { freezeAt: null });
      assert.equal(refused.statusCode, 403);
      // Another team solves it too, so its score decays (one solve keeps the full score).
      const other = await acceptedPlayer(ctx.app, game.id);
      const shownScore = async (who: Client) =>
        (
          assertOk('gameGetChallenge', await who(`GET`, `/api/game/${game.id}/challenges/${challenge.id}`)) as {
            score: number;
          }
        ).score;
      const fullScore = await shownScore(player.api);
      await submit(player, game.id, challenge.id, 'flag{frozen}');
      await submit(other, game.id, challenge.id, 'flag{frozen}');
      await settle(ctx.app);
      // Nothing tells players of the solves: no blood notice, and the challenge keeps its frozen score.
      const notices = assertOk('gameNotices', await player.api('GET', `/api/game/${game.id}/notices`)) as Array<{
        type: string;
      }>;
      assert.ok(!notices.some((notice) => notice.type.endsWith('Blood')), JSON.stringify(notices));
      assert.equal(await shownScore(player.api), fullScore);
      const frozen = await scoreboard(player.api, game.id);
      assert.equal(frozen.items[0]!.score, 0);
      assert.ok(typeof frozen.freezeTime === 'number' && frozen.freezeTime < Date.now(), 'players learn when it froze');
      const live = await scoreboard(admin, game.id);
      const liveScore = live.items.find((item) => item.id === player.team.id)!.score;
      assert.ok(liveScore > 0);
      const challengeOn = (board: ScoreboardModel) =>
        Object.values(board.challenges)
          .flat()
          .find((entry) => entry.id === challenge.id)!.score;
      assert.ok(challengeOn(live) < fullScore, 'the live board counts both solves');
      assert.equal(live.freezeTime ?? null, null, 'the live board carries no freeze time');
      const feed = await ctx.app.inject({ method: 'GET', url: `/api/game/${game.id}/ctftime.json` });
      assert.deepEqual(
        (feed.json() as { standings: Array<{ score: number }> }).standings.map((standing) => standing.score),
        [0, 0],
      );
      await admin('PUT', `/api/game/${game.id}/freeze`, { freezeAt: null });
      await settle(ctx.app);
      const thawed = await scoreboard(player.api, game.id);
      assert.equal(thawed.items.find((item) => item.id === player.team.id)!.score, liveScore);
      assert.equal(await shownScore(player.api), challengeOn(live));
      assert.equal(thawed.freezeTime ?? null, null);
    });

    test("an admin deleting a team takes it off its games' boards at once", async () => {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{gone}'] });
      const [stays, goes] = [await acceptedPlayer(ctx.app, game.id), await acceptedPlayer(ctx.app, game.id)];
      await submit(goes, game.id, challenge.id, 'flag{gone}');
      await settle(ctx.app);
      const teamsOn = async () => (await scoreboard(stays.api, game.id)).items.map((item) => item.id).sort();
      assert.deepEqual(await teamsOn(), [stays.team.id, goes.team.id].sort());
      assert.equal((await admin('DELETE', `/api/admin/teams/${goes.team.id}`)).statusCode, 200);
      await settle(ctx.app);
      assert.deepEqual(await teamsOn(), [stays.team.id]);
    });

    test('admins read the freeze back; a freeze outside the game is refused in the user\u2019s language and nothing is written', async () => {
      const game = await newGame(admin);
      const stored = await ctx.app.db.select().from(games).where(eq(games.id, game.id));
      const startAt = stored[0]!.startAt.getTime();
      const endAt = stored[0]!.endAt.getTime();
      assert.deepEqual((await admin('GET', `/api/game/${game.id}/freeze`)).json(), { freezeAt: null });

      const inside = startAt + Math.floor((endAt - startAt) / 2);
      assert.equal((await admin('PUT', `/api/game/${game.id}/freeze`, { freezeAt: inside })).statusCode, 200);
      assert.deepEqual((await admin('GET', `/api/game/${game.id}/freeze`)).json(), { freezeAt: inside });

      for (const outside of [startAt - 60_000, endAt + 60_000]) {
        const refused = await ctx.app.inject({
          method: 'PUT',
          url: `/api/game/${game.id}/freeze`,
          payload: { freezeAt: outside },
          headers: { cookie: (await asUser(ctx.app, 'Admin')).cookie, 'accept-language': 'de-DE' },
        });
        assert.equal(refused.statusCode, 400, refused.body);
        assert.deepEqual(refused.json(), {
          title: 'Der Einfrierzeitpunkt muss zwischen Beginn und Ende des Wettbewerbs liegen',
          status: 400,
        });
      }
      assert.deepEqual((await admin('GET', `/api/game/${game.id}/freeze`)).json(), { freezeAt: inside });

      const player = await acceptedPlayer(ctx.app, game.id);
      assert.equal((await player.api('GET', `/api/game/${game.id}/freeze`)).statusCode, 403);
      assert.equal((await admin('GET', '/api/game/999999/freeze')).statusCode, 404);
    });
  });
}
