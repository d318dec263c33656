import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { participations } from '../../../server/src/db/schema';
import { CAPTURE_FILE_PATTERN, startCapture } from '../../../server/src/modules/instances/capture';
import { readPcap } from '../../helpers/pcap-reader';
import { parseTar } from '../edit/tar-reader';
import { createChallenge } from '../edit/support';
import { acceptedPlayer, assertError, assertOk, client, newChallenge, newGame, type Client } from '../game/support';
import { createTestApp, type TestApp } from '../helpers/app';
import { eventually } from './support';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';

interface ChallengeTraffic {
  id: number;
  title: string;
  category: string;
  type: string;
  isEnabled: boolean;
  count: number;
}
interface TeamTraffic {
  id: number;
  teamId: number;
  name: string | null;
  division: string | null;
  avatar: string | null;
  count: number;
}
interface FileRecord {
  fileName: string;
  size: number;
  updateTime: number;
}

for (const engine of engines()) {
  describe(`traffic captures (${engine.name})`, () => {
    let ctx: TestApp;
    let admin: Client;
    let monitor: Client;
    let player: Client;
    let gameId: number;
    let captured: number;
    let disabled: number;
    let plain: number;
    const teams: Array<{ teamId: number; teamName: string; participationId: number }> = [];
    const saved = new Map<number, string[]>();

    /** Records one connection the way the proxy does, and returns the saved file (if any). */
    async function record(
      participation: (typeof teams)[number],
      exchange: Array<['client' | 'container', string]>,
      challengeId = captured,
    ) {
      const rowId = randomUUID();
      const capture = startCapture(
        {
          dataDir: ctx.env.dataDir,
          challengeId,
          participationId: participation.participationId,
          containerRowId: rowId,
        },
        { client: { address: '198.51.100.4', port: 40_000 }, container: { address: '10.0.0.9', port: 1337 } },
        {
          challenge: 'captured',
          challengeId,
          team: participation.teamName,
          teamId: participation.teamId,
          containerId: rowId,
          flag: 'flag{x}',
        },
      );
      for (const [side, text] of exchange) {
        if (side === 'client') capture.fromClient(Buffer.from(text));
        else capture.fromContainer(Buffer.from(text));
      }
      const file = await capture.close();
      if (file) saved.set(participation.participationId, [...(saved.get(participation.participationId) ?? []), file]);
      return file;
    }

    const base = () => `/api/game/captures/${captured}`;
    const teamUrl = (participationId: number, rest = '') => `${base()}/${participationId}${rest}`;

    before(async () => {
      ctx = await createTestApp(engine);
      admin = client(ctx.app, (await asUser(ctx.app, 'Admin')).cookie);
      monitor = client(ctx.app, (await asUser(ctx.app, 'Monitor')).cookie);
      gameId = (await newGame(admin)).id;

      captured = (await newChallenge(admin, gameId, { type: 'DynamicContainer' })).id;
      disabled = (await createChallenge(admin, gameId, 'StaticContainer')).id;
      plain = (await newChallenge(admin, gameId, { type: 'DynamicContainer' })).id;
      for (const id of [captured, disabled]) {
        const response = await admin('PUT', `/api/edit/games/${gameId}/challenges/${id}`, {
          enableTrafficCapture: true,
        });
        assertOk('editUpdateGameChallenge', response);
      }

      for (let index = 0; index < 2; index += 1) {
        const who = await acceptedPlayer(ctx.app, gameId);
        if (index === 0) player = who.api;
        const [row] = await ctx.app.db.select().from(participations).where(eq(participations.teamId, who.team.id));
        teams.push({ teamId: who.team.id, teamName: who.team.name, participationId: row!.id });
      }
      await ctx.app.db
        .update(participations)
        .set({ division: 'Open' })
        .where(eq(participations.id, teams[0]!.participationId));

      const [first, second] = teams;
      await record(first!, [
        ['client', 'hello'],
        ['container', 'hi'],
      ]);
      await record(first!, [['container', 'banner only']]);
      await record(first!, [
        ['client', 'a'],
        ['container', 'b'],
        ['client', 'c'],
      ]);
      assert.equal(await record(first!, []), undefined, 'a connection without payload is not kept');
      await record(second!, [['client', 'other team']]);

      // Distinct modification times, so "newest first" has one right answer.
      saved.get(first!.participationId)!.forEach((file, index) => {
        const at = new Date(Date.UTC(2026, 0, 1, 12, index));
        fs.utimesSync(file, at, at);
      });
    });
    after(async () => ctx.close());

    test('challenges with traffic capture, with their team folder counts', async () => {
      const list = assertOk(
        'gameGetChallengesWithTrafficCapturing',
        await monitor('GET', `/api/game/games/${gameId}/captures`),
      ) as ChallengeTraffic[];
      assert.deepEqual(
        list.map(({ id, type, isEnabled, count }) => ({ id, type, isEnabled, count })),
        [
          { id: captured, type: 'DynamicContainer', isEnabled: true, count: 2 },
          { id: disabled, type: 'StaticContainer', isEnabled: false, count: 0 },
        ],
      );
      assert.ok(!list.some((challenge) => challenge.id === plain), 'only challenges with capture on');
      assert.equal(list[0]!.category, 'Web');
      assertError(
        'gameGetChallengesWithTrafficCapturing',
        await monitor('GET', '/api/game/games/999999/captures'),
        404,
      );
    });

    test('teams of a challenge with their file counts; 404 without captures', async () => {
      const list = assertOk('gameGetChallengeTraffic', await monitor('GET', base())) as TeamTraffic[];
      assert.deepEqual(list, [
        {
          id: teams[0]!.participationId,
          teamId: teams[0]!.teamId,
          name: teams[0]!.teamName,
          division: 'Open',
          avatar: null,
          count: 3,
        },
        {
          id: teams[1]!.participationId,
          teamId: teams[1]!.teamId,
          name: teams[1]!.teamName,
          division: null,
          avatar: null,
          count: 1,
        },
      ]);
      assertError('gameGetChallengeTraffic', await monitor('GET', `/api/game/captures/${disabled}`), 404);
      assertError('gameGetChallengeTraffic', await monitor('GET', '/api/game/captures/999999'), 404);
    });

    test('files of a team, newest first, and each download equals its file', async () => {
      const { participationId } = teams[0]!;
      const files = assertOk('gameGetTeamTrafficFiles', await monitor('GET', teamUrl(participationId))) as FileRecord[];
      const onDisk = saved.get(participationId)!;
      assert.deepEqual(
        files.map((file) => file.fileName),
        onDisk.map((file) => path.basename(file)).reverse(),
      );
      for (const file of files) {
        assert.match(file.fileName, CAPTURE_FILE_PATTERN);
        const full = onDisk.find((item) => path.basename(item) === file.fileName)!;
        const stat = fs.statSync(full);
        assert.equal(file.size, stat.size);
        assert.equal(file.updateTime, Math.floor(stat.mtimeMs));

        const download = await monitor('GET', teamUrl(participationId, `/${file.fileName}`));
        assert.equal(download.statusCode, 200);
        assert.equal(download.headers['content-type'], 'application/octet-stream');
        assert.match(
          String(download.headers['content-disposition']),
          new RegExp(`attachment; filename="${file.fileName}"`),
        );
        assert.ok(download.rawPayload.equals(fs.readFileSync(full)));
        const packets = readPcap(download.rawPayload);
        assert.equal((JSON.parse(packets[0]!.payload.toString()) as { teamId: number }).teamId, teams[0]!.teamId);
      }
      assert.deepEqual(
        assertOk('gameGetTeamTrafficFiles', await monitor('GET', teamUrl(999999))),
        [],
        'a team without captures has no files',
      );
    });

    test('all files of a team as one tar archive', async () => {
      const { participationId } = teams[0]!;
      const response = await monitor('GET', teamUrl(participationId, '/all'));
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'application/x-tar');
      assert.match(
        String(response.headers['content-disposition']),
        new RegExp(`filename="Capture-${captured}-${participationId}-\\d{8}-\\d{2}\\.\\d{2}\\.\\d{2}Z\\.tar"`),
      );
      const entries = parseTar(response.rawPayload);
      const onDisk = saved.get(participationId)!;
      assert.deepEqual(entries.map((entry) => entry.name).sort(), onDisk.map((file) => path.basename(file)).sort());
      for (const entry of entries) {
        const full = onDisk.find((file) => path.basename(file) === entry.name)!;
        assert.ok(entry.data.equals(fs.readFileSync(full)), entry.name);
      }
      assertError('gameGetTeamTrafficZip', await monitor('GET', teamUrl(999999, '/all')), 404);
    });

    test('a recording in progress is neither listed, archived nor deleted', async () => {
      const { participationId } = teams[1]!;
      const folder = path.dirname(saved.get(participationId)![0]!);
      const temporary = path.join(folder, '.0123abcd-inprogress.pcap.tmp');
      fs.writeFileSync(temporary, 'partial');
      const files = assertOk('gameGetTeamTrafficFiles', await monitor('GET', teamUrl(participationId))) as FileRecord[];
      assert.equal(files.length, 1);
      const entries = parseTar((await monitor('GET', teamUrl(participationId, '/all'))).rawPayload);
      assert.equal(entries.length, 1);
      assertError(
        'gameGetTeamTraffic',
        await monitor('GET', teamUrl(participationId, '/.0123abcd-inprogress.pcap.tmp')),
        404,
      );
      fs.rmSync(temporary);
    });

    test('file names are validated strictly: traversal and unknown names are 404, nothing is touched', async () => {
      const [first, second] = teams;
      const victim = saved.get(second!.participationId)![0]!;
      const sibling = encodeURIComponent(`../${second!.participationId}/${path.basename(victim)}`);
      const attempts = [
        sibling,
        '..%2F..%2F..%2F..%2Fetc%2Fpasswd',
        '%2E%2E%2F%2E%2E%2Fabcdef01-x.pcap',
        '..%5C..%5Cabcdef01-x.pcap',
        encodeURIComponent(path.basename(victim).replace('.pcap', '.pcap/..')),
        'deadbeef-missing.pcap',
      ];
      for (const name of attempts) {
        assertError('gameGetTeamTraffic', await monitor('GET', teamUrl(first!.participationId, `/${name}`)), 404);
        assertError('gameDeleteTeamTraffic', await monitor('DELETE', teamUrl(first!.participationId, `/${name}`)), 404);
      }
      assert.ok(fs.existsSync(victim), 'the other team’s file is untouched');
    });

    test('players and anonymous visitors are refused', async () => {
      const { participationId } = teams[0]!;
      const name = path.basename(saved.get(participationId)![0]!);
      const calls: Array<[string, 'GET' | 'DELETE', string]> = [
        ['gameGetChallengesWithTrafficCapturing', 'GET', `/api/game/games/${gameId}/captures`],
        ['gameGetChallengeTraffic', 'GET', base()],
        ['gameGetTeamTrafficFiles', 'GET', teamUrl(participationId)],
        ['gameGetTeamTrafficZip', 'GET', teamUrl(participationId, '/all')],
        ['gameDeleteAllTeamTraffic', 'DELETE', teamUrl(participationId, '/all')],
        ['gameGetTeamTraffic', 'GET', teamUrl(participationId, `/${name}`)],
        ['gameDeleteTeamTraffic', 'DELETE', teamUrl(participationId, `/${name}`)],
      ];
      for (const [operation, method, url] of calls) {
        assertError(operation, await player(method, url), 403);
        assertError(operation, await client(ctx.app, undefined)(method, url), 401);
      }
      assert.equal(saved.get(participationId)!.filter((file) => fs.existsSync(file)).length, 3);
    });

    test('deleting one file, then all of a team, then the last of a challenge', async () => {
      const [first, second] = teams;
      const files = saved.get(first!.participationId)!;
      const name = path.basename(files[0]!);
      const deleted: LightMyRequestResponse = await monitor('DELETE', teamUrl(first!.participationId, `/${name}`));
      assert.equal(deleted.statusCode, 200, deleted.body);
      assert.equal(deleted.body, '');
      assert.equal(fs.existsSync(files[0]!), false);
      assertError('gameGetTeamTraffic', await monitor('GET', teamUrl(first!.participationId, `/${name}`)), 404);
      assertError('gameDeleteTeamTraffic', await monitor('DELETE', teamUrl(first!.participationId, `/${name}`)), 404);
      const left = assertOk(
        'gameGetTeamTrafficFiles',
        await monitor('GET', teamUrl(first!.participationId)),
      ) as FileRecord[];
      assert.equal(left.length, 2);

      const all = await monitor('DELETE', teamUrl(first!.participationId, '/all'));
      assert.equal(all.statusCode, 200, all.body);
      assert.deepEqual(assertOk('gameGetTeamTrafficFiles', await monitor('GET', teamUrl(first!.participationId))), []);
      const remaining = assertOk('gameGetChallengeTraffic', await monitor('GET', base())) as TeamTraffic[];
      assert.deepEqual(
        remaining.map((team) => team.id),
        [second!.participationId],
      );
      assert.equal((await monitor('DELETE', teamUrl(first!.participationId, '/all'))).statusCode, 200, 'idempotent');
      assertError('gameGetTeamTrafficZip', await monitor('GET', teamUrl(first!.participationId, '/all')), 404);

      const last = path.basename(saved.get(second!.participationId)![0]!);
      assert.equal((await monitor('DELETE', teamUrl(second!.participationId, `/${last}`))).statusCode, 200);
      assertError('gameGetChallengeTraffic', await monitor('GET', base()), 404);
      const challenges = assertOk(
        'gameGetChallengesWithTrafficCapturing',
        await monitor('GET', `/api/game/games/${gameId}/captures`),
      ) as ChallengeTraffic[];
      assert.equal(challenges.find((challenge) => challenge.id === captured)!.count, 0);
      assert.equal(fs.existsSync(path.join(ctx.env.dataDir, 'files', 'capture', String(captured))), false);

      // A new connection after the folders were pruned records again.
      assert.ok(await record(first!, [['client', 'again']]));
      const again = assertOk('gameGetChallengeTraffic', await monitor('GET', base())) as TeamTraffic[];
      assert.deepEqual(
        again.map((team) => [team.id, team.count]),
        [[first!.participationId, 1]],
      );
    });

    test("deleting a challenge, or its game, removes the challenge's captures and no others", async () => {
      const game = (await newGame(admin)).id;
      const alone = (await newChallenge(admin, game, { type: 'DynamicContainer' })).id;
      const withGame = (await newChallenge(admin, game, { type: 'DynamicContainer' })).id;
      const folder = (id: number) => path.join(ctx.env.dataDir, 'files', 'capture', String(id));
      for (const id of [alone, withGame]) {
        assert.ok(await record(teams[0]!, [['client', 'x']], id));
        assert.ok(fs.existsSync(folder(id)));
      }
      assert.equal((await admin('DELETE', `/api/edit/games/${game}/challenges/${alone}`)).statusCode, 200);
      await eventually(async () => !fs.existsSync(folder(alone)));
      assert.ok(fs.existsSync(folder(withGame)));
      assert.equal((await admin('DELETE', `/api/edit/games/${game}`)).statusCode, 200);
      await eventually(async () => !fs.existsSync(folder(withGame)));
      assert.ok(fs.existsSync(folder(captured)), "another game's captures stay");
    });
  });
}
