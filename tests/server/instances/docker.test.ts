import assert from 'node:assert/strict';
import os from 'node:os';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { containers, gameEvents } from '../../../server/src/db/schema';
import { KEPT_CAPABILITIES } from '../../../server/src/modules/instances/backend';
import { docker, dockerUnavailable, ensureTestImage, execIn, removeTestContainers } from '../../helpers/docker';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { engines, lockWaiters } from '../helpers/database';
import { asUser } from '../helpers/users';
import {
  acceptedPlayer,
  assertError,
  assertOk,
  client,
  newChallenge,
  newGame,
  settle,
  statusOf,
  submit,
  type Client,
  type Player,
} from '../game/support';
import {
  clearThrottle,
  containerChallenge,
  containerEnv,
  containerRow,
  containersOfGame,
  eventually,
  platformId,
  readAnswer,
  readTcp,
  setExpectStop,
  TEST_PORTS,
  type ContainerInfo,
} from './support';

for (const engine of engines()) {
  describe(`containers on Docker (${engine.name})`, async () => {
    // Without an engine every test is reported as skipped, with the reason.
    const unavailable = await dockerUnavailable();
    const it = (name: string, body: () => Promise<void>) => test(name, { skip: unavailable }, body);
    let ctx: TestApp;
    let admin: Client;
    let image: string;

    before(async () => {
      if (unavailable) return;
      image = await ensureTestImage();
      ctx = await createTestApp(engine, {
        env: testEnv(containerEnv()),
        instances: { sweepIntervalMs: 200 },
      });
      admin = client(ctx.app, (await asUser(ctx.app, 'Admin')).cookie);
    });
    after(async () => {
      if (unavailable) return;
      const id = await platformId(ctx.app);
      await ctx.close();
      await removeTestContainers(id);
    });

    const start = async (player: Player, gameId: number, challengeId: number) =>
      assertOk(
        'gameCreateContainer',
        await player.api('POST', `/api/game/${gameId}/container/${challengeId}`),
      ) as ContainerInfo;
    const assertDone = (response: { statusCode: number; body: string }) =>
      assert.equal(response.statusCode, 200, response.body);
    const rowsOfGame = (gameId: number) => containersOfGame(ctx.app, gameId);
    const hostPort = (entry: string) => {
      const [host, port] = entry.split(':');
      return { host: host!, port: Number(port) };
    };

    it('a team starts its container, reads its flag from the entry, and the flag is accepted', async () => {
      const game = await newGame(admin);
      const challenge = await containerChallenge(admin, game.id, image);
      const player = await acceptedPlayer(ctx.app, game.id);
      const info = await start(player, game.id, challenge.id);
      assert.equal(info.status, 'Running');
      const { host, port } = hostPort(info.entry);
      assert.equal(host, '127.0.0.1');
      const flag = (await readAnswer(host, port)).trim();
      assert.match(flag, /^flag\{.+\}$/);

      // The challenge view shows the same entry and its stop time.
      const detail = assertOk(
        'gameGetChallenge',
        await player.api('GET', `/api/game/${game.id}/challenges/${challenge.id}`),
      ) as { context: { instanceEntry: string; closeTime: number } };
      assert.equal(detail.context.instanceEntry, info.entry);
      assert.equal(detail.context.closeTime, info.expectStopAt);

      const id = await submit(player, game.id, challenge.id, flag);
      await settle(ctx.app);
      assert.equal(await statusOf(player, game.id, challenge.id, id), 'Accepted');

      // A second start while it runs is refused.
      await clearThrottle(ctx.app);
      assertError(
        'gameCreateContainer',
        await player.api('POST', `/api/game/${game.id}/container/${challenge.id}`),
        400,
      );

      const events = await ctx.app.db.select().from(gameEvents).where(eq(gameEvents.gameId, game.id));
      assert.ok(events.some((event) => event.type === 'ContainerStart' && event.values[0] === String(challenge.id)));
    });

    it('the engine receives the safety settings, and the environment holds only the flag and the team id', async () => {
      const game = await newGame(admin);
      const challenge = await containerChallenge(admin, game.id, image);
      const player = await acceptedPlayer(ctx.app, game.id);
      const info = await start(player, game.id, challenge.id);
      const row = (await rowsOfGame(game.id))[0]!;
      const inspected = await docker().getContainer(row.containerId).inspect();
      const host = inspected.HostConfig;
      assert.equal(host.Privileged, false);
      assert.deepEqual(host.CapDrop, ['ALL']);
      assert.deepEqual([...(host.CapAdd ?? [])].sort(), [...KEPT_CAPABILITIES].sort());
      assert.ok(host.SecurityOpt?.includes('no-new-privileges:true'), String(host.SecurityOpt));
      assert.equal(host.PidsLimit, 256);
      assert.equal(host.Memory, 64 * 1024 * 1024);
      assert.equal(host.MemorySwap, 64 * 1024 * 1024);
      assert.equal(host.NanoCpus, 500_000_000);
      assert.equal(host.NetworkMode, 'gzctf-test');
      assert.deepEqual(host.Binds ?? [], []);
      assert.deepEqual(inspected.Mounts, []);
      assert.ok(!JSON.stringify(inspected).includes('docker.sock'));
      const platformEnv = (inspected.Config.Env ?? []).filter((entry) => !entry.startsWith('PATH='));
      assert.deepEqual(platformEnv.map((entry) => entry.split('=')[0]).sort(), ['GZCTF_FLAG', 'GZCTF_TEAM_ID']);
      assert.ok(platformEnv.includes(`GZCTF_TEAM_ID=${player.team.id}`));
      assert.equal(inspected.Config.Labels['gzctf/platform'], await platformId(ctx.app));
      assert.equal(inspected.Config.Labels['gzctf/team'], String(player.team.id));
      assert.equal(inspected.Config.Labels['gzctf/user'], player.user.id);
      assert.equal(inspected.Config.Labels['gzctf/challenge'], String(challenge.id));
      assert.ok(info.entry.startsWith('127.0.0.1:'));
    });

    it("the flag is the team's own and survives a re-created container; a static container gets none", async () => {
      const game = await newGame(admin);
      const dynamic = await containerChallenge(admin, game.id, image);
      const fixed = await containerChallenge(admin, game.id, image, { type: 'StaticContainer' });
      const [a, b] = [await acceptedPlayer(ctx.app, game.id), await acceptedPlayer(ctx.app, game.id)];
      const flagOf = async (player: Player, challengeId: number) => {
        const { host, port } = hostPort((await start(player, game.id, challengeId)).entry);
        return (await readAnswer(host, port)).trim();
      };
      const first = await flagOf(a, dynamic.id);
      assert.notEqual(first, await flagOf(b, dynamic.id));
      await clearThrottle(ctx.app);
      assertDone(await a.api('DELETE', `/api/game/${game.id}/container/${dynamic.id}`));
      await clearThrottle(ctx.app);
      assert.equal(await flagOf(a, dynamic.id), first);
      assert.equal(await flagOf(a, fixed.id), '');
    });

    it('renewal only inside the window, adding the extension; operations within 10 s answer 429', async () => {
      const game = await newGame(admin);
      const challenge = await containerChallenge(admin, game.id, image);
      const player = await acceptedPlayer(ctx.app, game.id);
      const info = await start(player, game.id, challenge.id);
      const extend = () => player.api('POST', `/api/game/${game.id}/container/${challenge.id}/extend`);
      assertError('gameExtendContainerLifetime', await extend(), 400);
      const row = (await rowsOfGame(game.id))[0]!;
      const soon = new Date(Date.now() + 5 * 60_000);
      await setExpectStop(ctx.app, row.id, soon);
      const extended = assertOk('gameExtendContainerLifetime', await extend()) as ContainerInfo;
      assert.equal(extended.expectStopAt, soon.getTime() + 120 * 60_000);
      assert.equal(extended.entry, info.entry);

      // Create and destroy share the per-instance throttle (reference §5.9).
      const tooSoon = await player.api('DELETE', `/api/game/${game.id}/container/${challenge.id}`);
      assertError('gameDeleteContainer', tooSoon, 429);
      await clearThrottle(ctx.app);
      assertDone(await player.api('DELETE', `/api/game/${game.id}/container/${challenge.id}`));
      assert.equal((await rowsOfGame(game.id)).length, 0);
      await assert.rejects(docker().getContainer(row.containerId).inspect(), /no such container/i);
      const events = await ctx.app.db.select().from(gameEvents).where(eq(gameEvents.gameId, game.id));
      assert.deepEqual(
        events.map((event) => event.type).filter((type) => type.startsWith('Container')),
        ['ContainerStart', 'ContainerDestroy'],
      );
    });

    // Two connections are needed: the test holds a delete open while the extension waits on it.
    if (engine.name === 'postgres') {
      it("an extension meeting a teammate's destroy answers 400, not a server error", async () => {
        const game = await newGame(admin);
        const challenge = await containerChallenge(admin, game.id, image);
        const player = await acceptedPlayer(ctx.app, game.id);
        await start(player, game.id, challenge.id);
        const row = (await rowsOfGame(game.id))[0]!;
        await setExpectStop(ctx.app, row.id, new Date(Date.now() + 5 * 60_000));
        // A destroy deletes the row after its instance lock is released: here the delete stays
        // uncommitted until the extension, which read the row, waits on it.
        let extension: ReturnType<Client> | undefined;
        await ctx.app.db.transaction(async (tx) => {
          await tx.delete(containers).where(eq(containers.id, row.id));
          extension = player.api('POST', `/api/game/${game.id}/container/${challenge.id}/extend`);
          await eventually(async () => (await lockWaiters(ctx.app.db)) > 0);
        });
        assertError('gameExtendContainerLifetime', await extension!, 400);
        await docker().getContainer(row.containerId).remove({ force: true });
      });
    }

    it('the team container limit refuses a start, or with the policy destroys the oldest', async () => {
      const game = await newGame(admin, { containerCountLimit: 1 });
      const [one, two] = [
        await containerChallenge(admin, game.id, image),
        await containerChallenge(admin, game.id, image),
      ];
      const player = await acceptedPlayer(ctx.app, game.id);
      await start(player, game.id, one.id);
      assertError('gameCreateContainer', await player.api('POST', `/api/game/${game.id}/container/${two.id}`), 400);

      await ctx.app.settings.update({ containerPolicy: { autoDestroyOnLimitReached: true } });
      try {
        const oldest = (await rowsOfGame(game.id))[0]!;
        await start(player, game.id, two.id);
        const rows = await rowsOfGame(game.id);
        assert.equal(rows.length, 1);
        assert.notEqual(rows[0]!.id, oldest.id);
        await assert.rejects(docker().getContainer(oldest.containerId).inspect(), /no such container/i);
      } finally {
        await ctx.app.settings.update({ containerPolicy: { autoDestroyOnLimitReached: false } });
      }
    });

    it('another team cannot destroy yours, and only admins reach the admin calls', async () => {
      const game = await newGame(admin);
      const challenge = await containerChallenge(admin, game.id, image);
      const [owner, other] = [await acceptedPlayer(ctx.app, game.id), await acceptedPlayer(ctx.app, game.id)];
      await start(owner, game.id, challenge.id);
      const row = (await rowsOfGame(game.id))[0]!;
      assertError(
        'gameDeleteContainer',
        await other.api('DELETE', `/api/game/${game.id}/container/${challenge.id}`),
        400,
      );
      assertError('adminDestroyInstance', await other.api('DELETE', `/api/admin/instances/${row.id}`), 403);
      assertError('adminInstances', await other.api('GET', '/api/admin/instances'), 403);
      assert.equal((await containerRow(ctx.app, row.id))?.status, 'Running');
      assert.equal((await docker().getContainer(row.containerId).inspect()).State.Running, true);
    });

    it('admins list (paged, filtered by team and challenge) and destroy containers', async () => {
      const game = await newGame(admin, { containerCountLimit: 0 });
      const [one, two] = [
        await containerChallenge(admin, game.id, image),
        await containerChallenge(admin, game.id, image),
      ];
      const [a, b] = [await acceptedPlayer(ctx.app, game.id), await acceptedPlayer(ctx.app, game.id)];
      await start(a, game.id, one.id);
      await start(a, game.id, two.id);
      await start(b, game.id, one.id);
      type Page = {
        data: Array<{ containerGuid: string; team: { id: number }; challenge: { id: number } }>;
        total: number;
      };
      const list = async (query: string) =>
        assertOk('adminInstances', await admin('GET', `/api/admin/instances${query}`)) as Page;
      const byTeam = await list(`?teamId=${a.team.id}`);
      assert.equal(byTeam.total, 2);
      assert.ok(byTeam.data.every((entry) => entry.team.id === a.team.id));
      const byChallenge = await list(`?challengeId=${one.id}`);
      assert.deepEqual(byChallenge.data.map((entry) => entry.team.id).sort(), [a.team.id, b.team.id].sort());
      const paged = await list(`?teamId=${a.team.id}&count=1&skip=1`);
      assert.equal(paged.data.length, 1);
      assert.equal(paged.total, 2);
      assert.notEqual(paged.data[0]!.containerGuid, byTeam.data[0]!.containerGuid);

      const victim = byChallenge.data.find((entry) => entry.team.id === b.team.id)!;
      const row = (await containerRow(ctx.app, victim.containerGuid))!;
      assertDone(await admin('DELETE', `/api/admin/instances/${victim.containerGuid}`));
      assert.equal(await containerRow(ctx.app, victim.containerGuid), undefined);
      await assert.rejects(docker().getContainer(row.containerId).inspect(), /no such container/i);
      assertError('adminDestroyInstance', await admin('DELETE', `/api/admin/instances/${victim.containerGuid}`), 404);
    });

    it('test containers: an admin starts one with the test flag, reads it, stops it', async () => {
      const game = await newGame(admin);
      const challenge = await containerChallenge(admin, game.id, image);
      const url = `/api/edit/games/${game.id}/challenges/${challenge.id}/container`;
      const info = assertOk('editCreateTestContainer', await admin('POST', url)) as ContainerInfo;
      const { host, port } = hostPort(info.entry);
      assert.equal((await readAnswer(host, port)).trim(), 'flag{GZCTF_dynamic_flag_test}');
      const detail = assertOk(
        'editGetGameChallenge',
        await admin('GET', `/api/edit/games/${game.id}/challenges/${challenge.id}`),
      ) as { testContainer: ContainerInfo | null };
      assert.equal(detail.testContainer?.entry, info.entry);
      assertDone(await admin('DELETE', url));
      assertDone(await admin('DELETE', url));
      const after = assertOk(
        'editGetGameChallenge',
        await admin('GET', `/api/edit/games/${game.id}/challenges/${challenge.id}`),
      ) as { testContainer: ContainerInfo | null };
      assert.equal(after.testContainer, null);
      await assert.rejects(readTcp(host, port, undefined, 2000));
    });

    it('expired containers are destroyed by the sweeper', async () => {
      const game = await newGame(admin);
      const challenge = await containerChallenge(admin, game.id, image);
      const player = await acceptedPlayer(ctx.app, game.id);
      await start(player, game.id, challenge.id);
      const row = (await rowsOfGame(game.id))[0]!;
      await setExpectStop(ctx.app, row.id, new Date(Date.now() - 1000));
      await eventually(async () => (await containerRow(ctx.app, row.id)) === undefined);
      await assert.rejects(docker().getContainer(row.containerId).inspect(), /no such container/i);
    });

    it('a missing image or a non-container challenge gets a clear 400 and leaves nothing behind', async () => {
      const game = await newGame(admin);
      const broken = await containerChallenge(admin, game.id, 'gzctf-test/no-such-image:1');
      const player = await acceptedPlayer(ctx.app, game.id);
      const failed = await player.api('POST', `/api/game/${game.id}/container/${broken.id}`);
      assertError('gameCreateContainer', failed, 400);
      assert.equal((await rowsOfGame(game.id)).length, 0);
      // The failed start does not hold the team back for ten seconds.
      assertError('gameCreateContainer', await player.api('POST', `/api/game/${game.id}/container/${broken.id}`), 400);
      const plain = await newChallenge(admin, game.id, { flags: ['flag{x}'] });
      assertError('gameCreateContainer', await player.api('POST', `/api/game/${game.id}/container/${plain.id}`), 400);
    });

    it("from inside an instance the platform, PostgreSQL, Redis and another team's instance do not answer", async () => {
      await ctx.app.listen({ host: '0.0.0.0', port: 0 });
      const address = ctx.app.server.address();
      const platformPort = typeof address === 'object' && address ? address.port : 0;
      const hostIp = Object.values(os.networkInterfaces())
        .flat()
        .find(
          (entry) => entry && entry.family === 'IPv4' && !entry.internal && !entry.address.startsWith('172.'),
        )?.address;
      assert.ok(hostIp, 'the host has an address of its own');
      // The platform does answer on that address, from the host.
      assert.equal((await fetch(`http://${hostIp}:${platformPort}/api/config`)).status, 200);

      const game = await newGame(admin);
      const challenge = await containerChallenge(admin, game.id, image, { port: TEST_PORTS.echo });
      const [a, b] = [await acceptedPlayer(ctx.app, game.id), await acceptedPlayer(ctx.app, game.id)];
      await start(a, game.id, challenge.id);
      await start(b, game.id, challenge.id);
      const [rowA, rowB] = await rowsOfGame(game.id);
      const inspected = await docker().getContainer(rowA!.containerId).inspect();
      const gateway = inspected.NetworkSettings.Networks['gzctf-test']!.Gateway;
      const targets = [
        ...[gateway, hostIp].flatMap((host) => [platformPort, 5432, 6379].map((port) => `${host}:${port}`)),
        `${rowB!.ip}:${TEST_PORTS.echo}`,
      ];
      // Every probe in parallel; each prints its target and how many bytes came back.
      const probe = (target: string) => {
        const [host, port] = target.split(':');
        return `(out=$(printf 'GET /api/config HTTP/1.0\\r\\n\\r\\n' | nc -w 2 ${host} ${port} 2>/dev/null); echo "${target}=\${#out}") &`;
      };
      const output = await execIn(
        rowA!.containerId,
        [
          `echo "self=$(echo hello | nc -w 2 127.0.0.1 ${TEST_PORTS.echo})"`,
          ...targets.map(probe),
          'wait',
          'ls /var/run/docker.sock 2>&1',
        ].join('\n'),
      );
      assert.match(output, /self=hello/, 'the probe tool works inside the container');
      for (const target of targets) assert.match(output, new RegExp(`${target.replace(/\./g, '\\.')}=0\\b`), output);
      assert.match(output, /No such file/);
    });

    it('a burst of starts beyond the start concurrency all succeed', async () => {
      const game = await newGame(admin);
      const challenge = await containerChallenge(admin, game.id, image);
      const players = await Promise.all(Array.from({ length: 12 }, () => acceptedPlayer(ctx.app, game.id)));
      const answers = await Promise.all(
        players.map((player) => player.api('POST', `/api/game/${game.id}/container/${challenge.id}`)),
      );
      for (const answer of answers) assertOk('gameCreateContainer', answer);
      assert.equal((await rowsOfGame(game.id)).length, 12);
    });

    it("destroying every container through the admin calls leaves none with this platform's label", async () => {
      const { data } = assertOk('adminInstances', await admin('GET', '/api/admin/instances')) as {
        data: Array<{ containerGuid: string }>;
      };
      assert.ok(data.length > 0);
      for (const entry of data) assertDone(await admin('DELETE', `/api/admin/instances/${entry.containerGuid}`));
      const left = await docker().listContainers({
        all: true,
        filters: { label: [`gzctf/platform=${await platformId(ctx.app)}`] },
      });
      assert.deepEqual(left, []);
    });
  });
}
