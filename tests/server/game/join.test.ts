import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { participations, teamMembers, userParticipations } from '../../../server/src/db/schema';
import { engines } from '../helpers/database';
import { assertError, assertOk, client, join, newGame, newPlayer, setTimes, times, suiteWithAdmin } from './support';

for (const engine of engines()) {
  describe(`game list, join and leave (${engine.name})`, () => {
    const { ctx, admin } = suiteWithAdmin(engine);

    test('lists and details follow the contract; hidden games are reachable by id only', async () => {
      const visible = await newGame(admin);
      const hidden = await newGame(admin, { hidden: true });
      const list = assertOk('gameGames', await client(ctx.app, undefined)('GET', '/api/game?count=50')) as {
        data: Array<{ id: number }>;
        total: number;
      };
      assert.ok(list.data.some((game) => game.id === visible.id));
      assert.ok(!list.data.some((game) => game.id === hidden.id));
      assert.ok(list.total >= 2);
      const recent = assertOk('gameRecentGames', await client(ctx.app, undefined)('GET', '/api/game/recent')) as Array<{
        id: number;
      }>;
      assert.ok(recent.some((game) => game.id === visible.id));
      const info = assertOk('gameGame', await client(ctx.app, undefined)('GET', `/api/game/${hidden.id}`)) as {
        status: string;
        teamCount: number;
      };
      assert.equal(info.status, 'Unsubmitted');
      assert.equal(info.teamCount, 0);
      assertError('gameGame', await client(ctx.app, undefined)('GET', '/api/game/999999'), 404);
    });

    test('join checks invite code, division and membership, in that order', async () => {
      const game = await newGame(admin, {
        inviteCode: 'secret',
        divisions: ['Pro', 'Edu'],
        acceptWithoutReview: false,
      });
      const player = await newPlayer(ctx.app);
      assertError('gameJoinGame', await join(player, game.id, { inviteCode: 'wrong', division: 'Pro' }), 400);
      assertError('gameJoinGame', await join(player, game.id, { inviteCode: 'secret' }), 400);
      assertError('gameJoinGame', await join(player, game.id, { inviteCode: 'secret', division: 'Nope' }), 400);
      assertError(
        'gameJoinGame',
        await join(player, game.id, { inviteCode: 'secret', division: 'Pro', teamId: 999999 }),
        404,
      );
      const stranger = await newPlayer(ctx.app);
      assertError(
        'gameJoinGame',
        await stranger.api('POST', `/api/game/${game.id}`, {
          teamId: player.team.id,
          inviteCode: 'secret',
          division: 'Pro',
        }),
        400,
      );
      assert.equal((await join(player, game.id, { inviteCode: 'secret', division: 'Pro' })).statusCode, 200);
      const info = assertOk('gameGame', await player.api('GET', `/api/game/${game.id}`)) as Record<string, unknown>;
      assert.equal(info.status, 'Pending');
      assert.equal(info.division, 'Pro');
      assert.equal(info.teamName, player.team.name);
      assert.equal(info.inviteCodeRequired, true);
    });

    test('one non-rejected participation per user and game; member limit; accept without review', async () => {
      const game = await newGame(admin, { teamMemberCountLimit: 2 });
      const player = await newPlayer(ctx.app);
      assert.equal((await join(player, game.id)).statusCode, 200);
      const [row] = await ctx.app.db.select().from(participations).where(eq(participations.teamId, player.team.id));
      assert.equal(row!.status, 'Accepted');
      assert.match(row!.token, new RegExp(`^${player.team.id}:`));
      // The same user cannot join again with another team.
      const other = await newPlayer(ctx.app);
      await ctx.app.db.insert(teamMembers).values({ teamId: other.team.id, userId: player.user.id });
      assertError('gameJoinGame', await player.api('POST', `/api/game/${game.id}`, { teamId: other.team.id }), 400);
      // Two members fit, the third does not.
      const second = await newPlayer(ctx.app);
      const third = await newPlayer(ctx.app);
      for (const member of [second, third]) {
        await ctx.app.db.insert(teamMembers).values({ teamId: player.team.id, userId: member.user.id });
      }
      assert.equal((await second.api('POST', `/api/game/${game.id}`, { teamId: player.team.id })).statusCode, 200);
      assertError('gameJoinGame', await third.api('POST', `/api/game/${game.id}`, { teamId: player.team.id }), 400);
      // Accepted teams cannot leave.
      assertError('gameLeaveGame', await player.api('DELETE', `/api/game/${game.id}`), 400);
    });

    test("a member joining later changes neither a reviewed team's status nor its division", async () => {
      const game = await newGame(admin, { divisions: ['Pro', 'Edu'] });
      const player = await newPlayer(ctx.app);
      assert.equal((await join(player, game.id, { division: 'Pro' })).statusCode, 200);
      const row = async () =>
        (await ctx.app.db.select().from(participations).where(eq(participations.gameId, game.id)))[0]!;
      assert.equal((await row()).status, 'Accepted');
      const newcomer = async () => {
        const member = await newPlayer(ctx.app);
        await ctx.app.db.insert(teamMembers).values({ teamId: player.team.id, userId: member.user.id });
        return member.api('POST', `/api/game/${game.id}`, { teamId: player.team.id, division: 'Edu' });
      };
      assert.equal((await newcomer()).statusCode, 200);
      assert.deepEqual([(await row()).status, (await row()).division], ['Accepted', 'Pro']);
      const suspend = await admin('PUT', `/api/admin/participation/${(await row()).id}`, { status: 'Suspended' });
      assert.equal(suspend.statusCode, 200, suspend.body);
      assert.equal((await newcomer()).statusCode, 200);
      assert.deepEqual([(await row()).status, (await row()).division], ['Suspended', 'Pro']);
    });

    // Two connections: the test holds a kick open while the join waits on the team.
    if (engine.name === 'postgres') {
      test('a member kicked while joining does not end up in the game', async () => {
        const game = await newGame(admin, { acceptWithoutReview: false });
        const captain = await newPlayer(ctx.app);
        const member = await newPlayer(ctx.app);
        await ctx.app.db.insert(teamMembers).values({ teamId: captain.team.id, userId: member.user.id });
        let joining: ReturnType<typeof member.api> | undefined;
        // The kick's transaction: the team locked, the member gone, not yet committed.
        await ctx.app.db.transaction(async (tx) => {
          await tx.execute(sql`select id from teams where id = ${captain.team.id} for no key update`);
          await tx
            .delete(teamMembers)
            .where(and(eq(teamMembers.teamId, captain.team.id), eq(teamMembers.userId, member.user.id)));
          joining = member.api('POST', `/api/game/${game.id}`, { teamId: captain.team.id });
          await new Promise((resolve) => setTimeout(resolve, 300));
        });
        assertError('gameJoinGame', await joining!, 400);
        const memberships = await ctx.app.db
          .select()
          .from(userParticipations)
          .where(eq(userParticipations.userId, member.user.id));
        assert.deepEqual(memberships, []);
      });
    }

    // Two connections: the test holds the team's row lock so that the requests line up behind it in
    // a known order, then lets them go; they must take turns, not deadlock (PostgreSQL answers a
    // deadlock by failing one side: a 500) nor decide on what the other is changing.
    if (engine.name === 'postgres') {
      const holdingTeam = async (teamId: number, whileHeld: () => Promise<void>) =>
        ctx.app.db.transaction(async (tx) => {
          await tx.execute(sql`select id from teams where id = ${teamId} for no key update`);
          await whileHeld();
        });
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const participationOf = async (gameId: number, teamId: number) =>
        (
          await ctx.app.db
            .select()
            .from(participations)
            .where(and(eq(participations.gameId, gameId), eq(participations.teamId, teamId)))
        )[0];
      const withMember = async (captain: Awaited<ReturnType<typeof newPlayer>>) => {
        const member = await newPlayer(ctx.app);
        await ctx.app.db.insert(teamMembers).values({ teamId: captain.team.id, userId: member.user.id });
        return member;
      };

      test('two members joining at once a game that accepts without review: both in, no deadlock', async () => {
        const game = await newGame(admin, { acceptWithoutReview: true });
        const captain = await newPlayer(ctx.app);
        const member = await withMember(captain);
        let joins: Array<ReturnType<typeof join>> = [];
        await holdingTeam(captain.team.id, async () => {
          joins = [join(captain, game.id), member.api('POST', `/api/game/${game.id}`, { teamId: captain.team.id })];
          await pause(300);
        });
        for (const response of await Promise.all(joins)) assert.equal(response.statusCode, 200, response.body);
        const row = await participationOf(game.id, captain.team.id);
        assert.equal(row?.status, 'Accepted');
        const members = await ctx.app.db
          .select()
          .from(userParticipations)
          .where(eq(userParticipations.participationId, row!.id));
        assert.equal(members.length, 2);
      });

      test("an admin's accept racing a member's join: both done, one after the other", async () => {
        const game = await newGame(admin, { acceptWithoutReview: false });
        const captain = await newPlayer(ctx.app);
        assert.equal((await join(captain, game.id)).statusCode, 200);
        const member = await withMember(captain);
        const pending = await participationOf(game.id, captain.team.id);
        let joining: ReturnType<typeof join> | undefined;
        let accepting: ReturnType<typeof admin> | undefined;
        await holdingTeam(captain.team.id, async () => {
          joining = member.api('POST', `/api/game/${game.id}`, { teamId: captain.team.id });
          await pause(150);
          accepting = admin('PUT', `/api/admin/participation/${pending!.id}`, { status: 'Accepted' });
          await pause(150);
        });
        const [joined, accepted] = await Promise.all([joining!, accepting!]);
        assert.equal(joined.statusCode, 200, joined.body);
        assert.equal(accepted.statusCode, 200, accepted.body);
        assert.equal((await participationOf(game.id, captain.team.id))?.status, 'Accepted');
      });

      test("a leave racing an admin's accept never deletes the accepted participation", async () => {
        const game = await newGame(admin, { acceptWithoutReview: false });
        const captain = await newPlayer(ctx.app);
        assert.equal((await join(captain, game.id)).statusCode, 200);
        const pending = await participationOf(game.id, captain.team.id);
        let accepting: ReturnType<typeof admin> | undefined;
        let leaving: ReturnType<typeof captain.api> | undefined;
        await holdingTeam(captain.team.id, async () => {
          accepting = admin('PUT', `/api/admin/participation/${pending!.id}`, { status: 'Accepted' });
          await pause(150);
          leaving = captain.api('DELETE', `/api/game/${game.id}`);
          await pause(150);
        });
        const [accepted, left] = await Promise.all([accepting!, leaving!]);
        assert.equal(accepted.statusCode, 200, accepted.body);
        assertError('gameLeaveGame', left, 400);
        assert.equal((await participationOf(game.id, captain.team.id))?.status, 'Accepted');
      });

      test('the last two members leaving at once take the participation with them', async () => {
        const game = await newGame(admin, { acceptWithoutReview: false });
        const captain = await newPlayer(ctx.app);
        const member = await withMember(captain);
        assert.equal((await join(captain, game.id)).statusCode, 200);
        assert.equal((await member.api('POST', `/api/game/${game.id}`, { teamId: captain.team.id })).statusCode, 200);
        let leaves: Array<ReturnType<typeof captain.api>> = [];
        await holdingTeam(captain.team.id, async () => {
          leaves = [captain.api('DELETE', `/api/game/${game.id}`), member.api('DELETE', `/api/game/${game.id}`)];
          await pause(300);
        });
        for (const response of await Promise.all(leaves)) assert.equal(response.statusCode, 200, response.body);
        assert.equal(await participationOf(game.id, captain.team.id), undefined);
      });
    }

    test('ended games refuse joins with 10002 unless in practice mode', async () => {
      const game = await newGame(admin, { practiceMode: false });
      await setTimes(ctx.app, game.id, -2 * times.HOUR, -times.HOUR);
      const player = await newPlayer(ctx.app);
      const response = await join(player, game.id);
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().status, 10002);
      assertMatches(response);
      const practice = await newGame(admin, { practiceMode: true });
      await setTimes(ctx.app, practice.id, -2 * times.HOUR, -times.HOUR);
      assert.equal((await join(player, practice.id)).statusCode, 200);
    });

    test('leave removes the member and the participation with its last member; a rejected user may rejoin', async () => {
      const game = await newGame(admin, { acceptWithoutReview: false });
      const player = await newPlayer(ctx.app);
      assert.equal((await join(player, game.id)).statusCode, 200);
      assert.equal((await player.api('DELETE', `/api/game/${game.id}`)).statusCode, 200);
      assert.equal(
        (await ctx.app.db.select().from(participations).where(eq(participations.gameId, game.id))).length,
        0,
      );
      assertError('gameLeaveGame', await player.api('DELETE', `/api/game/${game.id}`), 400);
      assert.equal((await join(player, game.id)).statusCode, 200);
      const [row] = await ctx.app.db.select().from(participations).where(eq(participations.gameId, game.id));
      assert.equal((await admin('PUT', `/api/admin/participation/${row!.id}`, { status: 'Rejected' })).statusCode, 200);
      // Rejected: joining again (with another team) is allowed and replaces the old membership.
      const other = await newPlayer(ctx.app);
      await ctx.app.db.insert(teamMembers).values({ teamId: other.team.id, userId: player.user.id });
      assert.equal((await player.api('POST', `/api/game/${game.id}`, { teamId: other.team.id })).statusCode, 200);
      const memberships = await ctx.app.db
        .select()
        .from(userParticipations)
        .where(eq(userParticipations.userId, player.user.id));
      assert.equal(memberships.length, 1);
    });

    test('participations (admin) follow the contract', async () => {
      const game = await newGame(admin);
      const player = await newPlayer(ctx.app);
      await join(player, game.id);
      const list = assertOk('gameParticipations', await admin('GET', `/api/game/${game.id}/participations`)) as Array<{
        registeredMembers: string[];
        team: { captainId: string; members: Array<{ userId?: string; userName?: string }> };
      }>;
      assert.deepEqual(list[0]!.registeredMembers, [player.user.id]);
      // Members carry their ids, so the review page can mark the captain and who joined the game.
      assert.deepEqual(
        list[0]!.team.members.map((member) => member.userId),
        [player.user.id],
      );
      assert.equal(list[0]!.team.captainId, player.user.id);
      assertError('gameParticipations', await player.api('GET', `/api/game/${game.id}/participations`), 403);
    });
  });
}

function assertMatches(response: { json(): unknown }) {
  const body = response.json() as { title: string };
  assert.ok(body.title.length > 0);
  assert.doesNotMatch(body.title, /^game\./);
}
