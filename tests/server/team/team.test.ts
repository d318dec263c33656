import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { files, teams } from '../../../server/src/db/schema';
import { blobExists, blobPath } from '../../../server/src/lib/blobs';
import { assertMatchesContract } from '../helpers/contract';
import { engines } from '../helpers/database';
import { multipart } from '../helpers/multipart';
import {
  assertError,
  type caller,
  captainedCount,
  createTeamVia,
  insertGame,
  insertParticipation,
  memberIds,
  ONE_HOUR,
  player,
  registeredUsers,
  teamRow,
  teamSuite,
  type Player,
} from './support';

const png = (width: number, height: number, colour = '#884422') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

type Caller = Player & { call: ReturnType<typeof caller> };

for (const engine of engines()) {
  describe(`teams (${engine.name})`, () => {
    const suite = teamSuite(engine);

    describe('create', () => {
      test('makes the caller captain and only member, with a 32-hex invite token', async () => {
        const captain = await player(suite.ctx.app);
        const response = await captain.call('POST', '/api/team', { name: '  Night Owls ', bio: 'we hack' });
        assert.equal(response.statusCode, 200);
        const body = response.json();
        assertMatchesContract('teamCreateTeam', body);
        assert.equal(body.name, 'Night Owls', 'the name is trimmed');
        assert.equal(body.bio, 'we hack');
        assert.equal(body.locked, false);
        assert.equal(body.avatar, null);
        assert.deepEqual(body.members, [
          { id: captain.user.id, userName: captain.user.userName, bio: '', avatar: null, captain: true },
        ]);
        const row = await teamRow(suite.ctx.app, body.id);
        assert.equal(row?.captainId, captain.user.id);
        assert.match(row!.inviteToken, /^[0-9a-f]{32}$/);
      });

      test('refuses an empty name and writes nothing', async () => {
        const captain = await player(suite.ctx.app);
        for (const body of [{ name: '' }, { name: '   ' }, { name: null, bio: 'x' }, {}]) {
          const response = await captain.call('POST', '/api/team', body);
          assertError('teamCreateTeam', response, 400, 'The team name must not be empty');
        }
        assert.equal(await captainedCount(suite.ctx.app, captain.user.id), 0);
      });

      test('refuses over-long names and bios through the contract', async () => {
        const captain = await player(suite.ctx.app);
        assertError('teamCreateTeam', await captain.call('POST', '/api/team', { name: 'x'.repeat(21) }), 400, /name/);
        assertError(
          'teamCreateTeam',
          await captain.call('POST', '/api/team', { name: 'ok', bio: 'b'.repeat(73) }),
          400,
          /bio/,
        );
        assert.equal(await captainedCount(suite.ctx.app, captain.user.id), 0);
        const longest = await captain.call('POST', '/api/team', { name: 'n'.repeat(20), bio: 'b'.repeat(72) });
        assert.equal(longest.statusCode, 200);
      });

      test('refuses a fourth captaincy', async () => {
        const captain = await player(suite.ctx.app);
        for (let i = 0; i < 3; i++) await createTeamVia(captain);
        const response = await captain.call('POST', '/api/team', { name: 'fourth' });
        assertError('teamCreateTeam', response, 400, 'You can captain at most 3 teams');
        assert.equal(await captainedCount(suite.ctx.app, captain.user.id), 3);
        const german = await captain.call('POST', '/api/team', { name: 'fourth' }, { 'accept-language': 'de-DE' });
        assertError('teamCreateTeam', german, 400, 'Du kannst höchstens 3 Teams als Kapitän leiten');
      });

      test('needs a signed-in user', async () => {
        assertError('teamCreateTeam', await suite.anonymous('POST', '/api/team', { name: 'anon' }), 401);
        assertError('teamGetTeamsInfo', await suite.anonymous('GET', '/api/team'), 401);
      });
    });

    describe('read', () => {
      test('anyone can read a team with its members, captain first', async () => {
        const { captain, team, members } = await suite.teamWith(2);
        const response = await suite.anonymous('GET', `/api/team/${team.id}`);
        assert.equal(response.statusCode, 200);
        const body = response.json();
        assertMatchesContract('teamGetBasicInfo', body);
        assert.deepEqual(
          body.members.map((member: { id: string; captain: boolean }) => [member.id, member.captain]),
          [
            [captain.user.id, true],
            [members[0]!.user.id, false],
            [members[1]!.user.id, false],
          ],
        );
      });

      test('a missing team is 404 in the request language', async () => {
        assertError('teamGetBasicInfo', await suite.anonymous('GET', '/api/team/999999'), 404, 'Team not found');
        const chinese = await suite.anonymous('GET', '/api/team/999999', undefined, { 'accept-language': 'zh-CN' });
        assertError('teamGetBasicInfo', chinese, 404, '队伍未找到');
      });

      test('my teams are the teams I belong to, as captain or member', async () => {
        const { captain, team, members } = await suite.teamWith(1);
        const other = await createTeamVia(await player(suite.ctx.app));
        const own = await createTeamVia(members[0]!);
        const response = await members[0]!.call('GET', '/api/team');
        assert.equal(response.statusCode, 200);
        const body = response.json();
        assertMatchesContract('teamGetTeamsInfo', body);
        assert.deepEqual(
          body.map((item: { id: number }) => item.id),
          [team.id, own.id],
        );
        assert.ok(!body.some((item: { id: number }) => item.id === other.id));
        const mine = body.find((item: { id: number }) => item.id === team.id);
        assert.equal(mine.members.length, 2);
        assert.equal((await captain.call('GET', '/api/team')).json().length, 1);
        assert.deepEqual((await (await player(suite.ctx.app)).call('GET', '/api/team')).json(), []);
      });
    });

    describe('update', () => {
      test('the captain renames; an empty name keeps the old one and the bio is always replaced', async () => {
        const { captain, team } = await suite.teamWith(0);
        const renamed = await captain.call('PUT', `/api/team/${team.id}`, { name: 'Renamed', bio: 'new bio' });
        assert.equal(renamed.statusCode, 200);
        assertMatchesContract('teamUpdateTeam', renamed.json());
        assert.equal(renamed.json().name, 'Renamed');
        assert.equal(renamed.json().bio, 'new bio');

        const kept = await captain.call('PUT', `/api/team/${team.id}`, { name: '' });
        assert.equal(kept.statusCode, 200);
        assert.equal(kept.json().name, 'Renamed');
        assert.equal(kept.json().bio, null, 'a missing bio clears it, as in GZCTF');
        assert.equal((await teamRow(suite.ctx.app, team.id))?.bio, null);
      });

      test('members, strangers and captains of other teams get 403 and change nothing', async () => {
        const { team, members } = await suite.teamWith(1);
        const otherCaptain = await player(suite.ctx.app);
        await createTeamVia(otherCaptain);
        const before = await teamRow(suite.ctx.app, team.id);
        for (const intruder of [members[0]!, otherCaptain, await player(suite.ctx.app)]) {
          const response = await intruder.call('PUT', `/api/team/${team.id}`, { name: 'hijacked', bio: 'pwned' });
          assertError('teamUpdateTeam', response, 403, 'Only the team captain can do this');
        }
        assert.deepEqual(await teamRow(suite.ctx.app, team.id), before);
        assertError('teamUpdateTeam', await suite.anonymous('PUT', `/api/team/${team.id}`, { name: 'x' }), 401);
      });

      test('a missing team is 400 as in GZCTF; over-long input is 400', async () => {
        const { captain, team } = await suite.teamWith(0);
        assertError(
          'teamUpdateTeam',
          await captain.call('PUT', '/api/team/999999', { name: 'x' }),
          400,
          'Team not found',
        );
        const before = await teamRow(suite.ctx.app, team.id);
        assertError('teamUpdateTeam', await captain.call('PUT', `/api/team/${team.id}`, { name: 'y'.repeat(21) }), 400);
        assertError('teamUpdateTeam', await captain.call('PUT', `/api/team/${team.id}`, { bio: 'y'.repeat(73) }), 400);
        assert.deepEqual(await teamRow(suite.ctx.app, team.id), before);
      });
    });

    describe('delete', () => {
      test('only the captain deletes; members and participations go with the team', async () => {
        const { captain, team, members } = await suite.teamWith(1);
        const game = await insertGame(suite.ctx.app, -ONE_HOUR);
        const participation = await insertParticipation(suite.ctx.app, game.id, team.id, [captain.user.id]);
        assertError('teamDeleteTeam', await members[0]!.call('DELETE', `/api/team/${team.id}`), 403);
        assertError('teamDeleteTeam', await suite.anonymous('DELETE', `/api/team/${team.id}`), 401);
        assert.ok(await teamRow(suite.ctx.app, team.id));

        const response = await captain.call('DELETE', `/api/team/${team.id}`);
        assert.equal(response.statusCode, 200);
        assert.equal(response.body, '');
        assert.equal(await teamRow(suite.ctx.app, team.id), undefined);
        assert.deepEqual(await memberIds(suite.ctx.app, team.id), []);
        assert.deepEqual(await registeredUsers(suite.ctx.app, participation.id), []);
        assertError('teamDeleteTeam', await captain.call('DELETE', `/api/team/${team.id}`), 404);
        assert.equal(await captainedCount(suite.ctx.app, captain.user.id), 0);
      });
    });

    describe('avatar', () => {
      const upload = (who: Caller, teamId: number, content: Buffer | string, filename = 'a.png', field = 'file') => {
        const body = multipart([{ field, filename, content, contentType: 'image/png' }]);
        return suite.ctx.app.inject({
          method: 'PUT',
          url: `/api/team/${teamId}/avatar`,
          headers: { ...body.headers, cookie: who.cookie },
          payload: body.payload,
        });
      };

      test('the captain uploads a picture, stored as 300 px WebP; a new one releases the old', async () => {
        const { captain, team } = await suite.teamWith(0);
        const response = await upload(captain, team.id, await png(640, 480));
        assert.equal(response.statusCode, 200);
        const url = response.json();
        assertMatchesContract('teamAvatar', url);
        const [, hash] = /^\/assets\/([0-9a-f]{64})\/avatar$/.exec(url) ?? [];
        assert.ok(hash, url);
        const picture = await sharp(fs.readFileSync(blobPath(suite.ctx.env.dataDir, hash))).metadata();
        assert.equal(picture.format, 'webp');
        assert.equal(picture.width, 300);
        assert.equal((await suite.anonymous('GET', `/api/team/${team.id}`)).json().avatar, url);

        const second = await upload(captain, team.id, await png(64, 64, '#112233'));
        assert.equal(second.statusCode, 200);
        assert.notEqual(second.json(), url);
        assert.equal(blobExists(suite.ctx.env.dataDir, hash), false, 'the old picture is gone');
        assert.equal((await suite.ctx.app.db.select().from(files).where(eq(files.hash, hash))).length, 0);
      });

      test('refuses non-captains, non-images, missing files and oversize uploads', async () => {
        const { captain, team, members } = await suite.teamWith(1);
        const picture = await png(32, 32);
        assertError('teamAvatar', await upload(members[0]!, team.id, picture), 403);
        assertError('teamAvatar', await upload(captain, 999999, picture), 404);
        assertError('teamAvatar', await upload(captain, team.id, '<svg xmlns="http://www.w3.org/2000/svg"/>'), 400);
        assertError('teamAvatar', await upload(captain, team.id, 'just text', 'a.txt'), 400);
        assertError('teamAvatar', await upload(captain, team.id, picture, 'a.png', 'other'), 400);
        assertError('teamAvatar', await upload(captain, team.id, Buffer.alloc(3 * 1024 * 1024 + 1, 1)), 400);
        const notMultipart = await captain.call('PUT', `/api/team/${team.id}/avatar`, { file: 'x' });
        // The contract takes multipart only (tests/server/security/strict-body.test.ts).
        assert.equal(notMultipart.statusCode, 415);
        const [row] = await suite.ctx.app.db.select().from(teams).where(eq(teams.id, team.id));
        assert.equal(row?.avatarHash, null);
      });
    });
  });
}
