import assert from 'node:assert/strict';
import { test } from 'node:test';
import { credentialsFor, dockerConfigJson, registryOf } from '../../../server/src/modules/instances/registries';

test('an image’s registry is its first part when that is a host, else Docker Hub', () => {
  assert.equal(registryOf('nginx'), 'docker.io');
  assert.equal(registryOf('nginx:1.27'), 'docker.io');
  assert.equal(registryOf('ctfteam/pwn-1:latest'), 'docker.io');
  assert.equal(registryOf('docker.io/ctfteam/pwn-1'), 'docker.io');
  assert.equal(registryOf('index.docker.io/ctfteam/pwn-1'), 'docker.io');
  assert.equal(registryOf('Registry.Example.org/ctf/web:2'), 'registry.example.org');
  assert.equal(registryOf('127.0.0.1:5000/ctf/web'), '127.0.0.1:5000');
  assert.equal(registryOf('localhost/ctf/web'), 'localhost');
  assert.equal(registryOf('ghcr.io/org/image@sha256:' + 'a'.repeat(64)), 'ghcr.io');
});

test('credentials are those of the image’s registry only', () => {
  const registries = [
    { host: 'registry.example.org', userName: 'ctf', password: 'one' },
    { host: 'docker.io', userName: 'hub', password: 'two' },
  ];
  assert.equal(credentialsFor('registry.example.org/ctf/web:1', registries)?.password, 'one');
  assert.equal(credentialsFor('ctfteam/pwn', registries)?.password, 'two');
  assert.equal(credentialsFor('ghcr.io/org/image', registries), undefined);
  assert.equal(credentialsFor('registry.example.org:5000/ctf/web', registries), undefined);
});

test('the pull secret’s config names Docker Hub as kubelets look it up', () => {
  const config = JSON.parse(
    dockerConfigJson([
      { host: 'docker.io', userName: 'hub', password: 'p:w' },
      { host: 'registry.example.org', userName: 'ctf', password: 'x' },
    ]),
  ) as { auths: Record<string, { username: string; password: string; auth: string }> };
  assert.deepEqual(Object.keys(config.auths), ['https://index.docker.io/v1/', 'registry.example.org']);
  assert.equal(Buffer.from(config.auths['https://index.docker.io/v1/']!.auth, 'base64').toString(), 'hub:p:w');
});
