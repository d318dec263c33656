import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { teams } from '../../../server/src/db/schema';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import {
  assertError,
  caller,
  createTeamVia,
  insertGame,
  insertParticipation,
  joinVia,
  memberIds,
  ONE_HOUR,
  player,
  registeredUsers,
  teamRow,
} from './support';

// Reference §5.3 "Team lock": kick, leave and delete are refused only while the team is locked AND
// takes part in a game that has not ended; found with no such game, the lock is cleared.

for (const engine of engines()) {
  describe(`team locks (${engine.name})`, () => {
    let ctx: TestApp;
    before(async () => {
      ctx = await createTestApp(engine);
    });
    after(async () => ctx.close());

    const lock = (teamId: number) => ctx.app.db.update(teams).set({ locked: true }).where(eq(teams.id, teamId));

    /** A locked team of a captain and two members, entered in a game ending `endsInMs` from now. */
    async function lockedTeam(endsInMs: number) {
      const captain = await player(ctx.app);
      const team = await createTeamVia(captain);
      const first = await player(ctx.app);
      const second = await player(ctx.app);
      await joinVia(captain, first, team.id);
      await joinVia(captain, second, team.id);
      const game = await insertGame(ctx.app, endsInMs);
      const participation = await insertParticipation(ctx.app, game.id, team.id, [
        captain.user.id,
        first.user.id,
        second.user.id,
      ]);
      await lock(team.id);
      return { captain, team, first, second, participation };
    }

    test('kick, leave and delete are refused while the game has not ended, and nothing changes', async () => {
      const { captain, team, first, second, participation } = await lockedTeam(ONE_HOUR);
      const members = await memberIds(ctx.app, team.id);
      const registered = await registeredUsers(ctx.app, participation.id);
      const message = 'The team is locked while it takes part in a game that has not ended';

      assertError(
        'teamKickUser',
        await captain.call('POST', `/api/team/${team.id}/kick/${first.user.id}`),
        400,
        message,
      );
      assertError('teamLeave', await second.call('POST', `/api/team/${team.id}/leave`), 400, message);
      assertError('teamDeleteTeam', await captain.call('DELETE', `/api/team/${team.id}`), 400, message);
      const french = await second.call('POST', `/api/team/${team.id}/leave`, undefined, { 'accept-language': 'fr-FR' });
      assertError(
        'teamLeave',
        french,
        400,
        "L'équipe est verrouillée tant qu'un jeu auquel elle participe n'est pas terminé",
      );

      assert.deepEqual(await memberIds(ctx.app, team.id), members);
      assert.deepEqual(await registeredUsers(ctx.app, participation.id), registered);
      assert.equal((await teamRow(ctx.app, team.id))?.locked, true);
    });

    test('a game that has not started yet also holds the lock', async () => {
      const captain = await player(ctx.app);
      const team = await createTeamVia(captain);
      const member = await player(ctx.app);
      await joinVia(captain, member, team.id);
      const game = await insertGame(ctx.app, 3 * ONE_HOUR, 2 * ONE_HOUR);
      await insertParticipation(ctx.app, game.id, team.id, [captain.user.id]);
      await lock(team.id);
      assertError('teamLeave', await member.call('POST', `/api/team/${team.id}/leave`), 400, /locked/);
    });

    test('the team may change again once its games have ended, and the lock is cleared', async () => {
      const kicked = await lockedTeam(-ONE_HOUR);
      const response = await kicked.captain.call('POST', `/api/team/${kicked.team.id}/kick/${kicked.first.user.id}`);
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().locked, false);
      assert.equal((await teamRow(ctx.app, kicked.team.id))?.locked, false);
      assert.deepEqual(await registeredUsers(ctx.app, kicked.participation.id), [
        ...[kicked.captain.user.id, kicked.second.user.id].sort(),
      ]);

      const left = await lockedTeam(-ONE_HOUR);
      assert.equal((await left.second.call('POST', `/api/team/${left.team.id}/leave`)).statusCode, 200);
      assert.equal((await teamRow(ctx.app, left.team.id))?.locked, false);
      assert.ok(!(await memberIds(ctx.app, left.team.id)).includes(left.second.user.id));

      const deleted = await lockedTeam(-ONE_HOUR);
      assert.equal((await deleted.captain.call('DELETE', `/api/team/${deleted.team.id}`)).statusCode, 200);
      assert.equal(await teamRow(ctx.app, deleted.team.id), undefined);
    });

    test('a refused operation does not clear the lock either', async () => {
      const { captain, team } = await lockedTeam(-ONE_HOUR);
      const stranger = await player(ctx.app);
      const response = await captain.call('POST', `/api/team/${team.id}/kick/${stranger.user.id}`);
      assertError('teamKickUser', response, 400, 'This user is not a member of the team');
      assert.equal((await teamRow(ctx.app, team.id))?.locked, true, 'rolled back with the failed kick');
    });

    test('an unlocked team in a running game can still change (the lock is what matters)', async () => {
      const { captain, team, first } = await lockedTeam(ONE_HOUR);
      await ctx.app.db.update(teams).set({ locked: false }).where(eq(teams.id, team.id));
      assert.equal((await captain.call('POST', `/api/team/${team.id}/kick/${first.user.id}`)).statusCode, 200);
    });

    test('joining, renaming and transferring ignore the lock, as in GZCTF', async () => {
      const { captain, team, first } = await lockedTeam(ONE_HOUR);
      const late = await player(ctx.app);
      await joinVia(captain, late, team.id);
      assert.equal((await captain.call('PUT', `/api/team/${team.id}`, { name: 'still here' })).statusCode, 200);
      const transfer = await captain.call('PUT', `/api/team/${team.id}/transfer`, { newCaptainId: first.user.id });
      assert.equal(transfer.statusCode, 200);
      assert.equal(transfer.json().locked, true);
    });

    test('an admin toggles the lock directly', async () => {
      const admin = caller(ctx.app, (await asUser(ctx.app, 'Admin')).cookie);
      const { captain, team, second } = await lockedTeam(ONE_HOUR);
      assert.equal((await admin('PUT', `/api/admin/teams/${team.id}`, { locked: false })).statusCode, 200);
      assert.equal((await teamRow(ctx.app, team.id))?.locked, false);
      assert.equal((await second.call('POST', `/api/team/${team.id}/leave`)).statusCode, 200);
      assert.equal((await admin('PUT', `/api/admin/teams/${team.id}`, { locked: true })).statusCode, 200);
      assertError('teamDeleteTeam', await captain.call('DELETE', `/api/team/${team.id}`), 400, /locked/);
    });
  });
}
