import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertMatchesContract } from '../helpers/contract';
import { engines } from '../helpers/database';
import {
  assertError,
  type caller,
  captainedCount,
  createTeamVia,
  insertGame,
  insertParticipation,
  joinVia,
  memberIds,
  ONE_HOUR,
  player,
  registeredUsers,
  teamRow,
  teamSuite,
  type Player,
} from './support';

type Caller = Player & { call: ReturnType<typeof caller> };

// Invites, kicking, leaving and handing over the captaincy; creating, reading, updating, deleting
// and the avatar are in team.test.ts.
for (const engine of engines()) {
  describe(`team members (${engine.name})`, () => {
    const suite = teamSuite(engine);

    describe('invites', () => {
      test('the captain reads the code "{name}:{id}:{token}"; others may not', async () => {
        const { captain, team, members } = await suite.teamWith(1);
        const response = await captain.call('GET', `/api/team/${team.id}/invite`);
        assert.equal(response.statusCode, 200);
        assert.match(response.headers['content-type'] as string, /^application\/json/);
        const code = response.json();
        assertMatchesContract('teamInviteCode', code);
        const row = await teamRow(suite.ctx.app, team.id);
        assert.equal(code, `${team.name}:${team.id}:${row!.inviteToken}`);
        assertError('teamInviteCode', await members[0]!.call('GET', `/api/team/${team.id}/invite`), 403);
        assertError('teamInviteCode', await captain.call('GET', '/api/team/999999/invite'), 404);
        assertError('teamInviteCode', await suite.anonymous('GET', `/api/team/${team.id}/invite`), 401);
      });

      test('accepting a code joins once; a second accept is refused', async () => {
        const { captain, team } = await suite.teamWith(0);
        const member = await player(suite.ctx.app);
        const code = (await captain.call('GET', `/api/team/${team.id}/invite`)).json();
        const joined = await member.call('POST', '/api/team/accept', code);
        assert.equal(joined.statusCode, 200);
        assert.equal(joined.body, '');
        assert.deepEqual(await memberIds(suite.ctx.app, team.id), [captain.user.id, member.user.id].sort());
        const again = await member.call('POST', '/api/team/accept', code);
        assertError('teamAccept', again, 400, 'You are already a member of this team');
        assertError('teamAccept', await captain.call('POST', '/api/team/accept', code), 400, /already a member/);
        assertError('teamAccept', await suite.anonymous('POST', '/api/team/accept', code), 401);
      });

      test('forged, foreign and garbage codes are refused and change nothing', async () => {
        const { captain, team } = await suite.teamWith(0);
        const other = await createTeamVia(await player(suite.ctx.app));
        const row = await teamRow(suite.ctx.app, team.id);
        const otherRow = await teamRow(suite.ctx.app, other.id);
        const intruder = await player(suite.ctx.app);
        const wrongToken = row!.inviteToken.replace(/^./, (c) => (c === '0' ? '1' : '0'));
        const cases: [unknown, string | RegExp][] = [
          [`${team.name}:${team.id}:${wrongToken}`, 'The invitation code is invalid or has been replaced'],
          // The other team's token with this team's id, and this team's token with the other's id.
          [`${team.name}:${team.id}:${otherRow!.inviteToken}`, /invalid or has been replaced/],
          [`${team.name}:${other.id}:${row!.inviteToken}`, /invalid or has been replaced/],
          [`${team.name}:999999:${row!.inviteToken}`, 'Team not found'],
          [`x:99999999999999999999:${row!.inviteToken}`, 'Team not found'],
          [`${team.name}:${team.id}:${row!.inviteToken}junk`, /format|malformed/],
          [`${team.name}:${team.id}:${row!.inviteToken.toUpperCase()}`, /format|malformed/],
          ['garbage', /format/],
          ['', /format/],
          [42, /type|format/],
          [{ code: 'x' }, /type|format/],
        ];
        for (const [code, title] of cases) {
          const response = await intruder.call('POST', '/api/team/accept', code);
          assertError('teamAccept', response, 400, title);
        }
        assert.deepEqual(await memberIds(suite.ctx.app, team.id), [captain.user.id]);
        assert.deepEqual(await memberIds(suite.ctx.app, other.id), [otherRow!.captainId]);
      });

      test('a team name with colons still resolves by id and token', async () => {
        const captain = await player(suite.ctx.app);
        const team = await createTeamVia(captain, 'a:1:b:');
        const member = await player(suite.ctx.app);
        await joinVia(captain, member, team.id);
        assert.ok((await memberIds(suite.ctx.app, team.id)).includes(member.user.id));
      });

      test('refreshing the token retires the old code; only the captain may refresh', async () => {
        const { captain, team, members } = await suite.teamWith(1);
        const old = (await captain.call('GET', `/api/team/${team.id}/invite`)).json();
        const before = await teamRow(suite.ctx.app, team.id);
        assertError('teamUpdateInviteToken', await members[0]!.call('PUT', `/api/team/${team.id}/invite`), 403);
        assertError('teamUpdateInviteToken', await captain.call('PUT', '/api/team/999999/invite'), 404);
        assert.equal((await teamRow(suite.ctx.app, team.id))?.inviteToken, before!.inviteToken);

        const response = await captain.call('PUT', `/api/team/${team.id}/invite`);
        assert.equal(response.statusCode, 200);
        const fresh = response.json();
        assertMatchesContract('teamUpdateInviteToken', fresh);
        assert.notEqual(fresh, old);
        assert.match(fresh, new RegExp(`^${team.name}:${team.id}:[0-9a-f]{32}$`));

        const late = await player(suite.ctx.app);
        assertError(
          'teamAccept',
          await late.call('POST', '/api/team/accept', old),
          400,
          /invalid or has been replaced/,
        );
        assert.equal((await late.call('POST', '/api/team/accept', fresh)).statusCode, 200);
      });
    });

    describe('kick', () => {
      test('the captain removes a member and their registrations for this team only', async () => {
        const { captain, team, members } = await suite.teamWith(2);
        const [kicked, stays] = members as [Caller, Caller];
        const ownTeam = await createTeamVia(kicked);
        const game = await insertGame(suite.ctx.app, ONE_HOUR);
        const participation = await insertParticipation(suite.ctx.app, game.id, team.id, [
          kicked.user.id,
          stays.user.id,
        ]);
        const otherGame = await insertGame(suite.ctx.app, ONE_HOUR);
        const elsewhere = await insertParticipation(suite.ctx.app, otherGame.id, ownTeam.id, [kicked.user.id]);

        const response = await captain.call('POST', `/api/team/${team.id}/kick/${kicked.user.id}`);
        assert.equal(response.statusCode, 200);
        const body = response.json();
        assertMatchesContract('teamKickUser', body);
        assert.deepEqual(
          body.members.map((member: { id: string }) => member.id),
          [captain.user.id, stays.user.id],
        );
        assert.deepEqual(await memberIds(suite.ctx.app, team.id), [captain.user.id, stays.user.id].sort());
        assert.deepEqual(await registeredUsers(suite.ctx.app, participation.id), [stays.user.id]);
        assert.deepEqual(await registeredUsers(suite.ctx.app, elsewhere.id), [kicked.user.id], 'other teams untouched');
      });

      test('refuses non-captains, the captain themself, non-members and missing teams', async () => {
        const { captain, team, members } = await suite.teamWith(2);
        const [first, second] = members as [Caller, Caller];
        const before = await memberIds(suite.ctx.app, team.id);
        assertError('teamKickUser', await first.call('POST', `/api/team/${team.id}/kick/${second.user.id}`), 403);
        assertError(
          'teamKickUser',
          await captain.call('POST', `/api/team/${team.id}/kick/${captain.user.id}`),
          400,
          'The captain cannot be removed from the team',
        );
        const stranger = await player(suite.ctx.app);
        assertError(
          'teamKickUser',
          await captain.call('POST', `/api/team/${team.id}/kick/${stranger.user.id}`),
          400,
          'This user is not a member of the team',
        );
        assertError('teamKickUser', await captain.call('POST', `/api/team/999999/kick/${first.user.id}`), 404);
        assertError('teamKickUser', await captain.call('POST', `/api/team/${team.id}/kick/not-a-uuid`), 400);
        assert.deepEqual(await memberIds(suite.ctx.app, team.id), before);
      });
    });

    describe('leave', () => {
      test('a member leaves and loses their registrations for this team', async () => {
        const { captain, team, members } = await suite.teamWith(1);
        const game = await insertGame(suite.ctx.app, ONE_HOUR);
        const participation = await insertParticipation(suite.ctx.app, game.id, team.id, [
          captain.user.id,
          members[0]!.user.id,
        ]);
        const response = await members[0]!.call('POST', `/api/team/${team.id}/leave`);
        assert.equal(response.statusCode, 200);
        assert.equal(response.body, '');
        assert.deepEqual(await memberIds(suite.ctx.app, team.id), [captain.user.id]);
        assert.deepEqual(await registeredUsers(suite.ctx.app, participation.id), [captain.user.id]);
      });

      test('refuses non-members, the captain and missing teams', async () => {
        const { captain, team } = await suite.teamWith(1);
        const before = await memberIds(suite.ctx.app, team.id);
        const stranger = await player(suite.ctx.app);
        assertError(
          'teamLeave',
          await stranger.call('POST', `/api/team/${team.id}/leave`),
          400,
          'You are not a member of this team',
        );
        assertError(
          'teamLeave',
          await captain.call('POST', `/api/team/${team.id}/leave`),
          400,
          'The captain cannot leave the team; transfer the captaincy first',
        );
        assertError('teamLeave', await stranger.call('POST', '/api/team/999999/leave'), 404);
        assertError('teamLeave', await suite.anonymous('POST', `/api/team/${team.id}/leave`), 401);
        assert.deepEqual(await memberIds(suite.ctx.app, team.id), before);
      });
    });

    describe('transfer', () => {
      test('the captaincy moves to a member; the old captain stays a member and may then leave', async () => {
        const { captain, team, members } = await suite.teamWith(1);
        const heir = members[0]!;
        const response = await captain.call('PUT', `/api/team/${team.id}/transfer`, { newCaptainId: heir.user.id });
        assert.equal(response.statusCode, 200);
        const body = response.json();
        assertMatchesContract('teamTransfer', body);
        assert.deepEqual(
          body.members.map((member: { id: string; captain: boolean }) => [member.id, member.captain]),
          [
            [heir.user.id, true],
            [captain.user.id, false],
          ],
        );
        assert.equal((await teamRow(suite.ctx.app, team.id))?.captainId, heir.user.id);
        // The old captain has lost the rights, the new one has them.
        assertError('teamUpdateTeam', await captain.call('PUT', `/api/team/${team.id}`, { name: 'nope' }), 403);
        assert.equal((await heir.call('PUT', `/api/team/${team.id}`, { name: 'mine' })).statusCode, 200);
        assert.equal((await captain.call('POST', `/api/team/${team.id}/leave`)).statusCode, 200);
      });

      test('refuses non-members (stricter than GZCTF), self, non-captains and a fourth captaincy', async () => {
        const { captain, team, members } = await suite.teamWith(1);
        const member = members[0]!;
        const stranger = await player(suite.ctx.app);
        const transfer = (who: Caller, newCaptainId: unknown, id = team.id) =>
          who.call('PUT', `/api/team/${id}/transfer`, { newCaptainId });

        assertError(
          'teamTransfer',
          await transfer(captain, stranger.user.id),
          400,
          'The new captain must be a member of the team',
        );
        assertError('teamTransfer', await transfer(captain, '00000000-0000-4000-8000-000000000000'), 400);
        assertError(
          'teamTransfer',
          await transfer(captain, captain.user.id),
          400,
          'This user is already the team captain',
        );
        assertError('teamTransfer', await transfer(member, member.user.id), 403);
        assertError('teamTransfer', await transfer(captain, member.user.id, 999999), 404);
        assertError('teamTransfer', await transfer(captain, 'nope'), 400, /newCaptainId/);

        for (let i = 0; i < 3; i++) await createTeamVia(member);
        assertError(
          'teamTransfer',
          await transfer(captain, member.user.id),
          400,
          `${member.user.userName} already captains 3 teams`,
        );
        assert.equal((await teamRow(suite.ctx.app, team.id))?.captainId, captain.user.id);
        assert.equal(await captainedCount(suite.ctx.app, member.user.id), 3);
      });
    });
  });
}
