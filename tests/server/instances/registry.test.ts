import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { RegistryCredentials } from '../../../server/src/env';
import { ContainerEngineError } from '../../../server/src/modules/instances/backend';
import { createDockerBackend } from '../../../server/src/modules/instances/docker.backend';
import { docker, dockerUnavailable, removeTestContainers, TEST_IMAGE_CMD, testImageLayer } from '../../helpers/docker';
import { startTestRegistry, type TestRegistry } from '../../helpers/test-registry';
import { containerSpec, readAnswer, TEST_PORTS } from './support';

/**
 * Images on a private registry (CONTAINER_REGISTRIES): the Docker backend pulls a missing image
 * with the credentials of its registry, and without them the engine's refusal is an engine error.
 * The registry is the test's own (`test-registry.ts`), behind Basic auth; the engine is real.
 */
describe('images from a private registry on Docker', async () => {
  const unavailable = await dockerUnavailable();
  const it = (name: string, body: () => Promise<void>) => test(name, { skip: unavailable }, body);
  const platformId = randomUUID();
  const userName = 'ctf-puller';
  const password = `pw:${randomBytes(8).toString('hex')}`;
  let registry: TestRegistry;

  const backend = (registries: RegistryCredentials[]) =>
    createDockerBackend({
      platformId,
      publicEntry: '127.0.0.1',
      blockedCidrs: [],
      registries,
      log: { info: () => {}, warn: () => {} },
      settings: { host: 'unix:///var/run/docker.sock', certPath: undefined, publishProxyPorts: false },
      network: 'gzctf-test',
      firewall: false,
      portMapping: 'Default',
    });
  const specOf = (image: string) =>
    containerSpec({ image, port: TEST_PORTS.flag, env: { GZCTF_FLAG: 'flag{from the registry}' }, publish: true });
  const removeImage = () =>
    docker()
      .getImage(registry.image)
      .remove({ force: true })
      .catch(() => {});

  before(async () => {
    if (unavailable) return;
    registry = await startTestRegistry({
      userName,
      password,
      // A fresh name each run: the engine must pull it, never find it cached.
      repository: `ctf/pulled-${randomBytes(4).toString('hex')}`,
      tag: '1',
      layer: testImageLayer(),
      cmd: TEST_IMAGE_CMD,
    });
  });
  after(async () => {
    if (unavailable) return;
    await removeTestContainers(platformId);
    await removeImage();
    await registry.close();
  });

  it('without credentials for its registry the pull is refused, as an engine error', async () => {
    const refused = await backend([{ host: 'other.example.org', userName, password }])
      .create(specOf(registry.image))
      .then(
        () => assert.fail('the pull should have been refused'),
        (error: unknown) => error,
      );
    assert.ok(refused instanceof ContainerEngineError, String(refused));
    assert.match(
      refused.message,
      new RegExp(`could not create a container from ${registry.image.replace('.', '\\.')}`),
    );
    // The engine's own words (Docker 20–28: "no basic auth credentials").
    assert.match(refused.message, /credentials|unauthorized/i);
    assert.ok(registry.requests.length > 0, 'the engine asked the registry');
    // A refusal is final: one pull, not three.
    assert.equal(registry.requests.filter((request) => request.path === '/v2/').length, 1, 'the engine pulled once');
    assert.ok(
      registry.requests.every((request) => !request.authorized),
      'no request carried the credentials',
    );
  });

  it('a pull the registry fails for a moment is tried again', async () => {
    const flaky = await startTestRegistry({
      userName,
      password,
      repository: `ctf/flaky-${randomBytes(4).toString('hex')}`,
      tag: '1',
      layer: testImageLayer(),
      cmd: TEST_IMAGE_CMD,
      unavailableFirstPull: true,
    });
    const engine = backend([{ host: flaky.host, userName, password }]);
    try {
      const started = await engine.create(specOf(flaky.image));
      const statuses = flaky.requests.filter((request) => /\/manifests\//.test(request.path)).map((r) => r.status);
      assert.ok(statuses.includes(503), 'the first pull met a failing registry');
      assert.equal(statuses.at(-1), 200, 'the last pull fetched the manifest');
      assert.equal(flaky.requests.filter((request) => request.path === '/v2/').length, 2, 'the engine pulled twice');
      const inspected = await docker().getContainer(started.containerId).inspect();
      assert.equal(inspected.Config.Image, flaky.image);
      assert.equal(inspected.State.Running, true);
      await engine.destroy(started.containerId);
    } finally {
      await docker()
        .getImage(flaky.image)
        .remove({ force: true })
        .catch(() => {});
      await flaky.close();
    }
  });

  it('with them the image is pulled, and its container starts and serves', async () => {
    const engine = backend([{ host: registry.host, userName, password }]);
    await engine.init();
    const started = await engine.create(specOf(registry.image));
    assert.ok(
      registry.requests.some((request) => request.authorized && /\/manifests\/1$/.test(request.path)),
      'the manifest was fetched with the credentials',
    );
    const inspected = await docker().getContainer(started.containerId).inspect();
    assert.equal(inspected.Config.Image, registry.image);
    assert.ok(started.publicPort, 'the port is published');
    assert.equal((await readAnswer('127.0.0.1', started.publicPort)).trim(), 'flag{from the registry}');
    await engine.destroy(started.containerId);
    await engine.close();
  });
});
