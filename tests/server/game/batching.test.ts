import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { and, eq, inArray } from 'drizzle-orm';
import {
  challenges,
  cheatInfo,
  flags,
  gameEvents,
  gameInstances,
  gameNotices,
  games,
  participations,
  solves,
  submissions,
  users,
} from '../../../server/src/db/schema';
import { setUserRole } from '../../../server/src/modules/accounts/account.repository';
import { unjudgedIds } from '../../../server/src/modules/submissions/checker';
import { computeScoreboard, type ScoreboardModel } from '../../../server/src/modules/scoreboard/scoreboard';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import {
  acceptedPlayer,
  assertError,
  assertOk,
  join,
  newChallenge,
  newGame,
  newPlayer,
  settle,
  submit,
  type Client,
  suiteWithAdmin,
} from './support';

/**
 * The batched paths of playing: concurrent submissions share one context-and-insert statement,
 * concurrent session lookups share one query, and the judge takes many submissions per transaction.
 * Each caller must still get exactly its own answer, and a batch must judge as one-by-one would.
 */
for (const engine of engines()) {
  describe(`batched submitting and judging (${engine.name})`, () => {
    const { ctx, admin } = suiteWithAdmin(engine);

    test('concurrent submissions with different contexts each get their own answer', async () => {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{own}'] });
      const player = await acceptedPlayer(ctx.app, game.id);
      const outsider = await newPlayer(ctx.app);
      const pendingGame = await newGame(admin, { acceptWithoutReview: false });
      const pendingChallenge = await newChallenge(admin, pendingGame.id, { flags: ['flag{p}'] });
      const pending = await newPlayer(ctx.app);
      assert.equal((await join(pending, pendingGame.id)).statusCode, 200);
      const post = (api: Client, gameId: number, challengeId: number, flag: string) =>
        api('POST', `/api/game/${gameId}/challenges/${challengeId}`, { flag });

      const [ok, notJoined, notAccepted, unknownChallenge, unknownGame, empty, tooLong, second] = await Promise.all([
        post(player.api, game.id, challenge.id, 'flag{own}'),
        post(outsider.api, game.id, challenge.id, 'flag{own}'),
        post(pending.api, pendingGame.id, pendingChallenge.id, 'flag{p}'),
        post(player.api, game.id, 999_999, 'flag{own}'),
        post(player.api, 999_999, challenge.id, 'flag{own}'),
        post(player.api, game.id, challenge.id, '   '),
        post(player.api, game.id, challenge.id, `flag{${'x'.repeat(130)}}`),
        post(player.api, game.id, challenge.id, '  flag{trimmed}  '),
      ]);
      const first = assertOk('gameSubmit', ok!) as number;
      const other = assertOk('gameSubmit', second!) as number;
      assert.notEqual(first, other);
      assertError('gameSubmit', notJoined!, 400);
      assertError('gameSubmit', notAccepted!, 400);
      assertError('gameSubmit', unknownChallenge!, 404);
      assertError('gameSubmit', unknownGame!, 404);
      assertError('gameSubmit', empty!, 400);
      assertError('gameSubmit', tooLong!, 400);

      await settle(ctx.app);
      const stored = await ctx.app.db
        .select()
        .from(submissions)
        .where(inArray(submissions.gameId, [game.id, pendingGame.id]));
      assert.deepEqual(
        stored.map((row) => row.id).sort((a, b) => a - b),
        [first, other].sort((a, b) => a - b),
      );
      const byId = new Map(stored.map((row) => [row.id, row]));
      assert.equal(byId.get(first)!.status, 'Accepted');
      assert.equal(byId.get(first)!.teamId, player.team.id);
      assert.equal(byId.get(first)!.userId, player.user.id);
      assert.equal(byId.get(other)!.answer, 'flag{trimmed}');
      assert.equal(byId.get(other)!.status, 'WrongAnswer');
    });

    test('concurrent requests read their own sessions and record their own visits; a ban counts at once', async () => {
      const alice = await asUser(ctx.app);
      const bob = await asUser(ctx.app);
      const banned = await asUser(ctx.app, 'Banned');
      const profile = (cookie: string) =>
        ctx.app.inject({ method: 'GET', url: '/api/account/profile', headers: { cookie } });
      const answers = await Promise.all([
        profile(alice.cookie),
        profile(banned.cookie),
        profile('GZCTF_Token=unknown'),
        profile(bob.cookie),
      ]);
      assert.deepEqual(
        answers.map((response) => response.statusCode),
        [200, 403, 401, 200],
      );
      assert.equal(answers[0]!.json<{ userId: string }>().userId, alice.user.id);
      assert.equal(answers[3]!.json<{ userId: string }>().userId, bob.user.id);

      // Visits recorded by concurrent requests (one statement for both users): lookups read from the
      // database, so the cached ones of the requests above are dropped first.
      for (const user of [alice, bob]) ctx.app.sessionCache.lookups.forgetUser(user.user.id);
      const past = new Date(Date.now() - 60_000);
      await ctx.app.db
        .update(users)
        .set({ lastVisitedAt: past })
        .where(inArray(users.id, [alice.user.id, bob.user.id]));
      await Promise.all([
        ctx.app.inject({
          method: 'GET',
          url: '/api/account/profile',
          headers: { cookie: alice.cookie },
          remoteAddress: '203.0.113.1',
        }),
        ctx.app.inject({
          method: 'GET',
          url: '/api/account/profile',
          headers: { cookie: bob.cookie },
          remoteAddress: '203.0.113.2',
        }),
      ]);
      const visited = new Map(
        (
          await ctx.app.db
            .select({ id: users.id, ip: users.ip, at: users.lastVisitedAt })
            .from(users)
            .where(inArray(users.id, [alice.user.id, bob.user.id]))
        ).map((row) => [row.id, row]),
      );
      assert.equal(visited.get(alice.user.id)!.ip, '203.0.113.1');
      assert.equal(visited.get(bob.user.id)!.ip, '203.0.113.2');
      assert.ok(visited.get(alice.user.id)!.at.getTime() > past.getTime());
      assert.ok(visited.get(bob.user.id)!.at.getTime() > past.getTime());

      await setUserRole(ctx.app.db, alice.user.id, 'Banned');
      const after = await Promise.all([profile(alice.cookie), profile(bob.cookie)]);
      assert.deepEqual(
        after.map((response) => response.statusCode),
        [403, 200],
      );
    });

    test('the intake judges wrong answers to static challenges; the rest waits for the judge', async () => {
      const game = await newGame(admin);
      const fixed = await newChallenge(admin, game.id, { flags: ['flag{a}', 'flag{b}'] });
      const unopened = await newChallenge(admin, game.id, { flags: ['flag{u}'] });
      const dynamic = await newChallenge(admin, game.id, {
        type: 'DynamicContainer',
        flagTemplate: 'flag{[TEAM_HASH]}',
      });
      const player = await acceptedPlayer(ctx.app, game.id);
      assertOk('gameGetChallenge', await player.api('GET', `/api/game/${game.id}/challenges/${dynamic.id}`));
      // A team without the challenge's instance is the judge's to answer (NotFound, no event).
      const [participation] = await ctx.app.db
        .select({ id: participations.id })
        .from(participations)
        .where(and(eq(participations.teamId, player.team.id), eq(participations.gameId, game.id)));
      await ctx.app.db
        .delete(gameInstances)
        .where(and(eq(gameInstances.participationId, participation!.id), eq(gameInstances.challengeId, unopened.id)));

      await ctx.app.flagChecker.stop();
      const [wrong, right, dynamicWrong, noInstance] = await Promise.all([
        submit(player, game.id, fixed.id, 'flag{c}'),
        submit(player, game.id, fixed.id, 'flag{b}'),
        submit(player, game.id, dynamic.id, 'flag{c}'),
        submit(player, game.id, unopened.id, 'flag{x}'),
      ]);
      const statusOf = async () =>
        new Map(
          (await ctx.app.db.select().from(submissions).where(eq(submissions.gameId, game.id))).map((row) => [
            row.id,
            row.status,
          ]),
        );
      const before = await statusOf();
      assert.deepEqual(
        [wrong, right, dynamicWrong, noInstance].map((id) => before.get(id)),
        ['WrongAnswer', 'FlagSubmitted', 'FlagSubmitted', 'FlagSubmitted'],
      );
      assert.deepEqual(
        await unjudgedIds(ctx.app.db),
        [right, dynamicWrong, noInstance].sort((a, b) => a - b),
      );
      assert.equal(
        assertOk('gameStatus', await player.api('GET', `/api/game/${game.id}/challenges/${fixed.id}/status/${wrong}`)),
        'WrongAnswer',
      );
      const eventsOf = async () =>
        (await ctx.app.db.select().from(gameEvents).where(eq(gameEvents.gameId, game.id)))
          .filter((event) => event.type === 'FlagSubmit')
          .map((event) => event.values);
      assert.deepEqual(await eventsOf(), [['WrongAnswer', 'flag{c}', fixed.title, String(fixed.id)]]);

      await ctx.app.flagChecker.start(await unjudgedIds(ctx.app.db));
      await settle(ctx.app);
      const after = await statusOf();
      assert.deepEqual(
        [wrong, right, dynamicWrong, noInstance].map((id) => after.get(id)),
        ['WrongAnswer', 'Accepted', 'WrongAnswer', 'NotFound'],
      );
      assert.deepEqual(
        (await eventsOf()).map((values) => `${values[0]} ${values[3]}`).sort(),
        [`Accepted ${fixed.id}`, `WrongAnswer ${dynamic.id}`, `WrongAnswer ${fixed.id}`].sort(),
      );
    });

    test('one judging batch: submission order gives solves and bloods; repeats, cheats and NotFound alongside', async () => {
      const game = await newGame(admin, { divisions: null });
      const fixed = await newChallenge(admin, game.id, { flags: ['flag{s}'] });
      const dynamic = await newChallenge(admin, game.id, {
        type: 'DynamicContainer',
        flagTemplate: 'flag{[TEAM_HASH]}',
      });
      const doomed = await newChallenge(admin, game.id, { flags: ['flag{d}'] });
      const [p1, p2, p3] = [
        await acceptedPlayer(ctx.app, game.id),
        await acceptedPlayer(ctx.app, game.id),
        await acceptedPlayer(ctx.app, game.id),
      ];
      for (const player of [p1!, p2!]) {
        assertOk('gameGetChallenge', await player.api('GET', `/api/game/${game.id}/challenges/${dynamic.id}`));
      }
      const flagOfTeam = async (player: typeof p1) => {
        const [row] = await ctx.app.db
          .select({ flag: gameInstances.flag })
          .from(gameInstances)
          .innerJoin(participations, eq(participations.id, gameInstances.participationId))
          .where(and(eq(participations.teamId, player!.team.id), eq(gameInstances.challengeId, dynamic.id)));
        return row?.flag;
      };

      // Nothing is judged until every submission is in: then the whole backlog is one batch.
      await ctx.app.flagChecker.stop();
      const ids = {
        p2Right: await submit(p2!, game.id, fixed.id, 'flag{s}'),
        p1Right: await submit(p1!, game.id, fixed.id, 'flag{s}'),
        p2Again: await submit(p2!, game.id, fixed.id, 'flag{s}'),
        p3Wrong: await submit(p3!, game.id, fixed.id, 'flag{nope}'),
        p3Doomed: await submit(p3!, game.id, doomed.id, 'flag{d}'),
      };
      const p2Flag = await flagOfTeam(p2);
      const p1Flag = await flagOfTeam(p1);
      assert.ok(p1Flag && p2Flag && p1Flag !== p2Flag);
      const later = {
        p1Cheat: await submit(p1!, game.id, dynamic.id, p2Flag),
        p1Dynamic: await submit(p1!, game.id, dynamic.id, p1Flag),
        p3Right: await submit(p3!, game.id, fixed.id, 'flag{s}'),
      };
      // Disabled after the submission was acknowledged: judged NotFound.
      await ctx.app.db.update(challenges).set({ isEnabled: false }).where(eq(challenges.id, doomed.id));
      // The wrong static answer was judged by the intake already; the other seven wait for the judge.
      assert.equal((await unjudgedIds(ctx.app.db)).length >= 7, true);
      assert.equal((await unjudgedIds(ctx.app.db, [ids.p3Wrong])).length, 0);
      await ctx.app.flagChecker.start(await unjudgedIds(ctx.app.db));
      await settle(ctx.app);

      const all = { ...ids, ...later };
      const rows = new Map(
        (await ctx.app.db.select().from(submissions).where(eq(submissions.gameId, game.id))).map((row) => [
          row.id,
          row.status,
        ]),
      );
      assert.deepEqual(Object.fromEntries(Object.entries(all).map(([name, id]) => [name, rows.get(id)])), {
        p2Right: 'Accepted',
        p1Right: 'Accepted',
        p2Again: 'Accepted',
        p3Wrong: 'WrongAnswer',
        p3Doomed: 'NotFound',
        p1Cheat: 'CheatDetected',
        p1Dynamic: 'Accepted',
        p3Right: 'Accepted',
      });

      const fixedSolves = (await ctx.app.db.select().from(solves).where(eq(solves.challengeId, fixed.id))).sort(
        (a, b) => a.solvedAt.getTime() - b.solvedAt.getTime(),
      );
      assert.deepEqual(
        fixedSolves.map((row) => [row.submissionId, row.type]),
        [
          [all.p2Right, 'FirstBlood'],
          [all.p1Right, 'SecondBlood'],
          [all.p3Right, 'ThirdBlood'],
        ],
      );
      const dynamicSolves = await ctx.app.db.select().from(solves).where(eq(solves.challengeId, dynamic.id));
      assert.deepEqual(
        dynamicSolves.map((row) => [row.submissionId, row.type]),
        [[all.p1Dynamic, 'FirstBlood']],
      );

      const counts = new Map(
        (await ctx.app.db.select().from(challenges).where(eq(challenges.gameId, game.id))).map((row) => [
          row.id,
          row.acceptedCount,
        ]),
      );
      assert.deepEqual(counts.get(fixed.id), 3);
      assert.deepEqual(counts.get(dynamic.id), 1);
      assert.deepEqual(counts.get(doomed.id), 0);

      const cheats = await ctx.app.db.select().from(cheatInfo).where(eq(cheatInfo.gameId, game.id));
      assert.deepEqual(
        cheats.map((row) => row.submissionId),
        [all.p1Cheat],
      );
      const events = await ctx.app.db.select().from(gameEvents).where(eq(gameEvents.gameId, game.id));
      assert.equal(events.filter((event) => event.type === 'FlagSubmit').length, 7, 'NotFound makes no event');
      assert.equal(events.filter((event) => event.type === 'CheatDetected').length, 1);
      const notices = await ctx.app.db.select().from(gameNotices).where(eq(gameNotices.gameId, game.id));
      assert.deepEqual(
        notices
          .filter((notice) => notice.type !== 'Normal' && notice.type !== 'NewChallenge')
          .map((notice) => `${notice.type}:${notice.values.join('/')}`)
          .sort(),
        [
          `FirstBlood:${p1!.team.name}/${dynamic.title}`,
          `FirstBlood:${p2!.team.name}/${fixed.title}`,
          `SecondBlood:${p1!.team.name}/${fixed.title}`,
          `ThirdBlood:${p3!.team.name}/${fixed.title}`,
        ].sort(),
      );

      const board = assertOk(
        'gameScoreboard',
        await p1!.api('GET', `/api/game/${game.id}/scoreboard`),
      ) as ScoreboardModel;
      const [row] = await ctx.app.db.select().from(games).where(eq(games.id, game.id));
      assert.deepEqual(
        { ...board, updateTimeUtc: 0 },
        { ...(await computeScoreboard(ctx.app.db, row!)), updateTimeUtc: 0 },
      );
    });

    test('dynamic attachments: own flag accepted, another team\u2019s flag is cheating, judged in one batch', async () => {
      const game = await newGame(admin);
      const attachment = await newChallenge(admin, game.id, {
        type: 'DynamicAttachment',
        flags: ['flag{a1}', 'flag{a2}'],
      });
      const alice = await acceptedPlayer(ctx.app, game.id);
      const bob = await acceptedPlayer(ctx.app, game.id);
      for (const player of [alice, bob]) {
        assertOk('gameGetChallenge', await player.api('GET', `/api/game/${game.id}/challenges/${attachment.id}`));
      }
      const flagOf = async (teamId: number) => {
        const [row] = await ctx.app.db
          .select({ flag: flags.flag })
          .from(gameInstances)
          .innerJoin(participations, eq(participations.id, gameInstances.participationId))
          .innerJoin(flags, eq(flags.id, gameInstances.flagId))
          .where(and(eq(participations.teamId, teamId), eq(gameInstances.challengeId, attachment.id)));
        return row!.flag;
      };
      const aliceFlag = await flagOf(alice.team.id);
      assert.notEqual(aliceFlag, await flagOf(bob.team.id));
      await ctx.app.flagChecker.stop();
      const own = await submit(alice, game.id, attachment.id, aliceFlag);
      const stolen = await submit(bob, game.id, attachment.id, aliceFlag);
      const wrong = await submit(bob, game.id, attachment.id, 'flag{none}');
      await ctx.app.flagChecker.start(await unjudgedIds(ctx.app.db));
      await settle(ctx.app);
      const statuses = new Map(
        (await ctx.app.db.select().from(submissions).where(eq(submissions.gameId, game.id))).map((row) => [
          row.id,
          row.status,
        ]),
      );
      assert.deepEqual(
        [statuses.get(own), statuses.get(stolen), statuses.get(wrong)],
        ['Accepted', 'CheatDetected', 'WrongAnswer'],
      );
      const cheats = await ctx.app.db.select().from(cheatInfo).where(eq(cheatInfo.gameId, game.id));
      assert.deepEqual(
        cheats.map((row) => row.submissionId),
        [stolen],
      );
      assert.equal((await ctx.app.db.select().from(solves).where(eq(solves.challengeId, attachment.id))).length, 1);
    });

    test('the cached board is served with an ETag; a matching If-None-Match gets 304 until it changes', async () => {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{e}'] });
      const player = await acceptedPlayer(ctx.app, game.id);
      await settle(ctx.app);
      const url = `/api/game/${game.id}/scoreboard`;
      const first = await ctx.app.inject({ method: 'GET', url });
      assert.equal(first.statusCode, 200);
      const etag = first.headers.etag as string;
      assert.match(etag, /^W\/"[\w-]+"$/);
      assert.match(String(first.headers['content-type']), /^application\/json/);
      const again = await ctx.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');

      await submit(player, game.id, challenge.id, 'flag{e}');
      await settle(ctx.app);
      const changed = await ctx.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
      assert.equal(changed.statusCode, 200);
      assert.notEqual(changed.headers.etag, etag);
      assert.equal(changed.json<ScoreboardModel>().items[0]!.solvedCount, 1);
    });
  });
}
