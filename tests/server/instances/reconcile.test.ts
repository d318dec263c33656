import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/src/app';
import type { DatabaseHandle } from '../../../server/src/db/client';
import { containers } from '../../../server/src/db/schema';
import type { Env } from '../../../server/src/env';
import { docker, dockerUnavailable, ensureTestImage, removeTestContainers } from '../../helpers/docker';
import { testEnv } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { acceptedPlayer, client, newGame } from '../game/support';
import {
  containerChallenge,
  containerEnv,
  containersOfGame,
  platformId,
  readAnswer,
  type ContainerInfo,
} from './support';

for (const engine of engines()) {
  describe(`a restart with running containers (${engine.name})`, async () => {
    const unavailable = await dockerUnavailable();
    let database: DatabaseHandle;
    let env: Env;
    let image: string;
    let foreign: string | undefined;

    before(async () => {
      if (unavailable) return;
      image = await ensureTestImage();
      database = await engine.open();
      env = testEnv(containerEnv());
    });
    after(async () => {
      if (unavailable) return;
      if (foreign) await docker().getContainer(foreign).remove({ force: true });
      await database.close();
      fs.rmSync(env.dataDir, { recursive: true, force: true });
    });

    const boot = async (): Promise<FastifyInstance> => {
      const app = await buildApp({ env, database, logger: false });
      await app.ready();
      return app;
    };

    test(
      'leaves database and engine consistent: dead rows closed, orphans removed, other platforms untouched',
      { skip: unavailable },
      async () => {
        const first = await boot();
        const admin = client(first, (await asUser(first, 'Admin')).cookie);
        const game = await newGame(admin);
        const challenge = await containerChallenge(admin, game.id, image);
        const players = [
          await acceptedPlayer(first, game.id),
          await acceptedPlayer(first, game.id),
          await acceptedPlayer(first, game.id),
        ];
        const infos: ContainerInfo[] = [];
        for (const player of players) {
          const response = await player.api('POST', `/api/game/${game.id}/container/${challenge.id}`);
          assert.equal(response.statusCode, 200, response.body);
          infos.push(response.json<ContainerInfo>());
        }
        const [kept, rowLost, containerLost] = await containersOfGame(first, game.id);
        const ours = await platformId(first);
        await first.close();

        // While the platform is down: a row disappears (its container is now an orphan), a container
        // dies (its row is now stale), and another platform on the same engine starts one of its own.
        await database.db.delete(containers).where(eq(containers.id, rowLost!.id));
        await docker().getContainer(containerLost!.containerId).remove({ force: true });
        const other = await docker().createContainer({
          Image: image,
          name: `gzctf-foreign-${randomUUID()}`,
          Labels: { 'gzctf/platform': randomUUID(), 'gzctf/container': randomUUID() },
        });
        foreign = other.id;
        await other.start();

        const second = await boot();
        try {
          const rows = await containersOfGame(second, game.id);
          assert.deepEqual(
            rows.map((row) => row.id),
            [kept!.id],
          );
          const labelled = await docker().listContainers({ all: true, filters: { label: [`gzctf/platform=${ours}`] } });
          assert.deepEqual(
            labelled.map((container) => container.Id),
            [kept!.containerId],
          );
          // The survivor still serves its team, and the other platform's container still runs.
          const [host, port] = infos[0]!.entry.split(':');
          assert.match((await readAnswer(host!, Number(port))).trim(), /^flag\{/);
          assert.equal((await other.inspect()).State.Running, true);

          // Destroying what is left leaves nothing with this platform's label on the engine.
          const adminAgain = client(second, (await asUser(second, 'Admin')).cookie);
          const destroyed = await adminAgain('DELETE', `/api/admin/instances/${kept!.id}`);
          assert.equal(destroyed.statusCode, 200, destroyed.body);
          assert.equal(await removeTestContainers(ours), 0);
        } finally {
          await second.close();
        }
      },
    );

    test(
      'leaves a container that is still starting (its row Pending) to its start, and removes it once the row goes',
      { skip: unavailable },
      async () => {
        const first = await boot();
        const ours = await platformId(first);
        await first.close();
        // A start in flight: the row is written first, then the engine creates the container and
        // only later runs it (Kubernetes: a pod pulling its image); reconciliation sees it between.
        const [row] = await database.db
          .insert(containers)
          .values({ image, containerId: '', expectStopAt: new Date(Date.now() + 3_600_000) })
          .returning();
        const starting = await docker().createContainer({
          Image: image,
          name: `gzctf-starting-${randomUUID()}`,
          Labels: { 'gzctf/platform': ours, 'gzctf/container': row!.id },
        });
        try {
          const second = await boot();
          await second.close();
          assert.equal((await starting.inspect()).State.Status, 'created');

          // Given up (the stale-start sweep deletes such rows): the next reconciliation removes it.
          await database.db.delete(containers).where(eq(containers.id, row!.id));
          const third = await boot();
          await third.close();
          await assert.rejects(starting.inspect(), /no such container/i);
        } finally {
          await starting.remove({ force: true }).catch(() => undefined);
        }
      },
    );
  });
}
