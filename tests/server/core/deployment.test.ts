import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import YAML from 'yaml';
import { ENV_KEYS, loadEnv } from '../../../server/src/env';

/**
 * No image can be pulled or built here, so the deployment files are checked for what can go wrong
 * without running them: every variable they set is one the server reads and parses, and ports,
 * probes, commands and file paths agree with the server and the repository.
 */
const ROOT = path.resolve(__dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const DEFAULTS = loadEnv({});

type Json = Record<string, unknown>;
const asObject = (value: unknown) => value as Json;

/** What `.env` would hold: compose's `${VAR:?}` (required) and `${VAR:-default}` filled in. */
const SAMPLE_DOTENV: Record<string, string> = {
  POSTGRES_PASSWORD: 'secret',
  PUBLIC_URL: 'https://ctf.example.org',
  XOR_KEY: 'a-long-random-xor-key',
  METRICS_TOKEN: 'a-long-random-metrics-token',
  CONTAINER_PUBLIC_ENTRY: 'ctf.example.org',
};
function interpolate(value: string): string {
  return value.replace(/\$\{([A-Z_]+)(?::?([-?])([^}]*))?\}/g, (_match, name: string, kind?: string, rest?: string) => {
    const given = SAMPLE_DOTENV[name];
    if (given !== undefined) return given;
    assert.notEqual(kind, '?', `${name} is required by compose.yaml but missing from the sample .env`);
    return kind === '-' ? (rest ?? '') : '';
  });
}

/** Checks names against env.ts and the values through its parser (a bad value fails the start). */
function assertServerAccepts(where: string, variables: Record<string, string>) {
  const unknown = Object.keys(variables).filter((name) => !ENV_KEYS.includes(name));
  assert.deepEqual(unknown, [], `${where} sets variables the server does not read`);
  assert.doesNotThrow(() => loadEnv(variables), `${where}: the server rejects these values`);
}

describe('compose.yaml', () => {
  const compose = YAML.parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Json> };
  const services = compose.services;
  const platforms = Object.entries(services).filter(([, service]) => service.image === 'gzctf-ts:latest');

  test('runs two platform instances of this repository’s image on PostgreSQL and Redis', () => {
    assert.deepEqual(
      platforms.map(([name]) => name),
      ['platform-1', 'platform-2'],
    );
    for (const [name, service] of platforms) {
      assert.equal(service.build, '.', `${name} is built from the Dockerfile here`);
      assert.deepEqual(Object.keys(asObject(service.depends_on)).sort(), ['postgres', 'redis'], name);
      const env = asObject(service.environment) as Record<string, string>;
      assert.match(interpolate(env.DATABASE_URL!), /^postgres:\/\/gzctf:secret@postgres:5432\/gzctf$/);
      assert.equal(env.REDIS_URL, 'redis://redis:6379');
      assert.ok(
        (service.volumes as string[]).includes('/var/run/docker.sock:/var/run/docker.sock'),
        `${name} reaches the Docker socket for challenge containers`,
      );
      assert.ok((service.volumes as string[]).includes('platform-data:/data'), 'both share DATA_DIR');
    }
    assert.ok(services.postgres && services.redis, 'PostgreSQL and Redis are part of the file');
  });

  test('every variable it sets is one env.ts knows, with values the server accepts', () => {
    for (const [name, service] of platforms) {
      const env = Object.fromEntries(
        Object.entries(asObject(service.environment)).map(([key, value]) => [key, interpolate(String(value))]),
      );
      assertServerAccepts(`compose.yaml ${name}`, env);
      // The image's own ENV (DATA_DIR, DIST_DIR, PORT…) is checked with the Dockerfile below.
      const parsed = loadEnv(env);
      assert.equal(parsed.cookieSecure, true);
      assert.ok(parsed.metrics.token, 'metrics are scraped with a token');
    }
    const example = read('deploy/example.env')
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => line.slice(0, line.indexOf('=')));
    const referenced = new Set([...read('compose.yaml').matchAll(/\$\{([A-Z_]+)/g)].map((match) => match[1]));
    assert.deepEqual(
      example.filter((name) => !referenced.has(name)),
      [],
      'deploy/example.env holds only what compose.yaml reads',
    );
  });

  test('the proxy forwards to both instances on the server’s port, checks /readyz and is the only trusted proxy', () => {
    const proxy = services.proxy!;
    const caddyfile = read('deploy/Caddyfile');
    assert.ok((proxy.volumes as string[]).includes('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro'));
    assert.match(caddyfile, new RegExp(`reverse_proxy platform-1:${DEFAULTS.port} platform-2:${DEFAULTS.port} `));
    assert.match(caddyfile, /health_uri \/readyz/);
    assert.match(caddyfile, /@metrics path \/metrics/);
    const proxyAddress = asObject(asObject(proxy.networks).platform).ipv4_address;
    for (const [, service] of platforms) {
      assert.equal(asObject(service.environment).TRUST_PROXY, proxyAddress);
    }
  });

  test('Docker waits longer than SHUTDOWN_TIMEOUT before killing an instance', () => {
    for (const [name, service] of platforms) {
      const timeout = Number(asObject(service.environment).SHUTDOWN_TIMEOUT);
      assert.ok(Number.parseInt(String(service.stop_grace_period), 10) > timeout, name);
    }
  });
});

describe('deploy/kubernetes', () => {
  const objects = fs
    .readdirSync(path.join(ROOT, 'deploy/kubernetes'))
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) =>
      YAML.parseAllDocuments(read(`deploy/kubernetes/${file}`)).map((document) => {
        assert.deepEqual(document.errors, [], file);
        return document.toJS() as Json;
      }),
    );
  const find = (kind: string) => objects.filter((object) => object.kind === kind);
  const [deployment] = find('Deployment');
  const [secret] = find('Secret');
  const [service] = find('Service');
  const pod = asObject(asObject(asObject(deployment).spec).template);
  const podSpec = asObject(pod.spec);
  const container = (podSpec.containers as Json[])[0]!;

  test('a Deployment of two replicas, a Service and a Secret', () => {
    assert.ok(deployment && secret && service && container);
    assert.equal(asObject(deployment.spec).replicas, 2);
    assert.deepEqual(asObject(service.spec).selector, asObject(pod.metadata).labels);
    const ports = container.ports as Array<{ name: string; containerPort: number }>;
    assert.deepEqual(ports, [{ name: 'http', containerPort: DEFAULTS.port }]);
    assert.equal((asObject(service.spec).ports as Json[])[0]!.targetPort, 'http');
    assert.equal(podSpec.serviceAccountName, asObject(find('ServiceAccount')[0]!.metadata).name);
  });

  test('readiness on /readyz, liveness on /healthz, and time to drain before the kill', () => {
    const probe = (name: string) => asObject(asObject(container[name]).httpGet);
    assert.deepEqual(probe('readinessProbe'), { path: '/readyz', port: 'http' });
    assert.deepEqual(probe('livenessProbe'), { path: '/healthz', port: 'http' });
    const env = Object.fromEntries(
      (container.env as Array<{ name: string; value: string }>).map((e) => [e.name, e.value]),
    );
    const preStop = asObject(asObject(asObject(container.lifecycle).preStop).exec).command as string[];
    assert.ok(
      Number(podSpec.terminationGracePeriodSeconds) > Number(env.SHUTDOWN_TIMEOUT) + Number(preStop[1]),
      'the grace period covers the preStop pause and SHUTDOWN_TIMEOUT',
    );
    assert.equal(asObject(podSpec.securityContext).runAsNonRoot, true);
  });

  test('every variable the Deployment and the Secret set is one env.ts knows, with values the server accepts', () => {
    const env = Object.fromEntries(
      (container.env as Array<{ name: string; value: string }>).map((e) => [e.name, e.value]),
    );
    const secretName = asObject(secret!.metadata).name;
    const refs = (container.envFrom as Array<{ secretRef: { name: string } }>).map((source) => source.secretRef.name);
    assert.deepEqual(refs, [secretName]);
    const template = asObject(secret!.stringData) as Record<string, string>;
    // Applied as shipped, its secrets would be known to all: the server refuses to start on them.
    for (const name of ['ADMIN_PASSWORD', 'METRICS_TOKEN', 'XOR_KEY']) {
      assert.throws(() => loadEnv({ ...template, ...env, [name]: template[name]! }), new RegExp(`${name}.*change-me`));
    }
    // With a secret of the organiser's own in each placeholder, it starts.
    const fromSecret = Object.fromEntries(
      Object.entries(template).map(([name, value]) => [
        name,
        name === 'DATABASE_URL' ? value : value.replace(/change-me[\w-]*/i, 'Organisers-0wn-secret-value'),
      ]),
    );
    assertServerAccepts('deploy/kubernetes', { ...fromSecret, ...env });
    assert.equal(loadEnv({ ...fromSecret, ...env }).containers.provider, 'Kubernetes');
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile').replace(/\\\n\s*/g, ' ');
  const lines = dockerfile.split('\n').filter((line) => line.trim() && !line.trim().startsWith('#'));
  const stages = lines.filter((line) => line.startsWith('FROM '));
  const runtime = lines.slice(lines.lastIndexOf(stages.at(-1)!));
  const instruction = (name: string) =>
    runtime.filter((line) => line.startsWith(`${name} `)).map((line) => line.slice(name.length + 1));

  test('is multi-stage and runs the server unprivileged', () => {
    assert.ok(stages.length >= 2);
    assert.deepEqual(instruction('USER'), ['node']);
  });

  test('its command starts the server entry that exists, on the server’s default port, probed on /healthz', () => {
    const [cmd] = instruction('CMD');
    const argv = JSON.parse(cmd!) as string[];
    assert.deepEqual(argv.slice(0, 3), ['node', '--import', 'tsx']);
    assert.ok(fs.existsSync(path.join(ROOT, argv[3]!)), `${argv[3]} exists`);
    assert.deepEqual(instruction('EXPOSE'), [String(DEFAULTS.port)]);
    const [healthcheck] = instruction('HEALTHCHECK');
    assert.ok(healthcheck!.includes(`http://127.0.0.1:${DEFAULTS.port}/healthz`), healthcheck);
  });

  test('its ENV sets only variables env.ts knows, and the port it exposes', () => {
    const env = Object.fromEntries(
      instruction('ENV')
        .join(' ')
        .trim()
        .split(/\s+/)
        .map((pair) => pair.split('=') as [string, string]),
    );
    assertServerAccepts('Dockerfile', env);
    assert.equal(env.PORT, String(DEFAULTS.port));
  });

  test('what the runtime stage copies from the repository exists and is not in .dockerignore', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    const sources = instruction('COPY')
      .filter((args) => !args.startsWith('--from'))
      .flatMap((args) => args.split(/\s+/).slice(0, -1));
    assert.ok(sources.length > 0);
    for (const source of sources) {
      assert.ok(fs.existsSync(path.join(ROOT, source)), `${source} exists`);
      assert.ok(!ignored.includes(source), `${source} is not ignored`);
    }
  });
});
